"""One decode step of a GPT-2-small decoder with a KV cache, as JAX (jax.jit + jax.export) writes it
for a Flax model: `decode_step(tokens, pos, cache, params)`, jitted with the cache donated
(donate_argnums: each cache argument carries `tf.aliasing_output`, naming the output that is its
new value), returning (logits, new cache).

The form follows real JAX exports (x64 disabled, so every index is i32):
- the token embedding is `jnp.take(wte, tokens, axis=0)` in its default "fill" mode: negative ids
  wrapped (compare LT / add / select), the indices broadcast to [B, 1, 1], an in-bounds mask
  (compare GE 0, compare LE vocab-1, and, reduce and), the gather, and a select against NaN;
- the position embedding is `lax.dynamic_slice_in_dim(wpe, pos, 1)`; every dynamic start index is
  normalized the way lax does it (select(pos < 0, pos + dim, pos)), the constant ones are i32 0;
- Dense layers as Flax writes them: kernels [in, out], `dot_general` contracting the last axis of the
  activations with axis 0 of the kernel (precision = [DEFAULT, DEFAULT]), bias broadcast and added;
  GPT-2's fused c_attn [768, 2304] split with three `stablehlo.slice`s (jnp.split);
- layer norm as flax.linen.LayerNorm (eps 1e-5, fast variance): mean and mean of squares as
  reduce-sum / divide, var = max(0, E[x^2] - E[x]^2), (x - mean) * (rsqrt(var + eps) * scale) + bias;
- the new key and value are written into each layer's cache [B, H, T, 64] at `pos` with
  `stablehlo.dynamic_update_slice`; scores over the whole cache are a batched `dot_general`
  (batching_dims = [0, 1]) divided by sqrt(64); the causal mask is `jnp.arange(T) <= pos`
  (iota, compare LE) broadcast and applied with `jnp.where` against finfo(float32).min (select);
- softmax as jax.nn.softmax writes it: reduce max, maximum with -inf, broadcast, subtract, exp,
  reduce sum, broadcast, divide;
- gelu as jax.nn.gelu(approximate=True): x**3 as multiply x*x then x*(x*x), the tanh formula;
- the tied output projection as `jnp.einsum('btd,vd->btv', x, wte)`: one dot_general contracting the
  width of both operands, no transpose; then logits[:, -1] (slice + reshape).

Arguments, in jax.export's flattening order of (tokens, pos, cache, params):
  tokens i32 [B, 1]; pos i32 scalar; cache: a list of (k, v) per layer, so k_0, v_0, k_1, v_1, ...
  each f32 [B, heads, max_len, 64]; params: Flax's nested dict, flattened with its keys sorted as
  strings (so the layers come h_0, h_1, h_10, h_11, h_2, ..., h_9), each layer
  attn.c_attn.{bias [2304], kernel [768, 2304]}, attn.c_proj.{bias, kernel [768, 768]},
  ln_1.{bias, scale}, ln_2.{bias, scale}, mlp.c_fc.{bias [3072], kernel [768, 3072]},
  mlp.c_proj.{bias [768], kernel [3072, 768]}; then ln_f.{bias, scale}, wpe.embedding [1024, 768],
  wte.embedding [50257, 768].
Results: logits f32 [B, 50257], then the new caches k_0, v_0, k_1, v_1, ... (as the step returns them).
Locations are JAX's named locations: "jit(decode_step)/jit(main)/<Flax module path>/<primitive>"
with the model's Python file and line.
"""
import numpy as np

from common import Builder, normal, tensor

DESCRIPTION = "GPT-2-small decode step with KV cache, causal mask, tied logits (JAX/Flax export form)"
SOURCE = "gpt2_flax.py"
LINES = {"wte": 141, "wpe": 142, "embed": 143, "mask": 138, "ln": 60, "c_attn": 78, "split": 79,
         "heads": 81, "cache": 86, "scores": 90, "where": 92, "softmax": 93, "context": 95,
         "merge": 96, "c_proj": 97, "resid1": 121, "c_fc": 106, "gelu": 107, "mlp_proj": 108,
         "resid2": 123, "ln_f": 149, "logits": 150, "last": 151}

BASE = dict(layers=12, width=768, heads=12, mlp=3072, vocab=50257, positions=1024, max_len=1024)
MODELS = {
    "gpt2_small_decode_b1": dict(BASE, batch=1, pos=512),
    "gpt2_small_decode_b8": dict(BASE, batch=8, pos=512),
}
SMALL = {
    "gpt2_decode_small": dict(layers=2, width=32, heads=4, mlp=64, vocab=50, positions=16, max_len=16,
                              batch=2, pos=5),
    "gpt2_decode_small_b1_last": dict(layers=1, width=16, heads=2, mlp=32, vocab=23, positions=12,
                                      max_len=12, batch=1, pos=11),
}

EPS = 1e-5
F32_MIN = float(np.finfo(np.float32).min)
SCOPE = "jit(decode_step)/jit(main)"


def layer_params(cfg):
    """(name, shape) of one layer's leaves, in the sorted-key order jax flattens a dict in."""
    w, m = cfg["width"], cfg["mlp"]
    return [("attn_c_attn_bias", [3 * w]), ("attn_c_attn_kernel", [w, 3 * w]),
            ("attn_c_proj_bias", [w]), ("attn_c_proj_kernel", [w, w]),
            ("ln_1_bias", [w]), ("ln_1_scale", [w]), ("ln_2_bias", [w]), ("ln_2_scale", [w]),
            ("mlp_c_fc_bias", [m]), ("mlp_c_fc_kernel", [w, m]),
            ("mlp_c_proj_bias", [w]), ("mlp_c_proj_kernel", [m, w])]


def top_params(cfg):
    w = cfg["width"]
    return [("ln_f_bias", [w]), ("ln_f_scale", [w]), ("wpe_embedding", [cfg["positions"], w]),
            ("wte_embedding", [cfg["vocab"], w])]


def layer_order(cfg):
    """Layer indices in the order their params are flattened: keys h_0, h_1, ... sorted as strings."""
    return sorted(range(cfg["layers"]), key=lambda i: f"h_{i}")


def cache_shape(cfg):
    return [cfg["batch"], cfg["heads"], cfg["max_len"], cfg["width"] // cfg["heads"]]


def must_move_bytes(cfg):
    """Every weight once (wpe: the one row sliced; wte: the whole table, which the tied logits
    projection reads and which holds the gathered rows), the caches read once plus the one slot
    each layer writes into its k and v, the token ids, pos and the logits."""
    b, w, h = cfg["batch"], cfg["width"], cfg["heads"]
    n = sum(int(np.prod(s)) for _, s in layer_params(cfg)) * cfg["layers"]
    n += 2 * w + w + cfg["vocab"] * w
    n += 2 * cfg["layers"] * int(np.prod(cache_shape(cfg)))       # caches read
    n += 2 * cfg["layers"] * b * h * (w // h)                       # slots written
    n += b * cfg["vocab"]                                           # logits
    return 4 * n + 4 * b + 4


class Gpt2Decode:
    def __init__(self, cfg):
        self.cfg = cfg
        self.b = Builder(SOURCE)

    def v(self, prim, text, sig, path, key):
        scope = f"{SCOPE}/{path}/{prim}" if path else f"{SCOPE}/{prim}"
        return self.b.op(text, sig, scope, LINES[key])

    # Small helpers in JAX's spellings.
    def splat(self, value, shape, dtype, path, key, prim):
        c = self.b.scalar(value, dtype)
        return self.v(prim, f"stablehlo.broadcast_in_dim {c}, dims = []", f"({tensor([], dtype)}) -> {tensor(shape, dtype)}",
                      path, key)

    def bcast(self, x, src, dst, dims, path, key, prim="broadcast_in_dim", dtype="f32"):
        d = ", ".join(str(i) for i in dims)
        return self.v(prim, f"stablehlo.broadcast_in_dim {x}, dims = [{d}]", f"({tensor(src, dtype)}) -> {tensor(dst, dtype)}",
                      path, key)

    def norm_index(self, idx, dim, path, key):
        """lax's start-index normalization of a traced scalar: select(i < 0, i + dim, i)."""
        zero, size = self.b.scalar(0, "i32"), self.b.scalar(dim, "i32")
        lt = self.v("lt", f"stablehlo.compare  LT, {idx}, {zero},  SIGNED", "(tensor<i32>, tensor<i32>) -> tensor<i1>", path, key)
        ad = self.v("add", f"stablehlo.add {idx}, {size}", "tensor<i32>", path, key)
        return self.v("select_n", f"stablehlo.select {lt}, {ad}, {idx}", "tensor<i1>, tensor<i32>", path, key)

    def dense(self, x, kernel, bias, rows, n_in, n_out, path, key):
        t = tensor
        k = len(rows)
        y = self.v("dot_general", f"stablehlo.dot_general {x}, {kernel}, contracting_dims = [{k}] x [0], precision = [DEFAULT, DEFAULT]",
                   f"({t(rows + [n_in])}, {t([n_in, n_out])}) -> {t(rows + [n_out])}", path, key)
        one = [1] * k
        b1 = self.bcast(bias, [n_out], one + [n_out], [k], path, key)
        bb = self.bcast(b1, one + [n_out], rows + [n_out], list(range(k + 1)), path, key, "add")
        return self.v("add", f"stablehlo.add {y}, {bb}", t(rows + [n_out]), path, key)

    def layer_norm(self, x, scale, bias, rows, path, key):
        """flax.linen.LayerNorm(epsilon=1e-5) with its default use_fast_variance=True."""
        t, w = tensor, self.cfg["width"]
        full, red, kept = rows + [w], rows, rows + [1]
        k = len(rows)
        zero = self.b.scalar(0.0)
        s = self.v("reduce_sum", f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across dimensions = [{k}]",
                   f"({t(full)}, tensor<f32>) -> {t(red)}", path, key)
        n = self.splat(float(w), red, "f32", path, key, "div")
        mean = self.v("div", f"stablehlo.divide {s}, {n}", t(red), path, key)
        sq = self.v("square", f"stablehlo.multiply {x}, {x}", t(full), path, key)
        s2 = self.v("reduce_sum", f"stablehlo.reduce({sq} init: {zero}) applies stablehlo.add across dimensions = [{k}]",
                    f"({t(full)}, tensor<f32>) -> {t(red)}", path, key)
        mean2 = self.v("div", f"stablehlo.divide {s2}, {n}", t(red), path, key)
        msq = self.v("square", f"stablehlo.multiply {mean}, {mean}", t(red), path, key)
        diff = self.v("sub", f"stablehlo.subtract {mean2}, {msq}", t(red), path, key)
        z = self.splat(0.0, red, "f32", path, key, "max")
        var = self.v("max", f"stablehlo.maximum {z}, {diff}", t(red), path, key)
        mean_k = self.v("reshape", f"stablehlo.reshape {mean}", f"({t(red)}) -> {t(kept)}", path, key)
        var_k = self.v("reshape", f"stablehlo.reshape {var}", f"({t(red)}) -> {t(kept)}", path, key)
        mb = self.bcast(mean_k, kept, full, list(range(k + 1)), path, key, "sub")
        y = self.v("sub", f"stablehlo.subtract {x}, {mb}", t(full), path, key)
        eps = self.splat(EPS, kept, "f32", path, key, "add")
        ve = self.v("add", f"stablehlo.add {var_k}, {eps}", t(kept), path, key)
        r = self.v("rsqrt", f"stablehlo.rsqrt {ve}", t(kept), path, key)
        one = [1] * k
        sc = self.v("reshape", f"stablehlo.reshape {scale}", f"({t([w])}) -> {t(one + [w])}", path, key)
        rb = self.bcast(r, kept, full, list(range(k + 1)), path, key, "mul")
        scb = self.bcast(sc, one + [w], full, list(range(k + 1)), path, key, "mul")
        mul = self.v("mul", f"stablehlo.multiply {rb}, {scb}", t(full), path, key)
        y = self.v("mul", f"stablehlo.multiply {y}, {mul}", t(full), path, key)
        bi = self.v("reshape", f"stablehlo.reshape {bias}", f"({t([w])}) -> {t(one + [w])}", path, key)
        bb = self.bcast(bi, one + [w], full, list(range(k + 1)), path, key, "add")
        return self.v("add", f"stablehlo.add {y}, {bb}", t(full), path, key)

    def take_rows(self, table, ids, vocab, width, path):
        """jnp.take(table, ids, axis=0), mode "fill": ids [B, 1] -> [B, 1, width]."""
        t, key = tensor, "wte"
        B = self.cfg["batch"]
        rows = [B, 1]
        zero = self.splat(0, rows, "i32", path, key, "lt")
        lt = self.v("lt", f"stablehlo.compare  LT, {ids}, {zero},  SIGNED",
                    f"({t(rows, 'i32')}, {t(rows, 'i32')}) -> {t(rows, 'i1')}", path, key)
        vs = self.splat(vocab, rows, "i32", path, key, "add")
        ad = self.v("add", f"stablehlo.add {ids}, {vs}", t(rows, "i32"), path, key)
        idx = self.v("select_n", f"stablehlo.select {lt}, {ad}, {ids}", f"{t(rows, 'i1')}, {t(rows, 'i32')}", path, key)
        iv = [B, 1, 1]
        ix = self.bcast(idx, rows, iv, [0, 1], path, key, "broadcast_in_dim", "i32")
        upper = self.v("gather", f"stablehlo.constant dense<{vocab - 1}>", t([1], "i32"), path, key)
        z3 = self.splat(0, iv, "i32", path, key, "gather")
        ge = self.v("gather", f"stablehlo.compare  GE, {ix}, {z3},  SIGNED", f"({t(iv, 'i32')}, {t(iv, 'i32')}) -> {t(iv, 'i1')}",
                    path, key)
        u1 = self.bcast(upper, [1], [1, 1, 1], [2], path, key, "gather", "i32")
        u3 = self.bcast(u1, [1, 1, 1], iv, [0, 1, 2], path, key, "gather", "i32")
        le = self.v("gather", f"stablehlo.compare  LE, {ix}, {u3},  SIGNED", f"({t(iv, 'i32')}, {t(iv, 'i32')}) -> {t(iv, 'i1')}",
                    path, key)
        ok = self.v("gather", f"stablehlo.and {ge}, {le}", t(iv, "i1"), path, key)
        ok2 = self.v("gather", f"stablehlo.reduce({ok} init: {self.b.scalar(True, 'i1')}) applies stablehlo.and across dimensions = [2]",
                     f"({t(iv, 'i1')}, tensor<i1>) -> {t(rows, 'i1')}", path, key)
        out = [B, 1, width]
        g = self.v("gather",
                   f'"stablehlo.gather"({table}, {ix}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], '
                   f'collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, '
                   f'slice_sizes = array<i64: 1, {width}>}}>',
                   f"({t([vocab, width])}, {t(iv, 'i32')}) -> {t(out)}", path, key)
        okb = self.bcast(ok2, rows, out, [0, 1], path, key, "gather", "i1")
        nan = self.v("gather", "stablehlo.constant dense<0x7FC00000>", "tensor<f32>", path, key)
        nb = self.v("gather", f"stablehlo.broadcast_in_dim {nan}, dims = []", f"(tensor<f32>) -> {t(out)}", path, key)
        return self.v("gather", f"stablehlo.select {okb}, {g}, {nb}", f"{t(out, 'i1')}, {t(out)}", path, key)

    def build(self):
        c, t, b = self.cfg, tensor, self.b
        B, W, H, M, V, P, T = (c["batch"], c["width"], c["heads"], c["mlp"], c["vocab"], c["positions"],
                               c["max_len"])
        D = W // H
        L = c["layers"]
        rows = [B, 1]
        full = t(rows + [W])
        tokens = b.arg("tokens", rows, "i32")
        pos = b.arg("pos", [], "i32")
        cache = []
        for i in range(L):
            # donate_argnums: each cache is donated to the output that is its new value
            # (outputs: logits, then k_0, v_0, k_1, ...), as a serving loop jits its step.
            cache.append((b.arg(f"cache_{i}_k", cache_shape(c), attributes=f"tf.aliasing_output = {1 + 2 * i} : i32"),
                          b.arg(f"cache_{i}_v", cache_shape(c), attributes=f"tf.aliasing_output = {2 + 2 * i} : i32")))
        layers = {}
        for i in layer_order(c):
            layers[i] = {n: b.arg(f"params_h_{i}_{n}", s) for n, s in layer_params(c)}
        top = {n: b.arg(f"params_{n}", s) for n, s in top_params(c)}

        # Embeddings: token rows (jnp.take) plus the position row (dynamic_slice at pos).
        tok = self.take_rows(top["wte_embedding"], tokens, V, W, "GPT2/wte")
        p0 = self.norm_index(pos, P, "GPT2/wpe", "wpe")
        pe = self.v("dynamic_slice", f"stablehlo.dynamic_slice {top['wpe_embedding']}, {p0}, {b.scalar(0, 'i32')}, sizes = [1, {W}]",
                    f"({t([P, W])}, tensor<i32>, tensor<i32>) -> {t([1, W])}", "GPT2/wpe", "wpe")
        pe3 = self.bcast(pe, [1, W], [1, 1, W], [1, 2], "GPT2", "embed")
        peb = self.bcast(pe3, [1, 1, W], rows + [W], [0, 1, 2], "GPT2", "embed", "add")
        x = self.v("add", f"stablehlo.add {tok}, {peb}", full, "GPT2", "embed")

        # The causal mask over the cache, once: (jnp.arange(T) <= pos)[None, None, None, :].
        io = self.v("iota", "stablehlo.iota dim = 0", t([T], "i32"), "GPT2", "mask")
        pb = self.v("le", f"stablehlo.broadcast_in_dim {pos}, dims = []", f"(tensor<i32>) -> {t([T], 'i32')}", "GPT2", "mask")
        m1 = self.v("le", f"stablehlo.compare  LE, {io}, {pb},  SIGNED", f"({t([T], 'i32')}, {t([T], 'i32')}) -> {t([T], 'i1')}",
                    "GPT2", "mask")
        mask = self.bcast(m1, [T], [1, 1, 1, T], [3], "GPT2", "mask", "broadcast_in_dim", "i1")

        heads = [B, 1, H, D]
        bhd = [B, H, 1, D]
        sc = [B, H, 1, T]
        red = [B, H, 1]
        kept = [B, H, 1, 1]
        zero_i = b.scalar(0, "i32")
        new_cache = [None] * L
        for i in range(L):
            p = layers[i]
            hp = f"GPT2/h_{i}"
            ap = f"{hp}/attn"
            h = self.layer_norm(x, p["ln_1_scale"], p["ln_1_bias"], rows, f"{hp}/ln_1", "ln")
            qkv = self.dense(h, p["attn_c_attn_kernel"], p["attn_c_attn_bias"], rows, W, 3 * W, f"{ap}/c_attn", "c_attn")
            parts = []
            for j in range(3):
                s = self.v("split", f"stablehlo.slice {qkv} [0:{B}, 0:1, {j * W}:{(j + 1) * W}]",
                           f"({t(rows + [3 * W])}) -> {full}", ap, "split")
                r = self.v("reshape", f"stablehlo.reshape {s}", f"({full}) -> {t(heads)}", ap, "heads")
                parts.append(self.v("transpose", f"stablehlo.transpose {r}, dims = [0, 2, 1, 3]", f"({t(heads)}) -> {t(bhd)}",
                                    ap, "heads"))
            q, k, v = parts
            kv = []
            for new, old in ((k, cache[i][0]), (v, cache[i][1])):
                pi = self.norm_index(pos, T, ap, "cache")
                kv.append(self.v("dynamic_update_slice",
                                 f"stablehlo.dynamic_update_slice {old}, {new}, {zero_i}, {zero_i}, {pi}, {zero_i}",
                                 f"({t(cache_shape(c))}, {t(bhd)}, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> "
                                 f"{t(cache_shape(c))}", ap, "cache"))
            kc, vc = kv
            new_cache[i] = (kc, vc)
            s = self.v("dot_general", f"stablehlo.dot_general {q}, {kc}, batching_dims = [0, 1] x [0, 1], "
                       f"contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT]",
                       f"({t(bhd)}, {t(cache_shape(c))}) -> {t(sc)}", ap, "scores")
            dd = self.splat(float(np.sqrt(D)), sc, "f32", ap, "scores", "div")
            s = self.v("div", f"stablehlo.divide {s}, {dd}", t(sc), ap, "scores")
            mb = self.bcast(mask, [1, 1, 1, T], sc, [0, 1, 2, 3], ap, "where", "broadcast_in_dim", "i1")
            neg = self.splat(F32_MIN, sc, "f32", ap, "where", "broadcast_in_dim")
            s = self.v("select_n", f"stablehlo.select {mb}, {s}, {neg}", f"{t(sc, 'i1')}, {t(sc)}", ap, "where")
            sp = f"{ap}/jit(softmax)"
            mx = self.v("reduce_max", f"stablehlo.reduce({s} init: {b.scalar(-np.inf)}) applies stablehlo.maximum across dimensions = [3]",
                        f"({t(sc)}, tensor<f32>) -> {t(red)}", sp, "softmax")
            ni = self.splat(-np.inf, red, "f32", sp, "softmax", "max")
            mx = self.v("max", f"stablehlo.maximum {ni}, {mx}", t(red), sp, "softmax")
            mk = self.bcast(mx, red, kept, [0, 1, 2], sp, "softmax")
            mf = self.bcast(mk, kept, sc, [0, 1, 2, 3], sp, "softmax", "sub")
            e = self.v("sub", f"stablehlo.subtract {s}, {mf}", t(sc), sp, "softmax")
            e = self.v("exp", f"stablehlo.exponential {e}", t(sc), sp, "softmax")
            sm = self.v("reduce_sum", f"stablehlo.reduce({e} init: {b.scalar(0.0)}) applies stablehlo.add across dimensions = [3]",
                        f"({t(sc)}, tensor<f32>) -> {t(red)}", sp, "softmax")
            sk = self.bcast(sm, red, kept, [0, 1, 2], sp, "softmax")
            sf = self.bcast(sk, kept, sc, [0, 1, 2, 3], sp, "softmax", "div")
            pr = self.v("div", f"stablehlo.divide {e}, {sf}", t(sc), sp, "softmax")
            ctx = self.v("dot_general", f"stablehlo.dot_general {pr}, {vc}, batching_dims = [0, 1] x [0, 1], "
                         f"contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT]",
                         f"({t(sc)}, {t(cache_shape(c))}) -> {t(bhd)}", ap, "context")
            ct = self.v("transpose", f"stablehlo.transpose {ctx}, dims = [0, 2, 1, 3]", f"({t(bhd)}) -> {t(heads)}", ap, "merge")
            cf = self.v("reshape", f"stablehlo.reshape {ct}", f"({t(heads)}) -> {full}", ap, "merge")
            ao = self.dense(cf, p["attn_c_proj_kernel"], p["attn_c_proj_bias"], rows, W, W, f"{ap}/c_proj", "c_proj")
            x = self.v("add", f"stablehlo.add {x}, {ao}", full, hp, "resid1")
            h = self.layer_norm(x, p["ln_2_scale"], p["ln_2_bias"], rows, f"{hp}/ln_2", "ln")
            mp = f"{hp}/mlp"
            u = self.dense(h, p["mlp_c_fc_kernel"], p["mlp_c_fc_bias"], rows, W, M, f"{mp}/c_fc", "c_fc")
            gp = f"{mp}/jit(gelu)"
            hm = t(rows + [M])
            u2 = self.v("integer_pow", f"stablehlo.multiply {u}, {u}", hm, gp, "gelu")
            u3 = self.v("integer_pow", f"stablehlo.multiply {u}, {u2}", hm, gp, "gelu")
            ca = self.splat(0.044715, rows + [M], "f32", gp, "gelu", "mul")
            a = self.v("mul", f"stablehlo.multiply {ca}, {u3}", hm, gp, "gelu")
            a = self.v("add", f"stablehlo.add {u}, {a}", hm, gp, "gelu")
            cs = self.splat(float(np.float32(np.sqrt(2 / np.pi))), rows + [M], "f32", gp, "gelu", "mul")
            a = self.v("mul", f"stablehlo.multiply {cs}, {a}", hm, gp, "gelu")
            a = self.v("tanh", f"stablehlo.tanh {a}", hm, gp, "gelu")
            c1 = self.splat(1.0, rows + [M], "f32", gp, "gelu", "add")
            a = self.v("add", f"stablehlo.add {c1}, {a}", hm, gp, "gelu")
            ch = self.splat(0.5, rows + [M], "f32", gp, "gelu", "mul")
            a = self.v("mul", f"stablehlo.multiply {ch}, {a}", hm, gp, "gelu")
            g = self.v("mul", f"stablehlo.multiply {u}, {a}", hm, gp, "gelu")
            d = self.dense(g, p["mlp_c_proj_kernel"], p["mlp_c_proj_bias"], rows, M, W, f"{mp}/c_proj", "mlp_proj")
            x = self.v("add", f"stablehlo.add {x}, {d}", full, hp, "resid2")

        x = self.layer_norm(x, top["ln_f_scale"], top["ln_f_bias"], rows, "GPT2/ln_f", "ln_f")
        lg = self.v("dot_general", f"stablehlo.dot_general {x}, {top['wte_embedding']}, contracting_dims = [2] x [1], "
                    f"precision = [DEFAULT, DEFAULT]", f"({full}, {t([V, W])}) -> {t(rows + [V])}", "GPT2", "logits")
        ls = self.v("slice", f"stablehlo.slice {lg} [0:{B}, 0:1, 0:{V}]", f"({t(rows + [V])}) -> {t(rows + [V])}", "", "last")
        logits = self.v("squeeze", f"stablehlo.reshape {ls}", f"({t(rows + [V])}) -> {t([B, V])}", "", "last")

        results = [(logits, [B, V], "f32")]
        for kc, vc in new_cache:
            results += [(kc, cache_shape(c), "f32"), (vc, cache_shape(c), "f32")]
        desc = (f"GPT-2-small-style decode step ({L} layers, width {W}, {H} heads of {D}, MLP {M}, vocabulary {V}), "
                f"batch {B}, KV cache of {T} positions at pos {c['pos']}, as JAX exports a Flax model; written by "
                f"bench/models/gpt2_decode.py. plugrt-bytes={must_move_bytes(c)}")
        return b.module("jit_decode_step", desc, results)


def program(cfg):
    return Gpt2Decode(cfg).build()


def arguments(cfg, rng):
    B, T, pos = cfg["batch"], cfg["max_len"], cfg["pos"]
    tokens = rng.integers(0, cfg["vocab"], (B, 1)).astype(np.int32)
    out = [tokens, np.array(pos, np.int32)]
    shape = cache_shape(cfg)
    for _ in range(cfg["layers"]):
        for _kv in range(2):
            cache = np.zeros(shape, np.float32)  # a zero-initialized cache, filled up to pos - 1
            cache[:, :, :pos] = normal(rng, shape[:2] + [pos, shape[3]], 0.5)
            out.append(cache)
    for _ in layer_order(cfg):
        for name, shape in layer_params(cfg):
            if name.endswith("_scale"):
                out.append((1 + normal(rng, shape, 0.05)).astype(np.float32))
            elif name.startswith("ln"):
                out.append(normal(rng, shape, 0.02))
            elif name.endswith("_bias"):
                out.append(normal(rng, shape, 0.01))
            else:
                out.append(normal(rng, shape, 0.02))
    for name, shape in top_params(cfg):
        if name == "ln_f_scale":
            out.append((1 + normal(rng, shape, 0.05)).astype(np.float32))
        elif name == "ln_f_bias":
            out.append(normal(rng, shape, 0.02))
        elif name == "wpe_embedding":
            out.append(normal(rng, shape, 0.01))
        else:
            out.append(normal(rng, shape, 0.02))
    return out


def _layer_norm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * g + b


def reference(cfg, args):
    B, W, H, L = cfg["batch"], cfg["width"], cfg["heads"], cfg["layers"]
    D = W // H
    a = [np.asarray(x, np.float64) if x.dtype == np.float32 else x for x in args]
    tokens, pos = a[0][:, 0], int(a[1])
    caches = [[a[2 + 2 * i].copy(), a[3 + 2 * i].copy()] for i in range(L)]
    i0 = 2 + 2 * L
    names = [n for n, _ in layer_params(cfg)]
    per = len(names)
    params = {}
    for j, li in enumerate(layer_order(cfg)):
        params[li] = dict(zip(names, a[i0 + j * per: i0 + (j + 1) * per]))
    ln_f_b, ln_f_g, wpe, wte = a[i0 + L * per: i0 + L * per + 4]
    x = wte[tokens] + wpe[pos]                                     # [B, W]
    for i in range(L):
        p = params[i]
        h = _layer_norm(x, p["ln_1_scale"], p["ln_1_bias"])
        qkv = h @ p["attn_c_attn_kernel"] + p["attn_c_attn_bias"]
        q, k, v = (qkv[:, j * W:(j + 1) * W].reshape(B, H, D) for j in range(3))
        caches[i][0][:, :, pos, :] = k
        caches[i][1][:, :, pos, :] = v
        kc, vc = caches[i][0][:, :, :pos + 1], caches[i][1][:, :, :pos + 1]   # the causal mask
        s = np.einsum("bhd,bhtd->bht", q, kc) / np.sqrt(D)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = np.einsum("bht,bhtd->bhd", s, vc).reshape(B, W)
        x = x + ctx @ p["attn_c_proj_kernel"] + p["attn_c_proj_bias"]
        h = _layer_norm(x, p["ln_2_scale"], p["ln_2_bias"])
        u = h @ p["mlp_c_fc_kernel"] + p["mlp_c_fc_bias"]
        u = 0.5 * u * (1 + np.tanh(np.sqrt(2 / np.pi) * (u + 0.044715 * u ** 3)))
        x = x + u @ p["mlp_c_proj_kernel"] + p["mlp_c_proj_bias"]
    x = _layer_norm(x, ln_f_g, ln_f_b)
    out = [x @ wte.T]
    for kc, vc in caches:
        out += [kc, vc]
    return out
