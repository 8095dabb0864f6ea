"""2-layer LSTM language model forward as JAX exports it (jax.export of a Flax linen model's
`apply`): Embed -> RNN(LSTM cell) -> RNN(LSTM cell) -> Dense(vocab), batch-major [B, T].

Forms, as jax.export writes them (learned from jax-ml/jax export_back_compat_test_data, e.g.
cpu_lu_lapack_getrf.py, whose lu_pivots_to_permutation is a lax.scan lowered to stablehlo.while):
  * Embed_0: flax's jnp.take(embedding, ids, axis=0), mode "fill": the negative-index wrap
    (compare LT 0 / add vocab / select), ids[..., None] as broadcast_in_dim, the FILL_OR_DROP
    gather lowered as a plain gather plus an in-bounds mask (GE 0, LE vocab-1, and, reduce and
    over the index vector) selecting between the rows and NaN.
  * RNN_0, RNN_1: nn.RNN is a lifted lax.scan over time; time_major=False, so jnp.moveaxis
    (transpose [1, 0, 2]) before and after each scan. lax.scan lowers to ONE stablehlo.while PER
    LAYER (each nn.RNN is its own scan; the layers are not fused into one loop). The while
    carries, in the order JAX's while lowering gives them: the body's closed-over constants
    first (the time-major inputs xs, then the cell's weights in first-use order: ih kernel,
    hh kernel, hh bias; passed through unchanged), then the scan's i32 counter, the cell carry
    (c, h) and the stacked-outputs buffer ys [T, B, H] (zeros). cond: compare LT counter, T.
    body: x_t = dynamic_slice(xs, i, 0, 0) + reshape; gates = x_t @ W_ih (Dense, no bias)
    + (h @ W_hh + reshape(b, [1, 4H]) broadcast) (Dense), dot_generals with precision =
    [DEFAULT, DEFAULT]; jnp.split into i, f, g, o as stablehlo.slice; jax.nn.sigmoid as
    stablehlo.logistic, tanh; c' = f*c + i*g, h' = o*tanh(c'); ys = dynamic_update_slice(ys,
    broadcast_in_dim(h'), i, 0, 0); i + 1.
  * Dense_0: dot_general [B, T, H] x [H, V] contracting [2] x [0], + reshape(bias, [1, 1, V]).
  The cell is the fused-kernel LSTM cell (kernels [in, 4*hidden], gate order i, f, g, o).

@main's arguments, in jax.export's order (the flattened {'params': ...} tree, keys sorted, then
the token ids), as %arg0 ... %arg9:
  0 Dense_0/bias [V]             1 Dense_0/kernel [H, V]        2 Embed_0/embedding [V, E]
  3 RNN_0/cell/hh/bias [4H]      4 RNN_0/cell/hh/kernel [H, 4H] 5 RNN_0/cell/ih/kernel [E, 4H]
  6 RNN_1/cell/hh/bias [4H]      7 RNN_1/cell/hh/kernel [H, 4H] 8 RNN_1/cell/ih/kernel [H, 4H]
  9 token ids i32 [B, T]
Result: logits f32 [B, T, V].
"""
import numpy as np

from common import Builder, normal, tensor

DESCRIPTION = "2-layer LSTM language model, one stablehlo.while per layer (JAX/Flax lax.scan export)"
SOURCE = "lstm_lm.py"
ROOT = "jit(apply)/jit(main)"
LINES = {"embed": 41, "rnn": 47, "cell": 29, "dense": 52}

BASE = dict(layers=2, vocab=10000, embed=512, hidden=1024, seq=64)
MODELS = {
    "lstm_lm_b1_t64": dict(BASE, batch=1),
    "lstm_lm_b32_t64": dict(BASE, batch=32),
}
SMALL = {"lstm_small": dict(layers=2, vocab=20, embed=8, hidden=8, seq=5, batch=2)}

# Logits are O(0.1): a tighter absolute tolerance than the default keeps the check meaningful
# (float32 errors here are ~1e-6).
TOLERANCE = (1e-3, 1e-4)



def ids_index(cfg):
    """Position of the token ids among @main's arguments (after the weights)."""
    return len(param_specs(cfg))


def param_specs(cfg):
    """(flax path, shape) of the weights, in @main's order (sorted flattened params)."""
    V, E, H = cfg["vocab"], cfg["embed"], cfg["hidden"]
    out = [("Dense_0/bias", [V]), ("Dense_0/kernel", [H, V]), ("Embed_0/embedding", [V, E])]
    for layer in range(cfg["layers"]):
        n_in = E if layer == 0 else H
        out += [(f"RNN_{layer}/cell/hh/bias", [4 * H]), (f"RNN_{layer}/cell/hh/kernel", [H, 4 * H]),
                (f"RNN_{layer}/cell/ih/kernel", [n_in, 4 * H])]
    return out


def must_move_bytes(cfg):
    """Every weight once (of the embedding table only the gathered rows), the ids, the logits."""
    B, T, V, E = cfg["batch"], cfg["seq"], cfg["vocab"], cfg["embed"]
    n = sum(int(np.prod(s)) for name, s in param_specs(cfg) if name != "Embed_0/embedding")
    n += min(B * T, V) * E
    return 4 * n + 4 * B * T + 4 * B * T * V


class Lstm:
    def __init__(self, cfg):
        self.cfg = cfg
        self.b = Builder(SOURCE)
        self.iter_count = 0

    def v(self, text, sig, scope, key, indent=0):
        name = self.b.op(text, sig, f"{ROOT}/{scope}", LINES[key])
        if indent:
            self.b.lines[-1] = " " * indent + self.b.lines[-1]
        return name

    def const(self, literal, dtype, scope, key, indent, shape=()):
        """A constant inside a region (JAX writes them where the body uses them)."""
        return self.v(f"stablehlo.constant dense<{literal}>", tensor(list(shape), dtype), scope, key, indent)

    def loc(self, scope, key):
        return f'loc("{ROOT}/{scope}"("{SOURCE}":{LINES[key]}:0))'

    def embed(self, table, ids):
        c, t, b = self.cfg, tensor, self.b
        B, T, V, E = c["batch"], c["seq"], c["vocab"], c["embed"]
        s = "Embed_0"
        idt, id3 = t([B, T], "i32"), t([B, T, 1], "i32")
        zero = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0, 'i32')}, dims = []", f"(tensor<i32>) -> {idt}", s + "/lt", "embed")
        neg = self.v(f"stablehlo.compare  LT, {ids}, {zero},  SIGNED", f"({idt}, {idt}) -> {t([B, T], 'i1')}", s + "/lt", "embed")
        vb = self.v(f"stablehlo.broadcast_in_dim {b.scalar(V, 'i32')}, dims = []", f"(tensor<i32>) -> {idt}", s + "/add", "embed")
        wrapped = self.v(f"stablehlo.add {ids}, {vb}", idt, s + "/add", "embed")
        sel = self.v(f"stablehlo.select {neg}, {wrapped}, {ids}", f"{t([B, T], 'i1')}, {idt}", s + "/select_n", "embed")
        idx = self.v(f"stablehlo.broadcast_in_dim {sel}, dims = [0, 1]", f"({idt}) -> {id3}", s + "/broadcast_in_dim", "embed")
        # The FILL_OR_DROP gather: in-bounds mask, plain gather, select against NaN.
        gs = s + "/gather"
        m3 = t([B, T, 1], "i1")
        z3 = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0, 'i32')}, dims = []", f"(tensor<i32>) -> {id3}", gs, "embed")
        ge = self.v(f"stablehlo.compare  GE, {idx}, {z3},  SIGNED", f"({id3}, {id3}) -> {m3}", gs, "embed")
        ub = self.v(f"stablehlo.constant dense<{V - 1}>", t([1, 1, 1], "i32"), gs, "embed")
        ubb = self.v(f"stablehlo.broadcast_in_dim {ub}, dims = [0, 1, 2]", f"({t([1, 1, 1], 'i32')}) -> {id3}", gs, "embed")
        le = self.v(f"stablehlo.compare  LE, {idx}, {ubb},  SIGNED", f"({id3}, {id3}) -> {m3}", gs, "embed")
        both = self.v(f"stablehlo.and {ge}, {le}", m3, gs, "embed")
        mask = self.v(f"stablehlo.reduce({both} init: {b.scalar(True, 'i1')}) applies stablehlo.and across dimensions = [2]",
                      f"({m3}, tensor<i1>) -> {t([B, T], 'i1')}", gs, "embed")
        rows = self.v(
            f'"stablehlo.gather"({table}, {idx}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], '
            f'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, {E}>}}>',
            f"({t([V, E])}, {id3}) -> {t([B, T, E])}", gs, "embed")
        mb = self.v(f"stablehlo.broadcast_in_dim {mask}, dims = [0, 1]", f"({t([B, T], 'i1')}) -> {t([B, T, E], 'i1')}", gs, "embed")
        nan_c = self.v("stablehlo.constant dense<0x7FC00000>", "tensor<f32>", gs, "embed")
        nan = self.v(f"stablehlo.broadcast_in_dim {nan_c}, dims = []", f"(tensor<f32>) -> {t([B, T, E])}", gs, "embed")
        return self.v(f"stablehlo.select {mb}, {rows}, {nan}", f"{t([B, T, E], 'i1')}, {t([B, T, E])}", gs, "embed")

    def iter_args(self, n):
        """Region argument names as MLIR's printer gives them: %iterArg again in each loop (the
        previous loop's scope is closed), suffixes from one running counter."""
        names = ["%iterArg"] + [f"%iterArg_{self.iter_count + k}" for k in range(n - 1)]
        self.iter_count += n - 1
        return names

    def rnn(self, layer, x, n_in, weights):
        """One nn.RNN layer: moveaxis, the scan's while loop, moveaxis back. x: [B, T, n_in]."""
        c, t, b = self.cfg, tensor, self.b
        B, T, H = c["batch"], c["seq"], c["hidden"]
        G = 4 * H
        s = f"RNN_{layer}"
        bias, k_hh, k_ih = weights
        carry_t, xs_t, ys_t = t([B, H]), t([T, B, n_in]), t([T, B, H])
        c0 = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0.0)}, dims = []", f"(tensor<f32>) -> {carry_t}", s + "/broadcast_in_dim", "rnn")
        h0 = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0.0)}, dims = []", f"(tensor<f32>) -> {carry_t}", s + "/broadcast_in_dim", "rnn")
        xs = self.v(f"stablehlo.transpose {x}, dims = [1, 0, 2]", f"({t([B, T, n_in])}) -> {xs_t}", s + "/transpose", "rnn")
        ys0 = self.v(f"stablehlo.broadcast_in_dim {b.scalar(0.0)}, dims = []", f"(tensor<f32>) -> {ys_t}", s + "/scan", "rnn")
        i0 = b.scalar(0, "i32")
        # Carried: body constants (xs, ih kernel, hh kernel, hh bias), then i, c, h, ys.
        inits = [xs, k_ih, k_hh, bias, i0, c0, h0, ys0]
        types = [xs_t, t([n_in, G]), t([H, G]), t([G]), "tensor<i32>", carry_t, carry_t, ys_t]
        its = self.iter_args(len(inits))
        ax, a_ih, a_hh, a_b, ai, ac, ah, ays = its
        b.count += 1
        loop = f"%v{b.count}"
        head = ", ".join(f"{n} = {v}" for n, v in zip(its, inits))
        b.raw(f"    {loop}:{len(its)} = stablehlo.while({head}) : {', '.join(types)}")
        b.raw("     cond {")
        ws = s + "/while"
        cs = ws + "/cond"
        n_t = self.const(T, "i32", cs, "rnn", 2)
        lt = self.v(f"stablehlo.compare  LT, {ai}, {n_t},  SIGNED", "(tensor<i32>, tensor<i32>) -> tensor<i1>", cs + "/lt", "rnn", 2)
        b.raw(f"      stablehlo.return {lt} : tensor<i1> {self.loc(ws, 'rnn')}")
        b.raw("    } do {")
        bs = ws + "/body"
        cell = bs + "/cell"
        z = self.const(0, "i32", bs, "rnn", 2)
        xt1 = self.v(f"stablehlo.dynamic_slice {ax}, {ai}, {z}, {z}, sizes = [1, {B}, {n_in}]",
                     f"({xs_t}, tensor<i32>, tensor<i32>, tensor<i32>) -> {t([1, B, n_in])}", bs + "/dynamic_slice", "rnn", 2)
        xt = self.v(f"stablehlo.reshape {xt1}", f"({t([1, B, n_in])}) -> {t([B, n_in])}", bs + "/squeeze", "rnn", 2)
        g_t = t([B, G])
        gi = self.v(f"stablehlo.dot_general {xt}, {a_ih}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]",
                    f"({t([B, n_in])}, {t([n_in, G])}) -> {g_t}", cell + "/ih/dot_general", "cell", 2)
        gh = self.v(f"stablehlo.dot_general {ah}, {a_hh}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]",
                    f"({carry_t}, {t([H, G])}) -> {g_t}", cell + "/hh/dot_general", "cell", 2)
        br = self.v(f"stablehlo.reshape {a_b}", f"({t([G])}) -> {t([1, G])}", cell + "/hh/reshape", "cell", 2)
        bb = self.v(f"stablehlo.broadcast_in_dim {br}, dims = [0, 1]", f"({t([1, G])}) -> {g_t}", cell + "/hh/add", "cell", 2)
        ghb = self.v(f"stablehlo.add {gh}, {bb}", g_t, cell + "/hh/add", "cell", 2)
        gates = self.v(f"stablehlo.add {gi}, {ghb}", g_t, cell + "/add", "cell", 2)
        parts = [self.v(f"stablehlo.slice {gates} [0:{B}, {k * H}:{(k + 1) * H}]", f"({g_t}) -> {carry_t}",
                        cell + "/split", "cell", 2) for k in range(4)]
        i_g = self.v(f"stablehlo.logistic {parts[0]}", carry_t, cell + "/logistic", "cell", 2)
        f_g = self.v(f"stablehlo.logistic {parts[1]}", carry_t, cell + "/logistic", "cell", 2)
        g_g = self.v(f"stablehlo.tanh {parts[2]}", carry_t, cell + "/tanh", "cell", 2)
        o_g = self.v(f"stablehlo.logistic {parts[3]}", carry_t, cell + "/logistic", "cell", 2)
        fc = self.v(f"stablehlo.multiply {f_g}, {ac}", carry_t, cell + "/mul", "cell", 2)
        ig = self.v(f"stablehlo.multiply {i_g}, {g_g}", carry_t, cell + "/mul", "cell", 2)
        c1 = self.v(f"stablehlo.add {fc}, {ig}", carry_t, cell + "/add", "cell", 2)
        tc = self.v(f"stablehlo.tanh {c1}", carry_t, cell + "/tanh", "cell", 2)
        h1 = self.v(f"stablehlo.multiply {o_g}, {tc}", carry_t, cell + "/mul", "cell", 2)
        upd = self.v(f"stablehlo.broadcast_in_dim {h1}, dims = [1, 2]", f"({carry_t}) -> {t([1, B, H])}",
                     bs + "/broadcast_in_dim", "rnn", 2)
        ys = self.v(f"stablehlo.dynamic_update_slice {ays}, {upd}, {ai}, {z}, {z}",
                    f"({ys_t}, {t([1, B, H])}, tensor<i32>, tensor<i32>, tensor<i32>) -> {ys_t}",
                    bs + "/dynamic_update_slice", "rnn", 2)
        one = self.const(1, "i32", bs, "rnn", 2)
        nxt = self.v(f"stablehlo.add {ai}, {one}", "tensor<i32>", bs + "/add", "rnn", 2)
        outs = [ax, a_ih, a_hh, a_b, nxt, c1, h1, ys]
        b.raw(f"      stablehlo.return {', '.join(outs)} : {', '.join(types)} {self.loc(ws, 'rnn')}")
        b.raw(f"    }} {self.loc(ws, 'rnn')}")
        return self.v(f"stablehlo.transpose {loop}#7, dims = [1, 0, 2]", f"({ys_t}) -> {t([B, T, H])}", s + "/transpose", "rnn")

    def build(self):
        c, t, b = self.cfg, tensor, self.b
        B, T, V, E, H = c["batch"], c["seq"], c["vocab"], c["embed"], c["hidden"]
        args = [b.arg(f"arg{i}", shape) for i, (_, shape) in enumerate(param_specs(c))]
        ids = b.arg(f"arg{len(args)}", [B, T], "i32")
        d_bias, d_kernel, table = args[:3]
        x = self.embed(table, ids)
        n_in = E
        for layer in range(c["layers"]):
            x = self.rnn(layer, x, n_in, args[3 + 3 * layer: 6 + 3 * layer])
            n_in = H
        s = "Dense_0"
        out_t = t([B, T, V])
        y = self.v(f"stablehlo.dot_general {x}, {d_kernel}, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT]",
                   f"({t([B, T, H])}, {t([H, V])}) -> {out_t}", s + "/dot_general", "dense")
        br = self.v(f"stablehlo.reshape {d_bias}", f"({t([V])}) -> {t([1, 1, V])}", s + "/reshape", "dense")
        bb = self.v(f"stablehlo.broadcast_in_dim {br}, dims = [0, 1, 2]", f"({t([1, 1, V])}) -> {out_t}", s + "/add", "dense")
        logits = self.v(f"stablehlo.add {y}, {bb}", out_t, s + "/add", "dense")
        desc = (f"LSTM language model ({c['layers']} layers, vocabulary {V}, embedding {E}, hidden {H}), batch {B}, "
                f"sequence {T}, one stablehlo.while per layer as JAX exports a Flax nn.RNN (lax.scan); written by "
                f"bench/models/lstm.py. plugrt-bytes={must_move_bytes(c)}")
        return b.module("jit_apply", desc, [(logits, [B, T, V], "f32")])


def program(cfg):
    return Lstm(cfg).build()


def arguments(cfg, rng):
    B, T, V = cfg["batch"], cfg["seq"], cfg["vocab"]
    out = []
    for name, shape in param_specs(cfg):
        if name.endswith("bias"):
            out.append(normal(rng, shape, 0.02))
        elif name == "Embed_0/embedding":
            out.append(normal(rng, shape, 1.0))  # N(0, 1), as nn.Embedding / flax normal(1.0)
        else:  # kernels [in, out]: lecun-normal scale, as flax's default initialiser
            out.append(normal(rng, shape, 1.0 / np.sqrt(shape[0])))
    out.append(rng.integers(0, V, (B, T)).astype(np.int32))
    return out


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def reference(cfg, args):
    H = cfg["hidden"]
    a = [np.asarray(x, np.float64) if x.dtype == np.float32 else x for x in args]
    d_bias, d_kernel, table = a[:3]
    ids = a[ids_index(cfg)]
    x = table[ids]  # [B, T, E]
    B, T = ids.shape
    for layer in range(cfg["layers"]):
        b_hh, k_hh, k_ih = a[3 + 3 * layer: 6 + 3 * layer]
        c = np.zeros((B, H))
        h = np.zeros((B, H))
        ys = np.zeros((B, T, H))
        for step in range(T):
            gates = x[:, step] @ k_ih + h @ k_hh + b_hh
            i, f, g, o = (gates[:, k * H:(k + 1) * H] for k in range(4))
            c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
            h = _sigmoid(o) * np.tanh(c)
            ys[:, step] = h
        x = ys
    return [x @ d_kernel + d_bias]
