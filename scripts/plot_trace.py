#!/usr/bin/python3
"""Draws a plugrt profile (Chrome trace JSON) as a timeline PNG.

    scripts/plot_trace.py trace.json out.png [--execute N]

One row per thread (plugin threads first, then the client's), each slice a
bar coloured by what it is: oneDNN / GEMM kernels, fused loops, other
kernels, pool-thread shares of a kernel, executes, client calls, eager ops,
transfers and compile phases. With --execute N only the N-th execution (from
0) and what overlaps it are drawn, so its kernels are wide enough to label.
Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {
    "gemm": "#d62728", "fusion": "#1f77b4", "kernel": "#7f7f7f", "worker": "#ff9896",
    "execute": "#2ca02c", "client": "#9467bd", "eager": "#8c564b", "transfer": "#e377c2",
    "compile": "#bcbd22",
}


def kind_of(event):
    cat = event.get("cat", "")
    if cat == "kernel":
        impl = event.get("args", {}).get("implementation", "")
        if event["name"] in ("stablehlo.dot_general", "stablehlo.convolution") or "oneDNN" in impl:
            return "gemm"
        if event["name"] == "fusion":
            return "fusion"
        return "kernel"
    return cat if cat in COLOURS else "kernel"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("out")
    parser.add_argument("--execute", type=int, default=None)
    args = parser.parse_args()
    events = json.load(open(args.trace))["traceEvents"]
    names, procs = {}, {}
    for e in events:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
    slices = [e for e in events if e.get("ph") == "X"]
    if args.execute is not None:
        executes = sorted((e for e in slices if e.get("cat") == "execute"), key=lambda e: e["ts"])
        chosen = executes[args.execute]
        lo, hi = chosen["ts"], chosen["ts"] + chosen["dur"]
        slices = [e for e in slices if e["ts"] < hi and e["ts"] + e["dur"] > lo]
    else:
        lo = min(e["ts"] for e in slices)
        hi = max(e["ts"] + e["dur"] for e in slices)
    rows = sorted({(e["pid"], e["tid"]) for e in slices})
    row_of = {r: i for i, r in enumerate(rows)}
    fig, ax = plt.subplots(figsize=(14, 1.0 + 0.55 * len(rows)))
    for e in slices:
        y = row_of[(e["pid"], e["tid"])]
        kind = kind_of(e)
        # Nested slices (kernels inside an execute) are drawn thinner on top.
        height = 0.8 if kind in ("execute", "client", "eager", "compile") else 0.55
        start = max(e["ts"], lo) - lo
        width = max(min(e["ts"] + e["dur"], hi) - max(e["ts"], lo), (hi - lo) * 1e-4)
        ax.barh(y, width / 1e3, left=start / 1e3, height=height, color=COLOURS[kind],
                edgecolor="white", linewidth=0.3)
        if kind in ("gemm", "fusion", "kernel") and width > (hi - lo) * 0.05:
            label = e["name"].replace("stablehlo.custom_call @", "").replace("stablehlo.", "")
            ax.text((start + width / 2) / 1e3, y, label, ha="center", va="center", fontsize=7,
                    color="white")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{procs.get(p, p)}: {names.get((p, t), t)}" for p, t in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ms")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLOURS.values()]
    ax.legend(handles, list(COLOURS), ncol=len(COLOURS), fontsize=7, loc="upper center",
              bbox_to_anchor=(0.5, 1.0 + 0.9 / (1 + len(rows))), frameon=False)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
