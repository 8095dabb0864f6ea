#!/bin/bash
# Installs the build tree into a temporary prefix and uses it as an outside
# project would: every installed header compiles alone (no src/ on the path)
# and names no private dependency; a client program and a one-file SDK plugin
# build with find_package(plugrt) and with pkg-config, and run.
#
#   install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/plugrt-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
libdirs=$(find "$prefix" -name libplugrt.so -printf '%h\n')
libdir=${libdirs%%$'\n'*}
libdir=${libdir#"$prefix"/}
[[ -n $libdir ]] || fail "no libplugrt.so installed"
for f in bin/plugrt "$libdir"/plugrt/libplugrt_cpu.so "$libdir"/libplugrt_sdk.a \
         "$libdir"/cmake/plugrt/plugrtConfig.cmake "$libdir"/pkgconfig/plugrt.pc \
         "$libdir"/pkgconfig/plugrt-sdk.pc include/plugrt/pjrt_c_api.h \
         include/plugrt/client/client.h include/plugrt/sdk/plugin.h \
         share/bash-completion/completions/plugrt; do
  [[ -e $prefix/$f ]] || fail "not installed: $f"
done

# Headers: none names protobuf, oneDNN or Xbyak; each compiles on its own.
if grep -rlE '#include *[<"](google/protobuf|dnnl|oneapi|xbyak)' "$prefix/include"; then
  fail "an installed header includes a private dependency"
fi
# The C ABIs (plugrt/*.h) must also be C.
check_header() {
  local header=$1 include=$2
  if [[ $header != plugrt/*/* ]]; then
    echo "#include \"$header\"" | cc -std=c11 -fsyntax-only -Wall -Wextra -Werror \
      -I"$include" -x c - || { echo "$header does not compile as C11"; return 1; }
  fi
  echo "#include \"$header\"" | c++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror \
    -I"$include/plugrt" -I"$include" -x c++ - || { echo "$header does not compile alone"; return 1; }
}
export -f check_header
(cd "$prefix/include" && find plugrt -name '*.h' | sort |
   xargs -P 2 -I{} bash -c 'check_header "$1" "$2"' _ {} "$prefix/include") ||
  fail "an installed header does not compile on its own"
cd "$work"

plugin_source=$source/examples/sdk_plugin/example_plugin.cc
cpu_plugin=$prefix/$libdir/plugrt/libplugrt_cpu.so

# CMake consumer.
cmake -S "$source/tests/install/consumer" -B "$work/cmake-build" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PREFIX_PATH="$prefix" -DPLUGIN_SOURCE="$plugin_source" > "$work/cmake.log" ||
  { cat "$work/cmake.log"; fail "consumer configure failed"; }
cmake --build "$work/cmake-build" > "$work/build.log" ||
  { cat "$work/build.log"; fail "consumer build failed"; }
# ldd's output is read whole before it is searched: with pipefail, `ldd | grep -q`
# fails at random when grep stops reading early and ldd dies of SIGPIPE.
linked=$(ldd "$work/cmake-build/consumer_client")
if [[ $linked == *"$build"* ]]; then
  fail "the consumer links something from the build tree"
fi
"$work/cmake-build/consumer_client" "$cpu_plugin" "$work/cmake-build/libconsumer_plugin.so"
"$work/cmake-build/consumer_client_static" "$cpu_plugin"
[[ $linked == *"$prefix/$libdir/libplugrt.so"* ]] ||
  fail "consumer_client does not use the installed libplugrt.so"

# pkg-config consumer.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
mkdir "$work/pc-build"
c++ -std=c++20 -o "$work/pc-build/consumer_client" "$source/tests/install/consumer/client_main.cc" \
  $(pkg-config --cflags --libs plugrt) -Wl,-rpath,"$(pkg-config --variable=libdir plugrt)"
c++ -std=c++20 -shared -fPIC -fvisibility=hidden -o "$work/pc-build/consumer_plugin.so" \
  "$plugin_source" $(pkg-config --cflags --libs plugrt-sdk) -Wl,--exclude-libs,ALL -Wl,--no-undefined
[[ $(pkg-config --variable=plugindir plugrt) -ef $prefix/$libdir/plugrt ]] ||
  fail "plugrt.pc's plugindir is not the installed plugin directory"
"$work/pc-build/consumer_client" "$cpu_plugin" "$work/pc-build/consumer_plugin.so"

# The installed tool finds the installed CPU plugin by itself, as "cpu".
clean_env=(env -u PLUGRT_CPU_PLUGIN -u PLUGRT_PLUGIN_PATH -u PJRT_NAMES_AND_LIBRARY_PATHS)
"${clean_env[@]}" "$prefix/bin/plugrt" devices > "$work/devices.txt" ||
  fail "installed plugrt devices failed"
grep -q "^plugin: $cpu_plugin" "$work/devices.txt" || { cat "$work/devices.txt"; fail "not the installed CPU plugin"; }
"${clean_env[@]}" "$prefix/bin/plugrt" plugins > "$work/plugins.txt"
grep -q "^cpu: $cpu_plugin (install)" "$work/plugins.txt" ||
  { cat "$work/plugins.txt"; fail "plugrt plugins does not list the installed CPU plugin"; }
echo "install_test: ok"
