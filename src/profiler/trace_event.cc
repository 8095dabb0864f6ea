#include "profiler/trace_event.h"

namespace plugrt::profiler {

const Stat* TraceEvent::Find(std::string_view stat_name) const {
  for (const Stat& s : stats) {
    if (s.name == stat_name) return &s;
  }
  if (shared_stats != nullptr) {
    for (const Stat& s : *shared_stats) {
      if (s.name == stat_name) return &s;
    }
  }
  return nullptr;
}

double TraceEvent::Number(std::string_view stat_name) const {
  const Stat* s = Find(stat_name);
  if (s == nullptr) return 0;
  if (const auto* i = std::get_if<int64_t>(&s->value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&s->value)) return *d;
  return 0;
}

std::string TraceEvent::Text(std::string_view stat_name) const {
  const Stat* s = Find(stat_name);
  if (s == nullptr) return "";
  if (const auto* t = std::get_if<std::string>(&s->value)) return *t;
  return "";
}

}  // namespace plugrt::profiler
