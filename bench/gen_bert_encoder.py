#!/usr/bin/env python3
"""Writes bench/bert_base_encoder.mlir: a BERT-base encoder (12 layers, width 768, 12 heads
of 64, MLP 3072, post-layer-norm, erf GELU), f32, batch 8, sequence 128, in the form
PyTorch's StableHLO exporters write it rather than hand-tuned StableHLO:

- each nn.Linear keeps PyTorch's [out, in] weight and becomes transpose + dot_general +
  broadcast_in_dim of the bias + add;
- GELU is 0.5 x (1 + erf(x / sqrt 2)) with chlo.erf;
- layer norms are reduce / divide / subtract / rsqrt chains over the width;
- every op carries a named location `loc("encoder.layer.N.<module>"("modeling_bert.py":L:0))`,
  the module path and the source line of the Python that made it.

The weights are the function's arguments (16 per layer), so `plugrt bench` feeds them
generated data, as a service feeds pre-placed weights. The embeddings are left out: the
input is the embedded sequence [8, 128, 768].

Usage: gen_bert_encoder.py [OUTPUT] [--layers N] [--batch B] [--seq S]
"""
import argparse
import os

WIDTH, HEADS, HEAD, MLP = 768, 12, 64, 3072
SOURCE = "modeling_bert.py"
# Source lines of the modules, as a reader of a real export would see them.
LINES = {"query": 212, "key": 213, "value": 214, "scores": 226, "softmax": 234, "context": 241,
         "attention.output.dense": 286, "attention.output.LayerNorm": 288,
         "intermediate.dense": 351, "intermediate.intermediate_act_fn": 352,
         "output.dense": 365, "output.LayerNorm": 367}


class Writer:
    def __init__(self):
        self.lines = []
        self.count = 0

    def value(self, text, type_, module, line_key):
        self.count += 1
        name = f"%v{self.count}"
        loc = f'loc("{module}"("{SOURCE}":{LINES[line_key]}:0))'
        self.lines.append(f"    {name} = {text} : {type_} {loc}")
        return name


def t(dims):
    return "tensor<" + "x".join(str(d) for d in dims) + "xf32>"


def linear(w, x, weight, bias, rows, n_in, n_out, module, key):
    wt = w.value(f"stablehlo.transpose {weight}, dims = [1, 0]", f"({t([n_out, n_in])}) -> {t([n_in, n_out])}", module, key)
    y = w.value(f"stablehlo.dot_general {x}, {wt}, contracting_dims = [2] x [0]",
                f"({t(rows + [n_in])}, {t([n_in, n_out])}) -> {t(rows + [n_out])}", module, key)
    b = w.value(f"stablehlo.broadcast_in_dim {bias}, dims = [2]", f"({t([n_out])}) -> {t(rows + [n_out])}", module, key)
    return w.value(f"stablehlo.add {y}, {b}", t(rows + [n_out]), module, key)


def layer_norm(w, x, gamma, beta, rows, module, key):
    full, red = t(rows + [WIDTH]), t(rows)
    s = w.value(f"stablehlo.reduce({x} init: %zero) applies stablehlo.add across dimensions = [2]",
                f"({full}, tensor<f32>) -> {red}", module, key)
    n = w.value(f"stablehlo.broadcast_in_dim %width, dims = []", f"(tensor<f32>) -> {red}", module, key)
    mean = w.value(f"stablehlo.divide {s}, {n}", red, module, key)
    mean_b = w.value(f"stablehlo.broadcast_in_dim {mean}, dims = [0, 1]", f"({red}) -> {full}", module, key)
    c = w.value(f"stablehlo.subtract {x}, {mean_b}", full, module, key)
    sq = w.value(f"stablehlo.multiply {c}, {c}", full, module, key)
    ss = w.value(f"stablehlo.reduce({sq} init: %zero) applies stablehlo.add across dimensions = [2]",
                 f"({full}, tensor<f32>) -> {red}", module, key)
    var = w.value(f"stablehlo.divide {ss}, {n}", red, module, key)
    eps = w.value(f"stablehlo.broadcast_in_dim %eps, dims = []", f"(tensor<f32>) -> {red}", module, key)
    ve = w.value(f"stablehlo.add {var}, {eps}", red, module, key)
    r = w.value(f"stablehlo.rsqrt {ve}", red, module, key)
    rb = w.value(f"stablehlo.broadcast_in_dim {r}, dims = [0, 1]", f"({red}) -> {full}", module, key)
    nrm = w.value(f"stablehlo.multiply {c}, {rb}", full, module, key)
    g = w.value(f"stablehlo.broadcast_in_dim {gamma}, dims = [2]", f"({t([WIDTH])}) -> {full}", module, key)
    bb = w.value(f"stablehlo.broadcast_in_dim {beta}, dims = [2]", f"({t([WIDTH])}) -> {full}", module, key)
    sc = w.value(f"stablehlo.multiply {nrm}, {g}", full, module, key)
    return w.value(f"stablehlo.add {sc}, {bb}", full, module, key)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output", nargs="?",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "bert_base_encoder.mlir"))
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=128)
    a = parser.parse_args()
    B, S, L = a.batch, a.seq, a.layers
    rows = [B, S]
    w = Writer()
    args = [f"%x: {t([B, S, WIDTH])}"]
    for i in range(L):
        p = f"%l{i}_"
        args += [f"{p}q_w: {t([WIDTH, WIDTH])}", f"{p}q_b: {t([WIDTH])}",
                 f"{p}k_w: {t([WIDTH, WIDTH])}", f"{p}k_b: {t([WIDTH])}",
                 f"{p}v_w: {t([WIDTH, WIDTH])}", f"{p}v_b: {t([WIDTH])}",
                 f"{p}o_w: {t([WIDTH, WIDTH])}", f"{p}o_b: {t([WIDTH])}",
                 f"{p}ln1_g: {t([WIDTH])}", f"{p}ln1_b: {t([WIDTH])}",
                 f"{p}i_w: {t([MLP, WIDTH])}", f"{p}i_b: {t([MLP])}",
                 f"{p}d_w: {t([WIDTH, MLP])}", f"{p}d_b: {t([WIDTH])}",
                 f"{p}ln2_g: {t([WIDTH])}", f"{p}ln2_b: {t([WIDTH])}"]
    x = "%x"
    full = t(rows + [WIDTH])
    heads = t([B, S, HEADS, HEAD])
    scores_t = t([B, HEADS, S, S])
    for i in range(L):
        p = f"%l{i}_"
        m = f"encoder.layer.{i}"
        sa = f"{m}.attention.self"
        q = linear(w, x, p + "q_w", p + "q_b", rows, WIDTH, WIDTH, sa + ".query", "query")
        k = linear(w, x, p + "k_w", p + "k_b", rows, WIDTH, WIDTH, sa + ".key", "key")
        v = linear(w, x, p + "v_w", p + "v_b", rows, WIDTH, WIDTH, sa + ".value", "value")
        qh = w.value(f"stablehlo.reshape {q}", f"({full}) -> {heads}", sa, "scores")
        kh = w.value(f"stablehlo.reshape {k}", f"({full}) -> {heads}", sa, "scores")
        vh = w.value(f"stablehlo.reshape {v}", f"({full}) -> {heads}", sa, "context")
        # PyTorch permutes to [B, H, S, D] and matmuls; the exporter writes the transposes.
        qp = w.value(f"stablehlo.transpose {qh}, dims = [0, 2, 1, 3]", f"({heads}) -> {t([B, HEADS, S, HEAD])}", sa, "scores")
        kp = w.value(f"stablehlo.transpose {kh}, dims = [0, 2, 3, 1]", f"({heads}) -> {t([B, HEADS, HEAD, S])}", sa, "scores")
        sc = w.value(f"stablehlo.dot_general {qp}, {kp}, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]",
                     f"({t([B, HEADS, S, HEAD])}, {t([B, HEADS, HEAD, S])}) -> {scores_t}", sa, "scores")
        scale = w.value("stablehlo.broadcast_in_dim %scale, dims = []", f"(tensor<f32>) -> {scores_t}", sa, "scores")
        scs = w.value(f"stablehlo.divide {sc}, {scale}", scores_t, sa, "scores")
        mx = w.value(f"stablehlo.reduce({scs} init: %neg_inf) applies stablehlo.maximum across dimensions = [3]",
                     f"({scores_t}, tensor<f32>) -> {t([B, HEADS, S])}", sa, "softmax")
        mxb = w.value(f"stablehlo.broadcast_in_dim {mx}, dims = [0, 1, 2]", f"({t([B, HEADS, S])}) -> {scores_t}", sa, "softmax")
        sh = w.value(f"stablehlo.subtract {scs}, {mxb}", scores_t, sa, "softmax")
        ex = w.value(f"stablehlo.exponential {sh}", scores_t, sa, "softmax")
        sm = w.value(f"stablehlo.reduce({ex} init: %zero) applies stablehlo.add across dimensions = [3]",
                     f"({scores_t}, tensor<f32>) -> {t([B, HEADS, S])}", sa, "softmax")
        smb = w.value(f"stablehlo.broadcast_in_dim {sm}, dims = [0, 1, 2]", f"({t([B, HEADS, S])}) -> {scores_t}", sa, "softmax")
        pr = w.value(f"stablehlo.divide {ex}, {smb}", scores_t, sa, "softmax")
        vp = w.value(f"stablehlo.transpose {vh}, dims = [0, 2, 1, 3]", f"({heads}) -> {t([B, HEADS, S, HEAD])}", sa, "context")
        ctx = w.value(f"stablehlo.dot_general {pr}, {vp}, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]",
                      f"({scores_t}, {t([B, HEADS, S, HEAD])}) -> {t([B, HEADS, S, HEAD])}", sa, "context")
        ct = w.value(f"stablehlo.transpose {ctx}, dims = [0, 2, 1, 3]", f"({t([B, HEADS, S, HEAD])}) -> {heads}", sa, "context")
        cf = w.value(f"stablehlo.reshape {ct}", f"({heads}) -> {full}", sa, "context")
        ao = linear(w, cf, p + "o_w", p + "o_b", rows, WIDTH, WIDTH, f"{m}.attention.output.dense",
                    "attention.output.dense")
        r1 = w.value(f"stablehlo.add {ao}, {x}", full, f"{m}.attention.output", "attention.output.LayerNorm")
        x1 = layer_norm(w, r1, p + "ln1_g", p + "ln1_b", rows, f"{m}.attention.output.LayerNorm",
                        "attention.output.LayerNorm")
        h = linear(w, x1, p + "i_w", p + "i_b", rows, WIDTH, MLP, f"{m}.intermediate.dense", "intermediate.dense")
        act = f"{m}.intermediate.intermediate_act_fn"
        hm = t(rows + [MLP])
        rs = w.value("stablehlo.broadcast_in_dim %rsqrt2, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.intermediate_act_fn")
        hs = w.value(f"stablehlo.multiply {h}, {rs}", hm, act, "intermediate.intermediate_act_fn")
        er = w.value(f"chlo.erf {hs}", f"{hm} -> {hm}", act, "intermediate.intermediate_act_fn")
        one = w.value("stablehlo.broadcast_in_dim %one, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.intermediate_act_fn")
        op = w.value(f"stablehlo.add {er}, {one}", hm, act, "intermediate.intermediate_act_fn")
        half = w.value("stablehlo.broadcast_in_dim %half, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.intermediate_act_fn")
        hh = w.value(f"stablehlo.multiply {h}, {half}", hm, act, "intermediate.intermediate_act_fn")
        g = w.value(f"stablehlo.multiply {hh}, {op}", hm, act, "intermediate.intermediate_act_fn")
        d = linear(w, g, p + "d_w", p + "d_b", rows, MLP, WIDTH, f"{m}.output.dense", "output.dense")
        r2 = w.value(f"stablehlo.add {d}, {x1}", full, f"{m}.output", "output.LayerNorm")
        x = layer_norm(w, r2, p + "ln2_g", p + "ln2_b", rows, f"{m}.output.LayerNorm", "output.LayerNorm")

    header = [
        "// plugrt-bench: kind=execute metric=flops ceiling=sgemm",
        f"// A BERT-base encoder ({L} layers, width 768, 12 heads, MLP 3072, post-LN, erf GELU), f32, batch {B}, "
        f"sequence {S}, written as PyTorch's exporters write it (nn.Linear as transpose + dot_general + bias; "
        "named locations per module); weights are arguments. Generated by bench/gen_bert_encoder.py.",
        "module @bert_base_encoder {",
        "  func.func public @main(" + ",\n      ".join(args) + f") -> {full} {{",
        "    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>",
        "    %neg_inf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        f"    %width = stablehlo.constant dense<{float(WIDTH):e}> : tensor<f32>",
        "    %eps = stablehlo.constant dense<9.99999996E-13> : tensor<f32>",
        "    %scale = stablehlo.constant dense<8.000000e+00> : tensor<f32>",
        "    %rsqrt2 = stablehlo.constant dense<0.707106769> : tensor<f32>",
        "    %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>",
        "    %half = stablehlo.constant dense<5.000000e-01> : tensor<f32>",
    ]
    text = "\n".join(header + w.lines + [f"    return {x} : {full}", "  }", "}", ""])
    with open(a.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
