#!/bin/bash
# Builds the .deb packages (cmake/packaging.cmake), checks their dependencies,
# unpacks them into an empty root (dpkg-deb -x: no dpkg database, no root
# needed) and runs the packaged tool from there.
#
#   deb_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/plugrt-deb-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "deb_test: $*" >&2; exit 1; }

(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" > cpack.log) ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
runtime=$(ls "$work"/out/plugrt_*.deb)
dev=$(ls "$work"/out/plugrt-dev_*.deb)

depends=$(dpkg-deb -f "$runtime" Depends)
echo "plugrt Depends: $depends"
for package in libdnnl libgomp1 libprotobuf-lite libopenblas liblapacke libstdc++6 libc6; do
  [[ $depends == *"$package"* ]] || fail "plugrt does not depend on $package"
done
[[ $(dpkg-deb -f "$dev" Depends) == *"plugrt (= "* ]] || fail "plugrt-dev does not depend on plugrt"
dpkg-deb -c "$runtime" > "$work/runtime.txt"
dpkg-deb -c "$dev" > "$work/dev.txt"
grep -q '/usr/bin/plugrt$' "$work/runtime.txt" || fail "the tool is not in plugrt"
grep -q '/plugrt/libplugrt_cpu.so$' "$work/runtime.txt" || fail "the CPU plugin is not in plugrt"
grep -q '/usr/share/bash-completion/completions/plugrt$' "$work/runtime.txt" ||
  fail "the bash completion is not in plugrt"
grep -q '/include/' "$work/runtime.txt" && fail "headers in the runtime package"
grep -q '/usr/include/plugrt/client/client.h$' "$work/dev.txt" || fail "headers missing from plugrt-dev"
grep -q '/cmake/plugrt/plugrtConfig.cmake$' "$work/dev.txt" || fail "CMake package missing"
grep -q '/pkgconfig/plugrt.pc$' "$work/dev.txt" || fail "plugrt.pc missing"

root=$work/root
dpkg-deb -x "$runtime" "$root"
dpkg-deb -x "$dev" "$root"
env -u PLUGRT_CPU_PLUGIN -u PLUGRT_PLUGIN_PATH -u PJRT_NAMES_AND_LIBRARY_PATHS \
  "$root/usr/bin/plugrt" devices > "$work/devices.txt" || fail "plugrt devices failed"
grep -q "^plugin: $root/usr/" "$work/devices.txt" ||
  { cat "$work/devices.txt"; fail "the unpacked tool did not use the unpacked CPU plugin"; }
grep -q "^platform: cpu" "$work/devices.txt" || fail "no cpu platform"
echo "deb_test: ok"
