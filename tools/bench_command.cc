// `plugrt bench [NAMES...]`: compiles and times the StableHLO workloads of
// bench/ through the client library, as any user of a plugin would, next to
// ceilings measured in the same process (oneDNN's own matmul, memory
// bandwidth). Prints a table and, with --json, the results as JSON.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/element_type.h"
#include "client/executable.h"
#include "common/named_value.h"
#include "filesystem/file_io.h"
#include "client/profiler_session.h"
#include "profiler/profile_files.h"
#include "tools/profile_output.h"
#include "tools/bench_cache.h"
#include "tools/bench_ceilings.h"
#include "tools/bench_eager.h"
#include "tools/bench_forms.h"
#include "tools/bench_program.h"
#include "tools/bench_timing.h"
#include "client/plugin_discovery.h"
#include "tools/commands.h"
#include "tools/job_env.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

struct BenchOptions {
  PluginOptions plugin;
  std::vector<std::string> names;
  std::string dir;
  std::optional<int> repeats;
  int warmup = 2;
  std::string json_path;
  bool no_ceilings = false;
  bool progress = false;  // --progress: each stage and run of a workload on stderr
  std::optional<int> threads;
  bool list = false;
  std::string profile_dir;  // --profile DIR: one trace and summary per workload
  std::string fill_elided;  // --fill-elided: for programs printed without weights
};

// A selected bench/<name>.mlir.
struct Workload {
  std::string name;
  std::string path;
  std::string text;
  BenchHeader header;
  // "<name>@bytecode" of a compare=bytecode program: its compile from text
  // and from a portable artifact, timed alternately (two result rows).
  bool bytecode_forms = false;
  // "<name>@cache" of a compare=cache program: its compile cold and warm
  // from the persistent compilation cache (two result rows).
  bool cache_forms = false;
};

struct WorkloadResult {
  const Workload* workload = nullptr;
  std::string label;             // set: the row's name instead of the workload's
  std::optional<double> bytecode_vs_text;  // bytecode rows: median over text's
  std::optional<double> warm_vs_cold;      // warm-cache rows: median over cold's
  size_t program_bytes = 0;      // compile-form rows: size of the compiled input
  std::string error;             // set: the workload failed; nothing else is
  TimeSummary time;              // ms per execute (dispatch: per execute too), or per compile
  double compile_ms = 0;
  double loop_median_ms = 0;     // dispatch: the whole loop
  std::optional<double> flops;   // cost analysis "flops" when > 0
  std::optional<double> bytes;   // arguments + outputs, per execute
  double output_bytes = 0;       // of which outputs
  std::optional<double> gflops;
  std::optional<double> gbps;
  std::optional<BenchMetric> metric;  // the headline
  const CeilingResult* ceiling = nullptr;
  std::optional<double> ratio;
  // ceiling=model: the physical limit in ms (`ceiling` is the ceiling that
  // sets it, the GEMM or the bandwidth one); ratio = limit / median.
  std::optional<double> limit_ms;
  std::optional<EagerResult> eager;  // kind=eager: `time` is eager's, per run of the body
};

// bench/ of the source tree: beside the build folder the executable is in
// (build/bin/plugrt -> bench/), else the source folder it was built from.
std::string DefaultBenchDir() {
  std::error_code error;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    std::filesystem::path beside = exe.parent_path().parent_path().parent_path() / "bench";
    if (std::filesystem::is_directory(beside, error)) return beside.string();
  }
  return (std::filesystem::path(PLUGRT_SOURCE_DIR) / "bench").string();
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string model = line.substr(colon + 1);
    model.erase(0, model.find_first_not_of(" \t"));
    return model;
  }
  return "unknown";
}

// The program files of `dir` (.mlir: StableHLO; .hlo: XLA's HLO text) by
// name (their stems), sorted.
StatusOr<std::map<std::string, std::string>> ListWorkloads(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    return NotFound(dir, ": no such folder of bench programs (give one with --dir)");
  }
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string ext = entry.path().extension().string();
    if ((ext != ".mlir" && ext != ".hlo") || !entry.is_regular_file()) continue;
    files[entry.path().stem().string()] = entry.path().string();
  }
  if (error) return InvalidArgument(dir, ": cannot list the folder (", error.message(), ")");
  if (files.empty()) return NotFound(dir, ": no .mlir or .hlo bench programs in the folder");
  return files;
}

std::string JoinNames(const std::map<std::string, std::string>& files) {
  std::string names;
  for (const auto& [name, path] : files) names += (names.empty() ? "" : ", ") + name;
  return names;
}

StatusOr<std::vector<Workload>> SelectWorkloads(const BenchOptions& options,
                                                const std::string& dir) {
  PLUGRT_ASSIGN_OR_RETURN(auto files, ListWorkloads(dir));
  std::vector<std::string> names = options.names;
  if (names.empty()) {
    for (const auto& [name, path] : files) names.push_back(name);
  }
  std::vector<std::string> unknown;
  std::set<std::string> seen;
  std::vector<Workload> workloads;
  constexpr std::string_view kBytecodeSuffix = "@bytecode";
  constexpr std::string_view kCacheSuffix = "@cache";
  for (const std::string& name : names) {
    // "<name>@cache": only the cold-vs-warm compilation cache comparison.
    if (name.ends_with(kCacheSuffix)) {
      const std::string stem = name.substr(0, name.size() - kCacheSuffix.size());
      auto it = files.find(stem);
      if (it == files.end()) {
        unknown.push_back(name);
        continue;
      }
      if (!seen.insert(name).second) continue;
      Workload cache{name, it->second, "", {}};
      PLUGRT_ASSIGN_OR_RETURN(cache.text, ReadProgramFile(cache.path));
      PLUGRT_ASSIGN_OR_RETURN(cache.header, ParseBenchHeader(cache.text, cache.path));
      if (!cache.header.compare_cache) {
        return InvalidArgument(cache.path, ": its header has no compare=cache, so there is no ",
                               name, " workload");
      }
      cache.header.kind = BenchKind::kCompile;
      cache.header.metric.reset();
      cache.header.ceiling.reset();
      cache.cache_forms = true;
      workloads.push_back(std::move(cache));
      continue;
    }
    // "<name>@bytecode": only the bytecode-vs-text compile comparison.
    const bool forms_only = name.ends_with(kBytecodeSuffix);
    const std::string stem = forms_only ? name.substr(0, name.size() - kBytecodeSuffix.size()) : name;
    auto it = files.find(stem);
    if (it == files.end()) {
      unknown.push_back(name);
      continue;
    }
    if (!seen.insert(name).second) continue;
    Workload workload{stem, it->second, "", {}};
    PLUGRT_ASSIGN_OR_RETURN(workload.text, ReadProgramFile(workload.path));
    PLUGRT_ASSIGN_OR_RETURN(workload.header, ParseBenchHeader(workload.text, workload.path));
    if (forms_only && !workload.header.compare_bytecode) {
      return InvalidArgument(workload.path, ": its header has no compare=bytecode, so there is no ",
                             name, " workload");
    }
    const bool with_forms = workload.header.compare_bytecode &&
                            (forms_only || seen.insert(stem + std::string(kBytecodeSuffix)).second);
    Workload forms = workload;
    // A whole-program run also gets its compilation cache rows.
    const bool with_cache =
        !forms_only && workload.header.compare_cache &&
        seen.insert(stem + std::string(kCacheSuffix)).second;
    Workload cache = workload;
    if (!forms_only) workloads.push_back(std::move(workload));
    if (with_forms) {
      forms.name = stem + std::string(kBytecodeSuffix);
      forms.header.kind = BenchKind::kCompile;
      forms.header.metric.reset();
      forms.header.ceiling.reset();
      forms.bytecode_forms = true;
      workloads.push_back(std::move(forms));
    }
    if (with_cache) {
      cache.name = stem + std::string(kCacheSuffix);
      cache.header.kind = BenchKind::kCompile;
      cache.header.metric.reset();
      cache.header.ceiling.reset();
      cache.cache_forms = true;
      workloads.push_back(std::move(cache));
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& name : unknown) list += (list.empty() ? "'" : ", '") + name + "'";
    return NotFound("unknown workload", unknown.size() > 1 ? "s " : " ", list, " in ", dir,
                    "; available: ", JoinNames(files));
  }
  return workloads;
}

// Which ceilings the workloads need: their ceiling= kinds, sgemm for
// gemm_*, bf16gemm for gemm_bf16_*, bandwidth for metric=bytes; all when
// every workload runs.
CeilingSelection CeilingsFor(const std::vector<Workload>& workloads, bool all) {
  CeilingSelection selection;
  if (all) return CeilingSelection{true, true, true, true, true};
  for (const Workload& workload : workloads) {
    const BenchHeader& header = workload.header;
    if (header.ceiling == CeilingKind::kSgemm) selection.sgemm = true;
    if (header.ceiling == CeilingKind::kBf16Gemm) selection.bf16gemm = true;
    if (header.ceiling == CeilingKind::kInt8Gemm) selection.int8gemm = true;
    if (header.ceiling == CeilingKind::kBandwidth) selection.bandwidth = true;
    if (header.ceiling == CeilingKind::kLapack) selection.lapack = true;
    if (header.ceiling == CeilingKind::kModel) selection.sgemm = selection.bandwidth = true;
    if (header.metric == BenchMetric::kBytes) selection.bandwidth = true;
    if (workload.name.rfind("gemm_bf16_", 0) == 0) {
      selection.bf16gemm = true;
    } else if (workload.name.rfind("gemm_", 0) == 0) {
      selection.sgemm = true;
    }
  }
  return selection;
}

// The create options every bench client gets.
ClientOptions BenchClientOptions(const BenchOptions& options) {
  ClientOptions client_options;
  if (options.plugin.devices) {
    client_options.create_options.push_back(
        NamedValue{"cpu_device_count", static_cast<int64_t>(*options.plugin.devices)});
  }
  if (options.threads) {
    client_options.create_options.push_back(
        NamedValue{"threads", static_cast<int64_t>(*options.threads)});
  }
  AddKernelPluginsOption(options.plugin.kernels, client_options.create_options);
  return client_options;
}

StatusOr<std::shared_ptr<Plugin>> LoadBenchPlugin(const BenchOptions& options) {
  std::string path =
      options.plugin.plugin_path.empty() ? DefaultPluginPath() : options.plugin.plugin_path;
  return LoadPlugin(path);
}

StatusOr<std::unique_ptr<Client>> OpenBenchClient(const BenchOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, LoadBenchPlugin(options));
  ClientOptions client_options = BenchClientOptions(options);
  // Under `plugrt launch`, a process of the job (multi-process workloads,
  // scripts/bench_allreduce.sh): every process must run the same workloads
  // the same number of times (give --repeats).
  PLUGRT_RETURN_IF_ERROR(AddJobOptions(client_options));
  return Client::Create(std::move(plugin), client_options);
}

StatusOr<LoadedExecutable> CompileWorkload(const Client& client, const Workload& workload,
                                           const std::string& fill_elided) {
  ProgramReadFlags read;
  read.fill_elided = fill_elided;
  return CompileProgram(client, workload.text, workload.path, read);
}

// `value` printed with one printf conversion.
std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// The trailing _<digits> of a name (gemm_2048 -> 2048), or 0.
int64_t TrailingSize(const std::string& name) {
  size_t underscore = name.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == name.size()) return 0;
  int64_t size = 0;
  for (size_t i = underscore + 1; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return 0;
    size = size * 10 + (name[i] - '0');
  }
  return size;
}

// Whether a workload only reads, as far as memory goes (its outputs are at
// most a tenth of its bytes: a row sum, a column max): the read ceiling is
// its limit. Work that writes as much as it reads (softmax, an elementwise
// chain) is compared with copy and triad.
bool MostlyReads(const WorkloadResult& result) {
  return result.bytes && result.output_bytes <= 0.1 * *result.bytes;
}

// The workload's headline rate over its ceiling: the one of the same size
// (gemm_2048 -> onednn_sgemm_2048) if measured, else the best of the kind.
void CompareToCeiling(WorkloadResult& result, const std::vector<CeilingResult>& ceilings) {
  const BenchHeader& header = result.workload->header;
  if (header.ceiling == CeilingKind::kModel) {
    // The larger of the FLOPs at the best sgemm rate and the bytes that must
    // move at the best bandwidth (read, copy or triad).
    const CeilingResult* gemm = nullptr;
    const CeilingResult* bandwidth = nullptr;
    for (const CeilingResult& c : ceilings) {
      if (c.kind == CeilingKind::kSgemm && c.gflops && (gemm == nullptr || *c.gflops > *gemm->gflops)) {
        gemm = &c;
      }
      if (c.kind == CeilingKind::kBandwidth && c.gbps &&
          (bandwidth == nullptr || *c.gbps > *bandwidth->gbps)) {
        bandwidth = &c;
      }
    }
    const std::optional<double> bytes = header.bytes ? header.bytes : result.bytes;
    const double compute_ms = gemm != nullptr && result.flops ? *result.flops / *gemm->gflops * 1e-6 : 0;
    const double memory_ms = bandwidth != nullptr && bytes ? *bytes / *bandwidth->gbps * 1e-6 : 0;
    if (std::max(compute_ms, memory_ms) <= 0 || result.time.median <= 0) return;
    result.limit_ms = std::max(compute_ms, memory_ms);
    result.ceiling = compute_ms >= memory_ms ? gemm : bandwidth;
    result.ratio = *result.limit_ms / result.time.median;
    return;
  }
  if (header.ceiling == CeilingKind::kLapack) {
    // By time: linalg_lu_512 against lapack_lu_512, LAPACK's time over ours.
    const std::string name = result.workload->name;
    const std::string want = "lapack_" + (name.rfind("linalg_", 0) == 0 ? name.substr(7) : name);
    for (const CeilingResult& ceiling : ceilings) {
      if (ceiling.kind == CeilingKind::kLapack && ceiling.name == want && result.time.median > 0) {
        result.ceiling = &ceiling;
        result.ratio = ceiling.time.median / result.time.median;
      }
    }
    return;
  }
  if (!result.metric || !header.ceiling) return;
  const bool gemm = *header.ceiling != CeilingKind::kBandwidth;
  // Rates compare only in the same unit.
  if (gemm != (*result.metric == BenchMetric::kFlops)) return;
  auto rate = [gemm](const CeilingResult& c) { return gemm ? c.gflops : c.gbps; };
  const CeilingResult* best = nullptr;
  const CeilingResult* same_size = nullptr;
  const int64_t size = TrailingSize(result.workload->name);
  for (const CeilingResult& ceiling : ceilings) {
    if (ceiling.kind != *header.ceiling || !rate(ceiling)) continue;
    if (!gemm && ceiling.name == kReadCeilingName && !MostlyReads(result)) continue;
    if (best == nullptr || *rate(ceiling) > *rate(*best)) best = &ceiling;
    if (size != 0 && ceiling.size == size) same_size = &ceiling;
  }
  const CeilingResult* chosen = same_size != nullptr ? same_size : best;
  std::optional<double> headline = gemm ? result.gflops : result.gbps;
  if (chosen == nullptr || !headline) return;
  result.ceiling = chosen;
  result.ratio = *headline / *rate(*chosen);
}

// One timed execute: launch, then wait for every output; the outputs are
// freed and the devices' completion awaited after the clock stops.
// One execute, until its outputs are ready; the time it took when `timed`
// (dispatch loops time the whole loop instead: a clock read costs about as
// much as a tenth of a small execute).
// With `kept`, the outputs are moved there (after the clock stops) instead
// of freed.
StatusOr<double> TimedExecute(const LoadedExecutable& executable,
                              const std::vector<std::vector<Buffer*>>& arguments,
                              const ExecuteOptions& execute_options, bool timed = true,
                              decltype(ExecuteResult::outputs)* kept = nullptr) {
  const long long start = timed ? NowNanoseconds() : 0;
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, executable.ExecuteAsync(arguments, execute_options));
  for (OutputList& outputs : result.outputs) {
    for (Buffer& output : outputs) {
      PLUGRT_ASSIGN_OR_RETURN(Future ready, output.ReadyFuture());
      PLUGRT_RETURN_IF_ERROR(ready.Await());
    }
  }
  const double ms = timed ? MillisecondsSince(start) : 0;
  for (Future& done : result.device_complete) PLUGRT_RETURN_IF_ERROR(done.Await());
  if (kept != nullptr) *kept = std::move(result.outputs);
  return ms;
}

Status MeasureWorkload(const Client& client, const Workload& workload, const BenchOptions& options,
                       WorkloadResult& result) {
  const BenchHeader& header = workload.header;
  RepeatPolicy policy;
  policy.repeats = options.repeats;
  policy.warmup = options.warmup;
  if (options.progress) {
    policy.progress = [&workload](bool warmup, int run, double ms) {
      std::cerr << "  " << workload.name << ": " << (warmup ? "warm-up run " : "timed run ") << run
                << ": " << Format("%.3f", ms) << " ms\n";
    };
  }

  if (header.kind == BenchKind::kCompile) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<double> times,
                            TimeRepeated(policy, [&]() -> StatusOr<double> {
                              const long long start = NowNanoseconds();
                              PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable,
                                                      CompileWorkload(client, workload, options.fill_elided));
                              return MillisecondsSince(start);
                            }));
    result.time = Summarize(std::move(times));
    result.compile_ms = result.time.median;
    return OkStatus();
  }

  if (options.progress) std::cerr << "  " << workload.name << ": compiling\n";
  const long long compile_start = NowNanoseconds();
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable,
                          CompileWorkload(client, workload, options.fill_elided));
  result.compile_ms = MillisecondsSince(compile_start);
  if (options.progress) {
    std::cerr << "  " << workload.name << ": compiled in " << Format("%.1f", result.compile_ms)
              << " ms; uploading its arguments (weights and inputs)\n";
  }

  PLUGRT_ASSIGN_OR_RETURN(std::vector<ArgumentSpec> specs,
                          ReadMainArguments(workload.text, workload.path, options.fill_elided));
  PLUGRT_ASSIGN_OR_RETURN(Executable metadata, executable.GetExecutable());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<PJRT_Buffer_Type> output_types,
                          metadata.output_element_types());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> output_dims,
                          metadata.output_dimensions());
  if (output_types.size() != output_dims.size()) {
    return Internal(workload.path, ": the plugin reports ", output_types.size(),
                    " output types but ", output_dims.size(), " output shapes");
  }
  double bytes = 0;
  for (const ArgumentSpec& spec : specs) bytes += static_cast<double>(HostByteSize(spec.type, spec.dims));
  for (size_t i = 0; i < output_types.size(); ++i) {
    result.output_bytes += static_cast<double>(HostByteSize(output_types[i], output_dims[i]));
  }
  bytes += result.output_bytes;
  result.bytes = bytes;
  if (StatusOr<std::vector<NamedValue>> cost = metadata.cost_analysis(); cost.ok()) {
    if (const NamedValue* flops = FindNamedValue(*cost, "flops")) {
      double value = 0;
      if (const float* f = std::get_if<float>(&flops->value)) value = *f;
      if (const int64_t* i = std::get_if<int64_t>(&flops->value)) value = static_cast<double>(*i);
      if (value > 0) result.flops = value;
    }
  }

  // Inputs: read from the program's NAME.args/ folder or generated, and uploaded once, to
  // every device the program runs on.
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, executable.addressable_devices());
  if (devices.empty()) return FailedPrecondition(workload.path, ": the program has no devices");
  std::vector<std::vector<Buffer>> uploaded(devices.size());
  std::vector<std::vector<Buffer*>> arguments(devices.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    StatusOr<std::vector<std::byte>> data = ArgumentData(workload.path, i, specs[i]);
    if (!data.ok()) {
      return Status(data.status().code(),
                    StrCat(workload.path, ": argument ", i, ": ", data.status().message()));
    }
    for (size_t d = 0; d < devices.size(); ++d) {
      Client::HostBuffer host(data->data(), specs[i].type, specs[i].dims);
      PLUGRT_ASSIGN_OR_RETURN(auto buffer, client.BufferFromHostBuffer(host, devices[d]));
      PLUGRT_RETURN_IF_ERROR(buffer.second.Await());
      uploaded[d].push_back(std::move(buffer.first));
    }
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    for (Buffer& buffer : uploaded[d]) arguments[d].push_back(&buffer);
  }
  // The same inputs serve every run: none may be donated to an output, but
  // for state the program hands back (tf.aliasing_output): that argument is
  // donated and the output it becomes is the next run's argument, as a
  // serving loop carries its KV cache from one decode step to the next.
  ExecuteOptions execute_options;
  std::vector<std::pair<size_t, size_t>> carried;  // (argument, output)
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].aliased_output) {
      carried.emplace_back(i, static_cast<size_t>(*specs[i].aliased_output));
    } else {
      execute_options.non_donatable_input_indices.push_back(static_cast<int64_t>(i));
    }
  }
  const bool time_each = header.kind != BenchKind::kDispatch;
  auto execute_once = [&]() -> StatusOr<double> {
    decltype(ExecuteResult::outputs) outputs;
    StatusOr<double> ms = TimedExecute(executable, arguments, execute_options, time_each,
                                       carried.empty() ? nullptr : &outputs);
    if (!ms.ok()) {
      return Status(ms.status().code(),
                    StrCat(workload.path, ": execution failed: ",
                           NameProgramFile(ms.status().message(), workload.path)));
    }
    for (size_t d = 0; d < outputs.size() && d < uploaded.size(); ++d) {
      for (auto [argument, output] : carried) {
        if (output >= outputs[d].size()) {
          return InvalidArgument(workload.path, ": argument ", argument, " is aliased to output ",
                                 output, ", but the program has ", outputs[d].size(), " outputs");
        }
        uploaded[d][argument] = std::move(outputs[d][output]);
        arguments[d][argument] = &uploaded[d][argument];
      }
    }
    return ms;
  };

  if (header.kind == BenchKind::kDispatch) {
    for (int i = 0; i < options.warmup; ++i) PLUGRT_RETURN_IF_ERROR(execute_once().status());
    RepeatPolicy loops;
    loops.repeats = options.repeats.value_or(5);
    loops.warmup = 0;
    const int64_t iterations = header.iterations;
    PLUGRT_ASSIGN_OR_RETURN(std::vector<double> loop_times,
                            TimeRepeated(loops, [&]() -> StatusOr<double> {
                              const long long start = NowNanoseconds();
                              for (int64_t i = 0; i < iterations; ++i) {
                                PLUGRT_RETURN_IF_ERROR(execute_once().status());
                              }
                              return MillisecondsSince(start);
                            }));
    result.loop_median_ms = Summarize(loop_times).median;
    for (double& ms : loop_times) ms /= static_cast<double>(iterations);
    result.time = Summarize(std::move(loop_times));
  } else {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<double> times, TimeRepeated(policy, execute_once));
    result.time = Summarize(std::move(times));
  }

  const double seconds = result.time.median * 1e-3;
  if (seconds > 0) {
    result.gbps = bytes / seconds / 1e9;
    if (result.flops) result.gflops = *result.flops / seconds / 1e9;
  }
  return OkStatus();
}

// kind=eager: op by op through the eager layer and fused (bench_eager.h).
// With iterations=N each timed sample is a loop of N runs, as for dispatch.
Status MeasureEagerWorkload(const Client& client, const Workload& workload,
                            const BenchOptions& options, WorkloadResult& result) {
  const int64_t iterations = std::max<int64_t>(workload.header.iterations, 1);
  RepeatPolicy policy;
  policy.warmup = options.warmup;
  policy.repeats = options.repeats;
  if (iterations > 1) {
    policy.repeats = options.repeats.value_or(5);
    policy.warmup = std::min(options.warmup, 1);
  }
  PLUGRT_ASSIGN_OR_RETURN(EagerResult eager,
                          MeasureEager(client, workload.text, workload.path, policy, iterations));
  result.time = eager.eager;
  result.compile_ms = eager.fused_compile_ms;
  result.eager = eager;
  return OkStatus();
}

// --- output -----------------------------------------------------------------

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
      out += buffer;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string JsonNumber(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", *value);
  return buffer;
}

std::string JsonOptionalString(std::optional<std::string_view> value) {
  return value ? JsonQuote(*value) : "null";
}

std::string CeilingJson(const CeilingResult& c) {
  std::ostringstream out;
  out << "{\"name\": " << JsonQuote(c.name) << ", \"kind\": " << JsonQuote(CeilingKindName(c.kind));
  if (!c.unavailable.empty()) {
    out << ", \"size\": " << c.size << ", \"unavailable\": " << JsonQuote(c.unavailable) << "}";
    return out.str();
  }
  if (c.gflops) out << ", \"gflops\": " << JsonNumber(c.gflops);
  if (c.gbps) out << ", \"gbps\": " << JsonNumber(c.gbps);
  out << ", \"median_ms\": " << JsonNumber(c.time.median) << ", \"min_ms\": "
      << JsonNumber(c.time.min) << ", \"max_ms\": " << JsonNumber(c.time.max)
      << ", \"runs\": " << c.time.runs;
  if (c.size != 0) out << ", \"size\": " << c.size << ", \"impl\": " << JsonQuote(c.impl);
  if (c.bytes != 0) out << ", \"bytes\": " << JsonNumber(c.bytes);
  out << "}";
  return out.str();
}

std::string WorkloadJson(const WorkloadResult& r) {
  const BenchHeader& header = r.workload->header;
  std::ostringstream out;
  out << "{\"name\": " << JsonQuote(r.label.empty() ? r.workload->name : r.label)
      << ", \"kind\": " << JsonQuote(BenchKindName(header.kind));
  if (!r.error.empty()) {
    out << ", \"error\": " << JsonQuote(r.error) << "}";
    return out.str();
  }
  out << ", \"median_ms\": " << JsonNumber(r.time.median) << ", \"min_ms\": "
      << JsonNumber(r.time.min) << ", \"max_ms\": " << JsonNumber(r.time.max)
      << ", \"p10_ms\": " << JsonNumber(r.time.p10) << ", \"p90_ms\": " << JsonNumber(r.time.p90)
      << ", \"runs\": " << r.time.runs;
  if (header.kind == BenchKind::kDispatch) {
    out << ", \"iterations\": " << header.iterations
        << ", \"us_per_execute\": " << JsonNumber(r.time.median * 1e3)
        << ", \"loop_median_ms\": " << JsonNumber(r.loop_median_ms);
  }
  if (r.eager) {
    const EagerResult& e = *r.eager;
    out << ", \"ops\": " << e.ops << ", \"iterations\": " << e.iterations
        << ", \"us_per_op\": " << JsonNumber(e.eager.median * 1e3 / static_cast<double>(e.ops))
        << ", \"fused_median_ms\": " << JsonNumber(e.fused.median)
        << ", \"fused_min_ms\": " << JsonNumber(e.fused.min)
        << ", \"fused_max_ms\": " << JsonNumber(e.fused.max)
        << ", \"eager_vs_fused\": " << JsonNumber(e.eager_vs_fused);
  }
  out << ", \"gflops\": " << JsonNumber(r.gflops) << ", \"gbps\": " << JsonNumber(r.gbps)
      << ", \"flops\": " << JsonNumber(r.flops) << ", \"bytes\": " << JsonNumber(r.bytes)
      << ", \"compile_ms\": " << JsonNumber(r.compile_ms) << ", \"metric\": "
      << JsonOptionalString(r.metric ? std::optional(BenchMetricName(*r.metric)) : std::nullopt)
      << ", \"ceiling\": "
      << JsonOptionalString(header.ceiling ? std::optional(CeilingKindName(*header.ceiling))
                                           : std::nullopt)
      << ", \"ceiling_name\": "
      << JsonOptionalString(r.ceiling ? std::optional<std::string_view>(r.ceiling->name)
                                      : std::nullopt)
      << ", \"ratio_to_ceiling\": " << JsonNumber(r.ratio);
  if (r.limit_ms) {
    out << ", \"limit_ms\": " << JsonNumber(r.limit_ms)
        << ", \"must_move_bytes\": " << JsonNumber(header.bytes ? header.bytes : r.bytes);
  }
  if (r.program_bytes != 0) out << ", \"program_bytes\": " << r.program_bytes;
  if (r.bytecode_vs_text) out << ", \"bytecode_vs_text\": " << JsonNumber(r.bytecode_vs_text);
  if (r.warm_vs_cold) out << ", \"warm_vs_cold\": " << JsonNumber(r.warm_vs_cold);
  out << "}";
  return out.str();
}

std::string Json(const std::string& cpu, int threads, const std::vector<CeilingResult>& ceilings,
                 const std::vector<WorkloadResult>& results) {
  std::ostringstream out;
  out << "{\"machine\": {\"cpu\": " << JsonQuote(cpu) << ", \"threads\": " << threads << "},\n";
  out << " \"ceilings\": [";
  for (size_t i = 0; i < ceilings.size(); ++i) {
    out << (i == 0 ? "\n  " : ",\n  ") << CeilingJson(ceilings[i]);
  }
  out << (ceilings.empty() ? "],\n" : "\n ],\n");
  out << " \"workloads\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    out << (i == 0 ? "\n  " : ",\n  ") << WorkloadJson(results[i]);
  }
  out << (results.empty() ? "]}\n" : "\n ]}\n");
  return out.str();
}

std::string Cell(std::optional<double> value, const char* format) {
  return value && std::isfinite(*value) ? Format(format, *value) : "-";
}

// Pads or right-aligns each column to its widest cell.
std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const size_t pad = widths[i] - row[i].size();
      if (i == 0 || i + 1 == row.size()) {
        line += row[i] + (i + 1 == row.size() ? "" : std::string(pad, ' '));
      } else {
        line += std::string(pad, ' ') + row[i];
      }
      if (i + 1 < row.size()) line += "  ";
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

std::string TextReport(const std::string& cpu, int threads,
                       const std::vector<CeilingResult>& ceilings,
                       const std::vector<WorkloadResult>& results) {
  std::string out = StrCat("cpu: ", cpu, ", threads: ", threads, "\n");
  if (!ceilings.empty()) {
    std::vector<std::vector<std::string>> rows = {
        {"ceiling", "median ms", "min ms", "runs", "rate", "implementation"}};
    for (const CeilingResult& c : ceilings) {
      if (!c.unavailable.empty()) {
        rows.push_back({c.name, "-", "-", "-", "-", "unavailable: " + c.unavailable});
        continue;
      }
      rows.push_back({c.name, Format("%.3f", c.time.median), Format("%.3f", c.time.min),
                      std::to_string(c.time.runs),
                      c.gflops ? Format("%.1f GFLOP/s", *c.gflops)
                      : c.gbps ? Format("%.1f GB/s", *c.gbps)
                               : std::string("-"),
                      c.impl});
    }
    out += "\n" + Table(rows);
  }
  if (!results.empty()) {
    std::vector<std::vector<std::string>> rows = {{"workload", "kind", "median ms", "p10 ms",
                                                   "p90 ms", "runs", "GFLOP/s", "GB/s",
                                                   "compile ms", "vs ceiling"}};
    for (const WorkloadResult& r : results) {
      const BenchHeader& header = r.workload->header;
      if (!r.error.empty()) {
        rows.push_back({r.label.empty() ? r.workload->name : r.label,
                        std::string(BenchKindName(header.kind)), "failed"});
        continue;
      }
      std::string versus = "-";
      if (r.ratio) versus = Format("%.2f", *r.ratio) + " of " + r.ceiling->name;
      if (r.limit_ms) {
        versus = Format("%.2f", *r.ratio) + " of limit " + Format("%.3f", *r.limit_ms) + " ms (" +
                 r.ceiling->name + ")";
      }
      if (r.bytecode_vs_text) versus = Format("%.2fx", *r.bytecode_vs_text) + " of text";
      if (r.warm_vs_cold) versus = Format("%.2fx", *r.warm_vs_cold) + " of cold";
      const std::string& name = r.label.empty() ? r.workload->name : r.label;
      // Dispatch rows, and eager rows timed in loops, are per execute (per
      // run of the body), in microseconds.
      const bool per_call = header.kind == BenchKind::kDispatch ||
                            (header.kind == BenchKind::kEager && header.iterations > 1);
      auto time = [&](double ms) {
        return per_call ? Format("%.2f us", ms * 1e3) : Format("%.3f", ms);
      };
      if (r.eager) {
        versus = Format("%.2fx", r.eager->eager_vs_fused) + " of fused (" +
                 time(r.eager->fused.median) + (per_call ? ")" : " ms)");
      }
      rows.push_back({name, std::string(BenchKindName(header.kind)),
                      time(r.time.median), time(r.time.p10), time(r.time.p90),
                      std::to_string(r.time.runs), Cell(r.gflops, "%.2f"), Cell(r.gbps, "%.2f"),
                      Format("%.1f", r.compile_ms), versus});
    }
    out += "\n" + Table(rows);
  }
  return out;
}

// --json PATH: on any filesystem scheme.
Status WriteText(const std::string& path, const std::string& text) {
  return fs::WriteFile(path, text);
}

std::string ListText(const std::vector<Workload>& workloads) {
  std::vector<std::vector<std::string>> rows = {
      {"workload", "kind", "metric", "ceiling", "description"}};
  for (const Workload& w : workloads) {
    const BenchHeader& h = w.header;
    std::string kind(BenchKindName(h.kind));
    if (h.kind == BenchKind::kDispatch || (h.kind == BenchKind::kEager && h.iterations > 1)) {
      kind += StrCat(" x", h.iterations);
    }
    std::string description =
        w.bytecode_forms ? "parse + verify + compile from text and from a portable artifact "
                           "written in-process (rows @text, @bytecode)"
        : w.cache_forms  ? "compile into an empty compilation cache and from a warm one, each "
                           "on a new client (rows @cold, @cache)"
                         : h.description;
    rows.push_back({w.name, kind, h.metric ? std::string(BenchMetricName(*h.metric)) : "-",
                    h.ceiling ? std::string(CeilingKindName(*h.ceiling)) : "-", description});
  }
  return Table(rows);
}

// The exit code: 0 when every workload ran, 1 when any failed.
StatusOr<int> Bench(const BenchOptions& options) {
  const std::string dir = options.dir.empty() ? DefaultBenchDir() : options.dir;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Workload> workloads, SelectWorkloads(options, dir));
  if (options.list) {
    std::cout << ListText(workloads);
    return 0;
  }
  const int threads = options.threads.value_or(OnlineCores());
  const std::string cpu = CpuModel();
  const bool json_to_stdout = options.json_path == "-";
  std::ostream& text_out = json_to_stdout ? std::cerr : std::cout;

  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenBenchClient(options));
  if (!options.profile_dir.empty()) {
    Status created = fs::RecursivelyCreateDir(options.profile_dir);
    if (!created.ok()) {
      return Status(created.code(), StrCat(options.profile_dir, ": cannot create the profile "
                                           "folder (", created.message(), ")"));
    }
  }

  std::vector<CeilingResult> ceilings;
  CeilingSelection selection = CeilingsFor(workloads, options.names.empty());
  // A profile's summary compares every kernel with both ceilings.
  if (!options.profile_dir.empty()) selection.sgemm = selection.bandwidth = true;
  if (!options.no_ceilings && selection.any()) {
    std::cerr << "plugrt bench: measuring ceilings (" << threads
              << (threads == 1 ? " thread)\n" : " threads)\n");
    RepeatPolicy policy;
    policy.repeats = options.repeats;
    policy.warmup = options.warmup;
    PLUGRT_ASSIGN_OR_RETURN(ceilings, MeasureCeilings(selection, threads, policy));
  }

  std::vector<WorkloadResult> results;
  int exit_code = 0;
  for (const Workload& workload : workloads) {
    std::cerr << "plugrt bench: " << workload.name << "\n";
    if (workload.cache_forms) {
      RepeatPolicy policy;
      policy.repeats = options.repeats;
      policy.warmup = options.warmup;
      StatusOr<std::shared_ptr<Plugin>> plugin = LoadBenchPlugin(options);
      StatusOr<CompileCacheResult> cache =
          plugin.ok() ? MeasureCompileCache(*plugin, BenchClientOptions(options), workload.text,
                                            workload.path, policy)
                      : StatusOr<CompileCacheResult>(plugin.status());
      WorkloadResult cold_row, warm_row;
      cold_row.workload = warm_row.workload = &workload;
      cold_row.label = workload.name.substr(0, workload.name.rfind('@')) + "@cold";
      warm_row.label = workload.name;
      if (!cache.ok()) {
        warm_row.error = cache.status().ToString();
        std::cerr << "plugrt bench: " << workload.name << " failed: " << warm_row.error << "\n";
        exit_code = 1;
        results.push_back(std::move(warm_row));
        continue;
      }
      cold_row.time = cache->cold;
      cold_row.compile_ms = cache->cold.median;
      warm_row.time = cache->warm;
      warm_row.compile_ms = cache->warm.median;
      cold_row.program_bytes = workload.text.size();
      warm_row.program_bytes = cache->entry_bytes;
      warm_row.warm_vs_cold = cache->warm_vs_cold;
      results.push_back(std::move(cold_row));
      results.push_back(std::move(warm_row));
      continue;
    }
    if (workload.bytecode_forms) {
      RepeatPolicy policy;
      policy.repeats = options.repeats;
      policy.warmup = options.warmup;
      StatusOr<CompileFormsResult> forms =
          MeasureCompileForms(*client, workload.text, workload.path, policy);
      WorkloadResult text_row, bytecode_row;
      text_row.workload = bytecode_row.workload = &workload;
      text_row.label = workload.name.substr(0, workload.name.rfind('@')) + "@text";
      bytecode_row.label = workload.name;
      if (!forms.ok()) {
        bytecode_row.error = forms.status().ToString();
        std::cerr << "plugrt bench: " << workload.name << " failed: " << bytecode_row.error << "\n";
        exit_code = 1;
        results.push_back(std::move(bytecode_row));
        continue;
      }
      text_row.time = forms->text;
      text_row.compile_ms = forms->text.median;
      text_row.program_bytes = forms->text_bytes;
      bytecode_row.time = forms->bytecode;
      bytecode_row.compile_ms = forms->bytecode.median;
      bytecode_row.program_bytes = forms->bytecode_bytes;
      bytecode_row.bytecode_vs_text = forms->bytecode_vs_text;
      results.push_back(std::move(text_row));
      results.push_back(std::move(bytecode_row));
      continue;
    }
    WorkloadResult result;
    result.workload = &workload;
    std::unique_ptr<ProfilerSession> profile;
    // Loops of many executes per run (dispatch, eager per-op) would record
    // millions of near-identical events: they are timed, not profiled.
    const bool loop = workload.header.iterations > 1;
    if (!options.profile_dir.empty() && loop) {
      std::cerr << "plugrt bench: " << workload.name << ": not profiled (" << workload.header.iterations
                << " executes per run; profile a few with plugrt run --repeat)\n";
    }
    if (!options.profile_dir.empty() && !loop) {
      PLUGRT_ASSIGN_OR_RETURN(profile, ProfilerSession::Start(client->plugin().get()));
    }
    Status status = workload.header.kind == BenchKind::kEager
                        ? MeasureEagerWorkload(*client, workload, options, result)
                        : MeasureWorkload(*client, workload, options, result);
    if (profile != nullptr) {
      const std::string trace = fs::JoinPath(options.profile_dir, workload.name + ".json");
      StatusOr<std::string> written = WriteProfile(*profile, trace, SummaryCeilings(ceilings));
      if (written.ok()) {
        std::cerr << "plugrt bench: profile " << trace << ", summary "
                  << profiler::SummaryPathFor(trace) << "\n";
      } else if (status.ok()) {
        status = written.status();
      }
    }
    if (!status.ok()) {
      result = WorkloadResult{};
      result.workload = &workload;
      result.error = status.ToString();
      std::cerr << "plugrt bench: " << workload.name << " failed: " << result.error << "\n";
      exit_code = 1;
    } else if (workload.header.kind != BenchKind::kCompile &&
               workload.header.kind != BenchKind::kEager) {
      // The headline: the header's metric, else the unit of its ceiling.
      result.metric = workload.header.metric;
      if (!result.metric && workload.header.ceiling) {
        result.metric = *workload.header.ceiling == CeilingKind::kBandwidth ? BenchMetric::kBytes
                                                                            : BenchMetric::kFlops;
      }
      CompareToCeiling(result, ceilings);
    }
    results.push_back(std::move(result));
  }

  text_out << TextReport(cpu, threads, ceilings, results);
  if (!options.json_path.empty()) {
    const std::string json = Json(cpu, threads, ceilings, results);
    if (json_to_stdout) {
      std::cout << json << std::flush;
    } else {
      PLUGRT_RETURN_IF_ERROR(WriteText(options.json_path, json));
    }
  }
  return exit_code;
}

}  // namespace

void RegisterBenchCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Time the StableHLO workloads of bench/ (compile, execute, dispatch) through the "
               "plugin, next to oneDNN matmul and memory-bandwidth ceilings");
  command->add_option("names", options->names,
                      "workloads to run (file stems in the bench folder); default: all");
  command->add_option("--dir", options->dir,
                      "folder of <name>.mlir bench programs (default: bench/ of the source tree)");
  command->add_option("--repeats", options->repeats,
                      "timed runs per workload (default: at least 5 and about 1 s, at most 50; "
                      "dispatch loops: 5)")
      ->check(CLI::Range(1, 1000000));
  command->add_option("--warmup", options->warmup, "untimed runs first (default 2)")
      ->check(CLI::Range(0, 1000000));
  command->add_option("--json", options->json_path, "also write the results as JSON to FILE ('-': "
                                                    "stdout, the table then goes to stderr)");
  command->add_flag("--no-ceilings", options->no_ceilings,
                    "skip the oneDNN matmul and memory-bandwidth ceilings");
  command->add_flag("--progress", options->progress,
                    "print each workload's stages and runs on stderr as they happen");
  command->add_option("--threads", options->threads,
                      "threads for the ceilings, also passed to the plugin as the threads create "
                      "option (default: the online cores; the plugin's own default)")
      ->check(CLI::Range(1, 4096));
  command->add_flag("--list", options->list, "list the workloads and exit");
  AddFillElidedOption(command, options->fill_elided);
  command->add_option("--profile", options->profile_dir,
                      "profile each workload (its warm-up and timed runs): DIR/<workload>.json "
                      "(Chrome trace) and DIR/<workload>.summary.txt; the times reported are then "
                      "those of profiled runs");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    StatusOr<int> code = Bench(*options);
    if (!code.ok()) {
      std::cerr << "plugrt bench: " << code.status().ToString() << "\n";
      exit_code = 1;
      return;
    }
    exit_code = *code;
  });
}

}  // namespace plugrt::tools
