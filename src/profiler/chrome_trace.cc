#include "profiler/chrome_trace.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <map>

namespace plugrt::profiler {

std::string JsonEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

namespace {

// Microseconds, as the format wants, with nanosecond precision kept.
std::string Micros(int64_t ns) {
  char buf[40];
  const int64_t whole = ns / 1000, frac = ns % 1000;
  std::snprintf(buf, sizeof(buf), "%" PRId64 ".%03" PRId64, whole, frac < 0 ? -frac : frac);
  return buf;
}

std::string StatJson(const Stat& stat) {
  std::string out = "\"" + JsonEscape(stat.name) + "\":";
  if (const auto* i = std::get_if<int64_t>(&stat.value)) {
    out += std::to_string(*i);
  } else if (const auto* d = std::get_if<double>(&stat.value)) {
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", *d);
    out += buf;
  } else {
    out += "\"" + JsonEscape(std::get<std::string>(stat.value)) + "\"";
  }
  return out;
}

}  // namespace

std::string ChromeTraceJson(const std::vector<Trace>& traces) {
  // Times are shown from the earliest event, so that viewers do not print
  // epoch-sized timestamps.
  int64_t origin = INT64_MAX;
  for (const Trace& trace : traces) {
    for (const TraceEvent& e : trace.events) origin = std::min(origin, e.start_ns);
  }
  if (origin == INT64_MAX) origin = 0;

  std::string out = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"origin_unix_ns\":" +
                    std::to_string(origin) + "},\"traceEvents\":[";
  bool first = true;
  auto emit = [&](const std::string& json) {
    if (!first) out += ",\n";
    first = false;
    out += json;
  };
  // Flow arrows: a client call (or eager op) to the plugin's execute that
  // served it, and an execute to each of its kernels: events sharing a
  // flow_id, in any of the traces.
  struct Source {
    const TraceEvent* event = nullptr;
    size_t pid = 0;
  };
  std::map<uint64_t, Source> callers, executes;
  // A launch over several devices has one execute per device thread, all
  // with the launch's flow id: each kernel's arrow starts at its own
  // thread's execute.
  std::map<std::pair<uint64_t, int64_t>, Source> thread_executes;
  for (size_t p = 0; p < traces.size(); ++p) {
    for (const TraceEvent& e : traces[p].events) {
      if (e.flow_id == 0) continue;
      if (e.category == category::kClient || e.category == category::kEager) {
        callers.emplace(e.flow_id, Source{&e, p + 1});
      } else if (e.category == category::kExecute) {
        executes.emplace(e.flow_id, Source{&e, p + 1});
        thread_executes.emplace(std::pair{e.flow_id, e.thread_id}, Source{&e, p + 1});
      }
    }
  }
  int64_t next_arrow = 1;
  auto arrow = [&](const Source& from, const TraceEvent& to, size_t to_pid) {
    const std::string id = std::to_string(next_arrow++);
    emit("{\"ph\":\"s\",\"id\":" + id + ",\"pid\":" + std::to_string(from.pid) +
         ",\"tid\":" + std::to_string(from.event->thread_id) +
         ",\"ts\":" + Micros(from.event->start_ns - origin) + ",\"name\":\"run\",\"cat\":\"flow\"}");
    emit("{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + ",\"pid\":" + std::to_string(to_pid) +
         ",\"tid\":" + std::to_string(to.thread_id) + ",\"ts\":" + Micros(to.start_ns - origin) +
         ",\"name\":\"run\",\"cat\":\"flow\"}");
  };
  for (size_t p = 0; p < traces.size(); ++p) {
    const Trace& trace = traces[p];
    const std::string pid = std::to_string(p + 1);
    emit("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"args\":{\"name\":\"" +
         JsonEscape(trace.process_name.empty() ? "plugrt" : trace.process_name) + "\"}}");
    for (const ThreadInfo& thread : trace.threads) {
      emit("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid +
           ",\"tid\":" + std::to_string(thread.thread_id) + ",\"args\":{\"name\":\"" +
           JsonEscape(thread.name.empty() ? "thread " + std::to_string(thread.thread_id)
                                          : thread.name) +
           "\"}}");
    }
    for (const TraceEvent& e : trace.events) {
      std::string json = "{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" +
                         std::to_string(e.thread_id) + ",\"ts\":" + Micros(e.start_ns - origin) +
                         ",\"dur\":" + Micros(std::max<int64_t>(e.end_ns - e.start_ns, 0)) +
                         ",\"name\":\"" + JsonEscape(e.name) + "\",\"cat\":\"" +
                         JsonEscape(e.category) + "\",\"args\":{";
      bool first_arg = true;
      e.ForEachStat([&](const Stat& s) {
        if (!first_arg) json += ",";
        first_arg = false;
        json += StatJson(s);
      });
      if (e.flow_id != 0) {
        if (!first_arg) json += ",";
        json += "\"flow_id\":" + std::to_string(e.flow_id);
      }
      json += "}}";
      emit(json);
      if (e.flow_id == 0) continue;
      if (e.category == category::kExecute) {
        if (auto it = callers.find(e.flow_id); it != callers.end()) arrow(it->second, e, p + 1);
      } else if (e.category == category::kKernel) {
        if (auto own = thread_executes.find({e.flow_id, e.thread_id});
            own != thread_executes.end()) {
          arrow(own->second, e, p + 1);
        } else if (auto it = executes.find(e.flow_id); it != executes.end()) {
          arrow(it->second, e, p + 1);
        } else if (auto caller = callers.find(e.flow_id); caller != callers.end()) {
          arrow(caller->second, e, p + 1);
        }
      }
    }
  }
  out += "]}\n";
  return out;
}

}  // namespace plugrt::profiler
