#!/usr/bin/python3
"""The plugrt benchmark workloads (bench/*.mlir) in PyTorch eager mode, for comparison.

Same names, shapes, dtypes and maths as the StableHLO programs; inputs uniform in [-1, 1)
from torch's generator (bf16 inputs rounded from that). Each workload is run a few times to
warm up, then repeatedly (at least --min-runs times and for at least --min-seconds, at most
--max-runs times); the median, minimum and maximum of the timed runs are reported.
kind=compile workloads (compile_*) have no PyTorch counterpart and are absent.

Usage: /usr/bin/python3 bench/torch_bench.py [--threads N] [--json FILE] [NAME...]
       /usr/bin/python3 bench/torch_bench.py --config [--threads N]
Needs python3-torch and an optimized BLAS (scripts/bench_setup.sh installs both); used for
benchmarks only. Refuses to run on the reference BLAS (bench/torch_config.py says why);
--config prints PyTorch's build, thread, BLAS and oneDNN configuration and checks the BLAS.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

# Large allocations: PyTorch 1.13's CPU allocator takes fresh pages from glibc (mmap) for
# every big tensor and never asks for transparent huge pages, so eager code that creates a
# 64 MiB temporary per op pays one page fault per 4 KiB; on the VM this was written on, about
# 0.4 s per 64 MiB (elementwise_chain: ~7 s instead of ~0.4 s). glibc's hugetlb=1 tunable
# makes malloc madvise(MADV_HUGEPAGE) its mmap'd chunks (32 faults per 64 MiB), the best
# PyTorch eager gets without a caching allocator. glibc reads tunables at process start, so
# the script starts itself again with them (and the thread counts of OpenMP and OpenBLAS,
# which torch.set_num_threads does not reach) set, unless --no-hugepages.
HUGEPAGE_TUNABLE = "glibc.malloc.hugetlb=1"
_REEXEC_MARK = "PLUGRT_TORCH_BENCH_ENV"


def _prepare_environment():
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--threads", type=int, default=os.cpu_count())
    pre.add_argument("--no-hugepages", action="store_true")
    known, _ = pre.parse_known_args()
    if os.environ.get(_REEXEC_MARK) == "1":
        return
    env = dict(os.environ)
    env[_REEXEC_MARK] = "1"
    env["OMP_NUM_THREADS"] = str(known.threads)
    env["OPENBLAS_NUM_THREADS"] = str(known.threads)
    # Debian's PyTorch runs elementwise ops on libgomp's threads and matmuls on OpenBLAS's own:
    # with libgomp's default wait policy its idle threads spin and take the cores from
    # OpenBLAS's (mlp_train_step: 44 ms against 16.6 ms PASSIVE on 2 cores). PyTorch at its
    # best: PASSIVE, unless the environment names a policy.
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if not known.no_hugepages:
        tunables = [t for t in env.get("GLIBC_TUNABLES", "").split(":") if t]
        if HUGEPAGE_TUNABLE not in tunables:
            env["GLIBC_TUNABLES"] = ":".join(tunables + [HUGEPAGE_TUNABLE])
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


if __name__ == "__main__":
    _prepare_environment()

import torch  # noqa: E402  (after the environment is set)
import torch.nn.functional as F  # noqa: E402

import torch_config  # noqa: E402

DISPATCH_ITERATIONS = 100000


def uniform(gen, *shape, dtype=torch.float32):
    """Uniform in [-1, 1) as float32, then cast (bf16: rounded from the float32 values)."""
    return (torch.rand(shape, generator=gen) * 2 - 1).to(dtype)


# Each workload: name -> setup(gen) returning a zero-argument callable that runs it once.


def gemm(n):
    def setup(gen):
        a, b = uniform(gen, n, n), uniform(gen, n, n)
        return lambda: torch.matmul(a, b)
    return setup


def gemm_bf16(n):
    def setup(gen):
        a = uniform(gen, n, n, dtype=torch.bfloat16)
        b = uniform(gen, n, n, dtype=torch.bfloat16)
        # torch.matmul on two bf16 tensors (oneDNN's bf16 GEMM on CPUs with bf16 support: f32
        # accumulation), whose bf16 result .float() widens to the f32 the program returns. The
        # result is rounded to bf16 on the way, which plugrt's f32 result is not; PyTorch 1.13
        # has no bf16 x bf16 -> f32 matmul, and this is what a PyTorch user writes.
        return lambda: torch.matmul(a, b).float()
    return setup


def elementwise_chain(gen):
    x = uniform(gen, 16777216)
    return lambda: (0.5 * x * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
                    + 0.01 * torch.exp(-x * x))


def row_sum(gen):
    x = uniform(gen, 4096, 4096)
    return lambda: torch.sum(x, dim=1)


def column_max(gen):
    x = uniform(gen, 4096, 4096)
    return lambda: torch.amax(x, dim=0)


def softmax(gen):
    x = uniform(gen, 4096, 4096)
    return lambda: torch.softmax(x, dim=-1)


def layer_norm(gen):
    x, gamma, beta = uniform(gen, 8192, 1024), uniform(gen, 1024), uniform(gen, 1024)
    return lambda: F.layer_norm(x, (1024,), gamma, beta, eps=1e-5)


def mlp_train_step(gen):
    x, labels = uniform(gen, 256, 784), uniform(gen, 256, 10)
    params = [uniform(gen, 784, 1024), uniform(gen, 1024), uniform(gen, 1024, 1024),
              uniform(gen, 1024), uniform(gen, 1024, 10), uniform(gen, 10)]
    for p in params:
        p.requires_grad_(True)
    w1, b1, w2, b2, w3, b3 = params

    def step():
        # Forward, softmax cross-entropy against the label rows (probability targets: mean
        # over the batch of -sum(labels * log_softmax(logits))), autograd backward, SGD with
        # lr 0.01 into new tensors (the program returns new parameters too).
        for p in params:
            p.grad = None
        h1 = torch.relu(x @ w1 + b1)
        h2 = torch.relu(h1 @ w2 + b2)
        loss = F.cross_entropy(h2 @ w3 + b3, labels)
        loss.backward()
        with torch.no_grad():
            updated = [p - 0.01 * p.grad for p in params]
        return loss.detach(), updated
    return step


def conv3x3_variant(channels_last):
    def setup(gen):
        # NHWC input [32, 56, 56, 64] and HWIO kernel [3, 3, 64, 64] as in the program, viewed
        # as torch's logical NCHW / OIHW; channels_last keeps them NHWC / OHWI in memory.
        x = uniform(gen, 32, 56, 56, 64).permute(0, 3, 1, 2)
        w = uniform(gen, 3, 3, 64, 64).permute(3, 2, 0, 1)
        fmt = torch.channels_last if channels_last else torch.contiguous_format
        x, w = x.contiguous(memory_format=fmt), w.contiguous(memory_format=fmt)
        return lambda: F.conv2d(x, w, stride=1, padding=1)
    return setup


def transformer_block(gen):
    batch, seq, width, heads, mlp = 4, 512, 512, 8, 2048
    hd = width // heads
    x = uniform(gen, batch, seq, width)
    wq, wk, wv, wo = (uniform(gen, width, width) for _ in range(4))
    w1, b1, w2, b2 = (uniform(gen, width, mlp), uniform(gen, mlp), uniform(gen, mlp, width),
                      uniform(gen, width))
    g1, be1, g2, be2 = (uniform(gen, width) for _ in range(4))

    def split(t):  # [b, s, width] -> [b, heads, s, hd]
        return t.reshape(batch, seq, heads, hd).transpose(1, 2)

    def block():
        # Pre-layer-norm encoder block, forward only (no autograd tape, as in the program).
        with torch.no_grad():
            h = F.layer_norm(x, (width,), g1, be1, eps=1e-5)
            q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
            probs = torch.softmax((q @ k.transpose(-1, -2)) * 0.125, dim=-1)
            context = (probs @ v).transpose(1, 2).reshape(batch, seq, width)
            x1 = x + context @ wo
            m = F.gelu(F.layer_norm(x1, (width,), g2, be2, eps=1e-5) @ w1 + b1,
                       approximate="tanh")
            return x1 + m @ w2 + b2
    return block


def eager_chain20(gen):
    """bench/eager_chain20.mlir's 20 ops, one torch call each (a new 1M-element tensor per op,
    as eager PyTorch code makes them)."""
    x, y = uniform(gen, 1048576), uniform(gen, 1048576)

    def chain():
        v0 = torch.add(x, y)
        v1 = torch.mul(v0, x)
        v2 = torch.sub(v1, y)
        v3 = torch.tanh(v2)
        v4 = torch.mul(v3, v0)
        v5 = torch.maximum(v4, x)
        v6 = torch.minimum(v5, y)
        v7 = torch.neg(v6)
        v8 = torch.abs(v7)
        v9 = torch.add(v8, v1)
        v10 = torch.exp(v7)
        v11 = torch.mul(v10, v9)
        v12 = torch.sub(v11, v3)
        v13 = torch.sin(v12)
        v14 = torch.add(v13, x)
        v15 = torch.mul(v14, v14)
        v16 = torch.sqrt(v15)
        v17 = torch.sub(v16, v8)
        v18 = torch.maximum(v17, v2)
        return torch.add(v18, v10)
    return chain


WORKLOADS = {
    "gemm_1024": gemm(1024),
    "gemm_2048": gemm(2048),
    "gemm_bf16_1024": gemm_bf16(1024),
    "gemm_bf16_2048": gemm_bf16(2048),
    "elementwise_chain": elementwise_chain,
    "row_sum": row_sum,
    "column_max": column_max,
    "softmax": softmax,
    "layer_norm": layer_norm,
    "mlp_train_step": mlp_train_step,
    "conv3x3": None,  # both memory formats are measured, the faster one reported
    "transformer_block": transformer_block,
    "dispatch_scalar_add": None,  # per-call time of a loop, see bench_dispatch
    "eager_add": None,  # the same loop: torch.add is PyTorch's cached small eager op
    "eager_chain20": eager_chain20,
}


def time_runs(fn, warmup, min_runs, max_runs, min_seconds):
    for _ in range(warmup):
        fn()
    times = []
    start = time.perf_counter()
    while len(times) < max_runs and (len(times) < min_runs
                                     or time.perf_counter() - start < min_seconds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def summary(name, times_s, **extra):
    ms = [t * 1e3 for t in times_s]
    row = {"name": name, "median_ms": statistics.median(ms), "min_ms": min(ms),
           "max_ms": max(ms), "runs": len(ms)}
    row.update(extra)
    return row


def bench_dispatch(args, name="dispatch_scalar_add"):
    """torch.add of two 0-d tensors, DISPATCH_ITERATIONS times per timed run; the row's times
    are per call (ms), us_per_call the median in microseconds. Both dispatch_scalar_add and
    eager_add (plugrt's cached eager add) are held against it."""
    gen = torch.Generator().manual_seed(args.seed)
    a, b = uniform(gen), uniform(gen)

    def loop():
        for _ in range(DISPATCH_ITERATIONS):
            torch.add(a, b)

    times = time_runs(loop, 1, args.dispatch_runs, args.dispatch_runs, 0.0)
    per_call = [t / DISPATCH_ITERATIONS for t in times]
    row = summary(name, per_call, iterations=DISPATCH_ITERATIONS)
    row["us_per_call"] = row["median_ms"] * 1e3
    return row


def bench_one(name, args):
    if name in ("dispatch_scalar_add", "eager_add"):
        return bench_dispatch(args, name)
    if name == "conv3x3":
        rows = []
        for channels_last in (True, False):
            gen = torch.Generator().manual_seed(args.seed)
            fn = conv3x3_variant(channels_last)(gen)
            times = time_runs(fn, args.warmup, args.min_runs, args.max_runs, args.min_seconds)
            variant = "channels_last (NHWC)" if channels_last else "contiguous (NCHW)"
            rows.append(summary(name, times, variant=variant))
        best = min(rows, key=lambda r: r["median_ms"])
        other = max(rows, key=lambda r: r["median_ms"])
        best["other_variant"] = other["variant"]
        best["other_variant_median_ms"] = other["median_ms"]
        return best
    gen = torch.Generator().manual_seed(args.seed)
    fn = WORKLOADS[name](gen)
    times = time_runs(fn, args.warmup, args.min_runs, args.max_runs, args.min_seconds)
    return summary(name, times)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="workloads to run (default: all)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(),
                        help="torch.set_num_threads (default: os.cpu_count())")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--min-runs", type=int, default=5)
    parser.add_argument("--max-runs", type=int, default=50)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--dispatch-runs", type=int, default=5,
                        help="timed loops of 100,000 calls for dispatch_scalar_add and eager_add")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-hugepages", action="store_true",
                        help="leave glibc's malloc as it is (see HUGEPAGE_TUNABLE)")
    parser.add_argument("--config", action="store_true",
                        help="print PyTorch's configuration and BLAS, check it, run nothing")
    parser.add_argument("--allow-reference-blas", action="store_true",
                        help="time even on the reference BLAS (the JSON says so, and "
                             "compare.py prints no ratios against it)")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    blas = torch_config.blas_info()
    if args.config:
        print(torch_config.build_config())
        onednn = torch_config.onednn_info()
        print(f"\nBLAS: {torch_config.blas_summary(blas)}")
        if blas["details"]:
            print(f"  {blas['details']}")
        print(f"  libblas.so.3 loaded: {', '.join(blas['libblas_so_3']) or 'none'}")
        print(f"  BLAS/LAPACK files mapped: {', '.join(blas['mapped']) or 'none'}")
        print(f"oneDNN: {onednn['version'] or 'version unknown'}"
              f"{'' if onednn['available'] else ' (not available)'}, loaded from "
              f"{', '.join(onednn['mapped']) or 'nothing yet'}")
    if blas["reference"] is None:
        print(f"warning: cannot tell which BLAS PyTorch uses ({blas['name']})", file=sys.stderr)
    if blas["reference"] and not args.allow_reference_blas:
        print("torch_bench.py: " + torch_config.reference_blas_message(blas), file=sys.stderr)
        return 1
    if args.config:
        return 0

    names = args.names or list(WORKLOADS)
    skipped = [n for n in names if n.startswith("compile_")]
    names = [n for n in names if not n.startswith("compile_")]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workloads: {' '.join(unknown)} (known: {' '.join(WORKLOADS)})")
    if skipped:
        print(f"note: no PyTorch counterpart for {' '.join(skipped)} (kind=compile)",
              file=sys.stderr)

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {cpu_name()}, "
          f"GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')}")
    print(f"BLAS: {torch_config.blas_summary(blas)}")
    rows = []
    for name in names:
        row = bench_one(name, args)
        rows.append(row)
        line = (f"{name:22s} median {row['median_ms']:10.4f} ms  min {row['min_ms']:10.4f}  "
                f"max {row['max_ms']:10.4f}  runs {row['runs']}")
        if "us_per_call" in row:
            line += f"  ({row['us_per_call']:.3f} us per call)"
        if "variant" in row:
            line += (f"  [{row['variant']}; {row['other_variant']}: "
                     f"{row['other_variant_median_ms']:.4f} ms]")
        print(line, flush=True)

    if args.json:
        write_results(args.json, rows, blas)
    return 0


def write_results(path, rows, blas, **fields):
    """Writes a run's JSON to `path`: `fields` (torch_models.py's "peer"), then what the run
    was (torch's version and threads, the CPU, the environment variables that change its
    speed, the BLAS, oneDNN, torch's build configuration) and the timed `rows`."""
    result = dict(fields)
    result.update({
        "torch_version": torch.__version__, "threads": torch.get_num_threads(),
        "interop_threads": torch.get_num_interop_threads(), "cpu": cpu_name(),
        "environment": {k: os.environ.get(k) for k in (
            "GLIBC_TUNABLES", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE",
            "OMP_WAIT_POLICY")},
        "blas": blas, "onednn": torch_config.onednn_info(), "config": torch_config.build_config(),
        "workloads": rows})
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
