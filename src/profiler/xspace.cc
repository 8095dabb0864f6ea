// plugrt profiler: Trace <-> XSpace (the mapping is described in xspace.h).
#include "profiler/xspace.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "proto/xplane.pb.h"

namespace plugrt::profiler {
// Helpers in a namespace of their own: this file may share a unity batch
// with the profiler's other sources.
namespace xspace_internal {
namespace {

namespace wire = ::plugrt::wire::profiler;

constexpr int64_t kPicosPerNano = 1000;

// Nanoseconds as picoseconds, saturating instead of overflowing (an offset
// of more than about 106 days).
int64_t NanosToPicos(int64_t ns) {
  int64_t ps = 0;
  if (__builtin_mul_overflow(ns, kPicosPerNano, &ps)) return ns < 0 ? INT64_MIN : INT64_MAX;
  return ps;
}

// Length of the well-formed UTF-8 sequence at text[i], or 0 when the bytes
// there are not one (truncated, overlong, a surrogate, past U+10FFFF).
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // at most U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - i < length) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

// Text for a proto3 string field, which must hold UTF-8 (parsers reject
// anything else, ours included): each byte that starts no well-formed
// sequence becomes U+FFFD. Names can arrive cut mid-character (an OS thread
// name is at most 15 bytes).
std::string Utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) break;
    i += n;
  }
  if (i == text.size()) return std::string(text);
  std::string out(text.substr(0, i));
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

// Hands out plane-wide metadata ids, one per distinct name, from 1, and
// fills the plane's two tables as it goes.
class MetadataIds {
 public:
  explicit MetadataIds(wire::XPlane* plane) : plane_(plane) {}

  int64_t Event(const std::string& name) {
    auto [it, inserted] = events_.try_emplace(name, static_cast<int64_t>(events_.size()) + 1);
    if (inserted) {
      wire::XEventMetadata& metadata = (*plane_->mutable_event_metadata())[it->second];
      metadata.set_id(it->second);
      metadata.set_name(Utf8(name));
    }
    return it->second;
  }

  int64_t Stat(std::string_view name) {
    auto [it, inserted] =
        stats_.try_emplace(std::string(name), static_cast<int64_t>(stats_.size()) + 1);
    if (inserted) {
      wire::XStatMetadata& metadata = (*plane_->mutable_stat_metadata())[it->second];
      metadata.set_id(it->second);
      metadata.set_name(Utf8(it->first));
    }
    return it->second;
  }

 private:
  wire::XPlane* plane_;
  std::unordered_map<std::string, int64_t> events_;
  std::unordered_map<std::string, int64_t> stats_;
};

void SetValue(const std::variant<int64_t, double, std::string>& value, wire::XStat* stat) {
  if (const auto* i = std::get_if<int64_t>(&value)) {
    stat->set_int64_value(*i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    stat->set_double_value(*d);
  } else {
    stat->set_str_value(Utf8(std::get<std::string>(value)));
  }
}

// One thread's line while it is being built.
struct PendingLine {
  std::string name;
  std::vector<const TraceEvent*> events;
};

void WriteLine(int64_t thread_id, const PendingLine& pending, MetadataIds& ids,
               wire::XLine* line) {
  line->set_id(thread_id);
  line->set_display_id(thread_id);
  line->set_name(Utf8(pending.name));
  line->set_display_name(line->name());
  if (pending.events.empty()) return;

  int64_t first_ns = INT64_MAX;
  int64_t last_ns = INT64_MIN;
  for (const TraceEvent* event : pending.events) {
    first_ns = std::min(first_ns, event->start_ns);
    last_ns = std::max(last_ns, std::max(event->start_ns, event->end_ns));
  }
  line->set_timestamp_ns(first_ns);
  line->set_duration_ps(NanosToPicos(last_ns - first_ns));

  line->mutable_events()->Reserve(static_cast<int>(pending.events.size()));
  for (const TraceEvent* event : pending.events) {
    wire::XEvent* out = line->add_events();
    out->set_metadata_id(ids.Event(event->name));
    out->set_offset_ps(NanosToPicos(event->start_ns - first_ns));
    out->set_duration_ps(NanosToPicos(std::max<int64_t>(event->end_ns - event->start_ns, 0)));
    event->ForEachStat([&](const Stat& stat) {
      wire::XStat* x = out->add_stats();
      x->set_metadata_id(ids.Stat(stat.name));
      SetValue(stat.value, x);
    });
    if (!event->category.empty()) {
      wire::XStat* x = out->add_stats();
      x->set_metadata_id(ids.Stat(kXStatCategory));
      x->set_str_value(Utf8(event->category));
    }
    if (event->flow_id != 0) {
      wire::XStat* x = out->add_stats();
      x->set_metadata_id(ids.Stat(kXStatFlowId));
      x->set_uint64_value(event->flow_id);
    }
  }
}

// An XStat read back: its metadata's name and its value.
StatusOr<Stat> ReadStat(const wire::XPlane& plane, const wire::XStat& stat) {
  auto it = plane.stat_metadata().find(stat.metadata_id());
  if (it == plane.stat_metadata().end()) {
    return InvalidArgument("XSpace: an XStat refers to stat metadata id ", stat.metadata_id(),
                           ", which plane \"", plane.name(), "\" does not define");
  }
  Stat out;
  out.name = it->second.name();
  switch (stat.value_case()) {
    case wire::XStat::kDoubleValue:
      out.value = stat.double_value();
      break;
    case wire::XStat::kUint64Value:
      out.value = static_cast<int64_t>(stat.uint64_value());
      break;
    case wire::XStat::kInt64Value:
      out.value = stat.int64_value();
      break;
    case wire::XStat::kStrValue:
      out.value = stat.str_value();
      break;
    case wire::XStat::kBytesValue:
      out.value = stat.bytes_value();
      break;
    case wire::XStat::kRefValue: {
      auto ref = plane.stat_metadata().find(static_cast<int64_t>(stat.ref_value()));
      if (ref == plane.stat_metadata().end()) {
        return InvalidArgument("XSpace: an XStat's ref_value names stat metadata id ",
                               stat.ref_value(), ", which plane \"", plane.name(),
                               "\" does not define");
      }
      out.value = ref->second.name();
      break;
    }
    case wire::XStat::kCompressedStrValue:
      // Kept compressed: decompressing would take zlib for a value plugrt
      // never writes.
      out.value = stat.compressed_str_value();
      break;
    case wire::XStat::VALUE_NOT_SET:
      out.value = int64_t{0};
      break;
  }
  return out;
}

// Folds one stat into `event`: the two the mapping adds become fields,
// the rest stay stats.
void AddStat(Stat stat, TraceEvent& event) {
  if (stat.name == kXStatCategory) {
    if (auto* text = std::get_if<std::string>(&stat.value)) {
      event.category = std::move(*text);
      return;
    }
  } else if (stat.name == kXStatFlowId) {
    if (auto* number = std::get_if<int64_t>(&stat.value)) {
      event.flow_id = static_cast<uint64_t>(*number);
      return;
    }
  }
  event.stats.push_back(std::move(stat));
}

Status ReadPlane(const wire::XPlane& plane, std::unordered_set<int64_t>& named_threads,
                 Trace& trace) {
  for (const wire::XStat& x : plane.stats()) {
    PLUGRT_ASSIGN_OR_RETURN(Stat stat, ReadStat(plane, x));
    // Other plane-wide stats have no place in a Trace.
    if (stat.name == kXStatProcessName && trace.process_name.empty()) {
      if (auto* text = std::get_if<std::string>(&stat.value)) trace.process_name = *text;
    }
    if (stat.name == kXStatDroppedEvents) {
      if (auto* count = std::get_if<int64_t>(&stat.value)) trace.dropped_events += *count;
    }
  }
  for (const wire::XLine& line : plane.lines()) {
    const std::string& line_name = line.name().empty() ? line.display_name() : line.name();
    if (!line_name.empty() && named_threads.insert(line.id()).second) {
      trace.threads.push_back(ThreadInfo{line.id(), line_name});
    }
    for (const wire::XEvent& x : line.events()) {
      auto metadata = plane.event_metadata().find(x.metadata_id());
      if (metadata == plane.event_metadata().end()) {
        return InvalidArgument("XSpace: an XEvent on line ", line.id(), " refers to event metadata id ",
                               x.metadata_id(), ", which plane \"", plane.name(),
                               "\" does not define");
      }
      TraceEvent event;
      event.name = metadata->second.name().empty() ? metadata->second.display_name()
                                                   : metadata->second.name();
      event.thread_id = line.id();
      const int64_t offset_ps = x.data_case() == wire::XEvent::kOffsetPs ? x.offset_ps() : 0;
      event.start_ns = line.timestamp_ns() + offset_ps / kPicosPerNano;
      event.end_ns = line.timestamp_ns() + (offset_ps + x.duration_ps()) / kPicosPerNano;

      std::unordered_set<std::string> own_names;
      for (const wire::XStat& xs : x.stats()) {
        PLUGRT_ASSIGN_OR_RETURN(Stat stat, ReadStat(plane, xs));
        own_names.insert(stat.name);
        AddStat(std::move(stat), event);
      }
      // The kind's stats hold for each of its events, unless the event says
      // otherwise.
      for (const wire::XStat& xs : metadata->second.stats()) {
        PLUGRT_ASSIGN_OR_RETURN(Stat stat, ReadStat(plane, xs));
        if (own_names.count(stat.name) != 0) continue;
        AddStat(std::move(stat), event);
      }
      trace.events.push_back(std::move(event));
    }
  }
  return OkStatus();
}

}  // namespace
}  // namespace xspace_internal

std::string SerializeXSpace(const Trace& trace, std::string_view host_name) {
  namespace wire = ::plugrt::wire::profiler;
  using xspace_internal::PendingLine;

  wire::XSpace space;
  if (!host_name.empty()) space.add_hostnames(xspace_internal::Utf8(host_name));
  wire::XPlane* plane = space.add_planes();
  plane->set_name(std::string(kHostPlaneName));
  xspace_internal::MetadataIds ids(plane);

  if (!trace.process_name.empty()) {
    wire::XStat* stat = plane->add_stats();
    stat->set_metadata_id(ids.Stat(kXStatProcessName));
    stat->set_str_value(xspace_internal::Utf8(trace.process_name));
  }
  if (trace.dropped_events > 0) {
    wire::XStat* stat = plane->add_stats();
    stat->set_metadata_id(ids.Stat(kXStatDroppedEvents));
    stat->set_int64_value(trace.dropped_events);
  }

  // Lines in the order of trace.threads, then threads that only events name
  // in the order they first appear; events keep the trace's order.
  std::vector<int64_t> order;
  std::unordered_map<int64_t, PendingLine> lines;
  for (const ThreadInfo& thread : trace.threads) {
    auto [it, inserted] = lines.try_emplace(thread.thread_id);
    if (inserted) {
      it->second.name = thread.name;
      order.push_back(thread.thread_id);
    }
  }
  for (const TraceEvent& event : trace.events) {
    auto [it, inserted] = lines.try_emplace(event.thread_id);
    if (inserted) order.push_back(event.thread_id);
    it->second.events.push_back(&event);
  }
  plane->mutable_lines()->Reserve(static_cast<int>(order.size()));
  for (int64_t thread_id : order) {
    xspace_internal::WriteLine(thread_id, lines[thread_id], ids, plane->add_lines());
  }
  // Deterministic: map entries by key, so one trace gives one byte string.
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    space.SerializeToCodedStream(&coded);
  }
  return bytes;
}

StatusOr<Trace> ParseXSpace(std::string_view bytes) {
  namespace wire = ::plugrt::wire::profiler;
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return InvalidArgument("XSpace: ", bytes.size(), " bytes is more than protobuf parses");
  }
  wire::XSpace space;
  if (!space.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return InvalidArgument("XSpace: ", bytes.size(), " bytes that are not a serialized XSpace");
  }
  Trace trace;
  std::unordered_set<int64_t> named_threads;
  for (const wire::XPlane& plane : space.planes()) {
    PLUGRT_RETURN_IF_ERROR(xspace_internal::ReadPlane(plane, named_threads, trace));
  }
  std::stable_sort(trace.events.begin(), trace.events.end(),
                   [](const TraceEvent& a, const TraceEvent& b) { return a.start_ns < b.start_ns; });
  return trace;
}

}  // namespace plugrt::profiler
