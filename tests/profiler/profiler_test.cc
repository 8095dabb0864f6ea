// The profiler (src/profiler/): kernel events of the CPU plugin read back
// through PJRT's profiler extension, tracing off leaving nothing, the
// extension's C API and its errors, the summary, the "profile" create
// option and `plugrt run --profile`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "client/client.h"
#include "client/executable.h"
#include "client/profiler_session.h"
#include "common/extension_chain.h"
#include "plugrt/pjrt_profiler_extension.h"
#include "profiler/chrome_trace.h"
#include "profiler/recorder.h"
#include "profiler/summary.h"
#include "profiler/xspace.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using profiler::Trace;
using profiler::TraceEvent;
using testing::CpuPlugin;
using testing::CreateCpuClient;
using testing::Upload;

// A dot and an elementwise tail that fuses, each with a source location.
constexpr const char* kBody = R"(
    %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
        : (tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<128x128xf32> loc("model.py":10:3)
    %e = stablehlo.exponential %d : tensor<128x128xf32> loc("model.py":11:3)
    %a = stablehlo.add %e, %d : tensor<128x128xf32> loc("model.py":12:3)
    return %a : tensor<128x128xf32>
  }
}
)";
const std::string kProgram = std::string(R"(
module @profiled {
  func.func @main(%x: tensor<128x256xf32>, %w: tensor<256x128xf32>) -> tensor<128x128xf32> {)") +
                             kBody;
// The same over iotas: no inputs to write (too large to be folded).
const std::string kCliProgram = std::string(R"(
module @profiled {
  func.func @main() -> tensor<128x128xf32> {
    %x = stablehlo.iota dim = 1 : tensor<128x256xf32>
    %w = stablehlo.iota dim = 0 : tensor<256x128xf32>)") + kBody;

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<const TraceEvent*> Events(const Trace& trace, std::string_view category,
                                      std::string_view name = "") {
  std::vector<const TraceEvent*> out;
  for (const TraceEvent& e : trace.events) {
    if (e.category == category && (name.empty() || e.name == name)) out.push_back(&e);
  }
  return out;
}

class ProfilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PLUGRT_ASSERT_OK_AND_ASSIGN(plugin_, CpuPlugin());
    PLUGRT_ASSERT_OK_AND_ASSIGN(client_, CreateCpuClient());
    PLUGRT_ASSERT_OK_AND_ASSIGN(devices_, client_->addressable_devices());
    x_ = Upload(*client_, devices_[0], PJRT_Buffer_Type_F32, {128, 256},
                std::vector<float>(128 * 256, 0.01f));
    w_ = Upload(*client_, devices_[0], PJRT_Buffer_Type_F32, {256, 128},
                std::vector<float>(256 * 128, 0.02f));
  }

  // Compiles and runs kProgram `runs` times.
  void CompileAndRun(int runs) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client_->Compile(kProgram));
    for (int i = 0; i < runs; ++i) {
      PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&x_, &w_}}));
      PLUGRT_ASSERT_OK(outputs[0][0].ToHostVector().status());
    }
  }

  std::shared_ptr<Plugin> plugin_;
  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
  Buffer x_, w_;
};

TEST_F(ProfilerTest, KernelsCarryTheirOpsShapesBytesAndLocation) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto session, ProfilerSession::Start(plugin_.get()));
  ASSERT_TRUE(session->plugin_profiled());
  CompileAndRun(2);
  PLUGRT_ASSERT_OK(session->Stop());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> traces, session->Collect());
  ASSERT_EQ(traces.size(), 2u);
  const Trace& plugin = traces[0];
  const Trace& client = traces[1];
  EXPECT_EQ(plugin.process_name, "plugrt CPU plugin");

  const auto dots = Events(plugin, profiler::category::kKernel, "stablehlo.dot_general");
  ASSERT_EQ(dots.size(), 2u);
  for (const TraceEvent* dot : dots) {
    EXPECT_EQ(dot->Text("shapes"), "f32[128,256], f32[256,128] -> f32[128,128]");
    EXPECT_EQ(dot->Number("bytes_read"), (128 * 256 + 256 * 128) * 4);
    EXPECT_EQ(dot->Number("bytes_written"), 128 * 128 * 4);
    EXPECT_EQ(dot->Number("flops"), 2.0 * 128 * 256 * 128);
    EXPECT_EQ(dot->Text("location"), "model.py:10:3");
    EXPECT_NE(dot->Text("implementation").find("oneDNN matmul"), std::string::npos)
        << dot->Text("implementation");
    EXPECT_GE(dot->end_ns, dot->start_ns);
  }
  const auto fused = Events(plugin, profiler::category::kKernel, "fusion");
  ASSERT_EQ(fused.size(), 2u);
  EXPECT_EQ(fused[0]->Text("ops"), "stablehlo.exponential,stablehlo.add");
  EXPECT_EQ(fused[0]->Text("location"), "model.py:12:3");
  EXPECT_EQ(fused[0]->Number("bytes_read"), 128 * 128 * 4);
  EXPECT_EQ(fused[0]->Number("bytes_written"), 128 * 128 * 4);

  // Each execution: one execute event on the thread that ran its kernels,
  // tied by flow id to the client's call, with the plan's peak: both
  // arguments and the dot's result (the arguments die after the dot).
  const auto executes = Events(plugin, profiler::category::kExecute);
  ASSERT_EQ(executes.size(), 2u);
  const auto calls = Events(client, profiler::category::kClient, "execute");
  ASSERT_EQ(calls.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const TraceEvent& execute = *executes[i];
    EXPECT_EQ(execute.name, "profiled");
    EXPECT_EQ(execute.flow_id, calls[i]->flow_id);
    EXPECT_EQ(execute.Number("peak_live_bytes"), (128 * 256 * 2 + 128 * 128) * 4);
    EXPECT_EQ(dots[i]->flow_id, execute.flow_id);
    EXPECT_EQ(dots[i]->thread_id, execute.thread_id);
    EXPECT_LE(execute.start_ns, dots[i]->start_ns);
    EXPECT_GE(execute.end_ns, fused[i]->end_ns);
  }
  // The compile and its phases.
  for (const char* phase : {"compile", "read", "verify", "plan"}) {
    EXPECT_EQ(Events(plugin, profiler::category::kCompile, phase).size(), 1u) << phase;
  }
  // Host transfers: the two downloads.
  EXPECT_EQ(Events(plugin, profiler::category::kTransfer, "device to host").size(), 2u);

  const profiler::Summary summary = profiler::Summarize(traces);
  EXPECT_EQ(summary.executions, 2);
  ASSERT_FALSE(summary.by_kind.empty());
  std::vector<std::string> kinds;
  for (const auto& row : summary.by_kind) kinds.push_back(row.key);
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "stablehlo.dot_general"), kinds.end());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "fusion"), kinds.end());
  EXPECT_EQ(summary.peak_live_bytes, (128 * 256 * 2 + 128 * 128) * 4);
}

// A loop: its body's steps are kernels nested in the while's slice, and the
// summary counts each kernel for its own time only.
TEST_F(ProfilerTest, LoopBodiesAreKernelsCountedOnce) {
  constexpr const char* kLoop = R"(
func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<256x256xf32>
  cond {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %v : tensor<256x256xf32> loc("loop.py":7:5)
    stablehlo.return %n, %t : tensor<i32>, tensor<256x256xf32>
  }
  return %r#1 : tensor<256x256xf32>
}
)";
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loop, client_->Compile(kLoop));
  Buffer x = Upload(*client_, devices_[0], PJRT_Buffer_Type_F32, {256, 256},
                    std::vector<float>(256 * 256, 0.5f));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto session, ProfilerSession::Start(plugin_.get()));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, loop.Execute({{&x}}));
  PLUGRT_ASSERT_OK(outputs[0][0].ToHostVector().status());
  PLUGRT_ASSERT_OK(session->Stop());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> traces, session->Collect());
  const auto whiles = Events(traces[0], profiler::category::kKernel, "stablehlo.while");
  ASSERT_EQ(whiles.size(), 1u);
  // The body's tanh (a one-op fused loop, or the plain op without fusion).
  std::vector<const TraceEvent*> tanhs;
  for (const TraceEvent* k : Events(traces[0], profiler::category::kKernel)) {
    if (k->Text("ops") == "stablehlo.tanh") tanhs.push_back(k);
  }
  ASSERT_EQ(tanhs.size(), 3u);  // once per trip
  const std::string tanh_kind = tanhs[0]->name;
  for (const TraceEvent* t : tanhs) {
    EXPECT_EQ(t->flow_id, whiles[0]->flow_id);
    EXPECT_EQ(t->thread_id, whiles[0]->thread_id);
    EXPECT_GE(t->start_ns, whiles[0]->start_ns);
    EXPECT_LE(t->end_ns, whiles[0]->end_ns);
    EXPECT_EQ(t->Text("location"), "loop.py:7:5");
  }
  const profiler::Summary summary = profiler::Summarize(traces);
  double shares = 0;
  int64_t tanh_ns = 0, while_ns = 0;
  for (const auto& row : summary.by_kind) {
    shares += row.share;
    if (row.key == tanh_kind) tanh_ns = row.total_ns;
    if (row.key == "stablehlo.while") while_ns = row.total_ns;
  }
  EXPECT_NEAR(shares, 1.0, 1e-9);  // nothing counted twice
  int64_t tanh_total = 0;
  for (const TraceEvent* t : tanhs) tanh_total += t->end_ns - t->start_ns;
  EXPECT_EQ(tanh_ns, tanh_total);
  EXPECT_LE(while_ns, (whiles[0]->end_ns - whiles[0]->start_ns) - tanh_total);
}

TEST_F(ProfilerTest, TracingOffRecordsNothing) {
  CompileAndRun(1);  // no session: nothing kept
  EXPECT_FALSE(profiler::Enabled());
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto session, ProfilerSession::Start(plugin_.get()));
  PLUGRT_ASSERT_OK(session->Stop());
  CompileAndRun(1);  // after the session: not in it
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> traces, session->Collect());
  for (const Trace& trace : traces) EXPECT_TRUE(trace.events.empty()) << trace.process_name;
  EXPECT_FALSE(profiler::Enabled());
}

TEST_F(ProfilerTest, OverlappingSessionsEachKeepTheirWindow) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outer, ProfilerSession::Start(plugin_.get()));
  CompileAndRun(1);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto inner, ProfilerSession::Start(plugin_.get()));
  CompileAndRun(1);
  PLUGRT_ASSERT_OK(inner->Stop());
  PLUGRT_ASSERT_OK(outer->Stop());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> outer_traces, outer->Collect());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> inner_traces, inner->Collect());
  EXPECT_EQ(Events(outer_traces[0], profiler::category::kExecute).size(), 2u);
  EXPECT_EQ(Events(inner_traces[0], profiler::category::kExecute).size(), 1u);
}

// The extension through the C API alone, as a framework's profiler reaches it.
TEST_F(ProfilerTest, ExtensionIsInTheChainAndItsCallsCheckTheirArguments) {
  const auto* extension = reinterpret_cast<const PJRT_Profiler_Extension*>(
      FindExtension(plugin_->api()->extension_start, PJRT_Extension_Type_Profiler,
                    PJRT_Profiler_Extension_STRUCT_SIZE));
  ASSERT_NE(extension, nullptr);
  const PLUGIN_Profiler_Api* api = extension->profiler_api;
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->struct_size, PLUGIN_Profiler_Api_STRUCT_SIZE);

  auto code_of = [&](PLUGIN_Profiler_Error* error) {
    if (error == nullptr) return 0;
    PLUGIN_Profiler_Error_GetCode_Args code{};
    code.struct_size = PLUGIN_Profiler_Error_GetCode_Args_STRUCT_SIZE;
    code.error = error;
    EXPECT_EQ(api->error_get_code(&code), nullptr);
    PLUGIN_Profiler_Error_Destroy_Args destroy{};
    destroy.struct_size = PLUGIN_Profiler_Error_Destroy_Args_STRUCT_SIZE;
    destroy.error = error;
    api->error_destroy(&destroy);
    return code.code;
  };
  constexpr int kInvalidArgument = 3, kFailedPrecondition = 9;
  EXPECT_EQ(code_of(api->create(nullptr)), kInvalidArgument);
  PLUGIN_Profiler_Create_Args small{};
  small.struct_size = 4;
  EXPECT_EQ(code_of(api->create(&small)), kInvalidArgument);

  PLUGIN_Profiler_Create_Args create{};
  create.struct_size = PLUGIN_Profiler_Create_Args_STRUCT_SIZE;
  ASSERT_EQ(code_of(api->create(&create)), 0);
  ASSERT_NE(create.profiler, nullptr);
  PLUGIN_Profiler_CollectData_Args collect{};
  collect.struct_size = PLUGIN_Profiler_CollectData_Args_STRUCT_SIZE;
  collect.profiler = create.profiler;
  EXPECT_EQ(code_of(api->collect_data(&collect)), kFailedPrecondition);  // never started
  PLUGIN_Profiler_Stop_Args stop{};
  stop.struct_size = PLUGIN_Profiler_Stop_Args_STRUCT_SIZE;
  stop.profiler = create.profiler;
  EXPECT_EQ(code_of(api->stop(&stop)), kFailedPrecondition);  // not started
  PLUGIN_Profiler_Start_Args start{};
  start.struct_size = PLUGIN_Profiler_Start_Args_STRUCT_SIZE;
  start.profiler = create.profiler;
  ASSERT_EQ(code_of(api->start(&start)), 0);
  EXPECT_EQ(code_of(api->start(&start)), kFailedPrecondition);  // twice
  CompileAndRun(1);
  ASSERT_EQ(code_of(api->stop(&stop)), 0);
  ASSERT_EQ(code_of(api->collect_data(&collect)), 0);
  ASSERT_NE(collect.buffer, nullptr);
  ASSERT_GT(collect.buffer_size_in_bytes, 0u);
  std::vector<uint8_t> mine(collect.buffer_size_in_bytes);
  collect.buffer = mine.data();
  ASSERT_EQ(code_of(api->collect_data(&collect)), 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      Trace trace, profiler::ParseXSpace(std::string_view(reinterpret_cast<const char*>(mine.data()),
                                                          mine.size())));
  EXPECT_EQ(Events(trace, profiler::category::kKernel, "stablehlo.dot_general").size(), 1u);
  // One line per thread that recorded, each named.
  EXPECT_FALSE(trace.threads.empty());
  PLUGIN_Profiler_Destroy_Args destroy{};
  destroy.struct_size = PLUGIN_Profiler_Destroy_Args_STRUCT_SIZE;
  destroy.profiler = create.profiler;
  EXPECT_EQ(code_of(api->destroy(&destroy)), 0);
}

TEST(ProfilerSummaryTest, RanksOpsByTimeWithRatesAndCeilings) {
  Trace trace;
  auto kernel = [&](std::string name, int64_t start, int64_t ns, double flops, int64_t bytes,
                    std::string location) {
    TraceEvent e;
    e.name = std::move(name);
    e.category = std::string(profiler::category::kKernel);
    e.start_ns = start;
    e.end_ns = start + ns;
    e.stats.push_back({"flops", flops});
    e.stats.push_back({"bytes_read", bytes});
    e.stats.push_back({"bytes_written", int64_t{0}});
    e.stats.push_back({"location", std::move(location)});
    trace.events.push_back(std::move(e));
  };
  kernel("stablehlo.dot_general", 0, 3'000'000, 3e9, 1 << 20, "a.py:1:1");  // 1000 GFLOP/s
  kernel("stablehlo.transpose", 3'000'000, 1'000'000, 0, 10'000'000, "a.py:2:1");  // 10 GB/s
  kernel("stablehlo.transpose", 4'000'000, 1'000'000, 0, 10'000'000, "a.py:2:1");
  const profiler::Summary summary = profiler::Summarize({trace});
  ASSERT_EQ(summary.by_kind.size(), 2u);
  EXPECT_EQ(summary.by_kind[0].key, "stablehlo.dot_general");
  EXPECT_DOUBLE_EQ(summary.by_kind[0].share, 0.6);
  EXPECT_EQ(summary.by_kind[1].count, 2);
  EXPECT_EQ(summary.by_location[1].key, "a.py:2:1");
  profiler::SummaryOptions options;
  options.ceilings = {2000, 20};
  const std::string text = profiler::FormatSummary(summary, options);
  EXPECT_NE(text.find("1000.00"), std::string::npos) << text;  // GFLOP/s of the dot
  EXPECT_NE(text.find("0.50 flop"), std::string::npos) << text;
  EXPECT_NE(text.find("0.50 mem"), std::string::npos) << text;  // 10 of 20 GB/s
}

TEST(ProfilerChromeTraceTest, OneTrackPerThreadAndFlowsFromExecuteToKernels) {
  Trace trace;
  trace.process_name = "p \"quoted\"";
  trace.threads = {{11, "device 0"}, {12, ""}};
  TraceEvent execute{"run", "execute", 1000, 5000, 11, 7, {}};
  TraceEvent kernel{"stablehlo.add", "kernel", 2000, 3000, 11, 7, {{"shapes", std::string("f32[2]")}}};
  TraceEvent other{"copy", "transfer", 6000, 7000, 12, 0, {}};
  trace.events = {execute, kernel, other};
  const std::string json = profiler::ChromeTraceJson({trace});
  EXPECT_NE(json.find("\"traceEvents\":["), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"p \\\"quoted\\\"\"}"),
            std::string::npos) << json;
  EXPECT_NE(json.find("\"args\":{\"name\":\"device 0\"}"), std::string::npos);
  EXPECT_NE(json.find("\"args\":{\"name\":\"thread 12\"}"), std::string::npos);
  EXPECT_NE(json.find("\"ph\":\"X\",\"pid\":1,\"tid\":11,\"ts\":1.000,\"dur\":1.000,"
                      "\"name\":\"stablehlo.add\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"ph\":\"s\""), std::string::npos);
  EXPECT_NE(json.find("\"ph\":\"f\",\"bp\":\"e\""), std::string::npos);
}

TEST(ProfilerOptionTest, ProfileCreateOptionWritesTheTraceWhenTheClientEnds) {
  const plugrt::testing::TempDir temp_dir("profiler-option");
  const std::filesystem::path dir = temp_dir.path();
  const std::string path = (dir / "client.json").string();
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  {
    ClientOptions options;
    options.create_options.push_back({"profile", path});
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin, options));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
    Buffer x = Upload(*client, devices[0], PJRT_Buffer_Type_F32, {128, 256},
                      std::vector<float>(128 * 256, 1.0f));
    Buffer w = Upload(*client, devices[0], PJRT_Buffer_Type_F32, {256, 128},
                      std::vector<float>(256 * 128, 1.0f));
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kProgram));
    PLUGRT_ASSERT_OK(executable.Execute({{&x, &w}}).status());
    EXPECT_FALSE(std::filesystem::exists(path));  // written when the client ends
  }
  const std::string json = ReadText(path);
  EXPECT_NE(json.find("\"name\":\"stablehlo.dot_general\""), std::string::npos);
  const std::string summary = ReadText(dir / "client.summary.txt");
  EXPECT_NE(summary.find("1 executions"), std::string::npos) << summary;
  EXPECT_NE(summary.find("stablehlo.dot_general"), std::string::npos) << summary;
}

TEST(ProfilerCliTest, RunWithProfileWritesTraceAndSummary) {
  const plugrt::testing::TempDir temp_dir("profiler-cli");
  const std::filesystem::path dir = temp_dir.path();
  const auto program = dir / "prog.mlir";
  std::ofstream(program) << kCliProgram;
  const auto trace = dir / "run.json";
  const testing::CommandResult result =
      testing::RunCli("run " + program.string() + " --repeat 3 --no-ceilings --profile " +
                      trace.string() + " -o " + (dir / "out").string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("3 executions"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("By source location:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("model.py:10:3"), std::string::npos) << result.output;
  EXPECT_NE(ReadText(trace).find("\"cat\":\"kernel\""), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir / "run.summary.txt"));
}

}  // namespace
}  // namespace plugrt

namespace plugrt {
namespace {

// A plugin without PJRT's profiler extension: the session records the
// client's side alone and says so.
TEST(ProfilerSessionTest, PluginWithoutTheExtensionGivesTheClientsTraceAlone) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> example, Plugin::Load(PLUGRT_EXAMPLE_PLUGIN_PATH));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto session, ProfilerSession::Start(example.get()));
  EXPECT_FALSE(session->plugin_profiled());
  PLUGRT_ASSERT_OK(session->Stop());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Trace> traces, session->Collect());
  ASSERT_EQ(traces.size(), 1u);
  EXPECT_EQ(traces[0].process_name, "plugrt client");
}

}  // namespace
}  // namespace plugrt
