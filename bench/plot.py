#!/usr/bin/python3
"""Draws plugrt's benchmark results next to PyTorch's and the measured ceilings.

Usage: bench/plot.py OUT.svg|OUT.png PLUGRT_JSON [TORCH_JSON]
One group of bars per workload, each bar a speed relative to plugrt's on that workload
(plugrt's bar is 1; higher is faster): PyTorch eager (plugrt median / PyTorch median, when
TORCH_JSON has the workload) and the ceiling (1 / plugrt's ratio to its ceiling, when the
workload has one: how fast the same work would run at the ceiling's rate). Log scale.
PyTorch's bars are left out, with a note on the figure, when bench/compare.py would refuse
to compare against that run (reference or unknown BLAS). Needs python3-matplotlib
(scripts/bench_setup.sh installs it).
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in SVGs (searchable, small)
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def speeds(plugrt, torch):
    """Rows of (workload, pytorch speed or None, ceiling speed or None), plugrt = 1."""
    torch_rows = {w["name"]: w for w in (torch or {}).get("workloads", [])}
    rows = []
    for w in plugrt.get("workloads", []):
        median = w.get("median_ms")
        if not median:
            continue
        t = torch_rows.get(w["name"])
        torch_speed = median / t["median_ms"] if t and t.get("median_ms") else None
        ratio = w.get("ratio_to_ceiling")
        ceiling_speed = 1.0 / ratio if ratio else None
        rows.append((w["name"], torch_speed, ceiling_speed))
    return rows


def plot(path, plugrt, torch):
    refusal = compare.torch_refusal(torch) if torch is not None else None
    if refusal is not None:
        torch = None
    rows = speeds(plugrt, torch)
    if not rows:
        raise SystemExit("plot.py: no workload with a median time in " + sys.argv[2])
    width = 0.27
    fig, ax = plt.subplots(figsize=(max(8.0, 0.55 * len(rows) + 2), 5.0))
    xs = range(len(rows))
    values = [1.0] + [v for r in rows for v in r[1:] if v]
    low, high = min(values) / 1.5, max(values) * 1.5
    # Bars grow from the axis' bottom (log scale: no zero), so each reads as its height.
    def bars(offset, heights, label, color):
        shown = [(x + offset, h) for x, h in zip(xs, heights) if h]
        if shown:
            ax.bar([x for x, _ in shown], [h - low for _, h in shown], width, bottom=low,
                   label=label, color=color)
    bars(-width, [1.0] * len(rows), "plugrt", "#1f77b4")
    bars(0.0, [r[1] for r in rows], "PyTorch eager", "#ff7f0e")
    bars(width, [r[2] for r in rows], "ceiling", "#7f7f7f")
    ax.set_yscale("log")
    ax.set_ylim(low, high)
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    # Minor ticks unlabelled: labelled, they crowd into each other near every decade.
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([r[0] for r in rows], rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("speed relative to plugrt (higher is faster)")
    machine = plugrt.get("machine", {})
    title = f"plugrt bench: {machine.get('cpu', '?')}, {machine.get('threads', '?')} threads"
    if torch is not None:
        title += f"; PyTorch {torch.get('torch_version', '?')}"
    ax.set_title(title, fontsize=9)
    if refusal is not None:
        fig.text(0.01, 0.01, "PyTorch left out: " + refusal[:120], fontsize=6)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return rows


def main(argv):
    if len(argv) not in (3, 4) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    plugrt = compare.load(argv[2])
    torch = compare.load(argv[3]) if len(argv) == 4 else None
    rows = plot(argv[1], plugrt, torch)
    print(f"wrote {argv[1]} ({len(rows)} workloads)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
