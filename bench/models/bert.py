"""BERT-base encoder as PyTorch exports it (torch_xla / torch.export to StableHLO), learned from
HuggingFace `BertModel` exports: input_ids and attention_mask as i64 arguments; word, position and
token-type embedding gathers summed and layer-normed; every nn.Linear as a transpose of its
[out, in] weight, a dot_general and a broadcast bias add; attention scores divided by sqrt(64)
plus the extended mask (1 - mask) * -3.4028e38 (torch.finfo(float32).min); softmax as
max / subtract / exp / sum / divide; erf GELU; layer norms as reduce chains (biased variance,
eps 1e-12); post-LN residuals. Every op has the module path as its location, as torch_xla
writes it. Weights are arguments, in the order of the module's state dict.
"""
import numpy as np

from common import Builder, normal, tensor

DESCRIPTION = "BERT-base encoder with embeddings, attention mask (PyTorch export form)"
SOURCE = "modeling_bert.py"
LINES = {"embeddings": 232, "query": 283, "key": 284, "value": 285, "scores": 306, "mask": 313,
         "softmax": 316, "context": 327, "attention.output.dense": 362, "attention.output.LayerNorm": 364,
         "intermediate.dense": 449, "intermediate.act": 450, "output.dense": 463, "output.LayerNorm": 465}

BASE = dict(layers=12, width=768, heads=12, mlp=3072, vocab=30522, positions=512, types=2)
MODELS = {
    # One short request (a query, a sentence to classify): the weights dominate.
    "bert_base_b1_s8": dict(BASE, batch=1, seq=8),
    "bert_base_b1_s128": dict(BASE, batch=1, seq=128),
    "bert_base_b8_s128": dict(BASE, batch=8, seq=128),
}
SMALL = {"bert_small": dict(layers=2, width=32, heads=4, mlp=64, vocab=50, positions=16, types=2,
                            batch=2, seq=5),
         "bert_small_encoder": dict(layers=2, width=32, heads=4, mlp=64, batch=2, seq=5, encoder_only=True)}

EPS = 1e-12
MASK_MIN = -3.4028234663852886e38


def layer_params(cfg):
    """(name, shape) of each layer's weights, in state-dict order."""
    w, m = cfg["width"], cfg["mlp"]
    return [("q_w", [w, w]), ("q_b", [w]), ("k_w", [w, w]), ("k_b", [w]), ("v_w", [w, w]), ("v_b", [w]),
            ("o_w", [w, w]), ("o_b", [w]), ("ln1_g", [w]), ("ln1_b", [w]),
            ("i_w", [m, w]), ("i_b", [m]), ("d_w", [w, m]), ("d_b", [w]), ("ln2_g", [w]), ("ln2_b", [w])]


def embedding_params(cfg):
    w = cfg["width"]
    return [("word", [cfg["vocab"], w]), ("position", [cfg["positions"], w]), ("token_type", [cfg["types"], w]),
            ("emb_ln_g", [w]), ("emb_ln_b", [w])]


def must_move_bytes(cfg):
    """Bytes a pass must read or write: every weight once, but of the embedding tables only the
    rows it gathers; the inputs and the output."""
    b, s, w = cfg["batch"], cfg["seq"], cfg["width"]
    n = sum(int(np.prod(shape)) for _, shape in layer_params(cfg)) * cfg["layers"]
    if cfg.get("encoder_only"):
        return 4 * n + 2 * 4 * b * s * w  # the embedded sequence in, the encoding out
    n += 2 * w + min(b * s, cfg["vocab"]) * w + s * w + w  # layer norm, word rows, positions, type 0
    return 4 * n + 8 * 2 * b * s + 4 * b * s * w


class Bert:
    def __init__(self, cfg):
        self.cfg = cfg
        self.b = Builder(SOURCE)

    def v(self, text, sig, scope, key):
        return self.b.op(text, sig, scope, LINES[key])

    def linear(self, x, weight, bias, rows, n_in, n_out, scope, key):
        t = tensor
        wt = self.v(f"stablehlo.transpose {weight}, dims = [1, 0]", f"({t([n_out, n_in])}) -> {t([n_in, n_out])}", scope, key)
        k = len(rows)
        y = self.v(f"stablehlo.dot_general {x}, {wt}, contracting_dims = [{k}] x [0]",
                   f"({t(rows + [n_in])}, {t([n_in, n_out])}) -> {t(rows + [n_out])}", scope, key)
        bb = self.v(f"stablehlo.broadcast_in_dim {bias}, dims = [{k}]", f"({t([n_out])}) -> {t(rows + [n_out])}", scope, key)
        return self.v(f"stablehlo.add {y}, {bb}", t(rows + [n_out]), scope, key)

    def layer_norm(self, x, gamma, beta, rows, scope, key):
        t, w = tensor, self.cfg["width"]
        full, red = t(rows + [w]), t(rows)
        zero = self.b.scalar(0.0)
        k = len(rows)
        keep = ", ".join(str(i) for i in range(k))
        s = self.v(f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across dimensions = [{k}]",
                   f"({full}, tensor<f32>) -> {red}", scope, key)
        n = self.v(f"stablehlo.broadcast_in_dim {self.b.scalar(float(w))}, dims = []", f"(tensor<f32>) -> {red}", scope, key)
        mean = self.v(f"stablehlo.divide {s}, {n}", red, scope, key)
        mean_b = self.v(f"stablehlo.broadcast_in_dim {mean}, dims = [{keep}]", f"({red}) -> {full}", scope, key)
        c = self.v(f"stablehlo.subtract {x}, {mean_b}", full, scope, key)
        sq = self.v(f"stablehlo.multiply {c}, {c}", full, scope, key)
        ss = self.v(f"stablehlo.reduce({sq} init: {zero}) applies stablehlo.add across dimensions = [{k}]",
                    f"({full}, tensor<f32>) -> {red}", scope, key)
        var = self.v(f"stablehlo.divide {ss}, {n}", red, scope, key)
        eps = self.v(f"stablehlo.broadcast_in_dim {self.b.scalar(EPS)}, dims = []", f"(tensor<f32>) -> {red}", scope, key)
        r = self.v(f"stablehlo.rsqrt {self.v(f'stablehlo.add {var}, {eps}', red, scope, key)}", red, scope, key)
        rb = self.v(f"stablehlo.broadcast_in_dim {r}, dims = [{keep}]", f"({red}) -> {full}", scope, key)
        nrm = self.v(f"stablehlo.multiply {c}, {rb}", full, scope, key)
        g = self.v(f"stablehlo.broadcast_in_dim {gamma}, dims = [{k}]", f"({t([w])}) -> {full}", scope, key)
        bt = self.v(f"stablehlo.broadcast_in_dim {beta}, dims = [{k}]", f"({t([w])}) -> {full}", scope, key)
        return self.v(f"stablehlo.add {self.v(f'stablehlo.multiply {nrm}, {g}', full, scope, key)}, {bt}", full, scope, key)

    def gather_rows(self, table, ids, table_shape, ids_shape, scope):
        """table[ids]: torch.nn.Embedding as the exporter writes it."""
        w = table_shape[1]
        out = ids_shape + [w]
        return self.v(
            f'"stablehlo.gather"({table}, {ids}) <{{dimension_numbers = #stablehlo.gather<offset_dims = '
            f'[{len(ids_shape)}], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = '
            f'{len(ids_shape)}>, indices_are_sorted = false, slice_sizes = array<i64: 1, {w}>}}>',
            f"({tensor(table_shape)}, {tensor(ids_shape, 'i64')}) -> {tensor(out)}", scope, "embeddings")

    def embeddings_and_mask(self, rows, full):
        """The inputs, the embeddings' sum and layer norm, and the extended mask."""
        c, t, b = self.cfg, tensor, self.b
        B, S, W = c["batch"], c["seq"], c["width"]
        ids = b.arg("input_ids", [B, S], "i64")
        mask = b.arg("attention_mask", [B, S], "i64")
        emb = {n: b.arg(f"embeddings_{n}", s) for n, s in embedding_params(c)}
        layers = [{n: b.arg(f"layer{i}_{n}", s) for n, s in layer_params(c)} for i in range(c["layers"])]
        es = "embeddings"
        words = self.gather_rows(emb["word"], ids, [c["vocab"], W], rows, es + ".word_embeddings")
        pos_ids = self.v("stablehlo.iota dim = 1", t(rows, "i64"), es, "embeddings")
        pos = self.gather_rows(emb["position"], pos_ids, [c["positions"], W], rows, es + ".position_embeddings")
        type_ids = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0, 'i64')}, dims = []", f"(tensor<i64>) -> {t(rows, 'i64')}",
                          es, "embeddings")
        types = self.gather_rows(emb["token_type"], type_ids, [c["types"], W], rows, es + ".token_type_embeddings")
        x = self.v(f"stablehlo.add {self.v(f'stablehlo.add {words}, {types}', full, es, 'embeddings')}, {pos}", full, es, "embeddings")
        x = self.layer_norm(x, emb["emb_ln_g"], emb["emb_ln_b"], rows, es + ".LayerNorm", "embeddings")
        # The extended mask, [B, 1, 1, S]: (1.0 - mask) * finfo.min.
        ms = "get_extended_attention_mask"
        mf = self.v(f"stablehlo.convert {mask}", f"({t(rows, 'i64')}) -> {t(rows)}", ms, "mask")
        one = self.v(f"stablehlo.broadcast_in_dim {b.scalar(1.0)}, dims = []", f"(tensor<f32>) -> {t(rows)}", ms, "mask")
        inv = self.v(f"stablehlo.subtract {one}, {mf}", t(rows), ms, "mask")
        mn = self.v(f"stablehlo.broadcast_in_dim {b.scalar(MASK_MIN)}, dims = []", f"(tensor<f32>) -> {t(rows)}", ms, "mask")
        ext = self.v(f"stablehlo.multiply {inv}, {mn}", t(rows), ms, "mask")
        return x, ext, layers

    def build(self):
        c, t, b = self.cfg, tensor, self.b
        B, S, W, H, M = c["batch"], c["seq"], c["width"], c["heads"], c["mlp"]
        D = W // H
        rows = [B, S]
        full = t(rows + [W])
        ext = None  # the extended attention mask, [B, S] (none for the bare encoder)
        if c.get("encoder_only"):
            # The encoder alone, from the embedded sequence (bench/gen_bert_encoder.py).
            x = b.arg("x", [B, S, W])
            layers = [{n: b.arg(f"layer{i}_{n}", s) for n, s in layer_params(c)} for i in range(c["layers"])]
        else:
            x, ext, layers = self.embeddings_and_mask(rows, full)
        heads = t([B, S, H, D])
        bhsd = t([B, H, S, D])
        scores_t = t([B, H, S, S])
        for i, p in enumerate(layers):
            m = f"encoder.layer.{i}"
            sa = f"{m}.attention.self"
            q = self.linear(x, p["q_w"], p["q_b"], rows, W, W, sa + ".query", "query")
            k = self.linear(x, p["k_w"], p["k_b"], rows, W, W, sa + ".key", "key")
            v = self.linear(x, p["v_w"], p["v_b"], rows, W, W, sa + ".value", "value")
            qh = self.v(f"stablehlo.reshape {q}", f"({full}) -> {heads}", sa, "scores")
            kh = self.v(f"stablehlo.reshape {k}", f"({full}) -> {heads}", sa, "scores")
            vh = self.v(f"stablehlo.reshape {v}", f"({full}) -> {heads}", sa, "context")
            qp = self.v(f"stablehlo.transpose {qh}, dims = [0, 2, 1, 3]", f"({heads}) -> {bhsd}", sa, "scores")
            kp = self.v(f"stablehlo.transpose {kh}, dims = [0, 2, 3, 1]", f"({heads}) -> {t([B, H, D, S])}", sa, "scores")
            sc = self.v(f"stablehlo.dot_general {qp}, {kp}, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]",
                        f"({bhsd}, {t([B, H, D, S])}) -> {scores_t}", sa, "scores")
            scale = self.v(f"stablehlo.broadcast_in_dim {b.scalar(float(np.sqrt(D)))}, dims = []",
                           f"(tensor<f32>) -> {scores_t}", sa, "scores")
            scs = self.v(f"stablehlo.divide {sc}, {scale}", scores_t, sa, "scores")
            scm = scs
            if ext is not None:
                mb = self.v(f"stablehlo.broadcast_in_dim {ext}, dims = [0, 3]", f"({t(rows)}) -> {scores_t}", sa, "mask")
                scm = self.v(f"stablehlo.add {scs}, {mb}", scores_t, sa, "mask")
            red = t([B, H, S])
            mx = self.v(f"stablehlo.reduce({scm} init: {b.scalar(-np.inf)}) applies stablehlo.maximum across dimensions = [3]",
                        f"({scores_t}, tensor<f32>) -> {red}", sa, "softmax")
            mxb = self.v(f"stablehlo.broadcast_in_dim {mx}, dims = [0, 1, 2]", f"({red}) -> {scores_t}", sa, "softmax")
            ex = self.v(f"stablehlo.exponential {self.v(f'stablehlo.subtract {scm}, {mxb}', scores_t, sa, 'softmax')}",
                        scores_t, sa, "softmax")
            sm = self.v(f"stablehlo.reduce({ex} init: {b.scalar(0.0)}) applies stablehlo.add across dimensions = [3]",
                        f"({scores_t}, tensor<f32>) -> {red}", sa, "softmax")
            smb = self.v(f"stablehlo.broadcast_in_dim {sm}, dims = [0, 1, 2]", f"({red}) -> {scores_t}", sa, "softmax")
            pr = self.v(f"stablehlo.divide {ex}, {smb}", scores_t, sa, "softmax")
            vp = self.v(f"stablehlo.transpose {vh}, dims = [0, 2, 1, 3]", f"({heads}) -> {bhsd}", sa, "context")
            ctx = self.v(f"stablehlo.dot_general {pr}, {vp}, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]",
                         f"({scores_t}, {bhsd}) -> {bhsd}", sa, "context")
            ct = self.v(f"stablehlo.transpose {ctx}, dims = [0, 2, 1, 3]", f"({bhsd}) -> {heads}", sa, "context")
            cf = self.v(f"stablehlo.reshape {ct}", f"({heads}) -> {full}", sa, "context")
            ao = self.linear(cf, p["o_w"], p["o_b"], rows, W, W, f"{m}.attention.output.dense", "attention.output.dense")
            r1 = self.v(f"stablehlo.add {ao}, {x}", full, f"{m}.attention.output", "attention.output.LayerNorm")
            x1 = self.layer_norm(r1, p["ln1_g"], p["ln1_b"], rows, f"{m}.attention.output.LayerNorm",
                                 "attention.output.LayerNorm")
            h = self.linear(x1, p["i_w"], p["i_b"], rows, W, M, f"{m}.intermediate.dense", "intermediate.dense")
            act = f"{m}.intermediate.intermediate_act_fn"
            hm = t(rows + [M])
            rs = self.v(f"stablehlo.broadcast_in_dim {b.scalar(float(1 / np.sqrt(2)))}, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.act")
            er = self.v(f"chlo.erf {self.v(f'stablehlo.multiply {h}, {rs}', hm, act, 'intermediate.act')}", f"{hm} -> {hm}", act, "intermediate.act")
            one_m = self.v(f"stablehlo.broadcast_in_dim {b.scalar(1.0)}, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.act")
            op1 = self.v(f"stablehlo.add {er}, {one_m}", hm, act, "intermediate.act")
            half = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0.5)}, dims = []", f"(tensor<f32>) -> {hm}", act, "intermediate.act")
            hh = self.v(f"stablehlo.multiply {h}, {half}", hm, act, "intermediate.act")
            g = self.v(f"stablehlo.multiply {hh}, {op1}", hm, act, "intermediate.act")
            d = self.linear(g, p["d_w"], p["d_b"], rows, M, W, f"{m}.output.dense", "output.dense")
            r2 = self.v(f"stablehlo.add {d}, {x1}", full, f"{m}.output", "output.LayerNorm")
            x = self.layer_norm(r2, p["ln2_g"], p["ln2_b"], rows, f"{m}.output.LayerNorm", "output.LayerNorm")
        inputs = ("the embedded sequence (no embeddings, no mask)" if c.get("encoder_only") else
                  f"embeddings of a vocabulary of {c['vocab']} and an attention mask")
        desc = (f"BERT-base-style encoder ({c['layers']} layers, width {W}, {H} heads, MLP {M}) from {inputs}, "
                f"batch {B}, sequence {S}, as PyTorch exports it (nn.Linear as transpose + dot_general + bias; "
                f"named locations per module); written by bench/models/bert.py. plugrt-bytes={must_move_bytes(c)}")
        return b.module("bert", desc, [(x, rows + [W], "f32")])


def program(cfg):
    return Bert(cfg).build()


def arguments(cfg, rng):
    B, S = cfg["batch"], cfg["seq"]
    if cfg.get("encoder_only"):
        out = [normal(rng, (B, S, cfg["width"]), 1.0)]
    else:
        out = embedding_arguments(cfg, rng)
    for _ in range(cfg["layers"]):
        for name, shape in layer_params(cfg):
            if name.endswith("_g"):
                out.append((1 + normal(rng, shape, 0.05)).astype(np.float32))
            else:
                out.append(normal(rng, shape, 0.02))
    return out


def embedding_arguments(cfg, rng):
    """input_ids, attention_mask and the embedding weights."""
    B, S = cfg["batch"], cfg["seq"]
    ids = rng.integers(0, cfg["vocab"], (B, S)).astype(np.int64)
    mask = np.ones((B, S), np.int64)
    mask[:, S - max(1, S // 4):] = 0  # padded tails, as a served batch has
    mask[0, :] = 1
    out = [ids, mask]
    for name, shape in embedding_params(cfg):
        out.append(np.ones(shape, np.float32) if name == "emb_ln_g" else
                   np.zeros(shape, np.float32) if name == "emb_ln_b" else normal(rng, shape, 0.02))
    return out


def _layer_norm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * g + b


def _erf(x):
    from math import erf
    return np.vectorize(erf)(x)


def reference(cfg, args):
    B, S, W, H = cfg["batch"], cfg["seq"], cfg["width"], cfg["heads"]
    D = W // H
    a = [np.asarray(x, np.float64) if x.dtype == np.float32 else x for x in args]
    if cfg.get("encoder_only"):
        x, ext, first = a[0], np.zeros((B, S)), 1
    else:
        ids, mask = a[0], a[1]
        ne = len(embedding_params(cfg))
        word, position, token_type, eg, eb = a[2:2 + ne]
        x = word[ids] + token_type[0] + position[:S][None]
        x = _layer_norm(x, eg, eb)
        ext = (1.0 - mask.astype(np.float64)) * MASK_MIN
        first = 2 + ne
    per = len(layer_params(cfg))
    for i in range(cfg["layers"]):
        p = dict(zip([n for n, _ in layer_params(cfg)], a[first + i * per: first + (i + 1) * per]))
        lin = lambda v, w, bias: v @ w.T + bias  # noqa: E731
        q = lin(x, p["q_w"], p["q_b"]).reshape(B, S, H, D).transpose(0, 2, 1, 3)
        k = lin(x, p["k_w"], p["k_b"]).reshape(B, S, H, D).transpose(0, 2, 1, 3)
        v = lin(x, p["v_w"], p["v_b"]).reshape(B, S, H, D).transpose(0, 2, 1, 3)
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D) + ext[:, None, None, :]
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(0, 2, 1, 3).reshape(B, S, W)
        x1 = _layer_norm(lin(ctx, p["o_w"], p["o_b"]) + x, p["ln1_g"], p["ln1_b"])
        h = lin(x1, p["i_w"], p["i_b"])
        h = 0.5 * h * (1 + _erf(h / np.sqrt(2)))
        x = _layer_norm(lin(h, p["d_w"], p["d_b"]) + x1, p["ln2_g"], p["ln2_b"])
    return [x]
