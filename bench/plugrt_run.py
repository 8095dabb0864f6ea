"""Runs a program with `plugrt run` on NumPy arguments and reads its outputs back: the one
runner the bench checks share (check_programs.py, models/check_models.py,
models/compare_peers.py)."""
import os
import subprocess
import time

import numpy as np


def run_program(plugrt, program, args, workdir, env_extra=None):
    """Saves `args` as workdir/arg{i}.npy, runs `plugrt run PROGRAM -i ... -o workdir` (with
    `env_extra` added to the environment), which writes workdir/out{i}.npy, and returns
    (outputs, seconds): the outputs as NumPy arrays in order, and the wall time of the
    command."""
    os.makedirs(workdir, exist_ok=True)
    outdir = workdir
    cmd = [plugrt, "run", program, "-o", outdir]
    for i, a in enumerate(args):
        path = os.path.join(workdir, f"arg{i}.npy")
        np.save(path, a)
        cmd += ["-i", path]
    env = dict(os.environ, **(env_extra or {}))
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"plugrt run failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    outputs = []
    while os.path.exists(os.path.join(outdir, f"out{len(outputs)}.npy")):
        outputs.append(np.load(os.path.join(outdir, f"out{len(outputs)}.npy")))
    return outputs, seconds
