#!/usr/bin/env bash
# Simulated hosts on one machine: Linux network namespaces joined by veth pairs
# to a bridge in a namespace of their own, with private test addresses that
# exist inside those namespaces only (198.18.0.0/24, the range set aside for
# network tests). Nothing changes in the machine's own network namespace but
# the namespaces' names. Needs root (or CAP_NET_ADMIN and CAP_SYS_ADMIN).
#
#   netns_hosts.sh up NAME N          makes hosts 0..N-1 (namespaces NAME-h0 ...,
#                                     switch NAME-sw); prints "K ADDRESS" per host
#   netns_hosts.sh exec NAME K CMD... runs CMD on host K (hostname NAME-hK, in a
#                                     UTS namespace of its own)
#   netns_hosts.sh agent HOST CMD...  mpirun's rsh agent: runs CMD (one shell
#                                     string) on the host whose address is HOST,
#                                     of the hosts named $PLUGRT_NETNS_NAME
#                                     (mpirun --mca plm_rsh_agent "netns_hosts.sh agent")
#   netns_hosts.sh addr K             host K's address
#   netns_hosts.sh cap NAME K RATE    caps host K's outgoing traffic (tc tbf, e.g. 100mbit)
#   netns_hosts.sh loss NAME K PCT    drops PCT % of host K's incoming packets at random
#                                     (iptables statistic)
#   netns_hosts.sh delay NAME K MS    adds MS milliseconds each way to the TCP connections
#                                     host K opens from now on (a relay in host K,
#                                     scripts/delay_relay.py, behind an iptables
#                                     redirect: this kernel has no netem)
#   netns_hosts.sh partition NAME K   cuts host K off (drops all but its loopback)
#   netns_hosts.sh heal NAME K        removes host K's caps, losses, delay and partition
#   netns_hosts.sh down NAME          removes every namespace of NAME
#   netns_hosts.sh check              exits 0 when namespaces can be made here
set -euo pipefail

addr() { echo "198.18.0.$(( $1 + 1 ))"; }

# The delay relay's port on each host's loopback, and the mark of its own
# connections, which the redirect lets through.
RELAY_PORT=39999
RELAY_MARK=0x5045

# Stops the delay relay of namespace $1, if any.
stop_relay() {
  local pid
  for pid in $(ip netns pids "$1" 2>/dev/null); do
    if tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q delay_relay.py; then
      kill "$pid" 2>/dev/null || true
    fi
  done
}

# The host's namespace name, checked to exist.
host_ns() {
  local ns="$1-h$2"
  ip netns list | grep -qw "^$ns" || { echo "netns_hosts.sh: no host $2 in $1" >&2; exit 1; }
  echo "$ns"
}

cmd="${1:-}"
case "$cmd" in
  check)
    probe="plugrt-probe-$$"
    ip netns add "$probe" 2>/dev/null || { echo "network namespaces cannot be made here (need root)"; exit 1; }
    ok=1
    ip -n "$probe" link add br0 type bridge 2>/dev/null || ok=0
    ip -n "$probe" link add v0 type veth peer name v1 2>/dev/null || ok=0
    ip netns exec "$probe" iptables -L -n >/dev/null 2>&1 || ok=0
    ip netns del "$probe"
    [ "$ok" = 1 ] || { echo "bridges, veth pairs or iptables are missing in namespaces"; exit 1; }
    ;;
  up)
    name="$2"; n="$3"
    ip netns add "$name-sw"
    ip -n "$name-sw" link add br0 type bridge
    ip -n "$name-sw" link set br0 up
    ip -n "$name-sw" link set lo up
    for ((k = 0; k < n; k++)); do
      ns="$name-h$k"
      ip netns add "$ns"
      ip -n "$ns" link set lo up
      # Made inside the switch's namespace, its peer inside the host's: no
      # interface ever appears in the machine's own namespace.
      ip -n "$name-sw" link add "v$k" type veth peer name eth0 netns "$ns"
      ip -n "$name-sw" link set "v$k" master br0 up
      ip -n "$ns" addr add "$(addr "$k")/24" dev eth0
      ip -n "$ns" link set eth0 up
      echo "$k $(addr "$k")"
    done
    ;;
  exec)
    name="$2"; k="$3"; shift 3
    ns="$(host_ns "$name" "$k")"
    # A host name of its own: MPI tells hosts apart by name (its session
    # directories and shared-memory files are named after it).
    exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$ns" "$@"
    ;;
  agent)
    host="$2"; shift 2
    k=$(( ${host##*.} - 1 ))
    ns="$(host_ns "${PLUGRT_NETNS_NAME:?agent: set PLUGRT_NETNS_NAME}" "$k")"
    exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && exec sh -c "$1"' "$ns" "$*"
    ;;
  addr)
    addr "$2"
    ;;
  cap)
    ns="$(host_ns "$2" "$3")"
    # A bucket of 10 ms of traffic, in bytes (at least 4000): smaller ones cannot
    # keep a fast link busy between timer ticks.
    burst=$(awk -v r="$4" 'BEGIN {
      n = r + 0; u = r; sub(/^[0-9.]+/, "", u)
      m = (u == "gbit") ? 1e9 : (u == "mbit") ? 1e6 : (u == "kbit") ? 1e3 : 1
      b = n * m / 800; if (b < 4000) b = 4000; printf "%d", b }')
    tc -n "$ns" qdisc replace dev eth0 root tbf rate "$4" burst "$burst" latency 400ms
    ;;
  loss)
    ns="$(host_ns "$2" "$3")"
    ip netns exec "$ns" iptables -A INPUT -i eth0 -m statistic --mode random \
      --probability "$(awk -v p="$4" 'BEGIN { printf "%.4f", p / 100 }')" -j DROP
    ;;
  delay)
    ns="$(host_ns "$2" "$3")"
    stop_relay "$ns"
    ip netns exec "$ns" iptables -t nat -F OUTPUT
    ip netns exec "$ns" python3 "$(dirname "$0")/delay_relay.py" --port "$RELAY_PORT" \
      --delay-ms "$4" --mark "$RELAY_MARK" >/dev/null 2>&1 < /dev/null &
    for _ in $(seq 100); do
      ip netns exec "$ns" python3 -c "import socket; socket.create_connection(('127.0.0.1', $RELAY_PORT), 1)" \
        2>/dev/null && break
      sleep 0.05
    done
    ip netns exec "$ns" iptables -t nat -A OUTPUT -o eth0 -p tcp -m mark ! --mark "$RELAY_MARK" \
      -j REDIRECT --to-ports "$RELAY_PORT"
    ;;
  partition)
    ns="$(host_ns "$2" "$3")"
    ip netns exec "$ns" iptables -A INPUT -i eth0 -j DROP
    ip netns exec "$ns" iptables -A OUTPUT -o eth0 -j DROP
    ;;
  heal)
    ns="$(host_ns "$2" "$3")"
    ip netns exec "$ns" iptables -F
    ip netns exec "$ns" iptables -t nat -F
    stop_relay "$ns"
    tc -n "$ns" qdisc del dev eth0 root 2>/dev/null || true
    ;;
  down)
    name="$2"
    for ns in $(ip netns list | awk '{print $1}' | grep -E "^$name-(sw|h[0-9]+)$" || true); do
      stop_relay "$ns"
      ip netns del "$ns"
    done
    ;;
  *)
    sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
    [ -n "$cmd" ] && [ "$cmd" != "-h" ] && [ "$cmd" != "--help" ] && exit 2
    exit 0
    ;;
esac
