#!/usr/bin/env python3
"""Counts the switch statements over an op code in src/: a `switch (...)` whose
first cases (within seven lines) are `case OpCode::` or `case shlo::OpCode::`.
Per-op facts belong in the op table (src/stablehlo/op_code.h); each such switch
is a place that keeps its own list of ops. Prints one line per file, most
first, then the totals.

Usage: count_op_switches.py [REPO]   (default: the current directory)
"""
import os
import re
import sys

SWITCH = re.compile(r"\bswitch\s*\(")
CASE = re.compile(r"case\s+(shlo::)?OpCode::")


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    counts = {}
    for dirpath, _, files in os.walk(os.path.join(repo, "src")):
        for name in files:
            if not name.endswith((".cc", ".h")):
                continue
            path = os.path.join(dirpath, name)
            lines = open(path, errors="replace").read().split("\n")
            for i, line in enumerate(lines):
                if SWITCH.search(line) and CASE.search("\n".join(lines[i + 1:i + 8])):
                    rel = os.path.relpath(path, repo)
                    counts[rel] = counts.get(rel, 0) + 1
    for path, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(n, path)
    print(f"total {sum(counts.values())} switches in {len(counts)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
