#include "profiler/summary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace plugrt::profiler {

namespace {

// What a kernel adds to a row: its own time, and its work unless kernels
// nested in it (a while loop's body, a called function's ops) did the work.
struct OwnShare {
  int64_t ns = 0;
  double cpu_ns = 0;
  bool counts_work = true;
};

void Add(std::map<std::string, SummaryRow>& rows, const std::string& key, const TraceEvent& e,
         const OwnShare& own) {
  SummaryRow& row = rows[key];
  row.key = key;
  row.count += 1;
  row.total_ns += own.ns;
  row.cpu_ns += own.cpu_ns;
  if (!own.counts_work) return;
  row.flops += e.Number(stat::kFlops);
  row.bytes += e.Number(stat::kBytesRead) + e.Number(stat::kBytesWritten);
}

void Add(std::map<std::string, SummaryRow>& rows, const std::string& key, const TraceEvent& e) {
  Add(rows, key, e, OwnShare{e.end_ns - e.start_ns, e.Number(stat::kProcessCpuNs), true});
}

// Each kernel's own share: its time minus that of the kernels nested in it
// on its thread (control flow's regions run as kernels inside the op's
// slice), so that nothing is counted twice.
std::map<const TraceEvent*, OwnShare> OwnShares(const Trace& trace) {
  std::map<int64_t, std::vector<const TraceEvent*>> by_thread;
  for (const TraceEvent& e : trace.events) {
    if (e.category == category::kKernel) by_thread[e.thread_id].push_back(&e);
  }
  std::map<const TraceEvent*, OwnShare> shares;
  for (auto& [thread, events] : by_thread) {
    std::stable_sort(events.begin(), events.end(), [](const TraceEvent* a, const TraceEvent* b) {
      return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns > b->end_ns;
    });
    std::vector<const TraceEvent*> open;  // enclosing kernels, innermost last
    for (const TraceEvent* e : events) {
      while (!open.empty() && open.back()->end_ns <= e->start_ns) open.pop_back();
      OwnShare& mine = shares[e];
      mine.ns += e->end_ns - e->start_ns;
      mine.cpu_ns += e->Number(stat::kProcessCpuNs);
      if (!open.empty() && e->end_ns <= open.back()->end_ns) {
        OwnShare& parent = shares[open.back()];
        parent.ns -= e->end_ns - e->start_ns;
        parent.cpu_ns -= e->Number(stat::kProcessCpuNs);
        parent.counts_work = false;
      }
      open.push_back(e);
    }
  }
  for (auto& [event, share] : shares) {
    share.ns = std::max<int64_t>(share.ns, 0);
    share.cpu_ns = std::max(share.cpu_ns, 0.0);
  }
  return shares;
}

std::vector<SummaryRow> Sorted(const std::map<std::string, SummaryRow>& rows, int64_t total_ns) {
  std::vector<SummaryRow> out;
  for (const auto& [key, row] : rows) out.push_back(row);
  std::sort(out.begin(), out.end(), [](const SummaryRow& a, const SummaryRow& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.key < b.key;
  });
  for (SummaryRow& row : out) {
    row.share = total_ns > 0 ? static_cast<double>(row.total_ns) / total_ns : 0;
  }
  return out;
}

std::string Bytes(double bytes) {
  char buf[32];
  if (bytes >= 1 << 30) {
    std::snprintf(buf, sizeof(buf), "%.2f GiB", bytes / (1 << 30));
  } else if (bytes >= 1 << 20) {
    std::snprintf(buf, sizeof(buf), "%.2f MiB", bytes / (1 << 20));
  } else if (bytes >= 1 << 10) {
    std::snprintf(buf, sizeof(buf), "%.1f KiB", bytes / (1 << 10));
  } else {
    std::snprintf(buf, sizeof(buf), "%.0f B", bytes);
  }
  return buf;
}

std::string Millis(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", ns / 1e6);
  return buf;
}

// "0.42 of memory" / "0.87 of GEMM": how near the row comes to the nearer
// ceiling, the one its arithmetic intensity makes the limit.
std::string CeilingRatio(const SummaryRow& row, const Ceilings& ceilings) {
  if (row.total_ns <= 0) return "";
  const double seconds = row.total_ns / 1e9;
  const double flop_ratio =
      ceilings.gflops > 0 && row.flops > 0 ? row.flops / seconds / 1e9 / ceilings.gflops : -1;
  const double byte_ratio =
      ceilings.gbps > 0 && row.bytes > 0 ? row.bytes / seconds / 1e9 / ceilings.gbps : -1;
  if (flop_ratio < 0 && byte_ratio < 0) return "";
  char buf[32];
  if (flop_ratio >= byte_ratio) {
    std::snprintf(buf, sizeof(buf), "%.2f flop", flop_ratio);
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f mem", byte_ratio);
  }
  return buf;
}

void Table(std::string& out, const char* title, const std::vector<SummaryRow>& rows,
           const SummaryOptions& options, bool rates) {
  if (rows.empty()) return;
  out += title;
  out += "\n";
  char line[512];
  if (rates) {
    std::snprintf(line, sizeof(line), "  %10s %6s %7s %9s %8s %10s %5s  %s\n", "total ms", "share",
                  "count", "GFLOP/s", "GB/s", "ceiling", "cores", "what");
  } else {
    std::snprintf(line, sizeof(line), "  %10s %6s %7s  %s\n", "total ms", "share", "count", "what");
  }
  out += line;
  const size_t n = std::min(rows.size(), options.top);
  for (size_t i = 0; i < n; ++i) {
    const SummaryRow& row = rows[i];
    const double seconds = row.total_ns / 1e9;
    char share[16];
    std::snprintf(share, sizeof(share), "%5.1f%%", 100 * row.share);
    if (rates) {
      char gflops[24] = "", gbps[24] = "";
      if (seconds > 0 && row.flops > 0) std::snprintf(gflops, sizeof(gflops), "%.2f", row.flops / seconds / 1e9);
      if (seconds > 0 && row.bytes > 0) std::snprintf(gbps, sizeof(gbps), "%.2f", row.bytes / seconds / 1e9);
      char cores[16] = "";
      // Process CPU time is too coarse for kernels of a few microseconds.
      constexpr int64_t kMinNsForCores = 50'000;
      if (row.total_ns > 0 && row.cpu_ns > 0 && row.total_ns >= kMinNsForCores * row.count) {
        std::snprintf(cores, sizeof(cores), "%.1f", row.cpu_ns / static_cast<double>(row.total_ns));
      }
      std::snprintf(line, sizeof(line), "  %10s %6s %7lld %9s %8s %10s %5s  ", Millis(row.total_ns).c_str(),
                    share, static_cast<long long>(row.count), gflops, gbps,
                    CeilingRatio(row, options.ceilings).c_str(), cores);
    } else {
      std::snprintf(line, sizeof(line), "  %10s %6s %7lld  ", Millis(row.total_ns).c_str(), share,
                    static_cast<long long>(row.count));
    }
    out += line;
    out += row.key;
    out += "\n";
  }
  if (rows.size() > n) out += "  ... " + std::to_string(rows.size() - n) + " more\n";
  out += "\n";
}

// "exponential,add,+3" for a fused group's ops ("stablehlo.exponential,
// stablehlo.add,..."): the first few, without the dialect; empty for one op.
std::string FusedOpsLabel(const std::string& ops) {
  if (ops.find(',') == std::string::npos) return "";
  constexpr int kShown = 3;
  std::string out;
  int count = 0;
  size_t start = 0;
  while (start <= ops.size()) {
    size_t end = ops.find(',', start);
    if (end == std::string::npos) end = ops.size();
    std::string op = ops.substr(start, end - start);
    if (const size_t dot = op.find('.'); dot != std::string::npos) op = op.substr(dot + 1);
    if (count < kShown) out += (count == 0 ? "" : ",") + op;
    ++count;
    start = end + 1;
  }
  if (count > kShown) out += ",+" + std::to_string(count - kShown);
  return out;
}

}  // namespace

Summary Summarize(const std::vector<Trace>& traces) {
  Summary summary;
  std::map<std::string, SummaryRow> instances, kinds, locations, phases;
  double allocations = 0, allocated = 0;
  for (const Trace& trace : traces) {
    summary.dropped_events += trace.dropped_events;
    const std::map<const TraceEvent*, OwnShare> shares = OwnShares(trace);
    for (const TraceEvent& e : trace.events) {
      if (e.category == category::kExecute) {
        ++summary.executions;
        summary.execute_ns += e.end_ns - e.start_ns;
        summary.peak_live_bytes =
            std::max(summary.peak_live_bytes, static_cast<int64_t>(e.Number(stat::kPeakLiveBytes)));
        allocations += e.Number(stat::kAllocations);
        allocated += e.Number(stat::kAllocatedBytes);
      } else if (e.category == category::kKernel) {
        const OwnShare& own = shares.at(&e);
        summary.kernel_ns += own.ns;
        const std::string location = e.Text(stat::kLocation);
        const std::string shapes = e.Text(stat::kShapes);
        std::string instance = e.name;
        const std::string fused = FusedOpsLabel(e.Text(stat::kOps));
        if (!fused.empty()) instance += "[" + fused + "]";
        if (!shapes.empty()) instance += " " + shapes;
        if (!location.empty()) instance += " @ " + location;
        Add(instances, instance, e, own);
        Add(kinds, e.name, e, own);
        Add(locations, location.empty() ? "(no location)" : location, e, own);
      } else if (e.category == category::kCompile) {
        Add(phases, e.name, e);
      }
    }
  }
  summary.by_instance = Sorted(instances, summary.kernel_ns);
  summary.by_kind = Sorted(kinds, summary.kernel_ns);
  summary.by_location = Sorted(locations, summary.kernel_ns);
  int64_t compile_ns = 0;
  for (const auto& [key, row] : phases) {
    if (key == "compile") compile_ns += row.total_ns;
  }
  summary.compile_phases = Sorted(phases, compile_ns);
  if (summary.executions > 0) {
    summary.allocations_per_execute = static_cast<int64_t>(allocations / summary.executions);
    summary.allocated_bytes_per_execute = static_cast<int64_t>(allocated / summary.executions);
  }
  return summary;
}

std::string FormatSummary(const Summary& summary, const SummaryOptions& options) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "plugrt profile: %lld executions, %s ms in executions, %s ms in kernels\n",
                static_cast<long long>(summary.executions), Millis(summary.execute_ns).c_str(),
                Millis(summary.kernel_ns).c_str());
  out += line;
  if (options.ceilings.gflops > 0 || options.ceilings.gbps > 0) {
    std::string known;
    if (options.ceilings.gflops > 0) {
      std::snprintf(line, sizeof(line), "%.1f GFLOP/s (f32 GEMM)", options.ceilings.gflops);
      known += line;
    }
    if (options.ceilings.gbps > 0) {
      std::snprintf(line, sizeof(line), "%s%.1f GB/s (copy)", known.empty() ? "" : ", ",
                    options.ceilings.gbps);
      known += line;
    }
    out += "ceilings: " + known + "; \"ceiling\" is the fraction of the nearer one (flop or mem)\n";
  }
  if (summary.dropped_events > 0) {
    out += "warning: " + std::to_string(summary.dropped_events) +
           " events were dropped (a thread recorded more than the recorder keeps); the tables "
           "cover the rest\n";
  }
  out += "\n";
  Table(out, "Top ops (each op of the program: kind, shapes, source location):",
        summary.by_instance, options, true);
  Table(out, "By op kind:", summary.by_kind, options, true);
  Table(out, "By source location:", summary.by_location, options, true);
  Table(out, "Compile phases:", summary.compile_phases, options, false);
  if (summary.executions > 0) {
    out += "Memory: peak live " + Bytes(static_cast<double>(summary.peak_live_bytes)) +
           " (the buffer plan's view); per execute " +
           std::to_string(summary.allocations_per_execute) + " allocations, " +
           Bytes(static_cast<double>(summary.allocated_bytes_per_execute)) + "\n";
  }
  return out;
}

}  // namespace plugrt::profiler
