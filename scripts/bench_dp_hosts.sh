#!/usr/bin/env bash
# Data-parallel MLP training across simulated hosts (scripts/netns_hosts.sh)
# under mpirun: steps per second on 1 process, 2 processes (one per host) and
# 4 processes (two per host), each process with batch 128 of the MLP
# 784 -> 512 -> 512 -> 10 (bench/gen_dp_mlp.py, 4 steps per execute, gradients
# summed by all_reduce), collectives on BACKEND (mpi or gloo). Node 0's median
# execute time, as steps/s and samples/s (processes x 128 / step time).
# Every process shares this machine's cores: the hosts are simulated, the
# cores are not.
#
# Usage: scripts/bench_dp_hosts.sh [--backends "mpi gloo"]
# Needs root and mpirun; builds nothing: needs build/bin/plugrt.
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGRT="$(pwd)/${PLUGRT:-build/bin/plugrt}"
HOSTS="$(pwd)/scripts/netns_hosts.sh"
BACKENDS="mpi gloo"
while [ $# -gt 0 ]; do
  case "$1" in
    --backends) BACKENDS="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_dp_hosts.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. scripts/job_bench_lib.sh
[ -x "$PLUGRT" ] || { echo "bench_dp_hosts.sh: $PLUGRT is missing (scripts/build.sh)" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "bench_dp_hosts.sh: mpirun is missing" >&2; exit 1; }
"$HOSTS" check >/dev/null || { echo "bench_dp_hosts.sh: $("$HOSTS" check)" >&2; exit 1; }
export PLUGRT_NETNS_NAME="plugrt-dp-$$"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/plugrt-dp-hosts-XXXXXX")"
trap '"$HOSTS" down "$PLUGRT_NETNS_NAME"; rm -rf "$DIR"' EXIT
"$HOSTS" up "$PLUGRT_NETNS_NAME" 2 >/dev/null
STEPS=4
CORES="$(nproc)"

median_ms() {  # PROCS HOSTLIST BACKEND DIR
  local procs="$1" hosts="$2" backend="$3" dir="$4" threads
  threads=$(( CORES / procs )); [ "$threads" -ge 1 ] || threads=1
  local bench=("$PLUGRT" bench --dir "$dir" --repeats 5 --warmup 1 --no-ceilings
               --threads "$threads" --json - dp_mlp)
  if [ "$procs" = 1 ]; then
    "$HOSTS" exec "$PLUGRT_NETNS_NAME" 0 "${bench[@]}" > "$DIR/out.txt" 2>&1 ||
      { cat "$DIR/out.txt" >&2; exit 1; }
  else
    PLUGRT_COLLECTIVES="$backend" PLUGRT_ALLOW_INSECURE=1 \
      "$HOSTS" exec "$PLUGRT_NETNS_NAME" 0 mpirun --allow-run-as-root --oversubscribe \
      --host "$hosts" --mca plm_rsh_agent "$HOSTS agent" -x PLUGRT_NETNS_NAME \
      -x PLUGRT_COLLECTIVES -x PLUGRT_ALLOW_INSECURE -n "$procs" --tag-output \
      "${bench[@]}" > "$DIR/out.txt" 2>&1 || { cat "$DIR/out.txt" >&2; exit 1; }
  fi
  node0_median_ms "$DIR/out.txt"
}

echo "== data-parallel MLP across simulated hosts (784-512-512-10, batch 128 per process, $CORES cores shared)"
printf '%-8s %-6s %-6s %12s %12s %14s\n' backend procs hosts "ms/step" "steps/s" "samples/s"
RUNS="-:1:198.18.0.1:1"
for backend in $BACKENDS; do
  RUNS="$RUNS $backend:2:198.18.0.1:1,198.18.0.2:1 $backend:4:198.18.0.1:2,198.18.0.2:2"
done
for run in $RUNS; do
  backend=${run%%:*}; rest=${run#*:}; procs=${rest%%:*}; hosts=${rest#*:}
  mkdir -p "$DIR/p$procs"
  python3 bench/gen_dp_mlp.py --replicas "$procs" --steps "$STEPS" > "$DIR/p$procs/dp_mlp.mlir"
  ms=$(median_ms "$procs" "$hosts" "$backend" "$DIR/p$procs")
  python3 - "$backend" "$procs" "$ms" "$STEPS" <<'PY'
import sys
backend, procs, ms, steps = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
step = ms / 1e3 / steps
hosts = 1 if procs == 1 else 2
print(f"{backend:<8} {procs:<6} {hosts:<6} {step * 1e3:12.1f} {1 / step:12.2f} {procs * 128 / step:14.0f}")
PY
done
