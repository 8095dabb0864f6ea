#!/usr/bin/env python3
"""Checks that every #include under src/ points along an allowed arrow.

The layers and their arrows are the build's own facts: CMake writes, for each
library of src/ (CMakeLists.txt, "layers"), its sources and its link
libraries into LAYERS_FILE, one line per library:

    target <TAB> source;source;... <TAB> dependency;dependency;...

A header belongs to the library that compiles the .cc of the same name, else
to the library that compiles most of the .cc files of its folder. An include
from library A of a header of library B is allowed when A is B or A links B,
directly or through other libraries. Anything else is an include that points
up (or sideways), which the link dependencies would not satisfy either:
printed as FILE:LINE and the script fails, which fails the build.

Usage: check_layers.py LAYERS_FILE SOURCE_DIR [STAMP]
"""
import collections
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def read_layers(path, source_dir):
    sources = {}  # path relative to src/ -> target
    deps = {}
    src_root = os.path.join(os.path.realpath(source_dir), "src") + os.sep
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        target, srcs, links = (line.split("\t") + ["", ""])[:3]
        deps[target] = {d for d in links.split(";") if d.startswith("plugrt_")}
        for s in srcs.split(";"):
            if not s:
                continue
            full = s if os.path.isabs(s) else os.path.join(source_dir, s)
            full = os.path.realpath(full)
            if full.startswith(src_root):
                sources[full[len(src_root):]] = target
    return sources, deps


def closure(deps):
    reach = {}

    def visit(t, seen):
        for d in deps.get(t, ()):
            if d not in seen:
                seen.add(d)
                visit(d, seen)
        return seen

    for t in deps:
        reach[t] = visit(t, set())
    return reach


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    layers_file, source_dir = sys.argv[1], sys.argv[2]
    stamp = sys.argv[3] if len(sys.argv) > 3 else None
    sources, deps = read_layers(layers_file, source_dir)
    reach = closure(deps)
    by_folder = collections.defaultdict(collections.Counter)
    for rel, target in sources.items():
        by_folder[os.path.dirname(rel)][target] += 1

    def owner(rel):
        if rel in sources:
            return sources[rel]
        stem = os.path.splitext(rel)[0]
        for ext in (".cc", ".c", ".cpp"):
            if stem + ext in sources:
                return sources[stem + ext]
        folder = os.path.dirname(rel)
        while True:
            if by_folder.get(folder):
                return by_folder[folder].most_common(1)[0][0]
            if not folder:
                return None
            folder = os.path.dirname(folder)

    src = os.path.join(source_dir, "src")
    bad = []
    for dirpath, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".h", ".cc", ".c", ".cpp", ".inc")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src)
            me = owner(rel)
            if me is None:
                continue
            for number, line in enumerate(open(path, errors="replace"), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target_rel = m.group(1)
                if not os.path.exists(os.path.join(src, target_rel)):
                    continue  # a generated or system header
                them = owner(target_rel)
                if them is None or them == me or them in reach.get(me, ()):
                    continue
                bad.append(f"src/{rel}:{number}: {me} includes {target_rel} of {them}, "
                           f"which {me} does not link")
    if bad:
        print("check_layers: includes that point against the layers' arrows "
              "(CMakeLists.txt's link dependencies):", file=sys.stderr)
        for b in bad:
            print("  " + b, file=sys.stderr)
        return 1
    if stamp:
        open(stamp, "w").write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
