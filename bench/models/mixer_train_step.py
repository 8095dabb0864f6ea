"""One training step of a small MLP-Mixer (Mixer-S-like: width 512, 8 blocks, token MLP 256,
channel MLP 2048, 10 classes, 64x64 images in 8x8 patches = 64 tokens) as JAX exports
`jax.jit(train_step)`: the Flax MlpMixer forward (mlp_mixer.py writes it), softmax cross-entropy
against one-hot integer labels, the backward pass as JAX's autodiff writes it, and optax.adam
(lr 1e-3, b1 0.9, b2 0.999, eps 1e-8) over every parameter. The train step, in train.py:

    def train_step(params, mu, nu, count, images, labels):
      def loss_fn(params):
        logits = model.apply({'params': params}, images, train=True)
        one_hot = jax.nn.one_hot(labels, logits.shape[-1])
        return optax.softmax_cross_entropy(logits, one_hot).mean()
      loss, grads = jax.value_and_grad(loss_fn)(params)
      updates, state = tx.update(grads, (optax.ScaleByAdamState(count, mu, nu), optax.EmptyState()))
      return loss, optax.apply_updates(params, updates), state[0].mu, state[0].nu

Forms, as JAX writes them (learned from real JAX exports, see the report):
  * the forward (jvp(MlpMixer)) carries the residuals JAX's linearization computes next to the
    primal ops: 2*x for each square (lax.square's jvp), -0.5 * (rsqrt(v) / v) for rsqrt, the
    balanced-eq select/divide of max(0, var), 1 - tanh for tanh, 3 * x*x for x**3.
  * one_hot: labels expanded with broadcast_in_dim, iota dim = 1 [1, classes], both broadcast to
    [B, classes], compare EQ SIGNED, convert i1 -> f32. log_softmax: reduce max, max(-inf, .),
    subtract, exp, reduce_sum, log, subtract; the loss: -(one_hot * log_probs).sum(-1), mean.
  * the backward (transpose(jvp(MlpMixer))): the seed 1.0 / B; each Dense's input gradient
    dot_general(ct, kernel) contracting the out dims, its kernel gradient dot_general(ct, x)
    contracting the row dims then transpose [1, 0] (JAX's _dot_general_transpose_rhs); each
    broadcast's transpose a reduce_sum over the broadcast dims (plus broadcast_in_dim back over
    size-1 dims, JAX's rule, so batch 1 reduces over dim 0 too); each reduce_sum's transpose a
    broadcast_in_dim; the LayerNorm, gelu and max derivatives elementwise; cotangents of a value
    used twice summed with add (add_any); the stem's kernel gradient a convolution of the images
    with the output cotangent, dim_numbers [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f] (batch and
    feature swapped), rhs_dilate = the forward stride, stride 1 (JAX's
    _conv_general_dilated_transpose_rhs).
  * optax.adam: mu' = 0.1*g + 0.9*mu, nu' = 0.001*g*g + 0.999*nu for every leaf, then the count
    incremented (safe_increment: compare LT INT32_MAX, add, select), the bias corrections
    1 - b**count as convert + power, mu'/bc1, nu'/bc2, mu_hat / (sqrt(nu_hat + 0.0) + 1e-8),
    times -lr, added to the parameter: each tree map over all leaves in turn.

@main's arguments (%arg0 ...): the parameters in mlp_mixer.param_specs order (N of them), the
Adam first moments mu in the same order, the second moments nu, the step count i32 (optax's
count before this step), the images f32 [B, 64, 64, 3], the labels i32 [B].
Results: the loss f32 scalar, the new parameters, the new mu, the new nu (each in param order).
"""
import numpy as np

import mlp_mixer as mm
from common import Builder, normal, tensor

DESCRIPTION = "MLP-Mixer-S-like train step: forward, cross-entropy, autodiff backward, Adam (jax.jit export)"
SOURCE = "train.py"
ROOT = "jit(train_step)/jit(main)"
FWD, BWD = "jvp(MlpMixer)", "transpose(jvp(MlpMixer))"
LOSS_FWD, LOSS_BWD = "jvp(loss_fn)", "transpose(jvp(loss_fn))"
TLINES = {"one_hot": 43, "loss": 44, "grad": 45, "update": 46, "apply_updates": 47}
LR, B1, B2, ADAM_EPS = 1e-3, 0.9, 0.999, 1e-8
INT32_MAX = 2147483647

BASE = dict(image=64, channels=3, patch=8, width=512, blocks=8, tokens_mlp=256, channels_mlp=2048, classes=10)
MODELS = {
    "mixer_s_train_b1": dict(BASE, batch=1),
    "mixer_s_train_b32": dict(BASE, batch=32),
}
_SMALL = dict(image=8, channels=3, patch=2, width=8, blocks=2, tokens_mlp=8, channels_mlp=16, classes=5)
SMALL = {
    "mixer_train_small": dict(_SMALL, batch=3),
    "mixer_train_small_b1": dict(_SMALL, batch=1),  # batch 1: the size-1 broadcast transposes
}

# Outputs range from the loss (O(1)) to the Adam moments (O(1e-3) and O(1e-6)); the gradients
# only show through mu' = 0.9*mu + 0.1*g, so the absolute tolerance must be far below 0.1*|g|.
TOLERANCE = (2e-3, 1e-7)

GRAD_SCALE = 1e-2  # the typical gradient size the seeded Adam moments are drawn at


def must_move_bytes(cfg):
    """Parameters, mu and nu each read and written once, the images, labels, step count, loss."""
    B, H, C = cfg["batch"], cfg["image"], cfg["channels"]
    return 4 * (6 * mm.param_count(cfg) + B * H * H * C + B + 1 + 1)


def bcast_transpose(g, ct, operand, out, bdims):
    """JAX's broadcast_in_dim transpose: reduce_sum over the broadcast dims (and the operand's
    size-1 dims), then expand_dims back over those size-1 dims."""
    unit = [i for i, s in enumerate(operand) if s == 1]
    kept = [d for j, d in enumerate(bdims) if j not in unit]
    axes = [i for i in range(len(out)) if i not in kept]
    r, rshape = g.reduce(ct, out, axes)
    if unit:
        r = g.bcast(r, rshape, operand, [i for i in range(len(operand)) if i not in unit])
    return r


class Backward:
    """The transposed linearization of Mixer.forward, writing the gradients into self.grads."""

    def __init__(self, g, cfg):
        self.g, self.cfg, self.grads = g, cfg, {}

    def dense(self, ct, t):
        g, rows, din, dout = self.g, t["rows"], t["din"], t["dout"]
        n = len(rows)
        out, ones = rows + [dout], [1] * n + [dout]
        with g.at(t["path"], t["line"], top=BWD):
            cb = bcast_transpose(g, ct, ones, out, range(n + 1))
            self.grads[t["path"] + "/bias"] = g.reshape(cb, ones, [dout])
            ct_x, _ = g.dot(ct, t["kernel"], out, [din, dout], [n], [1])
            kt, kts = g.dot(ct, t["x"], out, rows + [din], list(range(n)), list(range(n)))
            self.grads[t["path"] + "/kernel"] = g.transpose(kt, kts, [1, 0])
        return ct_x

    def gelu(self, ct, t):
        g, shape = self.g, t["shape"]
        with g.at(g.path, t["line"]):
            ct_h = g.ew("multiply", ct, t["cdf"], shape, "mul")
            ct_cdf = g.ew("multiply", t["h"], ct, shape, "mul")
            ct_d = g.ew("multiply", g.const(0.5, shape, "mul"), ct_cdf, shape, "mul")
            u = g.ew("multiply", ct_d, t["omt"], shape, "tanh")
            ut = g.ew("multiply", u, t["t"], shape, "tanh")
            ct_c = g.ew("add", u, ut, shape, "tanh")
            ct_s = g.ew("multiply", g.const(mm.SQRT_2_OVER_PI, shape, "mul"), ct_c, shape, "mul")
            ct_h = g.ew("add", ct_h, ct_s, shape, "add_any")
            ct_c3 = g.ew("multiply", g.const(0.044715, shape, "mul"), ct_s, shape, "mul")
            ct_p = g.ew("multiply", ct_c3, t["q3"], shape, "integer_pow")
            return g.ew("add", ct_h, ct_p, shape, "add_any")

    def mlp(self, ct, t, path):
        ct = self.dense(ct, t["d1"])
        with self.g.at(path, mm.LINES["gelu"], top=BWD):
            ct = self.gelu(ct, t["gelu"])
        return self.dense(ct, t["d0"])

    def layer_norm(self, ct, t):
        g, shape = self.g, t["shape"]
        rows, D = shape[:-1], shape[-1]
        k = len(rows)
        r1, ones, keep, full_dims = rows + [1], [1] * k + [D], list(range(k)), range(k + 1)
        path = t["path"]
        with g.at(path, t["line"], top=BWD):
            cb = bcast_transpose(g, ct, ones, shape, full_dims)
            self.grads[path + "/bias"] = g.reshape(cb, ones, [D])
            ct_yc = g.ew("multiply", ct, t["mul"], shape, "mul")
            ct_mul = g.ew("multiply", t["yc"], ct, shape, "mul")
            ct_rb = g.ew("multiply", ct_mul, t["sc_b"], shape, "mul")
            ct_scb = g.ew("multiply", t["r_b"], ct_mul, shape, "mul")
            cs = bcast_transpose(g, ct_scb, ones, shape, full_dims)
            self.grads[path + "/scale"] = g.reshape(cs, ones, [D])
            ct_r = bcast_transpose(g, ct_rb, r1, shape, full_dims)
            ct_ve = g.ew("multiply", ct_r, t["rr"], r1, "rsqrt")
            ct_mb = g.un("negate", ct_yc, shape, "sub")
            ct_me = bcast_transpose(g, ct_mb, r1, shape, full_dims)
            ct_var = bcast_transpose(g, ct_ve, rows, r1, keep)
            ct_mu = bcast_transpose(g, ct_me, rows, r1, keep)
            ct_var0 = g.ew("multiply", ct_var, t["beq"], rows, "max")
            ct_musq = g.un("negate", ct_var0, rows, "sub")
            ct_mu2 = g.ew("multiply", ct_musq, t["two_mu"], rows, "square")
            ct_mu = g.ew("add", ct_mu, ct_mu2, rows, "add_any")
            ct_s2 = g.ew("divide", ct_var0, g.const(float(D), rows, "div"), rows, "div")
            ct_x2 = g.bcast(ct_s2, rows, shape, keep, "reduce_sum")
            ct_s1 = g.ew("divide", ct_mu, g.const(float(D), rows, "div"), rows, "div")
            ct_xc = g.bcast(ct_s1, rows, shape, keep, "reduce_sum")
            ct_x = g.ew("add", ct_yc, ct_xc, shape, "add_any")
            ct_xb = g.ew("multiply", ct_x2, t["two_x"], shape, "square")
            return g.ew("add", ct_x, ct_xb, shape, "add_any")

    def block(self, i, ct, t):
        g, c = self.g, self.cfg
        B, S, D = c["batch"], mm.tokens(c), c["width"]
        full, blk = [B, S, D], f"MixerBlock_{i}"
        ct_x1 = self.layer_norm(self.mlp(ct, t["ch"], blk + "/channel_mixing"), t["ln1"])
        with g.at(blk, mm.LINES["channel_mixing"], top=BWD):
            ct_x1 = g.ew("add", ct, ct_x1, full, "add_any")
        with g.at(blk, mm.LINES["swap1"], top=BWD):
            ct_o = g.transpose(ct_x1, full, [0, 2, 1])
        ct_yt = self.mlp(ct_o, t["tok"], blk + "/token_mixing")
        with g.at(blk, mm.LINES["swap0"], top=BWD):
            ct_y = g.transpose(ct_yt, [B, D, S], [0, 2, 1])
        ct_x = self.layer_norm(ct_y, t["ln0"])
        with g.at(blk, mm.LINES["add0"], top=BWD):
            return g.ew("add", ct_x1, ct_x, full, "add_any")

    def stem(self, ct, images):
        g, c = self.g, self.cfg
        B, H, C, p, D = c["batch"], c["image"], c["channels"], c["patch"], c["width"]
        h = H // p
        out = [B, h, h, D]
        with g.at("", mm.LINES["rearrange"], top=BWD):
            ct = g.reshape(ct, [B, h * h, D], out)
        with g.at("stem", mm.LINES["stem"], top=BWD):
            cb = bcast_transpose(g, ct, [1, 1, 1, D], out, range(4))
            self.grads["stem/bias"] = g.reshape(cb, [1, 1, 1, D], [D])
            # JAX's _conv_general_vjp_rhs_padding: lo = forward lo, hi = (out-1)*stride+1 - in + k-1 - lo.
            hi = ((h - 1) * p + 1 - H) + (p - 1)
            self.grads["stem/kernel"] = g.conv(
                images, ct, [B, H, H, C], out, [p, p, C, D], "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]",
                [1, 1], [(0, hi), (0, hi)], [1, 1], [p, p])

    def run(self, ct_logits, tape):
        g, c = self.g, self.cfg
        B, S, D = c["batch"], mm.tokens(c), c["width"]
        ct = self.dense(ct_logits, tape["head"])
        with g.at("", mm.LINES["mean"], top=BWD):
            ct = g.ew("divide", ct, g.const(float(S), [B, D], "div"), [B, D], "div")
            ct = g.bcast(ct, [B, D], [B, S, D], [0, 2], "reduce_sum")
        ct = self.layer_norm(ct, tape["lnf"])
        for i in reversed(range(c["blocks"])):
            ct = self.block(i, ct, tape["blocks"][i])
        self.stem(ct, tape["images"])
        return self.grads


def loss_and_cotangent(g, logits, labels, B, K):
    """The forward of the loss and, after it, its transpose: returns (loss, d loss / d logits)."""
    t = tensor
    with g.at("", TLINES["one_hot"], top=LOSS_FWD, source=SOURCE):
        le = g.bcast(labels, [B], [B, 1], [0], dtype="i32")
        io = g.op("stablehlo.iota dim = 1", t([1, K], "i32"), "iota")
        lb = g.bcast(le, [B, 1], [B, K], [0, 1], "eq", "i32")
        ib = g.bcast(io, [1, K], [B, K], [0, 1], "eq", "i32")
        eq = g.compare("EQ", lb, ib, [B, K], "SIGNED", "i32")
        oh = g.convert(eq, [B, K], "i1", "f32")
    with g.at("", TLINES["loss"], top=LOSS_FWD, source=SOURCE):
        mx, _ = g.reduce(logits, [B, K], [1], "reduce_max", "maximum", -np.inf)
        mx = g.ew("maximum", g.const(-np.inf, [B], "max"), mx, [B], "max")
        mxe = g.bcast(mx, [B], [B, 1], [0])
        mxb = g.bcast(mxe, [B, 1], [B, K], [0, 1], "sub")
        sh = g.ew("subtract", logits, mxb, [B, K], "sub")
        ex = g.un("exponential", sh, [B, K], "exp")
        se, _ = g.reduce(ex, [B, K], [1])
        see = g.bcast(se, [B], [B, 1], [0])
        lse = g.un("log", see, [B, 1], "log")
        lseb = g.bcast(lse, [B, 1], [B, K], [0, 1], "sub")
        logp = g.ew("subtract", sh, lseb, [B, K], "sub")
        pr = g.ew("multiply", oh, logp, [B, K], "mul")
        s, _ = g.reduce(pr, [B, K], [1])
        nl = g.un("negate", s, [B], "neg")
        tot, _ = g.reduce(nl, [B], [0])
        loss = g.ew("divide", tot, g.const(float(B), [], "div"), [], "div")
    with g.at("", TLINES["loss"], top=LOSS_BWD, source=SOURCE):
        ct = g.ew("divide", g.b.scalar(1.0), g.const(float(B), [], "div"), [], "div")
        ct = g.bcast(ct, [], [B], [], "reduce_sum")
        ct = g.un("negate", ct, [B], "neg")
        ct = g.bcast(ct, [B], [B, K], [0], "reduce_sum")
        ct_logp = g.ew("multiply", oh, ct, [B, K], "mul")
        ct_lseb = g.un("negate", ct_logp, [B, K], "sub")
        ct_lse = bcast_transpose(g, ct_lseb, [B, 1], [B, K], [0, 1])
        ct_see = g.ew("divide", ct_lse, see, [B, 1], "log")
        ct_se = bcast_transpose(g, ct_see, [B], [B, 1], [0])
        ct_ex = g.bcast(ct_se, [B], [B, K], [0], "reduce_sum")
        ct_sh = g.ew("multiply", ct_ex, ex, [B, K], "exp")
        ct_logits = g.ew("add", ct_logp, ct_sh, [B, K], "add_any")
    return loss, ct_logits


def adam(g, specs, params, grads, mus, nus, count):
    """optax.adam's update and optax.apply_updates, one tree map after another."""
    with g.at("", TLINES["update"], top="", source=SOURCE):
        new_mu, new_nu = [], []
        for (name, shape), m in zip(specs, mus):
            a = g.ew("multiply", g.const(1 - B1, shape, "mul"), grads[name], shape, "mul")
            b = g.ew("multiply", g.const(B1, shape, "mul"), m, shape, "mul")
            new_mu.append(g.ew("add", a, b, shape, "add"))
        for (name, shape), v in zip(specs, nus):
            sq = g.ew("multiply", grads[name], grads[name], shape, "integer_pow")
            a = g.ew("multiply", g.const(1 - B2, shape, "mul"), sq, shape, "mul")
            b = g.ew("multiply", g.const(B2, shape, "mul"), v, shape, "mul")
            new_nu.append(g.ew("add", a, b, shape, "add"))
        cmax = g.b.scalar(INT32_MAX, "i32")
        lt = g.compare("LT", count, cmax, [], "SIGNED", "i32", prim="lt")
        inc = g.ew("add", count, g.b.scalar(1, "i32"), [], "add", "i32")
        cnt = g.select(lt, inc, cmax, [], "i32")
        cf = g.convert(cnt, [], "i32", "f32")

        def corrected(moments, decay):
            pw = g.ew("power", g.b.scalar(decay), cf, [], "pow")
            bc = g.ew("subtract", g.b.scalar(1.0), pw, [], "sub")
            return [g.ew("divide", x, g.bcast(bc, [], shape, [], "div"), shape, "div")
                    for (_, shape), x in zip(specs, moments)]

        mu_hat = corrected(new_mu, B1)
        nu_hat = corrected(new_nu, B2)
        updates = []
        for (_, shape), m, v in zip(specs, mu_hat, nu_hat):
            a = g.ew("add", v, g.const(0.0, shape, "add"), shape, "add")
            s = g.un("sqrt", a, shape, "sqrt")
            d = g.ew("add", s, g.const(ADAM_EPS, shape, "add"), shape, "add")
            updates.append(g.ew("divide", m, d, shape, "div"))
        updates = [g.ew("multiply", g.const(-LR, shape, "mul"), u, shape, "mul")
                   for (_, shape), u in zip(specs, updates)]
    with g.at("", TLINES["apply_updates"], top="", source=SOURCE):
        new_params = [g.ew("add", params[name], u, shape, "add") for (name, shape), u in zip(specs, updates)]
    return new_params, new_mu, new_nu


def program(cfg):
    c = cfg
    B, H, C, K = c["batch"], c["image"], c["channels"], c["classes"]
    b = Builder(mm.SOURCE)
    specs = mm.param_specs(c)
    n = len(specs)
    params = {name: b.arg(f"arg{i}", shape) for i, (name, shape) in enumerate(specs)}
    mus = [b.arg(f"arg{n + i}", shape) for i, (_, shape) in enumerate(specs)]
    nus = [b.arg(f"arg{2 * n + i}", shape) for i, (_, shape) in enumerate(specs)]
    count = b.arg(f"arg{3 * n}", [], "i32")
    images = b.arg(f"arg{3 * n + 1}", [B, H, H, C])
    labels = b.arg(f"arg{3 * n + 2}", [B], "i32")
    g = mm.Graph(b, ROOT, FWD, mm.SOURCE)
    logits, tape = mm.Mixer(g, c, params, train=True).forward(images)
    loss, ct_logits = loss_and_cotangent(g, logits, labels, B, K)
    grads = Backward(g, c).run(ct_logits, tape)
    new_params, new_mu, new_nu = adam(g, specs, params, grads, mus, nus, count)
    results = [(loss, [], "f32")]
    for values in (new_params, new_mu, new_nu):
        results += [(v, shape, "f32") for v, (_, shape) in zip(values, specs)]
    desc = (f"MLP-Mixer train step (patch {c['patch']}, width {c['width']}, {c['blocks']} blocks, token MLP "
            f"{c['tokens_mlp']}, channel MLP {c['channels_mlp']}, {K} classes; {mm.param_count(c)} parameters), "
            f"batch {B}, {H}x{H} images: forward, softmax cross-entropy, backward, Adam, as jax.jit(train_step) "
            f"exports it; written by bench/models/mixer_train_step.py. plugrt-bytes={must_move_bytes(c)}")
    return b.module("jit_train_step", desc, results)


def arguments(cfg, rng):
    B, H, C, K = cfg["batch"], cfg["image"], cfg["channels"], cfg["classes"]
    params = mm.init_params(cfg, rng)
    specs = mm.param_specs(cfg)
    # Moments as after some steps: mu ~ the gradients' size, nu ~ their square (positive).
    mus = [normal(rng, shape, GRAD_SCALE) for _, shape in specs]
    nus = [((rng.standard_normal(shape) ** 2 + 0.1) * GRAD_SCALE ** 2).astype(np.float32) for _, shape in specs]
    count = np.array(9, np.int32)
    images = rng.uniform(-1.0, 1.0, (B, H, H, C)).astype(np.float32)
    labels = rng.integers(0, K, (B,)).astype(np.int32)
    return params + mus + nus + [count, images, labels]


# ---- NumPy reference (float64): forward with caches, hand-written backward, Adam ------------

def _ln_fwd(x, scale, bias):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + mm.EPS)
    xhat = (x - mu) * rstd
    return xhat * scale + bias, (xhat, rstd, scale)


def _ln_bwd(dy, cache):
    xhat, rstd, scale = cache
    rows = tuple(range(dy.ndim - 1))
    dxhat = dy * scale
    dx = rstd * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    return dx, (dy * xhat).sum(rows), dy.sum(rows)


def _gelu_grad(h):
    k = np.sqrt(2 / np.pi)
    t = np.tanh(k * (h + 0.044715 * h ** 3))
    return 0.5 * (1 + t) + 0.5 * h * (1 - t * t) * k * (1 + 3 * 0.044715 * h * h)


def _dense_bwd(dy, x, kernel):
    din, dout = kernel.shape
    dk = x.reshape(-1, din).T @ dy.reshape(-1, dout)
    return dy @ kernel.T, dk, dy.reshape(-1, dout).sum(0)


def np_loss_and_grads(cfg, P, images, labels):
    """The loss and its gradient with respect to every parameter, by hand."""
    p, D, B = cfg["patch"], cfg["width"], images.shape[0]
    X0 = mm.np_patches(images, p)
    x = X0 @ P["stem/kernel"].reshape(-1, D) + P["stem/bias"]
    caches = []
    for i in range(cfg["blocks"]):
        blk = f"MixerBlock_{i}/"
        c = {}
        y, c["ln0"] = _ln_fwd(x, P[blk + "LayerNorm_0/scale"], P[blk + "LayerNorm_0/bias"])
        c["yt"] = y.transpose(0, 2, 1)
        m = blk + "token_mixing/"
        c["h"] = c["yt"] @ P[m + "Dense_0/kernel"] + P[m + "Dense_0/bias"]
        c["a"] = mm.np_gelu(c["h"])
        o = c["a"] @ P[m + "Dense_1/kernel"] + P[m + "Dense_1/bias"]
        x1 = x + o.transpose(0, 2, 1)
        y2, c["ln1"] = _ln_fwd(x1, P[blk + "LayerNorm_1/scale"], P[blk + "LayerNorm_1/bias"])
        c["y2"] = y2
        m = blk + "channel_mixing/"
        c["h2"] = y2 @ P[m + "Dense_0/kernel"] + P[m + "Dense_0/bias"]
        c["a2"] = mm.np_gelu(c["h2"])
        x = x1 + c["a2"] @ P[m + "Dense_1/kernel"] + P[m + "Dense_1/bias"]
        caches.append(c)
    yf, lnf = _ln_fwd(x, P["pre_head_layer_norm/scale"], P["pre_head_layer_norm/bias"])
    pooled = yf.mean(1)
    logits = pooled @ P["head/kernel"] + P["head/bias"]
    z = logits - logits.max(1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    loss = -logp[np.arange(B), labels].mean()
    onehot = np.zeros_like(logits)
    onehot[np.arange(B), labels] = 1.0
    dlogits = (np.exp(logp) - onehot) / B

    G = {}
    dpooled, G["head/kernel"], G["head/bias"] = _dense_bwd(dlogits, pooled, P["head/kernel"])
    dyf = np.repeat(dpooled[:, None, :] / yf.shape[1], yf.shape[1], axis=1)
    dx, G["pre_head_layer_norm/scale"], G["pre_head_layer_norm/bias"] = _ln_bwd(dyf, lnf)
    for i in reversed(range(cfg["blocks"])):
        blk, c = f"MixerBlock_{i}/", caches[i]
        m = blk + "channel_mixing/"
        da2, G[m + "Dense_1/kernel"], G[m + "Dense_1/bias"] = _dense_bwd(dx, c["a2"], P[m + "Dense_1/kernel"])
        dh2 = da2 * _gelu_grad(c["h2"])
        dy2, G[m + "Dense_0/kernel"], G[m + "Dense_0/bias"] = _dense_bwd(dh2, c["y2"], P[m + "Dense_0/kernel"])
        dx1, G[blk + "LayerNorm_1/scale"], G[blk + "LayerNorm_1/bias"] = _ln_bwd(dy2, c["ln1"])
        dx1 = dx1 + dx
        m = blk + "token_mixing/"
        do = dx1.transpose(0, 2, 1)
        da, G[m + "Dense_1/kernel"], G[m + "Dense_1/bias"] = _dense_bwd(do, c["a"], P[m + "Dense_1/kernel"])
        dh = da * _gelu_grad(c["h"])
        dyt, G[m + "Dense_0/kernel"], G[m + "Dense_0/bias"] = _dense_bwd(dh, c["yt"], P[m + "Dense_0/kernel"])
        dxa, G[blk + "LayerNorm_0/scale"], G[blk + "LayerNorm_0/bias"] = _ln_bwd(dyt.transpose(0, 2, 1), c["ln0"])
        dx = dx1 + dxa
    G["stem/bias"] = dx.reshape(-1, D).sum(0)
    G["stem/kernel"] = (X0.reshape(-1, X0.shape[-1]).T @ dx.reshape(-1, D)).reshape(P["stem/kernel"].shape)
    return loss, G


def reference(cfg, args):
    specs = mm.param_specs(cfg)
    n = len(specs)
    names = [name for name, _ in specs]
    f64 = [np.asarray(a, np.float64) for a in args[:3 * n]]
    P = dict(zip(names, f64[:n]))
    mus, nus = f64[n:2 * n], f64[2 * n:3 * n]
    count = int(args[3 * n])
    images = np.asarray(args[3 * n + 1], np.float64)
    labels = np.asarray(args[3 * n + 2])
    loss, G = np_loss_and_grads(cfg, P, images, labels)
    t = count + 1
    new_p, new_m, new_v = [], [], []
    for name, m, v in zip(names, mus, nus):
        gr = G[name]
        m1 = (1 - B1) * gr + B1 * m
        v1 = (1 - B2) * gr * gr + B2 * v
        mhat, vhat = m1 / (1 - B1 ** t), v1 / (1 - B2 ** t)
        new_p.append(P[name] - LR * mhat / (np.sqrt(vhat) + ADAM_EPS))
        new_m.append(m1)
        new_v.append(v1)
    return [np.array(loss)] + new_p + new_m + new_v
