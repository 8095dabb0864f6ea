// Trace <-> XSpace (src/profiler/xspace.h): round trips, the wire structure
// as the generated classes read it, foreign XSpaces, malformed bytes.
#include "profiler/xspace.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "proto/xplane.pb.h"

namespace plugrt::profiler {
namespace {

namespace wire = ::plugrt::wire::profiler;
using StatValue = decltype(Stat::value);

TraceEvent Event(std::string name, std::string category, int64_t start_ns, int64_t end_ns,
                 int64_t thread_id, uint64_t flow_id, std::vector<Stat> stats = {}) {
  TraceEvent event;
  event.name = std::move(name);
  event.category = std::move(category);
  event.start_ns = start_ns;
  event.end_ns = end_ns;
  event.thread_id = thread_id;
  event.flow_id = flow_id;
  event.stats = std::move(stats);
  return event;
}

constexpr int64_t kT0 = 1'700'000'000'123'456'789;  // a realistic epoch time

// Three named threads (one without events) and one only events name; every
// kind of stat; flows; nesting on one thread; names repeated across threads.
Trace SampleTrace() {
  Trace trace;
  trace.process_name = "plugrt CPU plugin";
  trace.threads = {{101, "device 0"}, {102, "pool"}, {103, "idle"}};
  trace.events = {
      Event("execute", "execute", kT0, kT0 + 9'000, 101, 7,
            {{"program", std::string("main")}, {"device", int64_t{0}},
             {"peak_live_bytes", int64_t{4096}}}),
      Event("stablehlo.dot_general", "kernel", kT0 + 100, kT0 + 5'100, 101, 7,
            {{"flops", 2.5e6}, {"shapes", std::string("f32[8,16], f32[16,4] -> f32[8,4]")},
             {"bytes_read", int64_t{640}}, {"bytes_written", int64_t{-1}}}),
      Event("stablehlo.dot_general", "worker", kT0 + 150, kT0 + 2'000, 102, 7,
            {{"parent", std::string("stablehlo.dot_general")}}),
      Event("compile", "compile", kT0 + 200, kT0 + 200, 999, 0, {}),  // instant, unnamed thread
      Event("fusion", "kernel", kT0 + 5'200, kT0 + 8'000, 101, 7,
            {{"ops", std::string("stablehlo.add,stablehlo.exponential")}, {"flops", 0.0},
             {"empty", std::string()}}),
      Event("fusion", "worker", kT0 + 5'300, kT0 + 6'000, 102, 7, {}),
      Event("transfer", "", kT0 + 10'000, kT0 + 10'500, 101, 0,
            {{"bytes_read", int64_t{1} << 40}}),
      Event("compile", "compile", kT0 + 11'000, kT0 + 30'000, 999, UINT64_MAX, {}),
  };
  return trace;
}

void ExpectSameTrace(const Trace& actual, const Trace& expected) {
  EXPECT_EQ(actual.process_name, expected.process_name);
  ASSERT_EQ(actual.threads.size(), expected.threads.size());
  for (size_t i = 0; i < expected.threads.size(); ++i) {
    EXPECT_EQ(actual.threads[i].thread_id, expected.threads[i].thread_id) << i;
    EXPECT_EQ(actual.threads[i].name, expected.threads[i].name) << i;
  }
  ASSERT_EQ(actual.events.size(), expected.events.size());
  for (size_t i = 0; i < expected.events.size(); ++i) {
    const TraceEvent& a = actual.events[i];
    const TraceEvent& e = expected.events[i];
    SCOPED_TRACE("event " + std::to_string(i) + " (" + e.name + ")");
    EXPECT_EQ(a.name, e.name);
    EXPECT_EQ(a.category, e.category);
    EXPECT_EQ(a.start_ns, e.start_ns);
    EXPECT_EQ(a.end_ns, e.end_ns);
    EXPECT_EQ(a.thread_id, e.thread_id);
    EXPECT_EQ(a.flow_id, e.flow_id);
    ASSERT_EQ(a.stats.size(), e.stats.size());
    for (size_t s = 0; s < e.stats.size(); ++s) {
      EXPECT_EQ(a.stats[s].name, e.stats[s].name);
      EXPECT_EQ(a.stats[s].value.index(), e.stats[s].value.index()) << e.stats[s].name;
      EXPECT_TRUE(a.stats[s].value == e.stats[s].value) << e.stats[s].name;
    }
  }
}

TEST(XSpaceTest, RoundTripKeepsEverything) {
  const Trace trace = SampleTrace();
  const std::string bytes = SerializeXSpace(trace, "host-a");
  ASSERT_FALSE(bytes.empty());
  StatusOr<Trace> parsed = ParseXSpace(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ExpectSameTrace(*parsed, trace);
  // And again: the second trip changes nothing.
  EXPECT_EQ(SerializeXSpace(*parsed, "host-a"), bytes);
}

TEST(XSpaceTest, EmptyTraceAndEmptyBytes) {
  StatusOr<Trace> parsed = ParseXSpace(SerializeXSpace(Trace{}, ""));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->events.empty());
  EXPECT_TRUE(parsed->threads.empty());
  EXPECT_EQ(parsed->process_name, "");
  // Zero bytes are a valid, empty XSpace.
  StatusOr<Trace> none = ParseXSpace("");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->events.empty());
}

TEST(XSpaceTest, GarbageIsInvalidArgument) {
  const std::string valid = SerializeXSpace(SampleTrace(), "host-a");
  const std::vector<std::string> garbage = {
      "this is not a protobuf",
      std::string(16, '\xff'),
      std::string("\x0a\x7f\x01", 3),       // planes: 127 bytes promised, 1 given
      valid.substr(0, valid.size() - 1),  // cut short
      valid.substr(0, valid.size() / 2),
  };
  for (const std::string& bytes : garbage) {
    StatusOr<Trace> parsed = ParseXSpace(bytes);
    ASSERT_FALSE(parsed.ok()) << bytes.size() << " bytes";
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << parsed.status().ToString();
  }
}

TEST(XSpaceTest, MissingEventMetadataNamesTheId) {
  wire::XSpace space;
  wire::XPlane* plane = space.add_planes();
  plane->set_name("/host:CPU");
  wire::XLine* line = plane->add_lines();
  line->set_id(5);
  wire::XEvent* event = line->add_events();
  event->set_metadata_id(424242);
  event->set_offset_ps(0);
  StatusOr<Trace> parsed = ParseXSpace(space.SerializeAsString());
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("424242"), std::string::npos)
      << parsed.status().message();

  // The same for a stat whose metadata is missing.
  (*plane->mutable_event_metadata())[424242].set_id(424242);
  (*plane->mutable_event_metadata())[424242].set_name("x");
  event->add_stats()->set_metadata_id(31337);
  parsed = ParseXSpace(space.SerializeAsString());
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("31337"), std::string::npos)
      << parsed.status().message();
}

// What a framework's reader sees, field by field.
TEST(XSpaceTest, WireStructure) {
  const Trace trace = SampleTrace();
  wire::XSpace space;
  ASSERT_TRUE(space.ParseFromString(SerializeXSpace(trace, "host-a")));
  ASSERT_EQ(space.hostnames_size(), 1);
  EXPECT_EQ(space.hostnames(0), "host-a");
  EXPECT_EQ(space.errors_size(), 0);
  ASSERT_EQ(space.planes_size(), 1);
  const wire::XPlane& plane = space.planes(0);
  EXPECT_EQ(plane.name(), "/host:CPU");

  // Metadata tables: keyed by their own ids, from 1, one entry per name.
  std::map<int64_t, std::string> event_names;
  for (const auto& [id, metadata] : plane.event_metadata()) {
    EXPECT_EQ(metadata.id(), id);
    EXPECT_GE(id, 1);
    event_names[id] = metadata.name();
  }
  EXPECT_EQ(std::set<std::string>(
                {"execute", "stablehlo.dot_general", "compile", "fusion", "transfer"}),
            [&] {
              std::set<std::string> names;
              for (const auto& [id, name] : event_names) names.insert(name);
              return names;
            }());
  EXPECT_EQ(event_names.size(), 5u);
  std::map<int64_t, std::string> stat_names;
  std::set<std::string> distinct_stat_names;
  for (const auto& [id, metadata] : plane.stat_metadata()) {
    EXPECT_EQ(metadata.id(), id);
    EXPECT_GE(id, 1);
    stat_names[id] = metadata.name();
    distinct_stat_names.insert(metadata.name());
  }
  EXPECT_EQ(distinct_stat_names,
            std::set<std::string>({"process_name", "program", "device", "peak_live_bytes", "flops",
                                   "shapes", "bytes_read", "bytes_written", "parent", "ops",
                                   "empty", "category", "flow_id"}));
  EXPECT_EQ(stat_names.size(), distinct_stat_names.size());

  // The process name is a plane stat.
  ASSERT_EQ(plane.stats_size(), 1);
  EXPECT_EQ(stat_names[plane.stats(0).metadata_id()], "process_name");
  EXPECT_EQ(plane.stats(0).value_case(), wire::XStat::kStrValue);
  EXPECT_EQ(plane.stats(0).str_value(), "plugrt CPU plugin");

  // Lines: the named threads in order (the idle one empty), then 999.
  ASSERT_EQ(plane.lines_size(), 4);
  const wire::XLine& device = plane.lines(0);
  const wire::XLine& pool = plane.lines(1);
  const wire::XLine& idle = plane.lines(2);
  const wire::XLine& unnamed = plane.lines(3);
  EXPECT_EQ(device.id(), 101);
  EXPECT_EQ(device.display_id(), 101);
  EXPECT_EQ(device.name(), "device 0");
  EXPECT_EQ(device.display_name(), "device 0");
  EXPECT_EQ(device.timestamp_ns(), kT0);
  EXPECT_EQ(device.duration_ps(), 10'500'000);
  EXPECT_EQ(pool.id(), 102);
  EXPECT_EQ(pool.name(), "pool");
  EXPECT_EQ(pool.timestamp_ns(), kT0 + 150);
  EXPECT_EQ(pool.duration_ps(), (6'000 - 150) * 1000);
  EXPECT_EQ(idle.id(), 103);
  EXPECT_EQ(idle.name(), "idle");
  EXPECT_EQ(idle.events_size(), 0);
  EXPECT_EQ(unnamed.id(), 999);
  EXPECT_EQ(unnamed.name(), "");
  EXPECT_EQ(unnamed.timestamp_ns(), kT0 + 200);

  ASSERT_EQ(device.events_size(), 4);
  ASSERT_EQ(pool.events_size(), 2);
  ASSERT_EQ(unnamed.events_size(), 2);

  // execute: offset 0, 9 us, three stats then category and flow_id.
  const wire::XEvent& execute = device.events(0);
  EXPECT_EQ(event_names[execute.metadata_id()], "execute");
  EXPECT_EQ(execute.data_case(), wire::XEvent::kOffsetPs);
  EXPECT_EQ(execute.offset_ps(), 0);
  EXPECT_EQ(execute.duration_ps(), 9'000'000);
  ASSERT_EQ(execute.stats_size(), 5);
  EXPECT_EQ(stat_names[execute.stats(0).metadata_id()], "program");
  EXPECT_EQ(execute.stats(0).str_value(), "main");
  EXPECT_EQ(stat_names[execute.stats(1).metadata_id()], "device");
  EXPECT_EQ(execute.stats(1).value_case(), wire::XStat::kInt64Value);
  EXPECT_EQ(execute.stats(1).int64_value(), 0);
  EXPECT_EQ(stat_names[execute.stats(2).metadata_id()], "peak_live_bytes");
  EXPECT_EQ(execute.stats(2).int64_value(), 4096);
  EXPECT_EQ(stat_names[execute.stats(3).metadata_id()], "category");
  EXPECT_EQ(execute.stats(3).value_case(), wire::XStat::kStrValue);
  EXPECT_EQ(execute.stats(3).str_value(), "execute");
  EXPECT_EQ(stat_names[execute.stats(4).metadata_id()], "flow_id");
  EXPECT_EQ(execute.stats(4).value_case(), wire::XStat::kUint64Value);
  EXPECT_EQ(execute.stats(4).uint64_value(), 7u);

  // The dot: offset 100 ns, a double stat.
  const wire::XEvent& dot = device.events(1);
  EXPECT_EQ(event_names[dot.metadata_id()], "stablehlo.dot_general");
  EXPECT_EQ(dot.offset_ps(), 100'000);
  EXPECT_EQ(dot.duration_ps(), 5'000'000);
  EXPECT_EQ(stat_names[dot.stats(0).metadata_id()], "flops");
  EXPECT_EQ(dot.stats(0).value_case(), wire::XStat::kDoubleValue);
  EXPECT_EQ(dot.stats(0).double_value(), 2.5e6);
  // Same name on another line: same metadata; offsets from that line's start.
  EXPECT_EQ(pool.events(0).metadata_id(), dot.metadata_id());
  EXPECT_EQ(pool.events(0).offset_ps(), 0);
  EXPECT_EQ(pool.events(1).offset_ps(), (5'300 - 150) * 1000);
  // Same stat name on two events: same stat metadata.
  EXPECT_EQ(device.events(3).stats(0).metadata_id(), dot.stats(2).metadata_id());

  // An event without category or flow writes neither.
  const wire::XEvent& transfer = device.events(3);
  EXPECT_EQ(event_names[transfer.metadata_id()], "transfer");
  ASSERT_EQ(transfer.stats_size(), 1);
  EXPECT_EQ(transfer.stats(0).int64_value(), int64_t{1} << 40);
  // The instant: zero duration; the largest flow id survives as uint64.
  EXPECT_EQ(unnamed.events(0).duration_ps(), 0);
  EXPECT_EQ(unnamed.events(1).offset_ps(), (11'000 - 200) * 1000);
  EXPECT_EQ(unnamed.events(1).stats(1).uint64_value(), UINT64_MAX);
}

// An XSpace plugrt did not write: several planes, ref and bytes values,
// kind-level stats, display names, aggregated events.
TEST(XSpaceTest, ReadsForeignXSpace) {
  wire::XSpace space;
  for (int p = 0; p < 2; ++p) {
    wire::XPlane* plane = space.add_planes();
    plane->set_id(p);
    plane->set_name(p == 0 ? "/host:CPU" : "/device:CUSTOM:0");
    auto stat_metadata = [&](int64_t id, const char* name) {
      wire::XStatMetadata& m = (*plane->mutable_stat_metadata())[id];
      m.set_id(id);
      m.set_name(name);
    };
    stat_metadata(10, "process_name");
    stat_metadata(11, "category");
    stat_metadata(12, "flow_id");
    stat_metadata(13, "hlo_op");
    stat_metadata(14, "raw");
    stat_metadata(15, "correlation_id");
    stat_metadata(16, "kind");
    stat_metadata(17, "constant");
    wire::XStat* process = plane->add_stats();
    process->set_metadata_id(10);
    process->set_str_value(p == 0 ? "python" : "device side");

    wire::XEventMetadata& kernel = (*plane->mutable_event_metadata())[3];
    kernel.set_id(3);
    kernel.set_display_name("kernel " + std::to_string(p));  // no name: the display name
    wire::XStat* constant = kernel.add_stats();
    constant->set_metadata_id(16);
    constant->set_str_value("from metadata");
    wire::XStat* overridden = kernel.add_stats();
    overridden->set_metadata_id(13);
    overridden->set_str_value("overridden");

    wire::XLine* line = plane->add_lines();
    line->set_id(40 + p);
    line->set_display_name("stream " + std::to_string(p));  // no name: the display name
    line->set_timestamp_ns(1000 * (p + 1));
    wire::XEvent* e = line->add_events();
    e->set_metadata_id(3);
    e->set_offset_ps(2'500'999);  // 2500.999 ns
    e->set_duration_ps(1'000);
    wire::XStat* s = e->add_stats();
    s->set_metadata_id(13);
    s->set_ref_value(17);  // the name of stat metadata 17
    s = e->add_stats();
    s->set_metadata_id(14);
    s->set_bytes_value(std::string("\x00\x01", 2));
    s = e->add_stats();
    s->set_metadata_id(15);
    s->set_uint64_value(77);
    s = e->add_stats();
    s->set_metadata_id(12);
    s->set_int64_value(5);  // flow id given as int64
    s = e->add_stats();
    s->set_metadata_id(11);
    s->set_int64_value(3);  // not text: stays a stat
    wire::XEvent* aggregated = line->add_events();
    aggregated->set_metadata_id(3);
    aggregated->set_num_occurrences(12);
    aggregated->set_duration_ps(4'000);
  }
  StatusOr<Trace> parsed = ParseXSpace(space.SerializeAsString());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Trace& trace = *parsed;
  EXPECT_EQ(trace.process_name, "python");
  ASSERT_EQ(trace.threads.size(), 2u);
  EXPECT_EQ(trace.threads[0].thread_id, 40);
  EXPECT_EQ(trace.threads[0].name, "stream 0");
  EXPECT_EQ(trace.threads[1].thread_id, 41);
  EXPECT_EQ(trace.threads[1].name, "stream 1");

  ASSERT_EQ(trace.events.size(), 4u);
  // Sorted by start: the aggregated events (offset 0) first.
  EXPECT_EQ(trace.events[0].start_ns, 1000);
  EXPECT_EQ(trace.events[0].end_ns, 1004);
  EXPECT_EQ(trace.events[0].name, "kernel 0");
  EXPECT_EQ(trace.events[1].start_ns, 2000);
  EXPECT_EQ(trace.events[1].thread_id, 41);
  const TraceEvent& e = trace.events[2];
  EXPECT_EQ(e.name, "kernel 0");
  EXPECT_EQ(e.thread_id, 40);
  EXPECT_EQ(e.start_ns, 1000 + 2500);
  EXPECT_EQ(e.end_ns, 1000 + 2501);
  EXPECT_EQ(e.flow_id, 5u);
  EXPECT_EQ(e.category, "");
  ASSERT_EQ(e.stats.size(), 5u);
  EXPECT_EQ(e.stats[0].name, "hlo_op");
  EXPECT_TRUE(e.stats[0].value == StatValue(std::string("constant")));
  EXPECT_EQ(e.stats[1].name, "raw");
  EXPECT_TRUE(e.stats[1].value == StatValue(std::string("\x00\x01", 2)));
  EXPECT_EQ(e.stats[2].name, "correlation_id");
  EXPECT_TRUE(e.stats[2].value == StatValue(int64_t{77}));
  EXPECT_EQ(e.stats[3].name, "category");
  EXPECT_TRUE(e.stats[3].value == StatValue(int64_t{3}));
  // The kind's stat the event lacks; not the one it overrides.
  EXPECT_EQ(e.stats[4].name, "kind");
  EXPECT_TRUE(e.stats[4].value == StatValue(std::string("from metadata")));
  EXPECT_EQ(trace.events[3].thread_id, 41);
  EXPECT_EQ(trace.events[3].name, "kernel 1");
}

TEST(XSpaceTest, TextIsWrittenAsUtf8) {
  Trace trace;
  trace.process_name = "caf\xc3\xa9";  // valid: kept
  // An OS thread name cut inside a three-byte character.
  trace.threads = {{1, "pool \xe2\x82"}};
  trace.events = {Event("op\xff", "kernel", 10, 20, 1, 0, {{"s", std::string("\xed\xa0\x80")}})};
  const std::string bytes = SerializeXSpace(trace, "h\xc0st");
  StatusOr<Trace> parsed = ParseXSpace(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const std::string replacement = "\xef\xbf\xbd";
  EXPECT_EQ(parsed->process_name, "caf\xc3\xa9");
  ASSERT_EQ(parsed->threads.size(), 1u);
  EXPECT_EQ(parsed->threads[0].name, "pool " + replacement + replacement);
  ASSERT_EQ(parsed->events.size(), 1u);
  EXPECT_EQ(parsed->events[0].name, "op" + replacement);
  ASSERT_EQ(parsed->events[0].stats.size(), 1u);
  EXPECT_TRUE(parsed->events[0].stats[0].value ==
              StatValue(replacement + replacement + replacement));
  wire::XSpace space;
  ASSERT_TRUE(space.ParseFromString(bytes));
  EXPECT_EQ(space.hostnames(0), "h" + replacement + "st");
}

}  // namespace
}  // namespace plugrt::profiler
