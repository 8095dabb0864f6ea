"""Shared pieces of the model generators in bench/models/.

Each model family is one module here (bert.py, gpt2_decode.py, ...) exposing:

  MODELS     {name: config dict}: the benchmark sizes (batch 1 and a serving batch)
  SMALL      {name: config dict}: scaled-down twins the tests run (seconds on the
             reference kernels), same structure, same op forms
  program(cfg) -> str         the whole StableHLO module, first line a plugrt-bench header
  EXTENSION                   optional: "hlo" when program() writes XLA HLO text (mobilenet_tf.py);
                              the file is then NAME.hlo instead of NAME.mlir
  arguments(cfg, rng) -> [np.ndarray]   @main's arguments in order, seeded, realistic
             scales (so activations stay finite and outputs are comparable)
  reference(cfg, args) -> [np.ndarray]  the same maths in NumPy (float64), the oracle
  DESCRIPTION                 one line: what it is and which real export it mimics

Program text is written with Builder: one op per line, each with a named location
`loc("<module path>"("<source file>":<line>:0))` as real exporters write them.
"""
import numpy as np

HEADER = "// plugrt-bench: kind=execute metric=flops ceiling=model"

NP_TYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
            "i1": np.bool_, "i8": np.int8}


def tensor(shape, dtype="f32"):
    """tensor<2x3xf32> for ([2, 3], "f32"); tensor<f32> for a scalar."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


class Builder:
    """Writes one `func.func public @main` in StableHLO's pretty form."""

    def __init__(self, source):
        self.source = source  # the Python file the locations name
        self.args = []        # (name, shape, dtype)
        self.arg_attributes = {}
        self.lines = []
        self.count = 0
        self.constants = {}

    def arg(self, name, shape, dtype="f32", attributes=None):
        """An argument of @main; `attributes` as MLIR writes them, e.g. "tf.aliasing_output = 1 : i32"
        (jax.jit's donate_argnums: the argument is donated to that output)."""
        self.args.append((name, tuple(shape), dtype))
        if attributes:
            self.arg_attributes[name] = attributes
        return "%" + name

    def op(self, text, signature, scope="model", line=1):
        """Appends `%vN = <text> : <signature> loc(...)` and returns %vN."""
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f'    {name} = {text} : {signature} loc("{scope}"("{self.source}":{line}:0))')
        return name

    def raw(self, line):
        """Appends a line as it is (a region's body, a multi-result op)."""
        self.lines.append(line)

    def scalar(self, value, dtype="f32"):
        """A rank-0 constant, written once per value and type."""
        key = (repr(value), dtype)
        if key not in self.constants:
            name = f"%c{len(self.constants)}"
            if dtype.startswith("f"):
                literal = "0xFF800000" if value == -np.inf else (
                    "0x7F800000" if value == np.inf else f"{float(value):.9e}")
            elif dtype == "i1":
                literal = "true" if value else "false"
            else:
                literal = str(int(value))
            self.lines.insert(len(self.constants),
                              f"    {name} = stablehlo.constant dense<{literal}> : {tensor([], dtype)}")
            self.constants[key] = name
        return self.constants[key]

    def module(self, module_name, description, results):
        """The whole module: `results` is a list of (value, shape, dtype)."""
        params = ",\n      ".join(
            f"%{n}: {tensor(s, d)}" + (f" {{{self.arg_attributes[n]}}}" if n in self.arg_attributes else "")
            for n, s, d in self.args)
        result_types = ", ".join(tensor(s, d) for _, s, d in results)
        if len(results) != 1:
            result_types = f"({result_types})"
        values = ", ".join(v for v, _, _ in results)
        types = ", ".join(tensor(s, d) for _, s, d in results)
        header = HEADER
        # " plugrt-bytes=N" at the end of the description: the bytes one pass must move
        # (weights once, the gathered rows of embedding tables, inputs, outputs), the memory
        # side of the row's limit; it goes into the header as bytes=N.
        marker = " plugrt-bytes="
        if marker in description:
            description, count = description.rsplit(marker, 1)
            header += f" bytes={int(count)}"
        out = [header, f"// {description}", f"module @{module_name} {{",
               f"  func.func public @main({params}) -> {result_types} {{"]
        out += self.lines
        out += [f"    return {values} : {types}", "  }", "}", ""]
        return "\n".join(out)


def normal(rng, shape, scale, dtype=np.float32):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def uniform(rng, shape, low=-1.0, high=1.0, dtype=np.float32):
    return rng.uniform(low, high, shape).astype(dtype)


def conv_nhwc(x, k, stride, pads):
    """The reference convolution: NHWC x HWIO in float64 as one matmul per kernel tap, `pads`
    ((top, bottom), (left, right)), the same stride on both spatial dims."""
    (pt, pb), (pl, pr) = pads
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    kh, kw = k.shape[:2]
    ho = (xp.shape[1] - kh) // stride + 1
    wo = (xp.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], ho, wo, k.shape[3]))
    for i in range(kh):
        for j in range(kw):
            out += xp[:, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride, :] @ k[i, j]
    return out
