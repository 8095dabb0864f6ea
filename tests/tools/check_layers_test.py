#!/usr/bin/env python3
"""tools/check_layers.py: an include along a link dependency passes, one
against it fails the check (and so the build), naming file, line and layers."""
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                      "check_layers.py")


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def run(root):
    return subprocess.run([sys.executable, SCRIPT, os.path.join(root, "layers.txt"), root],
                          capture_output=True, text=True)


def tree(upper_include_in_lower):
    root = tempfile.mkdtemp()
    write(root, "src/low/a.h", "#pragma once\n")
    write(root, "src/low/a.cc", '#include "low/a.h"\n' +
          ('#include "high/b.h"\n' if upper_include_in_lower else ""))
    write(root, "src/high/b.h", '#include "low/a.h"\n')
    write(root, "src/high/b.cc", '#include "high/b.h"\n#include <vector>\n#include "gen/x.pb.h"\n')
    # The build writes absolute source paths and every link library.
    write(root, "layers.txt",
          f"plugrt_low\t{root}/src/low/a.cc\tdl\n"
          f"plugrt_high\t{root}/src/high/b.cc;{root}/build/unity_0.cxx\tplugrt_low;Threads::Threads\n")
    return root


def main():
    ok = run(tree(False))
    assert ok.returncode == 0, ok.stderr
    bad = run(tree(True))
    assert bad.returncode == 1, (bad.returncode, bad.stderr)
    assert "src/low/a.cc:2: plugrt_low includes high/b.h of plugrt_high" in bad.stderr, bad.stderr
    print("check_layers_test: ok")


if __name__ == "__main__":
    main()
