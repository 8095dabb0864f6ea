#!/usr/bin/env bash
# Cross-host all-reduce against the network's limit, on simulated hosts
# (scripts/netns_hosts.sh: two network namespaces on a bridge). A job of two
# `plugrt bench` processes, one per host (torchrun-style variables, node 0's
# coordinator on host 0, Gloo's TCP collectives between the hosts' addresses),
# times one f32 sum all-reduce of SIZE bytes; each host's outgoing traffic is
# capped in turn at each RATE (tc tbf), with each DELAY (milliseconds each way,
# scripts/delay_relay.py) added to every connection. A two-process all-reduce
# sends SIZE bytes out of each host and needs at least two crossings (each
# host's half reduced, then the halves swapped), so the network's limit is
# SIZE / RATE + 2 x DELAY; the table gives node 0's median time, that limit
# and limit / time.
#
# Usage: scripts/bench_netns.sh [--rates "none 1gbit 200mbit"] [--delays "0 5"]
#                               [--size 16M]
# Needs root (network namespaces); builds nothing: needs build/bin/plugrt.
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGRT="$(pwd)/${PLUGRT:-build/bin/plugrt}"
HOSTS="$(pwd)/scripts/netns_hosts.sh"
RATES="none 1gbit 200mbit"
DELAYS="0 5"
SIZE=16M
while [ $# -gt 0 ]; do
  case "$1" in
    --rates) RATES="$2"; shift 2 ;;
    --delays) DELAYS="$2"; shift 2 ;;
    --size) SIZE="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_netns.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. scripts/job_bench_lib.sh
[ -x "$PLUGRT" ] || { echo "bench_netns.sh: $PLUGRT is missing (scripts/build.sh)" >&2; exit 1; }
"$HOSTS" check >/dev/null || { echo "bench_netns.sh: $("$HOSTS" check)" >&2; exit 1; }
NAME="plugrt-bench-$$"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/plugrt-netns-XXXXXX")"
trap '"$HOSTS" down "$NAME"; rm -rf "$DIR"' EXIT
"$HOSTS" up "$NAME" 2 >/dev/null

case "$SIZE" in
  *K) BYTES=$(( ${SIZE%K} * 1024 )) ;;
  *M) BYTES=$(( ${SIZE%M} * 1024 * 1024 )) ;;
  *) BYTES="$SIZE" ;;
esac
N=$(( BYTES / 4 ))
{ echo "// plugrt-bench: kind=execute metric=bytes"
  echo "module @allreduce attributes {mhlo.num_replicas = 2 : i32} {"
  echo "  func.func @main(%x: tensor<${N}xf32>) -> tensor<${N}xf32> {"
  echo "    %r = \"stablehlo.all_reduce\"(%x) ({"
  echo "      ^bb0(%p: tensor<f32>, %q: tensor<f32>):"
  echo "        %s = stablehlo.add %p, %q : tensor<f32>"
  echo "        stablehlo.return %s : tensor<f32>"
  echo "    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<${N}xf32>) -> tensor<${N}xf32>"
  echo "    return %r : tensor<${N}xf32>"
  echo "  }"
  echo "}"; } > "$DIR/ar_$SIZE.mlir"

echo "== all-reduce of $SIZE between 2 simulated hosts (Gloo over veth and a bridge)"
printf '%-10s %-8s %12s %14s %10s\n' cap delay "ms/op" "limit ms" "of limit"
for delay in $DELAYS; do
for rate in $RATES; do
  for k in 0 1; do
    "$HOSTS" heal "$NAME" "$k"
    [ "$rate" = none ] || "$HOSTS" cap "$NAME" "$k" "$rate"
    [ "$delay" = 0 ] || "$HOSTS" delay "$NAME" "$k" "$delay"
  done
  for k in 0 1; do
    env RANK=$k WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=198.18.0.1 \
      MASTER_PORT=29500 PLUGRT_ALLOW_INSECURE=1 \
      "$HOSTS" exec "$NAME" "$k" "$PLUGRT" bench --dir "$DIR" --repeats 5 --warmup 1 \
      --no-ceilings --threads 1 --json - "ar_$SIZE" > "$DIR/node$k.txt" 2>&1 &
  done
  wait || true
  ms=$(node0_median_ms "$DIR/node0.txt") ||
    { cat "$DIR/node0.txt" "$DIR/node1.txt" >&2; exit 1; }
  python3 - "$rate" "$delay" "$BYTES" "$ms" <<'PY'
import re, sys
rate, delay, nbytes, ms = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
units = {"kbit": 1e3, "mbit": 1e6, "gbit": 1e9}
m = re.fullmatch(r"([0-9.]+)(kbit|mbit|gbit)", rate)
limit = nbytes * 8 / (float(m.group(1)) * units[m.group(2)]) * 1e3 + 2 * delay if m else None
if limit is None and delay > 0:
    limit = 2 * delay
print(f"{rate:<10} {delay:<8g} {ms:12.1f} {limit if limit else float('nan'):14.1f} "
      f"{limit / ms if limit else float('nan'):10.2f}")
PY
done
done
