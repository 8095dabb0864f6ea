"""MobileNet v1 inference as TensorFlow's tf2xla bridge writes it in XLA HLO text: Keras
`tf.keras.applications.MobileNet(alpha=1.0, input_shape=(224, 224, 3), classes=1000)` (Keras 3, the
tf.keras of TensorFlow 2.16 and later) called with training=False inside
`tf.function(jit_compile=True)`. Its patterns are learned from the HLO text of XLA's own CPU
benchmark programs, openxla/xla `xla/backends/cpu/benchmarks/hlo/ssd_mobilenet_tf.hlo` (a TF
MobileNet v1 SSD) and `graphsage_tf.hlo`, both dumped from tf2xla, and from tf2xla's kernels:

  - the module header `HloModule cluster_0__XlaCompiledKernel_true__XlaHasReferenceVars_false__
    XlaNumConstantArgs_0__XlaNumResourceArgs_<N>_.<K>, alias_passthrough_params=true,
    entry_computation_layout={(...)->...}`, the entry computation of the same name, called
    computations first; every array shape with its layout ({3,2,1,0}, {1,0}, {0});
  - instructions printed in XLA's post order (a DFS from ROOT taking operands first to last), so
    the zero of every Relu6 clamp is written before the layer chain it ends, as in the SSD file;
  - each instruction named `%<last part of the TF op name>.<n>` with
    `metadata={op_type="..." op_name="<scope>/<op>" source_file="dummy_file_name" source_line=10}`;
    what the SSD and GraphSAGE files print without the source (the broadcasts and the clamp of
    Relu6, Rsqrt) is printed without it here too; scalar constants are materialized by the op
    that uses them and carry its name (tf2xla folds Const ops into their consumers);
  - arguments: tf2xla orders a compiled cluster's arguments constants, then parameters, then
    resource variables. The image is `%arg0.1 = f32[B,H,W,3]{3,2,1,0} parameter(0),
    parameter_replication={false}, metadata={op_name="XLA_Args"}` followed by the `reshape` tf2xla
    writes for every kParameter argument; the Keras variables are resource arguments arg1..argN
    (XlaNumResourceArgs_N), which tf2xla uses as they come (XlaResource::SetFromPack, no reshape),
    in the order the traced call reads them: per Conv2D / DepthwiseConv2D its `kernel`, per
    BatchNormalization `moving_mean, moving_variance, gamma, beta` (the order Keras 3's
    BatchNormalization.call reads them), and `conv_preds` kernel then bias. `argument_paths(cfg)`
    lists them;
  - Keras 3's BatchNormalization in inference calls `tf.nn.batch_normalization`, so the batch norm
    is NOT folded into the convolution (only a frozen graph, like the SSD one, folds it into a
    per-channel bias add) and NOT a FusedBatchNormV3: it is spelled out as that function writes
    it: `inv = rsqrt(variance + eps) * gamma`, `x * inv + (beta - mean * inv)`, eps 0.001,
    the [C] operands broadcast with dimensions={3}. Keras 2 (tf.keras up to TF 2.15) called
    fused_batch_norm instead, which tf2xla writes as `batch-norm-inference` between two f32
    converts; the small twin with keras=2 is written that way (and with Keras 2's op names,
    variable read order gamma, beta, moving_mean, moving_variance, and tf.nn.bias_add for the
    classifier's bias), so both generations of the export are checked;
  - Relu6 as `clamp(broadcast(0), x, broadcast(6))`;
  - Conv2D (conv1, the pointwise 1x1 convs, conv_preds) as `convolution(x, kernel)` with
    `dim_labels=b01f_01io->b01f` and the window tf2xla computes for 'same' padding
    (conv1: `size=3x3 stride=2x2 pad=0_1x0_1` on an even image); DepthwiseConv2dNative as a
    `reshape` of the [3, 3, C, 1] kernel to [3, 3, 1, C] then a convolution with
    `feature_group_count=C`: 'same' (`pad=1_1x1_1`) at stride 1; at stride 2 Keras MobileNet
    first pads with ZeroPadding2D(((0, 1), (0, 1))) (a TF Pad: HLO `pad` with a zero constant,
    `padding=0_0x0_1x0_1x0_0`) then convolves 'valid' (`window={size=3x3 stride=2x2}`);
  - GlobalAveragePooling2D(keepdims=True) as tf2xla's Mean: convert, reduce add over {1,2} with a
    `%<scope>_Mean-reduction.<n>` computation, the element count as s32 H * W converted to f32,
    divide, convert, then the keep_dims reshape to [B, 1, 1, C];
  - conv_preds: 1x1 Conv2D, then Keras 3's bias add (the bias reshaped to [1, 1, 1, classes],
    an AddV2 that tf2xla broadcasts over the batch when it is above 1); Reshape to
    [B, classes]; Softmax as tf2xla's SoftmaxOp: reduce max (init -inf, computation
    `max_float_`), subtract with the max broadcast over dimensions={0}, exp, convert, reduce add
    (`add_float_`), convert, divide;
  - one result: a `reshape` named XLA_Retvals, a one-element tuple and ROOT its
    get-tuple-element (as graphsage_tf.hlo ends).

Dropout is the identity in inference and leaves nothing.
"""
import numpy as np

from common import HEADER, conv_nhwc as _conv, uniform

EXTENSION = "hlo"
DESCRIPTION = ("MobileNet v1 inference, NHWC, Keras 3 batch norm spelled out (tf.keras MobileNet under "
               "tf.function(jit_compile=True); XLA HLO text as tf2xla writes it)")
EPS = 1e-3
# (pointwise filters before alpha, stride of the depthwise conv) per block, Keras' order.
BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
# The order a BatchNormalization's call reads its variables: Keras 3 (casts of moving_mean and
# moving_variance, then gamma, beta) and Keras 2 (fused_batch_norm(x, gamma, beta, mean, variance)).
BN_READS = {3: ("moving_mean", "moving_variance", "gamma", "beta"),
            2: ("gamma", "beta", "moving_mean", "moving_variance")}
TOLERANCE = (2e-3, 1e-5)  # softmax probabilities: of 1000 classes most are ~1e-3

MODELS = {
    "mobilenet_v1_tf_b1": dict(alpha=1.0, image=224, classes=1000, batch=1),
    "mobilenet_v1_tf_b16": dict(alpha=1.0, image=224, classes=1000, batch=16),
}
SMALL = {
    "mobilenet_v1_tf_small": dict(alpha=0.25, image=64, classes=10, batch=2),
    "mobilenet_v1_tf_small_s72": dict(alpha=0.25, image=72, classes=10, batch=1),  # odd sizes (9 -> 4)
    # tf.keras 2 (TensorFlow up to 2.15): FusedBatchNormV3 -> batch-norm-inference, BiasAdd
    "mobilenet_v1_tf_small_keras2": dict(alpha=0.25, image=64, classes=10, batch=2, keras=2),
}


def model_name(cfg):
    """Keras' default name: f"mobilenet_{alpha:0.2f}_{rows}", the outer name scope."""
    return f"mobilenet_{cfg['alpha']:0.2f}_{cfg['image']}"


def same_pads(n, k, s):
    out = -(-n // s)
    total = max((out - 1) * s + k - n, 0)
    return (total // 2, total - total // 2)


def layers(cfg):
    """The conv layers in order: dicts with kind (conv, dw, pw), name, cin, cout, stride, hw (input
    size)."""
    a = cfg["alpha"]
    c = int(32 * a)
    hw = cfg["image"]
    out = [dict(kind="conv", name="conv1", cin=3, cout=c, stride=2, hw=hw)]
    hw = -(-hw // 2)
    for i, (f, s) in enumerate(BLOCKS, 1):
        out.append(dict(kind="dw", name=f"conv_dw_{i}", block=i, cin=c, cout=c, stride=s, hw=hw))
        hw = hw if s == 1 else (hw + 1 - 3) // 2 + 1
        f = int(f * a)
        out.append(dict(kind="pw", name=f"conv_pw_{i}", block=i, cin=c, cout=f, stride=1, hw=hw))
        c = f
    return out


def argument_paths(cfg):
    """[(path, shape)] of the entry computation's parameters: the image, then the variables."""
    b, s = cfg["batch"], cfg["image"]
    out = [(("x",), (b, s, s, 3))]
    for l in layers(cfg):
        if l["kind"] == "conv":
            k = (3, 3, 3, l["cout"])
        elif l["kind"] == "dw":
            k = (3, 3, l["cin"], 1)
        else:
            k = (1, 1, l["cin"], l["cout"])
        out.append(((l["name"], "kernel"), k))
        for v in BN_READS[cfg.get("keras", 3)]:
            out.append(((l["name"] + "_bn", v), (l["cout"],)))
    c = layers(cfg)[-1]["cout"]
    out.append((("conv_preds", "kernel"), (1, 1, c, cfg["classes"])))
    out.append((("conv_preds", "bias"), (cfg["classes"],)))
    return out


def must_move_bytes(cfg):
    n = sum(int(np.prod(shape)) for _, shape in argument_paths(cfg))
    return 4 * (n + cfg["batch"] * cfg["classes"])


# ---------------------------------------------------------------------------------------------
# HLO text


def shape_text(dtype, dims, layout=True):
    s = f"{dtype}[{','.join(str(d) for d in dims)}]"
    if layout and dims:
        s += "{" + ",".join(str(i) for i in reversed(range(len(dims)))) + "}"
    return s


def number(value, dtype):
    if dtype == "s32":
        return str(int(value))
    v = np.float32(value)
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    return np.format_float_positional(v, trim="-")


class Inst:
    __slots__ = ("name", "dtype", "dims", "opcode", "operands", "attrs", "meta", "shape")

    def __init__(self, name, dtype, dims, opcode, operands, attrs, meta, shape=None):
        self.name, self.dtype, self.dims = name, dtype, tuple(dims)
        self.opcode, self.operands, self.attrs, self.meta = opcode, operands, attrs, meta
        self.shape = shape or shape_text(dtype, dims)  # a tuple's shape is given as text

    def text(self):
        shape = self.shape
        if self.opcode.startswith("constant(") or self.opcode.startswith("parameter("):
            body = self.opcode
        else:
            body = f"{self.opcode}({', '.join('%' + o.name for o in self.operands)})"
        parts = [body] + self.attrs + ([self.meta] if self.meta else [])
        return f"%{self.name} = {shape} {', '.join(parts)}"


class Hlo:
    """Builds the entry computation the way tf2xla's XlaBuilder does: instructions named after the
    TF op being compiled, each with its metadata; printed in post order."""

    def __init__(self, scope):
        self.scope = scope
        self.counters = {}
        self.op_type = self.op_name = None
        self.computations = []  # text of the called computations, in order
        self.computation_count = 0

    def unique(self, base):
        n = self.counters.get(base, 0) + 1
        self.counters[base] = n
        return f"{base}.{n}"

    def tf(self, op_type, op_name):
        """Starts compiling TF op `op_name` (relative to the model scope) of type `op_type`."""
        self.op_type, self.op_name = op_type, f"{self.scope}/{op_name}"

    def meta(self, source=True):
        m = f'metadata={{op_type="{self.op_type}" op_name="{self.op_name}"'
        if source:
            m += ' source_file="dummy_file_name" source_line=10'
        return m + "}"

    def emit(self, opcode, dims, operands=(), attrs=(), dtype="f32", source=True):
        base = self.op_name.rsplit("/", 1)[-1]
        return Inst(self.unique(base), dtype, dims, opcode, list(operands), list(attrs), self.meta(source))

    def constant(self, value, dtype="f32", source=True):
        return self.emit(f"constant({number(value, dtype)})", (), dtype=dtype, source=source)

    def broadcast(self, x, dims, dimensions, source=True):
        return self.emit("broadcast", dims, [x], [f"dimensions={{{','.join(map(str, dimensions))}}}"],
                         source=source)

    def scalar_computation(self, name, op):
        """A called (x, y) -> op(x, y) computation; returns its name."""
        self.computation_count += 1
        n = self.computation_count
        name = f"{name}.{n}"
        self.computations.append(
            f"%{name} (x.{n}: f32[], y.{n}: f32[]) -> f32[] {{\n"
            f"  %x.{n} = f32[] parameter(0)\n"
            f"  %y.{n} = f32[] parameter(1)\n"
            f"  ROOT %{op}.{n} = f32[] {op}(%x.{n}, %y.{n})\n"
            "}\n")
        return name

    @staticmethod
    def post_order(root):
        """XLA's post order: DFS from root, operands first to last."""
        order, seen, stack = [], set(), [(root, False)]
        while stack:
            inst, expanded = stack.pop()
            if expanded:
                order.append(inst)
                continue
            if id(inst) in seen:
                continue
            seen.add(id(inst))
            stack.append((inst, True))
            for o in reversed(inst.operands):
                if id(o) not in seen:
                    stack.append((o, False))
        return order


class MobileNet:
    def __init__(self, cfg):
        self.cfg = cfg
        self.keras = cfg.get("keras", 3)
        self.h = Hlo(model_name(cfg))
        self.params = []
        self.args = {}
        for i, (path, shape) in enumerate(argument_paths(cfg)):
            p = Inst(f"arg{i}.1", "f32", shape, f"parameter({i})", [], ["parameter_replication={false}"],
                     'metadata={op_name="XLA_Args"}')
            self.params.append(p)
            self.args[path] = p

    def conv(self, x, dims, l):
        """Conv2D or DepthwiseConv2dNative of layer l; returns (value, dims)."""
        h = self.h
        B, H, W, C = dims
        k = self.args[(l["name"], "kernel")]
        s = l["stride"]
        if l["kind"] == "dw":
            if s != 1:  # ZeroPadding2D(((0, 1), (0, 1))) then 'valid'
                h.tf("Pad", f"conv_pad_{l['block']}/Pad")
                zero = h.constant(0)
                dims = (B, H + 1, W + 1, C)
                x = h.emit("pad", dims, [x, zero], ["padding=0_0x0_1x0_1x0_0"])
                B, H, W, C = dims
                pads = [(0, 0), (0, 0)]
            else:
                pads = [same_pads(H, 3, 1), same_pads(W, 3, 1)]
            h.tf("DepthwiseConv2dNative", f"{l['name']}/depthwise")
            k = h.emit("reshape", (3, 3, 1, C), [k])
            kh, groups, co = 3, C, C
        else:
            kh = 3 if l["kind"] == "conv" else 1
            pads = [same_pads(H, kh, s), same_pads(W, kh, s)] if kh > 1 else [(0, 0), (0, 0)]
            h.tf("Conv2D", f"{l['name']}/{'convolution' if self.keras == 3 else 'Conv2D'}")
            groups, co = 1, l["cout"]
        ho = (H + pads[0][0] + pads[0][1] - kh) // s + 1
        wo = (W + pads[1][0] + pads[1][1] - kh) // s + 1
        window = f"size={kh}x{kh}"
        if s != 1:
            window += f" stride={s}x{s}"
        if any(p for pair in pads for p in pair):
            window += f" pad={pads[0][0]}_{pads[0][1]}x{pads[1][0]}_{pads[1][1]}"
        attrs = [f"window={{{window}}}", "dim_labels=b01f_01io->b01f"]
        if groups > 1:
            attrs.append(f"feature_group_count={groups}")
        out = (B, ho, wo, co)
        return h.emit("convolution", out, [x, k], attrs), out

    def batch_norm(self, x, dims, bn):
        """tf.nn.batch_normalization as Keras 3 calls it (name scope <bn>/batchnorm); with Keras 2,
        FusedBatchNormV3 as tf2xla's FusedBatchNormOp writes it (is_training=False): the input
        converted to the statistics' type, batch-norm-inference, converted back."""
        h = self.h
        C = dims[3]
        mean, var = self.args[(bn, "moving_mean")], self.args[(bn, "moving_variance")]
        gamma, beta = self.args[(bn, "gamma")], self.args[(bn, "beta")]
        if self.keras == 2:
            h.tf("FusedBatchNormV3", f"{bn}/FusedBatchNormV3")
            y = h.emit("batch-norm-inference", dims, [h.emit("convert", dims, [x]), gamma, beta, mean, var],
                       [f"epsilon={number(EPS, 'f32')}", "feature_index=3"])
            return h.emit("convert", dims, [y])
        scope = f"{bn}/batchnorm"
        h.tf("AddV2", f"{scope}/add")
        eps = h.broadcast(h.constant(EPS), (C,), [])
        ve = h.emit("add", (C,), [var, eps])
        h.tf("Rsqrt", f"{scope}/Rsqrt")
        r = h.emit("rsqrt", (C,), [ve], source=False)
        h.tf("Mul", f"{scope}/mul")
        inv = h.emit("multiply", (C,), [r, gamma])
        h.tf("Mul", f"{scope}/mul_1")
        y = h.emit("multiply", dims, [x, h.broadcast(inv, dims, [3])])
        h.tf("Mul", f"{scope}/mul_2")
        mi = h.emit("multiply", (C,), [mean, inv])
        h.tf("Sub", f"{scope}/sub")
        shift = h.emit("subtract", (C,), [beta, mi])
        h.tf("AddV2", f"{scope}/add_1")
        return h.emit("add", dims, [y, h.broadcast(shift, dims, [3])])

    def relu6(self, x, dims, name):
        h = self.h
        h.tf("Relu6", f"{name}/Relu6")
        zero, six = h.constant(0), h.constant(6)
        lo = h.broadcast(zero, dims, [], source=False)
        hi = h.broadcast(six, dims, [], source=False)
        return h.emit("clamp", dims, [lo, x, hi], source=False)

    def build(self):
        c, h = self.cfg, self.h
        B, S, K = c["batch"], c["image"], c["classes"]
        x = Inst("reshape.1", "f32", (B, S, S, 3), "reshape", [self.args[("x",)]], [], None)
        h.counters["reshape"] = 1
        dims = (B, S, S, 3)
        for l in layers(c):
            x, dims = self.conv(x, dims, l)
            x = self.batch_norm(x, dims, l["name"] + "_bn")
            relu = "conv1_relu" if l["kind"] == "conv" else f"{l['name']}_relu"
            x = self.relu6(x, dims, relu)
        # GlobalAveragePooling2D(keepdims=True): Mean over {1, 2}
        _, H, W, C = dims
        h.tf("Mean", "global_average_pooling2d/Mean")
        reduction = h.scalar_computation(
            f"{h.scope}_global_average_pooling2d_Mean-reduction".replace("/", "_"), "add")
        data = h.emit("convert", dims, [x])
        init = h.emit("convert", (), [h.constant(0)])
        s = h.emit("reduce", (B, C), [data, init], ["dimensions={1,2}", f"to_apply=%{reduction}"])
        count = h.emit("multiply", (), [h.constant(H, "s32"), h.constant(W, "s32")], dtype="s32")
        count = h.emit("convert", (), [count])
        m = h.emit("divide", (B, C), [s, h.broadcast(count, (B, C), [])])
        m = h.emit("convert", (B, C), [m])
        x = h.emit("reshape", (B, 1, 1, C), [m])
        # conv_preds: 1x1 Conv2D, then Keras 3's bias add (bias reshaped to [1, 1, 1, K])
        h.tf("Conv2D", f"conv_preds/{'convolution' if self.keras == 3 else 'Conv2D'}")
        y = h.emit("convolution", (B, 1, 1, K), [x, self.args[("conv_preds", "kernel")]],
                   ["window={size=1x1}", "dim_labels=b01f_01io->b01f"])
        if self.keras == 3:
            h.tf("Reshape", "conv_preds/Reshape")
            bias = h.emit("reshape", (1, 1, 1, K), [self.args[("conv_preds", "bias")]])
            h.tf("AddV2", "conv_preds/add")
            if B != 1:  # tf2xla's BroadcastTo: drop the expanded 1, broadcast over the rest
                bias = h.broadcast(h.emit("reshape", (1, 1, K), [bias]), (B, 1, 1, K), [1, 2, 3])
        else:  # Keras 2: tf.nn.bias_add, tf2xla's BiasAdd over the feature dimension
            h.tf("BiasAdd", "conv_preds/BiasAdd")
            bias = h.broadcast(self.args[("conv_preds", "bias")], (B, 1, 1, K), [3])
        y = h.emit("add", (B, 1, 1, K), [y, bias])
        h.tf("Reshape", "reshape_2/Reshape")
        logits = h.emit("reshape", (B, K), [y])
        # Softmax (tf2xla's SoftmaxOp)
        h.tf("Softmax", "predictions/Softmax")
        max_fn = h.scalar_computation("max_float_", "maximum")
        add_fn = h.scalar_computation("add_float_", "add")
        mx = h.emit("reduce", (B,), [logits, h.constant(-np.inf)], ["dimensions={1}", f"to_apply=%{max_fn}"])
        shifted = h.emit("subtract", (B, K), [logits, h.broadcast(mx, (B, K), [0])])
        e = h.emit("exponential", (B, K), [shifted])
        conv = h.emit("convert", (B, K), [e])
        total = h.emit("reduce", (B,), [conv, h.constant(0)], ["dimensions={1}", f"to_apply=%{add_fn}"])
        total = h.emit("convert", (B,), [total])
        probs = h.emit("divide", (B, K), [e, h.broadcast(total, (B, K), [0])])
        # the result
        h.op_type, h.op_name = None, "XLA_Retvals"
        ret = Inst(h.unique("XLA_Retvals"), "f32", (B, K), "reshape", [probs], [], 'metadata={op_name="XLA_Retvals"}')
        tup = Inst(h.unique("XLA_Retvals"), "f32", (), "tuple", [ret], [], 'metadata={op_name="XLA_Retvals"}',
                   shape=f"({ret.shape})")
        root = Inst(h.unique("XLA_Retvals"), "f32", (B, K), "get-tuple-element", [tup], ["index=0"],
                    'metadata={op_name="XLA_Retvals"}')
        return root, (B, K)

    def text(self):
        root, out = self.build()
        h = self.h
        n_resource = len(self.params) - 1
        name = (f"cluster_0__XlaCompiledKernel_true__XlaHasReferenceVars_false__XlaNumConstantArgs_0__"
                f"XlaNumResourceArgs_{n_resource}_.{h.computation_count + 1}")
        layouts = ", ".join(shape_text(p.dtype, p.dims) for p in self.params)
        signature = ", ".join(f"{p.name}: {shape_text(p.dtype, p.dims, False)}" for p in self.params)
        out_shape = shape_text("f32", out)
        c = self.cfg
        desc = (f"MobileNet v1 (alpha {c['alpha']:g}, {c['image']}x{c['image']}x3 NHWC f32, {c['classes']} "
                f"classes, softmax), batch {c['batch']}, as tf.keras (Keras {self.keras}) MobileNet under "
                f"tf.function(jit_compile=True) goes through tf2xla; the image then {n_resource} "
                f"resource variables as parameters; written by bench/models/mobilenet_tf.py")
        lines = [f"{HEADER} bytes={must_move_bytes(c)}", f"// {desc}",
                 f"HloModule {name}, alias_passthrough_params=true, "
                 f"entry_computation_layout={{({layouts})->{out_shape}}}", ""]
        for comp in h.computations:
            lines.append(comp)
        lines.append(f"ENTRY %{name} ({signature}) -> f32[{','.join(map(str, out))}] {{")
        for inst in Hlo.post_order(root):
            t = inst.text()
            if inst is root:
                t = "ROOT " + t
            lines.append("  " + t)
        lines += ["}", ""]
        return "\n".join(lines)


def program(cfg):
    return MobileNet(cfg).text()


def arguments(cfg, rng):
    """The image uniform in [-1, 1) (MobileNet's 'tf' preprocessing range); conv kernels
    He-normal over their fan-in (a depthwise kernel's fan-in is 9), the classifier N(0, 3 / sqrt(C))
    (a trained head's spread of logits: the largest of 1000 probabilities is ~0.2, not ~1e-3), its bias
    N(0, 0.01); batch norm running means N(0, 0.1), variances U(0.5, 1.5), gammas
    1 + N(0, 0.05), betas N(0, 0.05): activations stay O(1) through the 27 layers and the Relu6
    clamp cuts a few of them, as in a trained net."""
    out = []
    for path, shape in argument_paths(cfg):
        leaf = path[-1]
        if leaf == "x":
            a = uniform(rng, shape)
        elif leaf == "kernel" and path[0] == "conv_preds":
            a = rng.standard_normal(shape) * 3.0 / np.sqrt(shape[2])
        elif leaf == "kernel":
            fan_in = shape[0] * shape[1] * (1 if path[0].startswith("conv_dw") else shape[2])
            a = rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)
        elif leaf == "bias":
            a = rng.standard_normal(shape) * 0.01
        elif leaf == "moving_mean":
            a = rng.standard_normal(shape) * 0.1
        elif leaf == "moving_variance":
            a = rng.uniform(0.5, 1.5, shape)
        elif leaf == "gamma":
            a = 1.0 + rng.standard_normal(shape) * 0.05
        else:  # beta
            a = rng.standard_normal(shape) * 0.05
        out.append(np.asarray(a, np.float32))
    return out


def _depthwise(x, k, stride, pads):
    """Depthwise 3x3 (k [3, 3, C, 1]) by summing the nine shifted, strided slices times a tap."""
    (pt, pb), (pl, pr) = pads
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    ho = (xp.shape[1] - 3) // stride + 1
    wo = (xp.shape[2] - 3) // stride + 1
    out = np.zeros((x.shape[0], ho, wo, x.shape[3]))
    for i in range(3):
        for j in range(3):
            out += xp[:, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride, :] * k[i, j, :, 0]
    return out


def reference(cfg, args):
    p = {path: np.asarray(a, np.float64) for (path, _), a in zip(argument_paths(cfg), args)}
    x = p[("x",)]
    for l in layers(cfg):
        k = p[(l["name"], "kernel")]
        H = x.shape[1]
        if l["kind"] == "conv":
            x = _conv(x, k, 2, [same_pads(H, 3, 2), same_pads(x.shape[2], 3, 2)])
        elif l["kind"] == "dw":
            pads = [(1, 1), (1, 1)] if l["stride"] == 1 else [(0, 1), (0, 1)]
            x = _depthwise(x, k, l["stride"], pads)
        else:
            x = x @ k[0, 0]
        bn = l["name"] + "_bn"
        inv = p[(bn, "gamma")] / np.sqrt(p[(bn, "moving_variance")] + EPS)
        x = np.clip(x * inv + (p[(bn, "beta")] - p[(bn, "moving_mean")] * inv), 0.0, 6.0)
    pooled = x.mean(axis=(1, 2))
    logits = pooled @ p[("conv_preds", "kernel")][0, 0] + p[("conv_preds", "bias")]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return [e / e.sum(axis=1, keepdims=True)]
