#!/usr/bin/python3
"""Checks the benchmark programs in bench/ for correctness: runs each through `plugrt run` and
compares its outputs with the same maths computed in float64 by NumPy or PyTorch (autograd for
mlp_train_step).

The benchmark sizes are slow on a plain backend, so by default every program is checked on a
scaled-down copy: the same text with the shape numbers inside its tensor<...> types replaced
(e.g. batch 256 -> 4, width 1024 -> 16) and the few constants that depend on a shape (1/width,
1/batch) replaced to match. `--full` checks the programs as they are (minutes to hours on a
slow backend).

bf16 programs cannot take .npy inputs (NumPy has no bfloat16), so they are checked through a
wrapper @main that takes f32 arguments, converts them to bf16 and calls the program's own
function; the reference rounds the same inputs to bf16 first.

Usage: /usr/bin/python3 bench/check_programs.py [--plugrt PATH] [--full] [--keep DIR] [NAME...]
Exit status 0 when every checked program is within its tolerance.
Needs numpy and torch (python3-torch; scripts/bench_setup.sh installs it).
"""
import argparse
import os
import re
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True  # no __pycache__ in bench/
sys.path.insert(0, HERE)
import gen_elementwise_1000  # noqa: E402
from plugrt_run import run_program  # noqa: E402

torch.set_default_dtype(torch.float64)


def t64(a):
    return torch.from_numpy(np.asarray(a, dtype=np.float64))


def bf16_round(a):
    """float32 array -> the float32 values of its round-to-nearest-even bf16 form."""
    return torch.from_numpy(np.asarray(a, dtype=np.float32)).bfloat16().float().numpy()


# ----------------------------------------------------------------------------- references


def ref_gemm(a, b):
    return [t64(a) @ t64(b)]


def ref_gemm_bf16(a, b):
    return [t64(bf16_round(a)) @ t64(bf16_round(b))]


def ref_elementwise_chain(x):
    x = t64(x)
    return [0.5 * x * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
            + 0.01 * torch.exp(-x * x)]


def ref_row_sum(x):
    return [t64(x).sum(dim=1)]


def ref_column_max(x):
    return [t64(x).max(dim=0).values]


def ref_softmax(x):
    return [torch.softmax(t64(x), dim=-1)]


def ref_layer_norm(x, gamma, beta):
    x = t64(x)
    return [F.layer_norm(x, (x.shape[-1],), t64(gamma), t64(beta), eps=1e-5)]


def ref_mlp_train_step(x, labels, w1, b1, w2, b2, w3, b3):
    """Loss, updated parameters and (as extra entries) the gradients, from autograd."""
    params = [t64(p).requires_grad_(True) for p in (w1, b1, w2, b2, w3, b3)]
    pw1, pb1, pw2, pb2, pw3, pb3 = params
    h1 = torch.relu(t64(x) @ pw1 + pb1)
    h2 = torch.relu(h1 @ pw2 + pb2)
    logits = h2 @ pw3 + pb3
    # Cross-entropy against label rows (probabilities, or any weights): mean over the batch of
    # -sum_k labels[k] * log_softmax(logits)[k].
    loss = -(t64(labels) * torch.log_softmax(logits, dim=1)).sum() / x.shape[0]
    loss.backward()
    with torch.no_grad():
        updated = [p - 0.01 * p.grad for p in params]
    return [loss.detach()] + updated, [p.grad for p in params]


def ref_conv3x3(inp, kernel):
    # NHWC input, HWIO kernel -> torch's NCHW / OIHW, then back to NHWC.
    x = t64(inp).permute(0, 3, 1, 2)
    w = t64(kernel).permute(3, 2, 0, 1)
    return [F.conv2d(x, w, stride=1, padding=1).permute(0, 2, 3, 1)]


def ref_transformer_block(x, wq, wk, wv, wo, w1, b1, w2, b2, g1, be1, g2, be2, heads=8,
                          scale=0.125):
    """Pre-layer-norm block; scale is the program's constant 1/sqrt(64), kept when the
    scaled-down copy has narrower heads."""
    x, wq, wk, wv, wo, w1, b1, w2, b2, g1, be1, g2, be2 = map(
        t64, (x, wq, wk, wv, wo, w1, b1, w2, b2, g1, be1, g2, be2))
    batch, seq, width = x.shape
    hd = width // heads
    h = F.layer_norm(x, (width,), g1, be1, eps=1e-5)

    def split(t):  # [b, s, width] -> [b, heads, s, hd]
        return t.reshape(batch, seq, heads, hd).permute(0, 2, 1, 3)

    q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
    probs = torch.softmax((q @ k.transpose(-1, -2)) * scale, dim=-1)
    context = (probs @ v).permute(0, 2, 1, 3).reshape(batch, seq, width)
    x1 = x + context @ wo
    m = F.gelu(F.layer_norm(x1, (width,), g2, be2, eps=1e-5) @ w1 + b1, approximate="tanh")
    return [x1 + m @ w2 + b2]


def ref_dispatch_scalar_add(a, b):
    return [np.float32(a) + np.float32(b)]  # one f32 rounding, exactly as the program


def ref_eager_chain20(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    v0 = x + y
    v1 = v0 * x
    v2 = v1 - y
    v3 = np.tanh(v2)
    v4 = v3 * v0
    v5 = np.maximum(v4, x)
    v6 = np.minimum(v5, y)
    v7 = -v6
    v8 = np.abs(v7)
    v9 = v8 + v1
    v10 = np.exp(v7)
    v11 = v10 * v9
    v12 = v11 - v3
    v13 = np.sin(v12)
    v14 = v13 + x
    v15 = v14 * v14
    v16 = np.sqrt(v15)
    v17 = v16 - v8
    v18 = np.maximum(v17, v2)
    return [v18 + v10]


def ref_compile_elementwise_1000(x, y):
    fns = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "maximum": np.maximum, "minimum": np.minimum, "tanh": np.tanh,
           "negate": np.negative, "abs": np.abs}
    values = [np.asarray(x, np.float64), np.asarray(y, np.float64)]
    for op, operands in gen_elementwise_1000.build_ops():
        values.append(fns[op](*(values[i] for i in operands)))
    return [values[-1]]


# ----------------------------------------------------------------------------- programs

# name: (reference, small-variant dimension map, small-variant constant replacements,
#        relative tolerance). Argument shapes come from the program's @main signature.
PROGRAMS = {
    "gemm_1024": (ref_gemm, {1024: 24}, {}, 1e-5),
    "gemm_2048": (ref_gemm, {2048: 40}, {}, 1e-5),
    "gemm_bf16_1024": (ref_gemm_bf16, {1024: 24}, {}, 1e-5),
    "gemm_bf16_2048": (ref_gemm_bf16, {2048: 40}, {}, 1e-5),
    "elementwise_chain": (ref_elementwise_chain, {16777216: 4099}, {}, 1e-5),
    "row_sum": (ref_row_sum, {4096: 37}, {}, 1e-5),
    "column_max": (ref_column_max, {4096: 37}, {}, 0.0),
    "softmax": (ref_softmax, {4096: 37}, {}, 1e-5),
    "layer_norm": (ref_layer_norm, {8192: 6, 1024: 16},
                   {"dense<9.765625e-04>": "dense<6.250000e-02>"}, 1e-4),
    "mlp_train_step": (ref_mlp_train_step, {256: 4, 784: 12, 1024: 16},
                       {"dense<3.906250e-03>": "dense<2.500000e-01>",
                        "dense<-3.906250e-03>": "dense<-2.500000e-01>"}, 1e-4),
    "conv3x3": (ref_conv3x3, {32: 2, 56: 7, 64: 5}, {}, 1e-5),
    "transformer_block": (ref_transformer_block, {4: 2, 512: 32, 64: 4, 2048: 64},
                          {"dense<1.953125e-03>": "dense<3.125000e-02>"}, 1e-4),
    "dispatch_scalar_add": (ref_dispatch_scalar_add, {}, {}, 0.0),
    "eager_add": (ref_dispatch_scalar_add, {}, {}, 0.0),
    "eager_chain20": (ref_eager_chain20, {1048576: 4099}, {}, 1e-5),
    "compile_elementwise_1000": (ref_compile_elementwise_1000, {}, {}, 1e-4),
}

TENSOR_TYPE = re.compile(r"tensor<([0-9x]*)(bf16|f32|f64|i1|i32|i64)>")


def scale_down(text, dims, constants):
    """Replaces the dimension sizes inside tensor<...> types (each size once, so {4: 2, 64: 4}
    never maps 64 to 2) and the given constant spellings."""

    def one_type(m):
        sizes = [s for s in m.group(1).split("x") if s]
        new = [str(dims.get(int(s), int(s))) for s in sizes]
        return "tensor<" + "".join(s + "x" for s in new) + m.group(2) + ">"

    text = TENSOR_TYPE.sub(one_type, text)
    for old, new in constants.items():
        if old not in text:
            raise ValueError(f"constant {old} not found in the program")
        text = text.replace(old, new)
    return text


def main_signature(text):
    """[(shape, element type)] of @main's arguments."""
    m = re.search(r"func\.func public @main\((.*?)\)\s*->", text, re.S)
    return [(tuple(int(s) for s in dims.split("x") if s), ty)
            for dims, ty in TENSOR_TYPE.findall(m.group(1))]


def bf16_wrapper(text):
    """Renames the program's @main to @bf16_main and adds an @main taking f32 arguments."""
    args = main_signature(text)
    m = re.search(r"func\.func public @main\(.*?\)\s*->\s*(tensor<[^>]*>)", text, re.S)
    result_type = m.group(1)
    text = text.replace("func.func public @main(", "func.func private @bf16_main(", 1)

    def ty(shape, elem):
        return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"

    params = ", ".join(f"%a{i}: {ty(s, 'f32')}" for i, (s, _) in enumerate(args))
    body = [f"  func.func public @main({params}) -> {result_type} {{"]
    for i, (s, e) in enumerate(args):
        body.append(f"    %c{i} = stablehlo.convert %a{i} : ({ty(s, 'f32')}) -> {ty(s, e)}")
    call_args = ", ".join(f"%c{i}" for i in range(len(args)))
    call_types = ", ".join(ty(s, e) for s, e in args)
    body.append(f"    %r = func.call @bf16_main({call_args}) : ({call_types}) -> {result_type}")
    body.append(f"    return %r : {result_type}")
    body.append("  }")
    end = text.rstrip().rfind("}")
    return text[:end] + "\n".join(body) + "\n}\n"


def rel_error(got, want):
    """max |got - want| / max |want| (absolute error when want is all zeros)."""
    want = np.asarray(want.detach().numpy() if torch.is_tensor(want) else want, np.float64)
    got = np.asarray(got, np.float64)
    if got.shape != want.shape:
        raise RuntimeError(f"shape {got.shape}, expected {want.shape}")
    if not np.all(np.isfinite(got)):
        return float("inf")
    scale = np.max(np.abs(want)) if want.size else 0.0
    err = np.max(np.abs(got - want)) if want.size else 0.0
    return float(err / scale) if scale > 0 else float(err)


def check(name, plugrt, full, workdir, seed):
    reference, dims, constants, tol = PROGRAMS[name]
    text = open(os.path.join(HERE, name + ".mlir")).read()
    if not full:
        text = scale_down(text, dims, constants)
    args = main_signature(text)
    if any(e == "bf16" for _, e in args):
        text = bf16_wrapper(text)
    program = os.path.join(workdir, name + ".mlir")
    with open(program, "w") as f:
        f.write(text)
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(-1.0, 1.0, size=shape).astype(np.float32) for shape, _ in args]
    outputs, seconds = run_program(plugrt, program, inputs, workdir)

    want = reference(*inputs)
    grads = None
    if isinstance(want, tuple):
        want, grads = want
    if len(outputs) != len(want):
        raise RuntimeError(f"{len(outputs)} outputs, expected {len(want)}")
    errors = [rel_error(g, w) for g, w in zip(outputs, want)]
    labels = [f"out{i}" for i in range(len(outputs))]
    if grads is not None:
        # mlp_train_step: the gradients implied by the update, (p - p_new) / lr, against
        # autograd's; an update error hides in p - lr*dp, not in the gradient itself.
        # Rounding p - lr*dp to f32 costs up to 2^-24 (|p| + |p_new|) per element, which is
        # (2^-24 / lr) (|p| + |p_new|) in the implied gradient: that much is forgiven.
        for i, (p, new, g) in enumerate(zip(inputs[2:], outputs[1:], grads)):
            p64, new64 = p.astype(np.float64), new.astype(np.float64)
            implied = (p64 - new64) / 0.01
            g = g.numpy()
            slack = 2.0**-24 * (np.abs(p64) + np.abs(new64)) / 0.01
            excess = np.maximum(np.abs(implied - g) - slack, 0.0)
            errors.append(float(np.max(excess) / np.max(np.abs(g))))
            labels.append(f"grad{i}")
    shapes = " ".join("x".join(map(str, s)) or "scalar" for s, _ in args)
    worst = max(errors)
    ok = worst <= max(tol, 0.0) or (tol == 0.0 and worst == 0.0)
    detail = ", ".join(f"{l} {e:.2e}" for l, e in zip(labels, errors))
    print(f"{'ok  ' if ok else 'FAIL'} {name:26s} args [{shapes}] {seconds:7.2f}s  "
          f"max rel err {worst:.2e} (tol {tol:g}): {detail}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="programs to check (default: all)")
    parser.add_argument("--plugrt", default=os.environ.get(
        "PLUGRT", os.path.join(ROOT, "build", "bin", "plugrt")), help="the plugrt binary")
    parser.add_argument("--full", action="store_true",
                        help="check the programs at their benchmark sizes (slow)")
    parser.add_argument("--keep", help="write the programs, inputs and outputs here")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    names = args.names or list(PROGRAMS)
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        parser.error(f"unknown programs: {' '.join(unknown)} (known: {' '.join(PROGRAMS)})")
    if not os.access(args.plugrt, os.X_OK):
        parser.error(f"{args.plugrt}: no plugrt binary there (build with scripts/build.sh, or "
                     "give --plugrt PATH)")
    failed = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix="plugrt_check_") as tmp:
            workdir = os.path.join(args.keep, name) if args.keep else tmp
            os.makedirs(workdir, exist_ok=True)
            try:
                if not check(name, args.plugrt, args.full, workdir, args.seed):
                    failed.append(name)
            except Exception as e:  # report and go on with the next program
                print(f"FAIL {name:26s} {e}")
                failed.append(name)
    print(f"{len(names) - len(failed)} passed, {len(failed)} failed"
          + (f": {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
