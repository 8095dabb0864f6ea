#!/usr/bin/python3
"""Prints plugrt's benchmark results next to PyTorch's.

Usage: bench/compare.py PLUGRT_JSON [TORCH_JSON]
PLUGRT_JSON is what `plugrt bench --json FILE` writes, TORCH_JSON what
`bench/torch_bench.py --json FILE` writes. Columns:
  workload      the bench/<name>.mlir stem (the same name in both files)
  kind          execute, dispatch (times per execute), compile (times per compile) or eager
                (@main's ops one at a time through plugrt::eager: times per run of the ops)
  plugrt        plugrt's median time: ms, or us per execute for dispatch and for eager rows
                timed in loops (eager_add)
  rate          plugrt's headline rate at the median: GFLOP/s (cost analysis flops) or GB/s
                (bytes of arguments + outputs), as the program's metric= says
  ceiling       the measured ceiling it is compared with (oneDNN matmul or memory bandwidth)
                and that ceiling's rate
  of ceiling    rate / ceiling rate
  pytorch       PyTorch eager's median time, same unit as plugrt
  speed-up      pytorch time / plugrt time: above 1, plugrt is faster
Below the table, dispatch_scalar_add and eager_add are stated against PyTorch's torch.add of two
scalars from the same TORCH_JSON, and each eager row against its fused program. No PyTorch figures, no ratios and exit status 1 when TORCH_JSON says PyTorch
ran on the reference BLAS, or does not say which BLAS it ran on (bench/torch_config.py).
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
        dispatch = kind == "dispatch" or (kind == "eager" and (w.get("iterations") or 1) > 1)
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


def torch_refusal(torch):
    """Why ratios against this PyTorch run would mislead, or None when they would not."""
    blas = torch.get("blas")
    if not isinstance(blas, dict):
        return ("the PyTorch results do not say which BLAS PyTorch ran on (written by an older "
                "bench/torch_bench.py); run it again")
    if blas.get("reference"):
        return (f"PyTorch ran its matmuls on the reference BLAS ({blas.get('file')}, package "
                f"{blas.get('package')}): ratios against it would flatter plugrt on every "
                f"matmul-heavy row. Run scripts/bench_setup.sh (it installs "
                f"libopenblas0-pthread and selects it for libblas.so.3 and liblapack.so.3), "
                f"then scripts/bench.sh again")
    return None


def torch_lines(torch):
    """What PyTorch computed with: its BLAS and oneDNN, as recorded by torch_bench.py."""
    lines = []
    blas = torch.get("blas")
    if isinstance(blas, dict):
        text = blas.get("name") or "unknown"
        if blas.get("package"):
            text += f" [{blas['package']}]"
        if blas.get("file"):
            text += f" from {blas['file']}"
        lines.append(f"pytorch BLAS: {text}")
        if blas.get("details"):
            lines.append(f"  {blas['details']}")
        if blas.get("reference") is None:
            lines.append("warning: torch_bench.py could not tell which BLAS PyTorch used")
    onednn = torch.get("onednn")
    if isinstance(onednn, dict):
        lines.append(f"pytorch oneDNN: {onednn.get('version') or 'version unknown'} from "
                     f"{', '.join(onednn.get('mapped') or []) or 'no file seen'}")
    return lines


def dispatch_line(plugrt, torch):
    """dispatch_scalar_add as a ratio to PyTorch's torch.add in the same run, or None."""
    p = next((w for w in plugrt.get("workloads", [])
              if w["name"] == "dispatch_scalar_add" and w.get("median_ms")), None)
    if p is None:
        return None
    plugrt_us = p["median_ms"] * 1e3
    t = next((w for w in (torch or {}).get("workloads", [])
              if w["name"] == "dispatch_scalar_add" and w.get("median_ms")), None)
    if t is None:
        return (f"dispatch (scalar add): plugrt {plugrt_us:.3f} us per execute; no PyTorch "
                f"figure from the same run to compare with")
    torch_us = t["median_ms"] * 1e3
    return (f"dispatch (scalar add): plugrt takes {plugrt_us / torch_us:.2f}x the time of "
            f"PyTorch's torch.add on two 0-d tensors in the same run ({plugrt_us:.3f} us per "
            f"execute against {torch_us:.3f} us per call)")


def eager_lines(plugrt, torch):
    """Each eager row: per op against torch.add (loops of one small op) or eager against fused
    and PyTorch eager (sequences of large ops)."""
    torch_rows = {w["name"]: w for w in (torch or {}).get("workloads", [])}
    lines = []
    for w in plugrt.get("workloads", []):
        if w.get("kind") != "eager" or not w.get("median_ms"):
            continue
        name, t = w["name"], torch_rows.get(w["name"])
        fused = w.get("fused_median_ms")
        if (w.get("iterations") or 1) > 1:
            line = (f"eager ({name}): plugrt {w['us_per_op']:.3f} us per eager op"
                    f" (the same program compiled: {fused * 1e3:.3f} us per execute)")
            if t is not None and t.get("median_ms"):
                torch_us = t["median_ms"] * 1e3
                line += (f"; {w['us_per_op'] / torch_us:.2f}x the time of PyTorch's torch.add "
                         f"on two 0-d tensors in the same run ({torch_us:.3f} us per call)")
        else:
            line = (f"eager ({name}): plugrt eager {w['median_ms']:.3f} ms for {w.get('ops')} "
                    f"ops, fused {fused:.3f} ms (eager/fused {w.get('eager_vs_fused'):.2f})")
            if t is not None and t.get("median_ms"):
                line += f"; PyTorch eager {t['median_ms']:.3f} ms"
        lines.append(line)
    return lines


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    plugrt = load(argv[1])
    torch = load(argv[2]) if len(argv) == 3 else None
    refusal = torch_refusal(torch) if torch is not None else None

    machine = plugrt.get("machine", {})
    header = f"plugrt: {machine.get('cpu', '?')}, {machine.get('threads', '?')} threads"
    if torch is not None:
        header += f"; pytorch {torch.get('torch_version', '?')}, {torch.get('threads', '?')} threads"
    print(header)
    if torch is not None:
        for line in torch_lines(torch):
            print(line)
    if torch is not None and machine.get("threads") != torch.get("threads"):
        print("warning: the two runs used different thread counts")
    if refusal is not None:
        torch = None  # plugrt's own figures only, below

    if plugrt.get("ceilings"):
        print("\nceilings:")
        for c in plugrt["ceilings"]:
            if c.get("unavailable"):
                print(f"  {c['name']}: unavailable ({c['unavailable']})")
                continue
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
    if refusal is None:
        dispatch = dispatch_line(plugrt, torch)
        lines = ([dispatch] if dispatch is not None else []) + eager_lines(plugrt, torch)
        if lines:
            print("\n" + "\n".join(lines))
    if refusal is not None:
        print(f"\ncompare.py: no comparison with PyTorch: {refusal}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
