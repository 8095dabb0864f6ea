#!/usr/bin/env bash
# Installs what the benchmarks need: everything scripts/setup.sh installs, plus
# python3-torch (PyTorch, for bench/torch_bench.py and bench/check_programs.py only;
# the build and the tests never use it; it brings python3-numpy), python3-matplotlib
# (bench/plot.py, also in scripts/setup.sh for its test) and OpenBLAS
# (libopenblas0-pthread). Debian's PyTorch runs its f32 matmuls on whichever library
# provides libblas.so.3; installed alone, python3-torch gets the reference BLAS
# (libblas3), far slower, and scripts/bench.sh refuses to compare against it.
# OpenBLAS is Debian's preferred libblas.so.3 / liblapack.so.3 alternative, so it is
# selected unless an administrator pinned another; a pin to the reference BLAS is
# moved to OpenBLAS, a pin to another optimized BLAS is kept (docs/performance.md
# says how they compared). Also the model set's peers: python3-onnx (ONNX models, for
# bench/torch_models.py --onnx), and ONNX Runtime for bench/ort_models.js: the npm package
# onnxruntime-node at ORT_VERSION, installed with --ignore-scripts (its install script only
# fetches GPU providers; the CPU library, libonnxruntime.so.1, ships inside the package) into
# build/ort, or $PLUGRT_ORT_DIR; node and npm from Debian (nodejs, npm) unless present.
# Idempotent, like scripts/setup.sh, which does the install.
set -euo pipefail
cd "$(dirname "$0")/.."
BLAS_PACKAGE=libopenblas0-pthread
BLAS_DIR=openblas-pthread  # its folder under /usr/lib/<multiarch>/

ORT_VERSION=1.31.1
ORT_DIR="${PLUGRT_ORT_DIR:-build/ort}"

NODE_PACKAGES=()  # Debian's, unless node and npm are there already (e.g. NodeSource's nodejs)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then NODE_PACKAGES=(nodejs npm); fi
scripts/setup.sh python3-torch python3-matplotlib python3-onnx "$BLAS_PACKAGE" "${NODE_PACKAGES[@]}"

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi

# libblas.so.3-<multiarch> and liblapack.so.3-<multiarch>: "NAME MODE PATH" each.
update-alternatives --get-selections | grep -E '^(libblas|liblapack)\.so\.3-' |
  while read -r name mode current; do
    case "$current" in
      */blas/libblas.so.3|*/lapack/liblapack.so.3)  # libblas3 / liblapack3: reference
        wanted="$(update-alternatives --list "$name" | grep "/$BLAS_DIR/" || true)"
        if [ -z "$wanted" ]; then
          echo "bench_setup: $name has no $BLAS_PACKAGE alternative" >&2
          exit 1
        fi
        echo "bench_setup: $name was set to the reference library ($mode); selecting $wanted"
        $SUDO update-alternatives --set "$name" "$wanted"
        ;;
      *) echo "bench_setup: $name -> $current ($mode)" ;;
    esac
  done

# What PyTorch itself loads: the check scripts/bench.sh makes before every run.
/usr/bin/python3 bench/torch_bench.py --config --threads 1 | grep -A1 '^BLAS:'

# ONNX Runtime (npm onnxruntime-node), pinned, into $ORT_DIR (an npm prefix, not in git).
ort_version() {
  ORT_DIR="$ORT_DIR" node -p "try { require(require('path').resolve(process.env.ORT_DIR,
    'node_modules/onnxruntime-node/package.json')).version } catch (e) { '' }"
}
if [ "$(ort_version)" != "$ORT_VERSION" ]; then
  echo "bench_setup: installing onnxruntime-node@$ORT_VERSION into $ORT_DIR"
  mkdir -p "$ORT_DIR"
  npm install --prefix "$ORT_DIR" --ignore-scripts --save-exact --no-audit --no-fund \
    "onnxruntime-node@$ORT_VERSION"
fi
ORT_DIR="$ORT_DIR" node -e "const ort = require(require('path').resolve(process.env.ORT_DIR,
  'node_modules/onnxruntime-node')); console.log('onnxruntime-node ' + ort.env.versions.node +
  ': ' + ort.listSupportedBackends().map((b) => b.name).join(', '))"
