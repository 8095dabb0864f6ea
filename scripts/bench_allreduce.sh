#!/usr/bin/env bash
# Multi-process benchmarks on this machine (loopback), three parts:
# 1. Memory bandwidth: a single-threaded 256 MiB memcpy between buffers already
#    written (Python's slice assignment), bytes read + written per second: the
#    reference the all-reduce is put against.
# 2. Cross-process all-reduce, for each way the processes of one host can
#    reduce: gloo and mpi (the backends alone, shared_memory_collectives off) and
#    shm (the default: shared memory among one host's processes, whichever
#    backend; under mpirun that is MPI from 4 MiB on), and gloo+shm (shared
#    memory at every size, as a job on Gloo gets it), all under Open MPI's
#    mpirun (without mpirun, gloo and shm under `plugrt launch`): for each
#    process count P and size, a job of P processes of `plugrt bench` (one
#    device and one kernel thread each) times in every process a program of
#    one f32 sum all-reduce over all of them
#    (--repeats runs after warm-up ones, so connections are up); node 0's
#    median is reported as time per all-reduce (the program's output included),
#    with algorithm bandwidth (bytes / time), bus bandwidth (x 2(P-1)/P, what a
#    ring moves per process), bus bandwidth as a fraction of the memcpy's, and
#    the fraction of the memory's limit: every process must read its input and
#    write its output, 2 x P x SIZE bytes at the rate of P processes copying
#    at once (measured first).
# 3. Data-parallel MLP training (bench/gen_dp_mlp.py: 784 -> 512 -> 512 -> 10,
#    batch 128 per process, gradients summed by all_reduce, 4 steps per execute):
#    steps per second on 1 process with all the cores, on 1 process with half of
#    them, and on 2 processes with half of them each (per backend), timed the
#    same way.
#
#    Then the same for an all-gather (each process's f32[N/P] into f32[N]; all-to-alls
#    and collective permutes across processes travel the same way): time per
#    all-gather and bus bandwidth (output bytes / time x (P-1)/P).
#
# Usage: scripts/bench_allreduce.sh [--procs "2 4"] [--sizes "1K 64K 1M 16M 256M"]
#                                   [--gather-sizes "1K 4M"] [--backends "gloo mpi shm gloo+shm"]
#                                   [--no-mlp]
# Builds nothing: needs build/bin/plugrt ($PLUGRT names another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGRT="${PLUGRT:-build/bin/plugrt}"
PROCS="2 4"
SIZES="1K 16K 256K 4M 64M 256M"
GATHER_SIZES="1K 256K 4M 16M"
MLP=1
BACKENDS="gloo mpi shm gloo+shm"
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none --tag-output)
command -v mpirun >/dev/null || { BACKENDS="gloo shm"; MPIRUN=(); }  # shm is gloo+shm there
while [ $# -gt 0 ]; do
  case "$1" in
    --procs) PROCS="$2"; shift 2 ;;
    --backends) BACKENDS="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --gather-sizes) GATHER_SIZES="$2"; shift 2 ;;
    --no-mlp) MLP=0; shift ;;
    -h|--help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_allreduce.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. scripts/job_bench_lib.sh
[ -x "$PLUGRT" ] || { echo "bench_allreduce.sh: $PLUGRT is missing (scripts/build.sh)" >&2; exit 1; }
DIR="$(mktemp -d "${TMPDIR:-/tmp}/plugrt-allreduce-XXXXXX")"
trap 'rm -rf "$DIR"' EXIT

bytes_of() {
  local s="$1"
  case "$s" in
    *K) echo $(( ${s%K} * 1024 )) ;;
    *M) echo $(( ${s%M} * 1024 * 1024 )) ;;
    *) echo "$s" ;;
  esac
}

# workload P N: one f32 sum all-reduce of the argument f32[N] over P replicas.
workload() {
  local procs="$1" n="$2" ids="" i
  for ((i = 0; i < procs; i++)); do ids+="${ids:+, }$i"; done
  echo "// plugrt-bench: kind=execute metric=bytes"
  echo "// One f32 sum all-reduce over $procs processes (scripts/bench_allreduce.sh)."
  echo "module @allreduce attributes {mhlo.num_replicas = $procs : i32} {"
  echo "  func.func @main(%x: tensor<${n}xf32>) -> tensor<${n}xf32> {"
  echo "    %r = \"stablehlo.all_reduce\"(%x) ({"
  echo "      ^bb0(%p: tensor<f32>, %q: tensor<f32>):"
  echo "        %s = stablehlo.add %p, %q : tensor<f32>"
  echo "        stablehlo.return %s : tensor<f32>"
  echo "    }) {replica_groups = dense<[[$ids]]> : tensor<1x${procs}xi64>} : (tensor<${n}xf32>) -> tensor<${n}xf32>"
  echo "    return %r : tensor<${n}xf32>"
  echo "  }"
  echo "}"
}

# gather_workload P N: one all-gather of each process's f32[N/P] into f32[N].
gather_workload() {
  local procs="$1" n="$2" ids="" i
  local part=$(( n / procs ))
  [ "$part" -ge 1 ] || part=1
  for ((i = 0; i < procs; i++)); do ids+="${ids:+, }$i"; done
  echo "// plugrt-bench: kind=execute metric=bytes"
  echo "// One all-gather over $procs processes (scripts/bench_allreduce.sh)."
  echo "module @allgather attributes {mhlo.num_replicas = $procs : i32} {"
  echo "  func.func @main(%x: tensor<${part}xf32>) -> tensor<$(( part * procs ))xf32> {"
  echo "    %r = \"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[$ids]]> : tensor<1x${procs}xi64>} : (tensor<${part}xf32>) -> tensor<$(( part * procs ))xf32>"
  echo "    return %r : tensor<$(( part * procs ))xf32>"
  echo "  }"
  echo "}"
}

# median_ms BACKEND PROCS THREADS DIR NAME REPEATS: node 0's median execute
# time of workload DIR/NAME.mlir in a job of PROCS processes (1: no job) whose
# collectives run on BACKEND (gloo, mpi, shm: shared memory and the auto backend,
# or gloo+shm: shared memory and Gloo).
median_ms() {
  local backend="$1" procs="$2" threads="$3" dir="$4" name="$5" repeats="$6"
  export PLUGRT_COLLECTIVES="$backend" PLUGRT_SHARED_MEMORY_COLLECTIVES=0
  case "$backend" in
    shm) PLUGRT_COLLECTIVES=auto; PLUGRT_SHARED_MEMORY_COLLECTIVES=1 ;;
    gloo+shm) PLUGRT_COLLECTIVES=gloo; PLUGRT_SHARED_MEMORY_COLLECTIVES=1 ;;
    gloo|mpi) ;;
    *) PLUGRT_COLLECTIVES=auto ;;  # one process: no collectives across processes
  esac
  local bench=(bench --dir "$dir" --repeats "$repeats" --warmup 2 --no-ceilings
               --threads "$threads" --json - "$name")
  if [ "$procs" = 1 ]; then
    "$PLUGRT" "${bench[@]}" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt" >&2; exit 1; }
  elif [ ${#MPIRUN[@]} -gt 0 ]; then
    "${MPIRUN[@]}" -n "$procs" -x PLUGRT_COLLECTIVES -x PLUGRT_SHARED_MEMORY_COLLECTIVES \
      "$PLUGRT" "${bench[@]}" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt" >&2; exit 1; }
  else
    "$PLUGRT" launch -n "$procs" -- plugrt "${bench[@]}" > "$DIR/out.txt" 2>&1 ||
      { cat "$DIR/out.txt" >&2; exit 1; }
  fi
  node0_median_ms "$DIR/out.txt"
}

MEMCPY_MBPS=$(python3 - <<'PY'
import time
size = 256 << 20
# Both buffers written once first: the timed copies fault in no pages.
src = bytearray(b"\x01") * size
dst = bytearray(size)
dst[:] = src
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    dst[:] = src  # one memcpy
    best = min(best, time.perf_counter() - start)
print(f"{2 * size / best / 1e6:.0f}")
PY
)
# copy_mbps P: P processes each copying 256 MiB at once (a barrier before each
# of 5 rounds): bytes read + written by all of them per second, best round.
copy_mbps() {
  python3 - "$1" <<'PY'
import multiprocessing as mp, sys, time
procs, size, rounds = int(sys.argv[1]), 256 << 20, 5
def copier(barrier, times):
    src = bytearray(b"\x01") * size
    dst = bytearray(size)
    dst[:] = src
    for r in range(rounds):
        barrier.wait()
        start = time.perf_counter()
        dst[:] = src
        times.put((r, time.perf_counter() - start))
barrier, times = mp.Barrier(procs), mp.Queue()
workers = [mp.Process(target=copier, args=(barrier, times)) for _ in range(procs)]
for w in workers: w.start()
slowest = {}
for _ in range(procs * rounds):
    r, t = times.get()
    slowest[r] = max(slowest.get(r, 0.0), t)
for w in workers: w.join()
print(f"{procs * 2 * size / min(slowest.values()) / 1e6:.0f}")
PY
}
echo "== memory bandwidth: single-threaded 256 MiB memcpy, read + written: $MEMCPY_MBPS MB/s"
declare -A COPY_MBPS
for procs in $PROCS; do
  COPY_MBPS[$procs]=$(copy_mbps "$procs")
  echo "   $procs processes copying at once, read + written in all: ${COPY_MBPS[$procs]} MB/s"
done
echo
echo "== cross-process all-reduce (f32 sum, loopback)"
printf '%-8s %-6s %-8s %12s %14s %14s %12s %10s\n' backend procs size "us/op" "algbw MB/s" "busbw MB/s" "of memcpy" "of limit"
for backend in $BACKENDS; do
for procs in $PROCS; do
  mkdir -p "$DIR/p$procs"
  for size in $SIZES; do
    bytes=$(bytes_of "$size")
    n=$(( bytes / 4 ))
    [ "$n" -ge 1 ] || n=1
    workload "$procs" "$n" > "$DIR/p$procs/ar_$size.mlir"
    if [ "$bytes" -le $((16 * 1024 * 1024)) ]; then repeats=20; else repeats=5; fi
    ms=$(median_ms "$backend" "$procs" 1 "$DIR/p$procs" "ar_$size" "$repeats")
    python3 - "$backend" "$procs" "$size" "$bytes" "$ms" "$MEMCPY_MBPS" "${COPY_MBPS[$procs]}" <<'PY'
import sys
backend, procs, size, nbytes, ms, memcpy, copiers = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
per_op = ms / 1e3
algbw = nbytes / per_op / 1e6
busbw = algbw * 2 * (procs - 1) / procs
# Every process must at least read its input and write its output: the
# memory's limit is those bytes at the rate P copying processes reach.
limit = procs * 2 * nbytes / (copiers * 1e6)
print(f"{backend:<8} {procs:<6} {size:<8} {per_op * 1e6:12.0f} {algbw:14.1f} {busbw:14.1f} {busbw / memcpy:12.3f} {limit / per_op:10.2f}")
PY
  done
done
done

echo
echo "== cross-process all-gather (f32, output size, loopback)"
printf '%-8s %-6s %-8s %12s %14s\n' backend procs size "us/op" "busbw MB/s"
for backend in $BACKENDS; do
for procs in $PROCS; do
  mkdir -p "$DIR/p$procs"
  for size in $GATHER_SIZES; do
    bytes=$(bytes_of "$size")
    n=$(( bytes / 4 ))
    gather_workload "$procs" "$n" > "$DIR/p$procs/ag_$size.mlir"
    ms=$(median_ms "$backend" "$procs" 1 "$DIR/p$procs" "ag_$size" 20)
    python3 - "$backend" "$procs" "$size" "$bytes" "$ms" <<'PY'
import sys
backend, procs, size, nbytes, ms = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
per_op = ms / 1e3
print(f"{backend:<8} {procs:<6} {size:<8} {per_op * 1e6:12.0f} {nbytes / per_op / 1e6 * (procs - 1) / procs:14.1f}")
PY
  done
done
done

[ "$MLP" = 1 ] || exit 0
CORES="$(nproc)"
HALF=$(( CORES / 2 ))
[ "$HALF" -ge 1 ] || HALF=1
STEPS=4
echo
echo "== data-parallel MLP training (784-512-512-10, batch 128 per process, $CORES cores)"
printf '%-8s %-6s %-8s %12s %12s %14s\n' backend procs threads "ms/step" "steps/s" "samples/s"
# One process with all the cores, one with as many as each of the two gets
# (the per-process baseline of the scaling), then the two.
RUNS="-:1:$CORES"
[ "$HALF" = "$CORES" ] || RUNS="$RUNS -:1:$HALF"
for backend in $BACKENDS; do RUNS="$RUNS $backend:2:$HALF"; done
for run in $RUNS; do
  backend=${run%%:*}
  rest=${run#*:}
  procs=${rest%%:*}
  threads=${rest##*:}
  mkdir -p "$DIR/mlp$procs"
  { echo "// plugrt-bench: kind=execute metric=flops"
    echo "// $STEPS data-parallel SGD steps over $procs processes (bench/gen_dp_mlp.py)."
    python3 bench/gen_dp_mlp.py --replicas "$procs" --steps "$STEPS"; } > "$DIR/mlp$procs/dp_mlp.mlir"
  ms=$(median_ms "$backend" "$procs" "$threads" "$DIR/mlp$procs" dp_mlp 5)
  python3 - "$backend" "$procs" "$threads" "$ms" "$STEPS" <<'PY'
import sys
backend, procs, threads, ms, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
step = ms / 1e3 / steps
print(f"{backend:<8} {procs:<6} {threads:<8} {step * 1e3:12.1f} {1 / step:12.2f} {procs * 128 / step:14.0f}")
PY
done
