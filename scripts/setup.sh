#!/usr/bin/env bash
# Installs the Debian packages plugrt needs to build and test, and any extra
# packages named as arguments (scripts/bench_setup.sh adds python3-torch).
# Idempotent: does nothing (and needs no network) when everything is already
# installed. Runs as root, or through sudo when available.
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build pkg-config
  libgtest-dev libgmock-dev        # tests
  libbenchmark-dev                 # benchmarks
  libcli11-dev                     # command-line parsing for tools/plugrt
  libprotobuf-dev protobuf-compiler  # compile options (xla.CompileOptionsProto)
  libgrpc++-dev protobuf-compiler-grpc  # remote workers: `plugrt serve`, libplugrt_remote.so
  libdnnl-dev ocl-icd-opencl-dev   # oneDNN: dot_general/convolution (its CMake config needs OpenCL's)
  libxbyak-dev                     # x86-64 code generation for fused elementwise loops
  liblapacke-dev libopenblas-dev   # LAPACK on OpenBLAS: JAX's CPU linear-algebra custom calls
  clang-14 libclang-rt-14-dev      # fuzz targets: clang, libFuzzer and its sanitizer runtimes
  libomp-14-dev                    # clang's OpenMP (the fuzz build compiles the CPU backend)
  libgloo-dev                      # cross-process collectives (TCP transport)
  libhiredis-dev redis-server      # the Redis key-value store for cluster rendezvous
  openmpi-bin libopenmpi-dev       # mpirun, and MPI as the second collectives backend
  iproute2 iptables                # simulated hosts: network namespaces, veth, tc caps, loss, partitions
  openssl                          # test certificate authorities for the TLS tests
  libcurl4-openssl-dev             # the read-only http(s):// filesystem scheme
  pybind11-dev python3-dev python3-numpy python3-pytest libdlpack-dev  # Python bindings (DLPack) and their tests
  python3-matplotlib               # bench/plot.py (scripts/bench.sh --plot) and its test
  "$@"
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
