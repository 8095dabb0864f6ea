#!/usr/bin/env python3
"""Writes the int8 GEMM workloads: igemm_N (i8 x i8 -> i32 dot_general) and
qgemm_per_tensor_N / qgemm_per_axis_N (quantized dot_general, i8 storage, per-tensor
and per-output-column weight scales), N = 1024 and 2048. Run from the repository root."""

SIZES = (1024, 2048)
LHS = "!quant.uniform<i8:f32, 0.02:-3>"
OUT = "!quant.uniform<i8:f32, 0.5:5>"


def write(name, comment, lhs, rhs, out):
    n = int(name.rsplit("_", 1)[1])
    with open(f"bench/{name}.mlir", "w") as f:
        f.write("// plugrt-bench: kind=execute metric=flops ceiling=int8gemm\n")
        f.write(f"// {comment}\n")
        f.write(f"module @{name} {{\n")
        a, b, c = (f"tensor<{n}x{n}x{t}>" for t in (lhs, rhs, out))
        f.write(f"  func.func public @main(%a: {a}, %b: {b}) -> {c} {{\n")
        f.write(f"    %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({a}, {b}) -> {c}\n")
        f.write(f"    return %c : {c}\n  }}\n}}\n")


for n in SIZES:
    write(f"igemm_{n}", f"C = A x B with A, B i8 [{n}, {n}], C i32: the integer product.",
          "i8", "i8", "i32")
    write(f"qgemm_per_tensor_{n}",
          f"Quantized C = A x B, [{n}, {n}] i8 storage: A scale 0.02 zero point -3, B scale 0.01, "
          "C scale 0.5 zero point 5.", LHS, "!quant.uniform<i8:f32, 0.01>", OUT)
    scales = ",".join(f"{0.01 * (1 + (j % 7) / 8):.6g}" for j in range(n))
    write(f"qgemm_per_axis_{n}",
          f"Quantized C = A x B, [{n}, {n}] i8 storage: A scale 0.02 zero point -3, B one scale "
          "per output column (0.01 to 0.0175), C scale 0.5 zero point 5.",
          LHS, f"!quant.uniform<i8:f32:1, {{{scales}}}>", OUT)
