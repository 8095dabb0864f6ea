"""MLP-Mixer-B/16 image classifier as JAX exports it (jax.export of `MlpMixer.apply` from
google-research/vision_transformer's vit_jax/models_mixer.py, Flax linen), NHWC f32 images in,
logits out.

Forms, as JAX lowers the Flax modules (learned from real JAX exports, see the report):
  * stem (nn.Conv, kernel = strides = patch, padding 'SAME' = no padding here): one
    stablehlo.convolution, dim_numbers [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] (NHWC / HWIO),
    window with stride, pad, lhs_dilate, rhs_dilate, reverse written out and
    precision_config [DEFAULT, DEFAULT]; bias as reshape [D] -> [1, 1, 1, D] + broadcast_in_dim.
    einops.rearrange('n h w c -> n (h w) c') is one reshape to tokens [B, S, D].
  * nn.Dense: dot_general of x [..., in] with the kernel [in, out] (contracting the last dim
    with dim 0, precision = [DEFAULT, DEFAULT], no transposes), bias as reshape to [1, 1, out]
    and broadcast_in_dim.
  * nn.LayerNorm (epsilon 1e-6, Flax's default use_fast_variance=True): mean = reduce_sum / D,
    mean of x*x likewise, var = max(0, mean(x^2) - mean^2), mean and var expanded with
    broadcast_in_dim to [B, S, 1], (x - mean) * (rsqrt(var + eps) * scale) + bias, scale and
    bias reshaped to [1, 1, D], every size-1 expansion a broadcast_in_dim.
  * nn.gelu (approximate=True): x**3 as integer_pow (x*x, then x*that), 0.5*(1 + tanh(
    sqrt(2/pi) * (x + 0.044715 x^3))) * x, each Python constant a rank-0 constant broadcast.
  * MixerBlock: LayerNorm_0, jnp.swapaxes(y, 1, 2) (transpose [0, 2, 1]), token_mixing MLP
    (Dense S -> T, gelu, Dense T -> S) over the tokens axis, swapaxes back, residual add;
    LayerNorm_1, channel_mixing MLP (Dense D -> M, gelu, Dense M -> D), residual add.
  * pre_head_layer_norm, jnp.mean over tokens (reduce_sum / S), head Dense D -> classes.
Every op is located as JAX names it: loc("jit(apply)/jit(main)/MlpMixer/<module path>/<primitive>"
("models_mixer.py":<line>:0)).

@main's arguments, in jax.export's order (the flattened {'params': ...} tree, dict keys sorted,
so MixerBlock_0, MixerBlock_1, MixerBlock_10, MixerBlock_11, MixerBlock_2, ...; then the
images), as %arg0 ...: per block LayerNorm_0/{bias, scale}, LayerNorm_1/{bias, scale},
channel_mixing/Dense_0/{bias, kernel}, channel_mixing/Dense_1/{bias, kernel},
token_mixing/Dense_0/{bias, kernel}, token_mixing/Dense_1/{bias, kernel}; then head/{bias,
kernel}, pre_head_layer_norm/{bias, scale}, stem/{bias, kernel [p, p, 3, D]}; last the images
f32 [B, H, W, 3]. param_specs(cfg) lists them. Result: logits f32 [B, classes].

The forward writer (Mixer) also serves mixer_train_step.py: with train=True it writes the
residuals JAX's linearization computes in the forward pass and returns a tape for the backward.
"""
import contextlib

import numpy as np

from common import Builder, normal, tensor

DESCRIPTION = "MLP-Mixer-B/16 image classifier (jax.export of the Flax MlpMixer from vision_transformer)"
SOURCE = "models_mixer.py"
ROOT = "jit(apply)/jit(main)"
# Lines of vit_jax/models_mixer.py the ops come from.
LINES = {"Dense_0": 27, "gelu": 28, "Dense_1": 29, "LayerNorm_0": 39, "swap0": 40, "token_mixing": 41,
         "swap1": 42, "add0": 43, "LayerNorm_1": 44, "channel_mixing": 45, "stem": 61, "rearrange": 63,
         "pre_head_layer_norm": 66, "mean": 67, "head": 69}
EPS = 1e-6
SQRT_2_OVER_PI = float(np.float32(np.sqrt(2 / np.pi)))

BASE = dict(image=224, channels=3, patch=16, width=768, blocks=12, tokens_mlp=384, channels_mlp=3072,
            classes=1000)
MODELS = {
    "mlp_mixer_base_b1": dict(BASE, batch=1),
    "mlp_mixer_base_b16": dict(BASE, batch=16),
}
SMALL = {"mlp_mixer_small": dict(image=16, channels=3, patch=4, width=16, blocks=2, tokens_mlp=8,
                                 channels_mlp=32, classes=10, batch=2)}

# Logits are O(1); float32 errors are ~1e-5.
TOLERANCE = (1e-3, 1e-4)


def tokens(cfg):
    return (cfg["image"] // cfg["patch"]) ** 2


def param_specs(cfg):
    """(flax path, shape) of every parameter, in the flattened (sorted) order."""
    D, S, T, M = cfg["width"], tokens(cfg), cfg["tokens_mlp"], cfg["channels_mlp"]
    p, C, K = cfg["patch"], cfg["channels"], cfg["classes"]
    specs = {}
    for i in range(cfg["blocks"]):
        blk = f"MixerBlock_{i}"
        for ln in ("LayerNorm_0", "LayerNorm_1"):
            specs[(blk, ln, "bias")] = [D]
            specs[(blk, ln, "scale")] = [D]
        for mlp, n_in, hidden in (("channel_mixing", D, M), ("token_mixing", S, T)):
            specs[(blk, mlp, "Dense_0", "bias")] = [hidden]
            specs[(blk, mlp, "Dense_0", "kernel")] = [n_in, hidden]
            specs[(blk, mlp, "Dense_1", "bias")] = [n_in]
            specs[(blk, mlp, "Dense_1", "kernel")] = [hidden, n_in]
    specs[("head", "bias")] = [K]
    specs[("head", "kernel")] = [D, K]
    specs[("pre_head_layer_norm", "bias")] = [D]
    specs[("pre_head_layer_norm", "scale")] = [D]
    specs[("stem", "bias")] = [D]
    specs[("stem", "kernel")] = [p, p, C, D]
    return [("/".join(k), specs[k]) for k in sorted(specs)]


def param_count(cfg):
    return sum(int(np.prod(s)) for _, s in param_specs(cfg))


def must_move_bytes(cfg):
    """Every weight once, the images, the logits."""
    B, H, C = cfg["batch"], cfg["image"], cfg["channels"]
    return 4 * (param_count(cfg) + B * H * H * C + B * cfg["classes"])


def dims(seq):
    return ", ".join(str(int(d)) for d in seq)


class Graph:
    """Op writer: each op located as JAX names it, <root>/<top>/<module path>/<primitive>."""

    def __init__(self, builder, root, top, source):
        self.b, self.root, self.top, self.source = builder, root, top, source
        self.path, self.line = "", 1

    @contextlib.contextmanager
    def at(self, path, line, top=None, source=None):
        saved = (self.path, self.line, self.top, self.source)
        self.path, self.line = path, line
        if top is not None:
            self.top = top
        if source is not None:
            self.source = source
        try:
            yield
        finally:
            self.path, self.line, self.top, self.source = saved

    def op(self, text, sig, prim):
        scope = "/".join(p for p in (self.root, self.top, self.path, prim) if p)
        self.b.source = self.source
        return self.b.op(text, sig, scope, self.line)

    # Elementwise.
    def ew(self, name, a, b, shape, prim, dtype="f32"):
        return self.op(f"stablehlo.{name} {a}, {b}", tensor(shape, dtype), prim)

    def un(self, name, a, shape, prim):
        return self.op(f"stablehlo.{name} {a}", tensor(shape), prim)

    def compare(self, direction, a, b, shape, kind="FLOAT", dtype="f32", prim="eq"):
        return self.op(f"stablehlo.compare  {direction}, {a}, {b},  {kind}",
                       f"({tensor(shape, dtype)}, {tensor(shape, dtype)}) -> {tensor(shape, 'i1')}", prim)

    def select(self, pred, a, b, shape, dtype="f32"):
        return self.op(f"stablehlo.select {pred}, {a}, {b}", f"{tensor(shape, 'i1')}, {tensor(shape, dtype)}", "select_n")

    def convert(self, x, shape, src, dst):
        return self.op(f"stablehlo.convert {x}", f"({tensor(shape, src)}) -> {tensor(shape, dst)}", "convert_element_type")

    # Shapes.
    def bcast(self, x, ins, outs, bdims, prim="broadcast_in_dim", dtype="f32"):
        return self.op(f"stablehlo.broadcast_in_dim {x}, dims = [{dims(bdims)}]",
                       f"({tensor(ins, dtype)}) -> {tensor(outs, dtype)}", prim)

    def const(self, value, shape, prim, dtype="f32"):
        """A Python constant as JAX writes it: a rank-0 constant broadcast to the operand shape."""
        c = self.b.scalar(value, dtype)
        return c if not list(shape) else self.bcast(c, [], shape, [], prim, dtype)

    def reshape(self, x, ins, outs, prim="reshape"):
        return self.op(f"stablehlo.reshape {x}", f"({tensor(ins)}) -> {tensor(outs)}", prim)

    def transpose(self, x, ins, perm, prim="transpose"):
        outs = [ins[p] for p in perm]
        return self.op(f"stablehlo.transpose {x}, dims = [{dims(perm)}]", f"({tensor(ins)}) -> {tensor(outs)}", prim)

    def reduce(self, x, ins, rdims, prim="reduce_sum", kind="add", init=0.0):
        outs = [d for i, d in enumerate(ins) if i not in rdims]
        c = self.b.scalar(init)
        v = self.op(f"stablehlo.reduce({x} init: {c}) applies stablehlo.{kind} across dimensions = [{dims(rdims)}]",
                    f"({tensor(ins)}, tensor<f32>) -> {tensor(outs)}", prim)
        return v, outs

    def dot(self, a, b, ash, bsh, lc, rc, prim="dot_general"):
        out = [d for i, d in enumerate(ash) if i not in lc] + [d for i, d in enumerate(bsh) if i not in rc]
        v = self.op(f"stablehlo.dot_general {a}, {b}, contracting_dims = [{dims(lc)}] x [{dims(rc)}], "
                    f"precision = [DEFAULT, DEFAULT]", f"({tensor(ash)}, {tensor(bsh)}) -> {tensor(out)}", prim)
        return v, out

    def conv(self, lhs, rhs, lsh, rsh, osh, spec, stride, pad, lhs_dilate, rhs_dilate, prim="conv_general_dilated"):
        n = len(stride)
        pads = ", ".join(f"[{lo}, {hi}]" for lo, hi in pad)
        rev = ", ".join(["false"] * n)
        return self.op(
            f"stablehlo.convolution({lhs}, {rhs}) dim_numbers = {spec}, window = {{stride = [{dims(stride)}], "
            f"pad = [{pads}], lhs_dilate = [{dims(lhs_dilate)}], rhs_dilate = [{dims(rhs_dilate)}], "
            f"reverse = [{rev}]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64, "
            f"precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}}",
            f"({tensor(lsh)}, {tensor(rsh)}) -> {tensor(osh)}", prim)


class Mixer:
    """Writes MlpMixer.__call__; with train=True also the residuals of JAX's linearization."""

    def __init__(self, graph, cfg, params, train=False):
        self.g, self.cfg, self.p, self.train = graph, cfg, params, train

    def dense(self, x, rows, din, dout, path, line):
        g, n = self.g, len(rows)
        kernel, bias = self.p[path + "/kernel"], self.p[path + "/bias"]
        with g.at(path, line):
            y, out = g.dot(x, kernel, rows + [din], [din, dout], [n], [0])
            ones = [1] * n + [dout]
            rb = g.reshape(bias, [dout], ones)
            bb = g.bcast(rb, ones, out, range(n + 1), "add")
            z = g.ew("add", y, bb, out, "add")
        return z, dict(x=x, kernel=kernel, rows=rows, din=din, dout=dout, path=path, line=line)

    def gelu(self, h, shape, line):
        g, tr = self.g, self.train
        with g.at(g.path, line):
            p2 = g.ew("multiply", h, h, shape, "integer_pow")
            c3 = g.ew("multiply", h, p2, shape, "integer_pow")
            tape = dict(h=h, shape=shape, line=line)
            if tr:  # d/dx x**3 = 3 * integer_pow(x, 2)
                pp = g.ew("multiply", h, h, shape, "integer_pow")
                tape["q3"] = g.ew("multiply", g.const(3.0, shape, "mul"), pp, shape, "mul")
            a = g.ew("multiply", g.const(0.044715, shape, "mul"), c3, shape, "mul")
            s = g.ew("add", h, a, shape, "add")
            c = g.ew("multiply", g.const(SQRT_2_OVER_PI, shape, "mul"), s, shape, "mul")
            t = g.un("tanh", c, shape, "tanh")
            tape["t"] = t
            if tr:  # tanh's jvp: (g + g*ans) * (1 - ans)
                tape["omt"] = g.ew("subtract", g.const(1.0, shape, "sub"), t, shape, "sub")
            d = g.ew("add", g.const(1.0, shape, "add"), t, shape, "add")
            cdf = g.ew("multiply", g.const(0.5, shape, "mul"), d, shape, "mul")
            tape["cdf"] = cdf
            out = g.ew("multiply", h, cdf, shape, "mul")
        return out, tape

    def mlp(self, x, rows, din, hidden, path):
        h, t0 = self.dense(x, rows, din, hidden, path + "/Dense_0", LINES["Dense_0"])
        with self.g.at(path, LINES["gelu"]):
            a, tg = self.gelu(h, rows + [hidden], LINES["gelu"])
        y, t1 = self.dense(a, rows, hidden, din, path + "/Dense_1", LINES["Dense_1"])
        return y, dict(d0=t0, gelu=tg, d1=t1)

    def layer_norm(self, x, shape, path, line):
        g, tr = self.g, self.train
        rows, D = list(shape[:-1]), shape[-1]
        k = len(rows)
        r1, ones = rows + [1], [1] * k + [D]
        keep = list(range(k))
        scale, bias = self.p[path + "/scale"], self.p[path + "/bias"]
        tape = dict(x=x, shape=list(shape), path=path, line=line)
        with g.at(path, line):
            # _compute_stats: mean(x) and mean(_abs_sq(x)), the square written first (an argument).
            x2 = g.ew("multiply", x, x, shape, "square")
            if tr:  # square's jvp: g * (2 * x)
                tape["two_x"] = g.ew("multiply", g.const(2.0, shape, "mul"), x, shape, "mul")
            s1, _ = g.reduce(x, shape, [k])
            mu = g.ew("divide", s1, g.const(float(D), rows, "div"), rows, "div")
            s2, _ = g.reduce(x2, shape, [k])
            mu2 = g.ew("divide", s2, g.const(float(D), rows, "div"), rows, "div")
            musq = g.ew("multiply", mu, mu, rows, "square")
            if tr:
                tape["two_mu"] = g.ew("multiply", g.const(2.0, rows, "mul"), mu, rows, "mul")
            var0 = g.ew("subtract", mu2, musq, rows, "sub")
            zero = g.const(0.0, rows, "max")
            var = g.ew("maximum", zero, var0, rows, "max")
            if tr:  # max's jvp: g * select(y == ans, 1, 0) / select(x == ans, 2, 1)
                e1 = g.compare("EQ", var0, var, rows)
                n1 = g.select(e1, g.const(1.0, rows, "max"), g.const(0.0, rows, "max"), rows)
                e2 = g.compare("EQ", zero, var, rows)
                n2 = g.select(e2, g.const(2.0, rows, "max"), g.const(1.0, rows, "max"), rows)
                tape["beq"] = g.ew("divide", n1, n2, rows, "div")
            mean_e = g.bcast(mu, rows, r1, keep)
            var_e = g.bcast(var, rows, r1, keep)
            mean_b = g.bcast(mean_e, r1, shape, range(k + 1), "sub")
            yc = g.ew("subtract", x, mean_b, shape, "sub")
            ve = g.ew("add", var_e, g.const(EPS, r1, "add"), r1, "add")
            r = g.un("rsqrt", ve, r1, "rsqrt")
            if tr:  # rsqrt's jvp: g * (-0.5 * (ans / x))
                q = g.ew("divide", r, ve, r1, "div")
                tape["rr"] = g.ew("multiply", g.const(-0.5, r1, "mul"), q, r1, "mul")
            sc = g.reshape(scale, [D], ones)
            r_b = g.bcast(r, r1, shape, range(k + 1), "mul")
            sc_b = g.bcast(sc, ones, shape, range(k + 1), "mul")
            mul = g.ew("multiply", r_b, sc_b, shape, "mul")
            y = g.ew("multiply", yc, mul, shape, "mul")
            bi = g.reshape(bias, [D], ones)
            bi_b = g.bcast(bi, ones, shape, range(k + 1), "add")
            out = g.ew("add", y, bi_b, shape, "add")
        tape.update(yc=yc, mul=mul, r_b=r_b, sc_b=sc_b)
        return out, tape

    def stem(self, images):
        g, c = self.g, self.cfg
        B, H, C, p, D = c["batch"], c["image"], c["channels"], c["patch"], c["width"]
        h = H // p
        out = [B, h, h, D]
        with g.at("stem", LINES["stem"]):
            y = g.conv(images, self.p["stem/kernel"], [B, H, H, C], [p, p, C, D], out,
                       "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", [p, p], [(0, 0), (0, 0)], [1, 1], [1, 1])
            rb = g.reshape(self.p["stem/bias"], [D], [1, 1, 1, D])
            bb = g.bcast(rb, [1, 1, 1, D], out, range(4), "add")
            y = g.ew("add", y, bb, out, "add")
        with g.at("", LINES["rearrange"]):
            x = g.reshape(y, out, [B, h * h, D])
        return x

    def block(self, i, x):
        g, c = self.g, self.cfg
        B, S, D, T, M = c["batch"], tokens(c), c["width"], c["tokens_mlp"], c["channels_mlp"]
        blk = f"MixerBlock_{i}"
        full = [B, S, D]
        y, ln0 = self.layer_norm(x, full, blk + "/LayerNorm_0", LINES["LayerNorm_0"])
        with g.at(blk, LINES["swap0"]):
            yt = g.transpose(y, full, [0, 2, 1])
        o, tok = self.mlp(yt, [B, D], S, T, blk + "/token_mixing")
        with g.at(blk, LINES["swap1"]):
            ot = g.transpose(o, [B, D, S], [0, 2, 1])
        with g.at(blk, LINES["add0"]):
            x1 = g.ew("add", x, ot, full, "add")
        y2, ln1 = self.layer_norm(x1, full, blk + "/LayerNorm_1", LINES["LayerNorm_1"])
        o2, ch = self.mlp(y2, [B, S], D, M, blk + "/channel_mixing")
        with g.at(blk, LINES["channel_mixing"]):
            out = g.ew("add", x1, o2, full, "add")
        return out, dict(ln0=ln0, tok=tok, ln1=ln1, ch=ch)

    def forward(self, images):
        """Returns the logits [B, classes] and the tape."""
        g, c = self.g, self.cfg
        B, S, D, K = c["batch"], tokens(c), c["width"], c["classes"]
        x = self.stem(images)
        blocks = []
        for i in range(c["blocks"]):
            x, t = self.block(i, x)
            blocks.append(t)
        y, lnf = self.layer_norm(x, [B, S, D], "pre_head_layer_norm", LINES["pre_head_layer_norm"])
        with g.at("", LINES["mean"]):
            s, _ = g.reduce(y, [B, S, D], [1])
            pooled = g.ew("divide", s, g.const(float(S), [B, D], "div"), [B, D], "div")
        logits, head = self.dense(pooled, [B], D, K, "head", LINES["head"])
        return logits, dict(images=images, blocks=blocks, lnf=lnf, head=head)


def program(cfg):
    b = Builder(SOURCE)
    c = cfg
    B, H, C, K = c["batch"], c["image"], c["channels"], c["classes"]
    specs = param_specs(c)
    params = {name: b.arg(f"arg{i}", shape) for i, (name, shape) in enumerate(specs)}
    images = b.arg(f"arg{len(specs)}", [B, H, H, C])
    g = Graph(b, ROOT, "MlpMixer", SOURCE)
    logits, _ = Mixer(g, c, params).forward(images)
    desc = (f"MLP-Mixer (patch {c['patch']}, width {c['width']}, {c['blocks']} blocks, token MLP "
            f"{c['tokens_mlp']}, channel MLP {c['channels_mlp']}, {K} classes), batch {B}, {H}x{H} images, "
            f"as jax.export writes the Flax model; written by bench/models/mlp_mixer.py. "
            f"plugrt-bytes={must_move_bytes(c)}")
    return b.module("jit_apply", desc, [(logits, [B, K], "f32")])


def init_params(cfg, rng):
    """Trained-looking parameters: lecun-normal kernels, small biases, LayerNorm scales near 1."""
    out = []
    for name, shape in param_specs(cfg):
        leaf = name.rsplit("/", 1)[1]
        if leaf == "kernel":
            fan_in = int(np.prod(shape[:-1]))
            out.append(normal(rng, shape, 1.0 / np.sqrt(fan_in)))
        elif leaf == "scale":
            out.append((1 + normal(rng, shape, 0.05)).astype(np.float32))
        else:
            out.append(normal(rng, shape, 0.02))
    return out


def arguments(cfg, rng):
    B, H, C = cfg["batch"], cfg["image"], cfg["channels"]
    params = init_params(cfg, rng)
    images = rng.uniform(-1.0, 1.0, (B, H, H, C)).astype(np.float32)  # [-1, 1] normalized pixels
    return params + [images]


# ---- NumPy reference (float64) -------------------------------------------------------------

def np_patches(images, p):
    """[B, H, W, C] -> [B, S, p*p*C], rows ordered (kh, kw, c) like an HWIO kernel's first dims."""
    B, H, W, C = images.shape
    x = images.reshape(B, H // p, p, W // p, p, C).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(B, (H // p) * (W // p), p * p * C)


def np_gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def np_layer_norm(x, scale, bias):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * scale + bias


def np_params(cfg, args):
    names = [n for n, _ in param_specs(cfg)]
    return {n: np.asarray(a, np.float64) for n, a in zip(names, args[:len(names)])}


def np_forward(cfg, P, images):
    p, D = cfg["patch"], cfg["width"]
    x = np_patches(images, p) @ P["stem/kernel"].reshape(-1, D) + P["stem/bias"]
    for i in range(cfg["blocks"]):
        blk = f"MixerBlock_{i}/"
        mlp = lambda v, m: (np_gelu(v @ P[m + "Dense_0/kernel"] + P[m + "Dense_0/bias"])  # noqa: E731
                            @ P[m + "Dense_1/kernel"] + P[m + "Dense_1/bias"])
        y = np_layer_norm(x, P[blk + "LayerNorm_0/scale"], P[blk + "LayerNorm_0/bias"])
        x = x + mlp(y.transpose(0, 2, 1), blk + "token_mixing/").transpose(0, 2, 1)
        y = np_layer_norm(x, P[blk + "LayerNorm_1/scale"], P[blk + "LayerNorm_1/bias"])
        x = x + mlp(y, blk + "channel_mixing/")
    y = np_layer_norm(x, P["pre_head_layer_norm/scale"], P["pre_head_layer_norm/bias"])
    return y.mean(1) @ P["head/kernel"] + P["head/bias"]


def reference(cfg, args):
    P = np_params(cfg, args)
    images = np.asarray(args[len(P)], np.float64)
    return [np_forward(cfg, P, images)]
