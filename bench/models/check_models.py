#!/usr/bin/python3
"""Checks the model set for correctness: for each model, writes its program, seeded arguments and
NumPy reference outputs (gen_models.py), runs the program with `plugrt run` twice, on the fast paths
(fusion, folds, oneDNN) and with PLUGRT_CPU_FAST_PATHS=0 (every op on its reference kernel, nothing
fused), and compares both with the reference and with each other.

Usage: /usr/bin/python3 bench/models/check_models.py [--plugrt PATH] [--full] [--keep DIR] [NAME...]
  --full   the benchmark sizes instead of the scaled-down twins (slow on the reference kernels,
           which are then skipped)
Exit status 0 when every model is within tolerance.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # bench/
import gen_models  # noqa: E402
from plugrt_run import run_program  # noqa: E402

RTOL, ATOL = 2e-3, 2e-3


def compare(label, got, want, rtol, atol):
    if len(got) != len(want):
        return f"{label}: {len(got)} outputs, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            return f"{label}: output {i} has shape {g.shape}, expected {w.shape}"
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        if not np.all(np.isfinite(g64)):
            return f"{label}: output {i} has non-finite values"
        err = np.abs(g64 - w64) - (atol + rtol * np.abs(w64))
        if np.any(err > 0):
            j = np.unravel_index(np.argmax(err), err.shape)
            return f"{label}: output {i} at {tuple(int(x) for x in j)}: {g64[j]} vs {w64[j]}"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("names", nargs="*")
    p.add_argument("--plugrt", default=os.path.join(ROOT, "build", "bin", "plugrt"))
    p.add_argument("--full", action="store_true")
    p.add_argument("--keep")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    chosen = [m for m in gen_models.models(small=not a.full) if not a.names or m[0] in a.names or m[1] in a.names]
    if not chosen:
        print("check_models: no models chosen", file=sys.stderr)
        return 2
    work = a.keep or tempfile.mkdtemp(prefix="plugrt_models_")
    failures = 0
    for name, _, module, cfg in chosen:
        program = gen_models.write_model(work, name, module, cfg, False, a.seed)
        args = module.arguments(cfg, np.random.default_rng(a.seed))
        want = module.reference(cfg, args)
        tol = getattr(module, "TOLERANCE", (RTOL, ATOL))
        problems = []
        try:
            fast, _ = run_program(a.plugrt, program, args, os.path.join(work, name + ".fast"))
            problems.append(compare("fast paths vs NumPy", fast, want, *tol))
            if not a.full:
                plain, _ = run_program(a.plugrt, program, args, os.path.join(work, name + ".plain"),
                                       {"PLUGRT_CPU_FAST_PATHS": "0"})
                problems.append(compare("reference kernels vs NumPy", plain, want, *tol))
                problems.append(compare("fast paths vs reference kernels", fast, plain, *tol))
        except RuntimeError as e:
            problems.append(str(e))
        problems = [x for x in problems if x]
        print(f"{name}: {'ok' if not problems else 'FAIL'}")
        for x in problems:
            print(f"  {x}")
        failures += bool(problems)
    print(f"{len(chosen) - failures} of {len(chosen)} models within tolerance")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
