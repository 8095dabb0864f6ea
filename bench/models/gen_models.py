#!/usr/bin/python3
"""Writes the model benchmark set: for each model, NAME.mlir (the StableHLO program, weights as
@main's arguments; NAME.hlo for a family written as XLA HLO text, whose module sets
EXTENSION = "hlo") and, with --weights, NAME.npz (its seeded arguments, arg0, arg1, ... in the
program's order) and NAME.ref.npz (the NumPy reference outputs, out0, out1, ...).

Usage: /usr/bin/python3 bench/models/gen_models.py [--out DIR] [--small] [--weights] [--seed N]
                                                   [--list] [NAME...]
  --out DIR   where the files go (default build/bench_models, or build/bench_models_small)
  --small     the scaled-down twins the tests run, instead of the benchmark sizes
  --weights   also write the arguments and the reference outputs
  --args      also write the arguments as NAME.args/arg0.npy, arg1.npy, ... which `plugrt bench`
              runs the program on instead of its own uniform [-1, 1) values (a batch norm's
              variance must not be negative)
  --list      print the model names and descriptions and stop
  NAME        models to write (default: all); a family name (bert, ...) selects its models
"""
import argparse
import importlib
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

# One module per family, in the order the tables list them.
FAMILIES = ["bert", "gpt2_decode", "resnet50", "mlp_mixer", "lstm", "mixer_train_step", "mobilenet_tf"]
# The file extensions a program may have: StableHLO text (the default) or XLA's HLO text (a
# module with EXTENSION = "hlo"); `plugrt run` and `plugrt bench --dir` tell them by content.
EXTENSIONS = ("mlir", "hlo")


def families():
    found = []
    for name in FAMILIES:
        if os.path.exists(os.path.join(HERE, name + ".py")):
            found.append((name, importlib.import_module(name)))
    return found


def models(small=False):
    """[(model name, family name, module, config)]"""
    out = []
    for family, module in families():
        table = module.SMALL if small else module.MODELS
        for name, cfg in table.items():
            out.append((name, family, module, cfg))
    return out


def extension(module):
    """The program file's extension for a family module: "mlir" unless it says otherwise."""
    return getattr(module, "EXTENSION", "mlir")


def program_path(out_dir, name, module):
    return os.path.join(out_dir, f"{name}.{extension(module)}")


def find_program(out_dir, name):
    """The program NAME.mlir or NAME.hlo in out_dir, or None."""
    for ext in EXTENSIONS:
        path = os.path.join(out_dir, f"{name}.{ext}")
        if os.path.exists(path):
            return path
    return None


def write_model(out_dir, name, module, cfg, weights, seed, args_folder=False):
    """Writes the program (and with `weights` its arguments and reference outputs, with
    `args_folder` its arguments as NAME.args/arg<i>.npy); returns the program's path."""
    path = program_path(out_dir, name, module)
    with open(path, "w") as f:
        f.write(module.program(cfg))
    if args_folder:
        folder = os.path.join(out_dir, name + ".args")
        os.makedirs(folder, exist_ok=True)
        for i, a in enumerate(module.arguments(cfg, np.random.default_rng(seed))):
            np.save(os.path.join(folder, f"arg{i}.npy"), a)
    if weights:
        rng = np.random.default_rng(seed)
        args = module.arguments(cfg, rng)
        np.savez(os.path.join(out_dir, name + ".npz"), **{f"arg{i}": a for i, a in enumerate(args)})
        outs = module.reference(cfg, args)
        np.savez(os.path.join(out_dir, name + ".ref.npz"), **{f"out{i}": o for i, o in enumerate(outs)})
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*")
    p.add_argument("--out")
    p.add_argument("--small", action="store_true")
    p.add_argument("--weights", action="store_true")
    p.add_argument("--args", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    chosen = [m for m in models(a.small) if not a.names or m[0] in a.names or m[1] in a.names]
    if a.list:
        for name, family, module, _ in chosen:
            print(f"{name:28s} {family:18s} {module.DESCRIPTION}")
        return 0
    unknown = set(a.names) - {m[0] for m in chosen} - {m[1] for m in chosen}
    if unknown:
        print(f"gen_models: unknown model or family: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    out = a.out or os.path.join(ROOT, "build", "bench_models_small" if a.small else "bench_models")
    os.makedirs(out, exist_ok=True)
    for name, _, module, cfg in chosen:
        print(write_model(out, name, module, cfg, a.weights, a.seed, a.args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
