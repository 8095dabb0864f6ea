"""ResNet-50 v1.5 inference as Flax exports it (flax.linen, the `examples/imagenet` ResNet with
BottleneckResNetBlock, `model.apply(variables, x, train=False)` under jax.jit and jax.export), learned
from real JAX lowerings of that model:

  - NHWC f32 image, HWIO kernels, every conv `stablehlo.convolution` with dim_numbers
    [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], the full window (stride, pad, lhs_dilate, rhs_dilate)
    and precision_config DEFAULT x2; no conv bias (use_bias=False). The stem is 7x7 stride 2 with
    explicit padding [(3, 3), (3, 3)]; the others use padding='SAME', which lax turns into
    TF-style pads, so a 3x3 stride-2 conv on an even input pads [0, 1] (v1.5: the stride is on
    the 3x3 conv of each stage's first block);
  - BatchNorm(use_running_average=True) as flax.linen.normalization._normalize writes it:
    mean and var expanded to [1, 1, 1, C] (broadcast_in_dim dims = [3]), x - mean,
    rsqrt(var + 1e-5) * scale (scale reshaped to [1, 1, 1, C]), times the normalized x, plus the
    reshaped bias, every [1, 1, 1, C] operand widened with broadcast_in_dim dims = [0, 1, 2, 3];
  - nn.relu as JAX exports a jitted function: `call @relu(...)` to a private function per shape
    (max with a broadcast zero);
  - nn.max_pool((3, 3), strides=(2, 2), padding='SAME') as a generic `stablehlo.reduce_window`
    with a max body, -inf init (broadcast to rank 0, as JAX's full_like writes it) and pads
    [0, 1];
  - the projection shortcut (conv_proj + norm_proj, after the main path) on each stage's first
    block, then `residual + y` and relu;
  - jnp.mean over H, W as reduce add then divide by H*W; nn.Dense as dot_general
    (precision DEFAULT) with its [in, out] kernel plus the bias reshaped to [1, N].

Locations are JAX name stacks (`jit(apply)/jit(main)/ResNet/<module path>/<primitive>`) called at a
file:line in Flax or the example (line numbers approximate).

@main's arguments are the leaves of (variables, x) in jax.tree_util order, which sorts dict keys as
strings: variables['batch_stats'] first (per module: mean, var), then variables['params']
(BatchNorm: bias, scale; Conv: kernel; Dense_0: bias, kernel); blocks sort as strings
(BottleneckResNetBlock_0, _1, _10, ..., _15, _2, ...), before Dense_0, bn_init, conv_init; within
a block BatchNorm_0..2, Conv_0..2, conv_proj, norm_proj. The image is the last argument.
`argument_paths(cfg)` lists them.
"""
import numpy as np

from common import Builder, conv_nhwc as _conv, tensor, uniform

DESCRIPTION = "ResNet-50 v1.5 inference, NHWC, inference batch norm (Flax examples/imagenet via jax.export)"
ROOT_SCOPE = "jit(apply)/jit(main)/ResNet"
EPS = 1e-5

# (source file, line) per kind of op: where the exported locations point (approximate).
SITES = {
    "conv": ("linear.py", 629), "expand": ("normalization.py", 203), "sub": ("normalization.py", 210),
    "rsqrt": ("normalization.py", 211), "scale": ("normalization.py", 217), "mul": ("normalization.py", 220),
    "bias": ("normalization.py", 225), "relu": ("functions.py", 62), "pool": ("pooling.py", 53),
    "residual": ("models.py", 79), "mean": ("models.py", 139), "dense": ("linear.py", 258),
    "dense_bias": ("linear.py", 264),
}

BASE = dict(stages=[3, 4, 6, 3], width=64, image=224, classes=1000)
MODELS = {
    "resnet50_b1": dict(BASE, batch=1),
    "resnet50_b32": dict(BASE, batch=32),
}
SMALL = {
    "resnet50_small": dict(stages=[1, 1, 1, 1], width=4, image=16, classes=10, batch=2),
    "resnet50_small_2111": dict(stages=[2, 1, 1, 1], width=4, image=32, classes=10, batch=2),
}


def same_pads(n, k, s):
    """lax.padtype_to_pads for 'SAME': (low, high) for one spatial dimension."""
    out = -(-n // s)
    total = max((out - 1) * s + k - n, 0)
    return (total // 2, total - total // 2)


def conv_out(n, k, s, pads):
    return (n + pads[0] + pads[1] - k) // s + 1


def blocks(cfg):
    """One dict per bottleneck block, in execution order."""
    out = []
    hw = conv_out(cfg["image"], 7, 2, (3, 3))
    hw = conv_out(hw, 3, 2, same_pads(hw, 3, 2))  # max pool
    cin = cfg["width"]
    index = 0
    for i, size in enumerate(cfg["stages"]):
        filters = cfg["width"] * 2 ** i
        for j in range(size):
            stride = 2 if i > 0 and j == 0 else 1
            out.append(dict(name=f"BottleneckResNetBlock_{index}", cin=cin, filters=filters, stride=stride,
                            hw=hw, proj=(cin != filters * 4 or stride != 1)))
            hw = conv_out(hw, 3, stride, same_pads(hw, 3, stride))
            cin = filters * 4
            index += 1
    return out


def variable_tree(cfg):
    """{'batch_stats': ..., 'params': ...} with leaf shapes, as model.init would make it."""
    w = cfg["width"]
    stats = {"bn_init": {"mean": (w,), "var": (w,)}}
    params = {"conv_init": {"kernel": (7, 7, 3, w)}, "bn_init": {"scale": (w,), "bias": (w,)}}
    for blk in blocks(cfg):
        f, c = blk["filters"], blk["cin"]
        s, p = {}, {}
        for k, (kh, ci, co) in enumerate([(1, c, f), (3, f, f), (1, f, 4 * f)]):
            p[f"Conv_{k}"] = {"kernel": (kh, kh, ci, co)}
            p[f"BatchNorm_{k}"] = {"scale": (co,), "bias": (co,)}
            s[f"BatchNorm_{k}"] = {"mean": (co,), "var": (co,)}
        if blk["proj"]:
            p["conv_proj"] = {"kernel": (1, 1, c, 4 * f)}
            p["norm_proj"] = {"scale": (4 * f,), "bias": (4 * f,)}
            s["norm_proj"] = {"mean": (4 * f,), "var": (4 * f,)}
        stats[blk["name"]] = s
        params[blk["name"]] = p
    params["Dense_0"] = {"kernel": (4 * w * 2 ** (len(cfg["stages"]) - 1), cfg["classes"]), "bias": (cfg["classes"],)}
    return {"batch_stats": stats, "params": params}


def _flatten(tree, prefix):
    if isinstance(tree, tuple):
        return [(prefix, tree)]
    out = []
    for key in sorted(tree):  # jax.tree_util sorts dict keys
        out += _flatten(tree[key], prefix + (key,))
    return out


def argument_paths(cfg):
    """[(path, shape)] of @main's arguments in order; the image is ('x',)."""
    b, s = cfg["batch"], cfg["image"]
    return _flatten(variable_tree(cfg), ()) + [(("x",), (b, s, s, 3))]


def must_move_bytes(cfg):
    n = sum(int(np.prod(shape)) for _, shape in argument_paths(cfg))
    return 4 * (n + cfg["batch"] * cfg["classes"])


class ResNet:
    def __init__(self, cfg):
        self.cfg = cfg
        self.b = Builder("models.py")
        self.relus = {}  # shape -> private function name
        self.args = {}
        for i, (path, shape) in enumerate(argument_paths(cfg)):
            self.args[path] = self.b.arg(f"arg{i}", shape)

    def v(self, text, sig, scope, prim, site):
        self.b.source, line = SITES[site]
        scope = f"{ROOT_SCOPE}/{scope}" if scope else ROOT_SCOPE
        return self.b.op(text, sig, f"{scope}/{prim}", line)

    def param(self, *path):
        return self.args[("params",) + path]

    def stat(self, *path):
        return self.args[("batch_stats",) + path]

    def conv(self, x, shape, kernel, kshape, stride, pads, scope):
        B, H, W, _ = shape
        kh, kw, _, co = kshape
        ho, wo = conv_out(H, kh, stride, pads[0]), conv_out(W, kw, stride, pads[1])
        out = [B, ho, wo, co]
        pad = f"[[{pads[0][0]}, {pads[0][1]}], [{pads[1][0]}, {pads[1][1]}]]"
        y = self.v(f"stablehlo.convolution({x}, {kernel}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
                   f"window = {{stride = [{stride}, {stride}], pad = {pad}, lhs_dilate = [1, 1], rhs_dilate = [1, 1]}} "
                   f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = "
                   f"[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}}",
                   f"({tensor(shape)}, {tensor(kshape)}) -> {tensor(out)}", scope, "conv_general_dilated", "conv")
        return y, out

    def batch_norm(self, x, shape, stat_path, param_path, scope):
        t = tensor
        C = shape[3]
        full, small = t(shape), t([1, 1, 1, C])
        mean = self.v(f"stablehlo.broadcast_in_dim {self.stat(*stat_path, 'mean')}, dims = [3]",
                      f"({t([C])}) -> {small}", scope, "broadcast_in_dim", "expand")
        var = self.v(f"stablehlo.broadcast_in_dim {self.stat(*stat_path, 'var')}, dims = [3]",
                     f"({t([C])}) -> {small}", scope, "broadcast_in_dim", "expand")
        mb = self.v(f"stablehlo.broadcast_in_dim {mean}, dims = [0, 1, 2, 3]", f"({small}) -> {full}", scope, "sub", "sub")
        y = self.v(f"stablehlo.subtract {x}, {mb}", full, scope, "sub", "sub")
        eps = self.v(f"stablehlo.broadcast_in_dim {self.b.scalar(EPS)}, dims = []", f"(tensor<f32>) -> {small}",
                     scope, "add", "rsqrt")
        ve = self.v(f"stablehlo.add {var}, {eps}", small, scope, "add", "rsqrt")
        r = self.v(f"stablehlo.rsqrt {ve}", small, scope, "rsqrt", "rsqrt")
        sc = self.v(f"stablehlo.reshape {self.param(*param_path, 'scale')}", f"({t([C])}) -> {small}",
                    scope, "reshape", "scale")
        mul = self.v(f"stablehlo.multiply {r}, {sc}", small, scope, "mul", "scale")
        mulb = self.v(f"stablehlo.broadcast_in_dim {mul}, dims = [0, 1, 2, 3]", f"({small}) -> {full}", scope, "mul", "mul")
        y = self.v(f"stablehlo.multiply {y}, {mulb}", full, scope, "mul", "mul")
        bi = self.v(f"stablehlo.reshape {self.param(*param_path, 'bias')}", f"({t([C])}) -> {small}",
                    scope, "reshape", "bias")
        bb = self.v(f"stablehlo.broadcast_in_dim {bi}, dims = [0, 1, 2, 3]", f"({small}) -> {full}", scope, "add", "bias")
        return self.v(f"stablehlo.add {y}, {bb}", full, scope, "add", "bias")

    def relu(self, x, shape, scope):
        key = tuple(shape)
        if key not in self.relus:
            self.relus[key] = "relu" if not self.relus else f"relu_{len(self.relus) - 1}"
        return self.v(f"call @{self.relus[key]}({x})", f"({tensor(shape)}) -> {tensor(shape)}", scope, "relu", "relu")

    def relu_functions(self):
        out = []
        source, line = SITES["relu"]
        for shape, name in self.relus.items():
            t = tensor(list(shape))
            loc = f'loc("{ROOT_SCOPE}/relu/max"("{source}":{line}:0))'
            out += [f"  func.func private @{name}(%arg0: {t}) -> {t} {{",
                    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>",
                    f"    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> {t} {loc}",
                    f"    %1 = stablehlo.maximum %arg0, %0 : {t} {loc}",
                    f"    return %1 : {t}",
                    "  }"]
        return out

    def block(self, x, shape, blk):
        name, f, stride = blk["name"], blk["filters"], blk["stride"]
        B, H, W, C = shape
        y, s1 = self.conv(x, shape, self.param(name, "Conv_0", "kernel"), [1, 1, C, f], 1, [(0, 0), (0, 0)],
                          f"{name}/Conv_0")
        y = self.batch_norm(y, s1, (name, "BatchNorm_0"), (name, "BatchNorm_0"), f"{name}/BatchNorm_0")
        y = self.relu(y, s1, name)
        pads = [same_pads(H, 3, stride), same_pads(W, 3, stride)]
        y, s2 = self.conv(y, s1, self.param(name, "Conv_1", "kernel"), [3, 3, f, f], stride, pads, f"{name}/Conv_1")
        y = self.batch_norm(y, s2, (name, "BatchNorm_1"), (name, "BatchNorm_1"), f"{name}/BatchNorm_1")
        y = self.relu(y, s2, name)
        y, s3 = self.conv(y, s2, self.param(name, "Conv_2", "kernel"), [1, 1, f, 4 * f], 1, [(0, 0), (0, 0)],
                          f"{name}/Conv_2")
        y = self.batch_norm(y, s3, (name, "BatchNorm_2"), (name, "BatchNorm_2"), f"{name}/BatchNorm_2")
        residual = x
        if blk["proj"]:
            residual, sp = self.conv(x, shape, self.param(name, "conv_proj", "kernel"), [1, 1, C, 4 * f], stride,
                                     [(0, 0), (0, 0)], f"{name}/conv_proj")
            residual = self.batch_norm(residual, sp, (name, "norm_proj"), (name, "norm_proj"), f"{name}/norm_proj")
        z = self.v(f"stablehlo.add {residual}, {y}", tensor(s3), name, "add", "residual")
        return self.relu(z, s3, name), s3

    def build(self):
        c, t, b = self.cfg, tensor, self.b
        B, S, K = c["batch"], c["image"], c["classes"]
        x, shape = self.args[("x",)], [B, S, S, 3]
        x, shape = self.conv(x, shape, self.param("conv_init", "kernel"), [7, 7, 3, c["width"]], 2,
                             [(3, 3), (3, 3)], "conv_init")
        x = self.batch_norm(x, shape, ("bn_init",), ("bn_init",), "bn_init")
        x = self.relu(x, shape, "")
        # nn.max_pool: window (1, 3, 3, 1), strides (1, 2, 2, 1), 'SAME'.
        Bq, H, W, C = shape
        ph, pw = same_pads(H, 3, 2), same_pads(W, 3, 2)
        pooled = [Bq, conv_out(H, 3, 2, ph), conv_out(W, 3, 2, pw), C]
        init = self.v(f"stablehlo.broadcast_in_dim {b.scalar(-np.inf)}, dims = []", "(tensor<f32>) -> tensor<f32>",
                      "", "reduce_window_max", "pool")
        n = b.count + 1
        b.source, line = SITES["pool"]
        b.count = n
        b.raw(f'    %v{n} = "stablehlo.reduce_window"({x}, {init}) <{{base_dilations = array<i64: 1, 1, 1, 1>, '
              f"padding = dense<[[0, 0], [{ph[0]}, {ph[1]}], [{pw[0]}, {pw[1]}], [0, 0]]> : tensor<4x2xi64>, "
              f"window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, "
              f"window_strides = array<i64: 1, 2, 2, 1>}}> ({{")
        b.raw("    ^bb0(%rw_a: tensor<f32>, %rw_b: tensor<f32>):")
        b.raw(f"      %rw_m{n} = stablehlo.maximum %rw_a, %rw_b : tensor<f32>")
        b.raw(f"      stablehlo.return %rw_m{n} : tensor<f32>")
        b.raw(f'    }}) : ({t(shape)}, tensor<f32>) -> {t(pooled)} '
              f'loc("{ROOT_SCOPE}/reduce_window_max"("{b.source}":{line}:0))')
        x, shape = f"%v{n}", pooled
        for blk in blocks(c):
            x, shape = self.block(x, shape, blk)
        # jnp.mean(x, axis=(1, 2))
        _, H, W, C = shape
        s = self.v(f"stablehlo.reduce({x} init: {b.scalar(0.0)}) applies stablehlo.add across dimensions = [1, 2]",
                   f"({t(shape)}, tensor<f32>) -> {t([B, C])}", "", "reduce_sum", "mean")
        cnt = self.v(f"stablehlo.broadcast_in_dim {b.scalar(float(H * W))}, dims = []", f"(tensor<f32>) -> {t([B, C])}",
                     "", "div", "mean")
        m = self.v(f"stablehlo.divide {s}, {cnt}", t([B, C]), "", "div", "mean")
        # nn.Dense(num_classes)
        y = self.v(f"stablehlo.dot_general {m}, {self.param('Dense_0', 'kernel')}, contracting_dims = [1] x [0], "
                   f"precision = [DEFAULT, DEFAULT]", f"({t([B, C])}, {t([C, K])}) -> {t([B, K])}",
                   "Dense_0", "dot_general", "dense")
        bias = self.v(f"stablehlo.reshape {self.param('Dense_0', 'bias')}", f"({t([K])}) -> {t([1, K])}",
                      "Dense_0", "reshape", "dense_bias")
        bb = self.v(f"stablehlo.broadcast_in_dim {bias}, dims = [0, 1]", f"({t([1, K])}) -> {t([B, K])}",
                    "Dense_0", "add", "dense_bias")
        logits = self.v(f"stablehlo.add {y}, {bb}", t([B, K]), "Dense_0", "add", "dense_bias")
        stages = ", ".join(str(n) for n in c["stages"])
        desc = (f"ResNet-50 v1.5 (bottleneck stages [{stages}], width {c['width']}, {K} classes), batch {B}, "
                f"{S}x{S}x3 NHWC f32, inference batch norm, as Flax (examples/imagenet) exports it with "
                f"jax.export; written by bench/models/resnet50.py. plugrt-bytes={must_move_bytes(c)}")
        text = b.module("jit_apply", desc, [(logits, [B, K], "f32")])
        assert text.endswith("  }\n}\n")
        return text[:-2] + "\n".join(self.relu_functions()) + "\n}\n"


def program(cfg):
    return ResNet(cfg).build()


def arguments(cfg, rng):
    """He-normal conv kernels, LeCun-normal Dense kernel; running means N(0, 0.1), variances
    U(0.5, 1.5), scales 1 + N(0, 0.05), biases N(0, 0.02); the scale of each block's last batch
    norm (BatchNorm_2, which Flax initializes to zero) is 0.2 times that, as in trained nets,
    so the residual stream stays O(1) over 16 blocks (with 1 the logits reach ~1e4). The image
    is uniform in [-1, 1)."""
    out = []
    for path, shape in argument_paths(cfg):
        leaf = path[-1]
        if leaf == "x":
            a = uniform(rng, shape)
        elif leaf == "kernel" and len(shape) == 4:
            a = rng.standard_normal(shape) * np.sqrt(2.0 / (shape[0] * shape[1] * shape[2]))
        elif leaf == "kernel":
            a = rng.standard_normal(shape) / np.sqrt(shape[0])
        elif leaf == "mean":
            a = rng.standard_normal(shape) * 0.1
        elif leaf == "var":
            a = rng.uniform(0.5, 1.5, shape)
        elif leaf == "scale":
            a = (1.0 + rng.standard_normal(shape) * 0.05) * (0.2 if path[-2] == "BatchNorm_2" else 1.0)
        else:  # bias
            a = rng.standard_normal(shape) * 0.02
        out.append(np.asarray(a, np.float32))
    return out


def _max_pool(x, pads):
    (pt, pb), (pl, pr) = pads
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=-np.inf)
    ho = (xp.shape[1] - 3) // 2 + 1
    wo = (xp.shape[2] - 3) // 2 + 1
    out = np.full((x.shape[0], ho, wo, x.shape[3]), -np.inf)
    for i in range(3):
        for j in range(3):
            out = np.maximum(out, xp[:, i:i + 2 * (ho - 1) + 1:2, j:j + 2 * (wo - 1) + 1:2, :])
    return out


def reference(cfg, args):
    p = {path: np.asarray(a, np.float64) for (path, _), a in zip(argument_paths(cfg), args)}

    def bn(x, *module):
        mean, var = p[("batch_stats",) + module + ("mean",)], p[("batch_stats",) + module + ("var",)]
        scale, bias = p[("params",) + module + ("scale",)], p[("params",) + module + ("bias",)]
        return (x - mean) / np.sqrt(var + EPS) * scale + bias

    def kernel(*module):
        return p[("params",) + module + ("kernel",)]

    relu = lambda v: np.maximum(v, 0.0)  # noqa: E731
    x = p[("x",)]
    x = relu(bn(_conv(x, kernel("conv_init"), 2, [(3, 3), (3, 3)]), "bn_init"))
    x = _max_pool(x, [same_pads(x.shape[1], 3, 2), same_pads(x.shape[2], 3, 2)])
    for blk in blocks(cfg):
        n, s = blk["name"], blk["stride"]
        y = relu(bn(_conv(x, kernel(n, "Conv_0"), 1, [(0, 0), (0, 0)]), n, "BatchNorm_0"))
        y = relu(bn(_conv(y, kernel(n, "Conv_1"), s, [same_pads(y.shape[1], 3, s), same_pads(y.shape[2], 3, s)]),
                    n, "BatchNorm_1"))
        y = bn(_conv(y, kernel(n, "Conv_2"), 1, [(0, 0), (0, 0)]), n, "BatchNorm_2")
        r = bn(_conv(x, kernel(n, "conv_proj"), s, [(0, 0), (0, 0)]), n, "norm_proj") if blk["proj"] else x
        x = relu(r + y)
    pooled = x.mean(axis=(1, 2))
    return [pooled @ kernel("Dense_0") + p[("params", "Dense_0", "bias")]]
