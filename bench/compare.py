#!/usr/bin/python3
"""Prints plugrt's benchmark results next to PyTorch's.

Usage: bench/compare.py PLUGRT_JSON [TORCH_JSON]
PLUGRT_JSON is what `plugrt bench --json FILE` writes, TORCH_JSON what
`bench/torch_bench.py --json FILE` writes. Columns:
  workload      the bench/<name>.mlir stem (the same name in both files)
  kind          execute, dispatch (times per execute) or compile (times per compile)
  plugrt        plugrt's median time: ms, or us per execute for dispatch
  rate          plugrt's headline rate at the median: GFLOP/s (cost analysis flops) or GB/s
                (bytes of arguments + outputs), as the program's metric= says
  ceiling       the measured ceiling it is compared with (oneDNN matmul or memory bandwidth)
                and that ceiling's rate
  of ceiling    rate / ceiling rate
  pytorch       PyTorch eager's median time, same unit as plugrt
  speed-up      pytorch time / plugrt time: above 1, plugrt is faster
Uses only the Python standard library.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def fmt(value, spec, suffix=""):
    if value is None:
        return "-"
    return format(value, spec) + suffix


def table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            cells.append(cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]))
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def ceiling_rate(ceiling):
    if ceiling.get("gflops") is not None:
        return ceiling["gflops"], "GFLOP/s"
    if ceiling.get("gbps") is not None:
        return ceiling["gbps"], "GB/s"
    return None, ""


def compare(plugrt, torch):
    ceilings = {c["name"]: c for c in plugrt.get("ceilings", [])}
    torch_rows = {w["name"]: w for w in (torch or {}).get("workloads", [])}
    rows = [["workload", "kind", "plugrt", "rate", "ceiling", "of ceiling", "pytorch",
             "speed-up"]]
    notes = []
    for w in plugrt.get("workloads", []):
        name, kind = w["name"], w.get("kind", "execute")
        if "error" in w:
            rows.append([name, kind, "failed", "-", "-", "-", "-", "-"])
            notes.append(f"{name}: {w['error']}")
            continue
        median = w.get("median_ms")
        dispatch = kind == "dispatch"
        unit, scale = (" us", 1e3) if dispatch else (" ms", 1.0)
        plugrt_time = fmt(median * scale if median is not None else None, ".3f", unit)

        rate = "-"
        if kind == "execute":
            if w.get("metric") == "flops" and w.get("gflops") is not None:
                rate = fmt(w["gflops"], ".1f", " GFLOP/s")
            elif w.get("metric") == "bytes" and w.get("gbps") is not None:
                rate = fmt(w["gbps"], ".1f", " GB/s")

        ceiling_cell, ratio_cell = "-", "-"
        ceiling = ceilings.get(w.get("ceiling_name") or "")
        if ceiling is not None:
            value, cunit = ceiling_rate(ceiling)
            ceiling_cell = f"{ceiling['name']} {fmt(value, '.1f', ' ' + cunit)}"
        elif w.get("ceiling"):
            ceiling_cell = w["ceiling"]
        if w.get("ratio_to_ceiling") is not None:
            ratio_cell = fmt(w["ratio_to_ceiling"], ".2f")

        torch_cell, speedup_cell = "-", "-"
        t = torch_rows.get(name)
        if t is not None and t.get("median_ms") is not None:
            torch_cell = fmt(t["median_ms"] * scale, ".3f", unit)
            if median:
                speedup_cell = fmt(t["median_ms"] / median, ".2f", "x")
            if t.get("variant"):
                notes.append(f"{name}: pytorch row is {t['variant']}")
        rows.append([name, kind, plugrt_time, rate, ceiling_cell, ratio_cell, torch_cell,
                     speedup_cell])
    return rows, notes


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    plugrt = load(argv[1])
    torch = load(argv[2]) if len(argv) == 3 else None

    machine = plugrt.get("machine", {})
    header = f"plugrt: {machine.get('cpu', '?')}, {machine.get('threads', '?')} threads"
    if torch is not None:
        header += f"; pytorch {torch.get('torch_version', '?')}, {torch.get('threads', '?')} threads"
    print(header)
    if torch is not None and machine.get("threads") != torch.get("threads"):
        print("warning: the two runs used different thread counts")

    if plugrt.get("ceilings"):
        print("\nceilings:")
        for c in plugrt["ceilings"]:
            value, unit = ceiling_rate(c)
            impl = f" ({c['impl']})" if c.get("impl") else ""
            print(f"  {c['name']}: {fmt(value, '.1f', ' ' + unit)}{impl}")
    rows, notes = compare(plugrt, torch)
    print()
    print(table(rows))
    if torch is not None:
        missing = sorted({w["name"] for w in torch.get("workloads", [])}
                         - {w["name"] for w in plugrt.get("workloads", [])})
        if missing:
            notes.append("only in the pytorch file: " + ", ".join(missing))
    for note in notes:
        print("note: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
