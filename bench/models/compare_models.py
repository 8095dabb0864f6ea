#!/usr/bin/python3
"""Prints the model set's table: plugrt against its physical limit, PyTorch eager and ONNX Runtime,
all measured in the same run of scripts/bench.sh.

Usage: bench/models/compare_models.py PLUGRT_JSON [--torch TORCH_JSON] [--ort ORT_JSON] [--plot FILE]
PLUGRT_JSON is what `plugrt bench --dir <models> --json FILE` writes (rows with ceiling=model carry
limit_ms: the larger of the FLOPs at the best sgemm rate and the bytes the model must move at the
best bandwidth), TORCH_JSON what bench/torch_models.py --json writes, ORT_JSON bench/ort_models.js's.
Columns:
  model       the model name (bench/models/gen_models.py --list)
  plugrt      plugrt's median ms per execute
  limit       the limit in ms, and what sets it (an sgemm ceiling: compute; read/copy/triad: memory)
  of limit    limit / plugrt
  pytorch     PyTorch eager's median ms; x: its time over plugrt's (above 1, plugrt is faster)
  onnxrt      ONNX Runtime's median ms; x likewise (train steps have no ONNX form)
--plot draws the same figures (ms, log scale) with matplotlib. Exit status 0.
"""
import argparse
import json


def load(path):
    """The JSON at `path`; None when no path is given or the peer wrote nothing (it failed: its
    columns then show '-')."""
    if not path:
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        print(f"compare_models: {path} is missing: that peer's columns are empty")
        return None


def by_name(doc):
    if doc is None:
        return {}
    return {row["name"]: row for row in doc.get("workloads", [])}


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def ratio(peer_row, ms):
    if peer_row is None or not ms or peer_row.get("median_ms") is None:
        return None
    return peer_row["median_ms"] / ms


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("plugrt")
    p.add_argument("--torch")
    p.add_argument("--ort")
    p.add_argument("--plot")
    a = p.parse_args()
    plugrt = load(a.plugrt)
    torch, ort = by_name(load(a.torch)), by_name(load(a.ort))
    header = ["model", "plugrt ms", "limit ms", "set by", "of limit", "pytorch ms", "x", "onnxrt ms", "x"]
    rows = [header]
    plotted = []
    for w in plugrt.get("workloads", []):
        name = w["name"]
        if w.get("error"):
            rows.append([name, "failed"] + [""] * (len(header) - 2))
            continue
        ms = w.get("median_ms")
        t, o = torch.get(name), ort.get(name)
        rows.append([name, fmt(ms, ".2f"), fmt(w.get("limit_ms"), ".2f"), w.get("ceiling_name") or "-",
                     fmt(w.get("ratio_to_ceiling"), ".2f"),
                     fmt(t and t.get("median_ms"), ".2f"), fmt(ratio(t, ms), ".2f"),
                     fmt(o and o.get("median_ms"), ".2f"), fmt(ratio(o, ms), ".2f")])
        plotted.append((name, ms, w.get("limit_ms"), t and t.get("median_ms"), o and o.get("median_ms")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    cpu = plugrt.get("machine", {}).get("cpu", "?")
    threads = plugrt.get("machine", {}).get("threads", "?")
    print(f"model set: {cpu}, {threads} threads")
    for n, r in enumerate(rows):
        print("  ".join(c.ljust(widths[i]) if i in (0, 3) else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    if a.plot and plotted:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(plotted)), 4))
        series = [("plugrt", 1), ("limit", 2), ("PyTorch eager", 3), ("ONNX Runtime", 4)]
        width = 0.8 / len(series)
        for k, (label, column) in enumerate(series):
            xs = [i + (k - 1.5) * width for i in range(len(plotted))]
            ys = [row[column] or 0 for row in plotted]
            ax.bar(xs, ys, width, label=label)
        ax.set_xticks(range(len(plotted)))
        ax.set_xticklabels([row[0] for row in plotted], rotation=30, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("ms per execute (lower is better)")
        ax.set_title(f"model set, {cpu}, {threads} threads")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(a.plot)
        print(f"plot: {a.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
