#!/usr/bin/env python3
"""Writes bench/compile_elementwise_1000.mlir: a chain of 1,000 elementwise f32 ops over
tensor<1024xf32> for the compile-time benchmark (kind=compile).

@main(%x, %y) starts from its two arguments; op i combines the previous value with one of the
WINDOW values before it or an argument through add, subtract, multiply, maximum, minimum, tanh, negate
or abs, chosen by a fixed pseudo-random sequence (so the output is the same on every run). No
exp or log: the generator tracks a bound on every value's magnitude (arguments are in [-1, 1])
and replaces an op that could push a bound past MAX_BOUND by tanh of the previous value, so every
value stays finite for any inputs in [-1, 1].

Usage: gen_elementwise_1000.py [OUTPUT]   (default: compile_elementwise_1000.mlir next to this
script). check_programs.py imports build_ops() to evaluate the same chain with NumPy.
"""
import os
import sys

NUM_OPS = 1000
WIDTH = 1024
MAX_BOUND = 8.0
WINDOW = 8  # the second operand: one of the WINDOW values before the previous one, or %x, %y

BINARY = ("add", "subtract", "multiply", "maximum", "minimum")
UNARY = ("tanh", "negate", "abs")
# Op choices, weighted by repetition: mostly arithmetic, a tanh about one op in six.
CHOICES = ("add", "add", "subtract", "subtract", "multiply", "multiply", "maximum", "minimum",
           "tanh", "tanh", "negate", "abs")


class _Sequence:
    """A 64-bit xorshift generator: the same numbers on every Python version."""

    def __init__(self, seed):
        self.state = seed or 1

    def below(self, n):
        s = self.state
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        self.state = s
        return (s >> 11) % n


def build_ops(seed=0x5EED1007):
    """The chain as a list of (op, operand indices); value 0 is %x, value 1 is %y, op i
    defines value i + 2. The last value is the result."""
    seq = _Sequence(seed)
    bounds = [1.0, 1.0]
    ops = []
    for _ in range(NUM_OPS):
        a = len(bounds) - 1
        op = CHOICES[seq.below(len(CHOICES))]
        if op in BINARY:
            pick = seq.below(WINDOW + 2)
            if pick < 2:
                b = pick  # an argument, %x or %y: keeps fresh inputs flowing into the chain
            else:  # one of the values before the previous one (never a op a, which can be 0)
                b = max(0, len(bounds) - pick)
            ba, bb = bounds[a], bounds[b]
            bound = {"add": ba + bb, "subtract": ba + bb, "multiply": ba * bb,
                     "maximum": max(ba, bb), "minimum": max(ba, bb)}[op]
            if bound > MAX_BOUND:
                op, operands, bound = "tanh", (a,), 1.0
            else:
                operands = (a, b)
        else:
            operands = (a,)
            bound = 1.0 if op == "tanh" else bounds[a]
        ops.append((op, operands))
        bounds.append(bound)
    return ops


def render(ops):
    t = f"tensor<{WIDTH}xf32>"
    names = ["%x", "%y"] + [f"%v{i}" for i in range(len(ops))]
    lines = [
        "// plugrt-bench: kind=compile compare=cache",
        f"// {len(ops)} elementwise f32 ops over {t} (add, subtract, multiply, maximum, minimum, "
        "tanh, negate, abs; values bounded) written by bench/gen_elementwise_1000.py: measures "
        "compile time.",
        "module @compile_elementwise_1000 {",
        f"  func.func public @main(%x: {t}, %y: {t}) -> {t} {{",
    ]
    for i, (op, operands) in enumerate(ops):
        args = ", ".join(names[j] for j in operands)
        lines.append(f"    {names[i + 2]} = stablehlo.{op} {args} : {t}")
    lines.append(f"    return {names[-1]} : {t}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "compile_elementwise_1000.mlir")
    with open(out, "w") as f:
        f.write(render(build_ops()))
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
