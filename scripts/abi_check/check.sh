#!/usr/bin/env bash
# Compares include/pjrt_c_api.h with an upstream PJRT C API header, compiled
# side by side: size and alignment of every struct, offset/size/type of every
# field and PJRT_Api slot, every enum value, every _STRUCT_SIZE constant.
#
# Usage: scripts/abi_check/check.sh UPSTREAM_HEADER
#   UPSTREAM_HEADER: xla/pjrt/c/pjrt_c_api.h of the pinned upstream version
#   (openxla/xla 0882740a8496c82a8dc8a25fadba88ca342fb0aa for 0.94). It is not
#   part of this repository; fetch it yourself.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 UPSTREAM_HEADER" >&2; exit 2; }
UP_HEADER=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
OURS=$(cd "$HERE/../../include" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/upinc" "$W/up" "$W/ours" "$W/ours_inv"
cp "$UP_HEADER" "$W/upinc/pjrt_c_api.h"
UP="$W/upinc"

# 1. Generate the dump programs from upstream (the source of truth), and an
#    inventory from each header (names and order as parsed).
python3 "$HERE/gen_abi_dump.py" "$UP/pjrt_c_api.h" "$W/up"
python3 "$HERE/gen_abi_dump.py" "$OURS/pjrt_c_api.h" "$W/ours_inv" >/dev/null

# 2. Build and run the same programs against each header.
for side in up ours; do
  inc=$UP; [ $side = ours ] && inc=$OURS
  g++ -std=c++20 -O0 -w -I"$inc" "$W/up/dump.cc" -o "$W/$side/dump_cxx"
  gcc -std=c11 -O0 -w -I"$inc" "$W/up/dump.c" -o "$W/$side/dump_c"
  "$W/$side/dump_cxx" > "$W/$side/cxx.txt"
  "$W/$side/dump_c" > "$W/$side/c.txt"
done

# 3. Ours must also be warning-free as C11 and C++20 with -pedantic.
gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c "$OURS/pjrt_c_api.h"
g++ -std=c++20 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c++ "$OURS/pjrt_c_api.h"

# 4. Diffs (must all be empty).
rc=0
diff -u "$W/up/cxx.txt" "$W/ours/cxx.txt" > "$W/diff_cxx.txt" || rc=1
diff -u "$W/up/c.txt" "$W/ours/c.txt" > "$W/diff_c.txt" || rc=1
diff -u "$W/up/inventory.txt" "$W/ours_inv/inventory.txt" > "$W/diff_inv.txt" || rc=1
echo "lines compared: cxx=$(wc -l < "$W/up/cxx.txt") c=$(wc -l < "$W/up/c.txt") inventory=$(wc -l < "$W/up/inventory.txt")"
echo "counts: structs=$(grep -c '^sizeof ' "$W/up/c.txt") fields=$(grep -c '^field ' "$W/up/c.txt") enum_constants=$(grep -c '^enum ' "$W/up/c.txt") struct_size_consts=$(grep -c '^sizeconst ' "$W/up/c.txt") api_slots=$(( $(grep -c '^field PJRT_Api\.' "$W/up/c.txt") - 3 )) typedefs=$(grep -c '^typedef ' "$W/up/cxx.txt")"
if [ $rc = 0 ]; then echo "ABI CHECK PASSED: all diffs empty"; else
  echo "ABI CHECK FAILED"; head -50 "$W"/diff_*.txt; fi
exit $rc
