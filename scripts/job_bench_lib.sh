# Sourced by the multi-process benchmark scripts (bench_allreduce.sh,
# bench_dp_hosts.sh, bench_netns.sh): reading a job's `plugrt bench --json -`.

# node0_median_ms OUTPUT: node 0's median execute time (ms) of the one workload
# in OUTPUT, a file holding one process's output, `plugrt launch`'s ("[node 0] "
# lines) or mpirun --tag-output's ("[JOB,0]<stdout>:" lines). Fails, saying
# the workload's error, when it has no time.
node0_median_ms() {
  local out="$1"
  { if grep -q '^\[node 0\] ' "$out"; then sed -n 's/^\[node 0\] //p' "$out"
    elif grep -qE '^\[[0-9]+,0\]<stdout>:' "$out"; then sed -En 's/^\[[0-9]+,0\]<stdout>://p' "$out"
    else cat "$out"; fi; } | sed -n '/^{"machine"/,$p' |
    python3 -c 'import json, sys; w = json.load(sys.stdin)["workloads"][0]; print(w["median_ms"]) if "median_ms" in w else sys.exit(w.get("error", "no time"))'
}
