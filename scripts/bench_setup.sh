#!/usr/bin/env bash
# Installs what the benchmarks need: everything scripts/setup.sh installs, plus
# python3-torch (PyTorch, for bench/torch_bench.py and bench/check_programs.py only;
# the build and the tests never use it). Idempotent: does nothing (and needs no
# network) when everything is already installed. Runs as root, or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

PACKAGES=(python3-torch)   # brings python3-numpy

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bench_setup: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "bench_setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "bench_setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
