#!/usr/bin/python3
"""Checks that plugrt, PyTorch and ONNX Runtime compute the same thing on the model set: for each
model of a models directory (NAME.mlir, or NAME.hlo for a family written as XLA HLO text, NAME.npz
with its arguments and NAME.ref.npz with the NumPy float64 reference outputs, as
`gen_models.py --weights` writes them), runs

  plugrt       `plugrt run NAME.mlir -i arg0.npy ...` (bench/plugrt_run.py), outputs in
               DIR/NAME.plugrt/out<i>.npy
  pytorch      bench/torch_models.py --args DIR --check DIR --onnx DIR --no-time: DIR/NAME.torch.npz,
               and the ONNX export DIR/NAME.onnx (+ NAME.onnx.json, NAME.in<i>.npy)
  onnxruntime  node bench/ort_models.js --dir DIR --check --no-time: DIR/NAME.ort/out<i>.npy

and prints, per model and peer, the largest absolute error and the largest relative error (over
the elements whose reference magnitude exceeds atol) against the reference, and whether every
element is within atol + rtol * |reference| (the family's TOLERANCE, else check_models' 2e-3).

Usage: /usr/bin/python3 bench/models/compare_peers.py DIR [--generate [--small]] [--no-run]
           [--threads N] [--plugrt PATH] [--peers plugrt,pytorch,onnxruntime] [NAME...]
  --generate   first write the models into DIR (gen_models.py --weights [--small] [NAME...])
  --no-run     compare the outputs already in DIR; run nothing
Exit status 0 when every peer that ran is within tolerance on every model.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # bench/
import check_models  # noqa: E402
from plugrt_run import run_program  # noqa: E402
import gen_models  # noqa: E402

PEERS = ["plugrt", "pytorch", "onnxruntime"]


def load_npz(path):
    """arg0, arg1, ... (NAME.npz) or out0, out1, ... (NAME.ref.npz, NAME.torch.npz), in order."""
    with np.load(path) as z:
        prefix = z.files[0].rstrip("0123456789") if z.files else ""
        return [z[f"{prefix}{i}"] for i in range(len(z.files))]


def load_dir(path):
    """out0.npy, out1.npy, ... from a folder, as `plugrt run -o` writes them."""
    outs, i = [], 0
    while os.path.exists(os.path.join(path, f"out{i}.npy")):
        outs.append(np.load(os.path.join(path, f"out{i}.npy")))
        i += 1
    return outs


def errors(got, want, atol):
    """(max abs error, max rel error over |want| > atol) over all outputs, or None on a shape
    mismatch."""
    if len(got) != len(want) or any(g.shape != w.shape for g, w in zip(got, want)):
        return None
    max_abs = max_rel = 0.0
    for g, w in zip(got, want):
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        diff = np.abs(g64 - w64)
        if diff.size:
            max_abs = max(max_abs, float(np.nanmax(diff)) if np.all(np.isfinite(diff)) else float("inf"))
            big = np.abs(w64) > atol
            if np.any(big):
                max_rel = max(max_rel, float(np.max(diff[big] / np.abs(w64[big]))))
    return max_abs, max_rel


def tolerance(name):
    for m in gen_models.models(False) + gen_models.models(True):
        if m[0] == name:
            return getattr(m[2], "TOLERANCE", (check_models.RTOL, check_models.ATOL))
    return check_models.RTOL, check_models.ATOL


def run_peers(a, names):
    """Runs the chosen peers, writing their outputs into a.dir; returns {(peer, name): error}."""
    failed = {}
    small = all(any(m[0] == n for m in gen_models.models(True)) for n in names)
    if "plugrt" in a.peers:
        for name in names:
            out = os.path.join(a.dir, name + ".plugrt")
            shutil.rmtree(out, ignore_errors=True)
            try:
                run_program(a.plugrt, gen_models.find_program(a.dir, name),
                            load_npz(os.path.join(a.dir, name + ".npz")), out)
            except RuntimeError as e:
                failed[("plugrt", name)] = str(e)
            for f in glob.glob(os.path.join(out, "arg*.npy")):  # the copies of the arguments
                os.remove(f)
    if "pytorch" in a.peers or "onnxruntime" in a.peers:
        cmd = [sys.executable, os.path.join(ROOT, "bench", "torch_models.py"), "--threads", str(a.threads),
               "--args", a.dir, "--check", a.dir, "--onnx", a.dir, "--no-time"] + (["--small"] if small else []) + names
        if subprocess.run(cmd).returncode != 0:
            for name in names:
                failed[("pytorch", name)] = "torch_models.py failed"
    if "onnxruntime" in a.peers:
        have = [n for n in names if os.path.exists(os.path.join(a.dir, n + ".onnx.json"))]
        if have:
            cmd = ["node", os.path.join(ROOT, "bench", "ort_models.js"), "--dir", a.dir, "--threads",
                   str(a.threads), "--check", "--no-time"] + have
            if subprocess.run(cmd).returncode != 0:
                for name in have:
                    failed[("onnxruntime", name)] = "ort_models.js failed"
    return failed


def outputs(peer, d, name):
    if peer == "plugrt":
        return load_dir(os.path.join(d, name + ".plugrt"))
    if peer == "pytorch":
        path = os.path.join(d, name + ".torch.npz")
        return load_npz(path) if os.path.exists(path) else []
    return load_dir(os.path.join(d, name + ".ort"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("names", nargs="*")
    p.add_argument("--generate", action="store_true")
    p.add_argument("--small", action="store_true")
    p.add_argument("--no-run", action="store_true")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--plugrt", default=os.path.join(ROOT, "build", "bin", "plugrt"))
    p.add_argument("--peers", default=",".join(PEERS))
    a = p.parse_intermixed_args()
    a.peers = a.peers.split(",")
    if a.generate:
        cmd = [sys.executable, os.path.join(HERE, "gen_models.py"), "--out", a.dir, "--weights"]
        if subprocess.run(cmd + (["--small"] if a.small else []) + a.names, stdout=subprocess.DEVNULL).returncode:
            return 2
        if a.names:  # family names -> model names
            a.names = [m[0] for m in gen_models.models(a.small) if m[0] in a.names or m[1] in a.names]
    names = sorted(os.path.basename(f)[:-len(".ref.npz")] for f in glob.glob(os.path.join(a.dir, "*.ref.npz")))
    names = [n for n in names if (not a.names or n in a.names)
             and os.path.exists(os.path.join(a.dir, n + ".npz")) and gen_models.find_program(a.dir, n)]
    if not names:
        print(f"compare_peers: no NAME.mlir (or .hlo) + NAME.npz + NAME.ref.npz in {a.dir}", file=sys.stderr)
        return 2
    failed = {} if a.no_run else run_peers(a, names)
    bad = 0
    print(f"\n{'model':24s} {'peer':12s} {'max abs err':>12s} {'max rel err':>12s}  within (rtol, atol)")
    for name in names:
        want = load_npz(os.path.join(a.dir, name + ".ref.npz"))
        rtol, atol = tolerance(name)
        for peer in a.peers:
            if (peer, name) in failed:
                print(f"{name:24s} {peer:12s} {'-':>12s} {'-':>12s}  FAILED: {failed[(peer, name)][:200]}")
                bad += 1
                continue
            got = outputs(peer, a.dir, name)
            if not got:
                if peer == "plugrt":
                    bad += 1
                print(f"{name:24s} {peer:12s} {'-':>12s} {'-':>12s}  no outputs"
                      + ("" if peer == "plugrt" else " (a train step: no ONNX export; or no peer in bench/torch_models.py)"))
                continue
            e = errors(got, want, atol)
            problem = check_models.compare(peer, got, want, rtol, atol)
            if e is None:
                print(f"{name:24s} {peer:12s} {'-':>12s} {'-':>12s}  FAIL: {problem}")
            else:
                verdict = "ok" if problem is None else "FAIL: " + problem
                print(f"{name:24s} {peer:12s} {e[0]:12.3e} {e[1]:12.3e}  {verdict} ({rtol:g}, {atol:g})")
            bad += problem is not None
    print(f"\n{'all peers agree with the reference' if not bad else f'{bad} peer result(s) off'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
