#include "tools/bench_ceilings.h"

#include <omp.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

namespace plugrt::tools {
namespace {

constexpr int64_t kGemmSizes[] = {1024, 2048};
constexpr int64_t kBandwidthElements = int64_t{64} << 20;  // 64M floats, 256 MiB

// bf16 bits of `value`, rounded to nearest even.
uint16_t Bf16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

void FillUniform(float* data, int64_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int64_t i = 0; i < count; ++i) data[i] = uniform(generator);
}

// One timed matmul ceiling: C[n,n] = A[n,n] x B[n,n], A and B of the
// kind's type (f32, bf16, s8), C f32 (s32 for s8: the integer product).
StatusOr<CeilingResult> MeasureMatmul(CeilingKind kind, int64_t n, const RepeatPolicy& policy) {
  using dnnl::memory;
  const memory::data_type in_type = kind == CeilingKind::kSgemm    ? memory::data_type::f32
                                    : kind == CeilingKind::kInt8Gemm ? memory::data_type::s8
                                                                     : memory::data_type::bf16;
  const memory::data_type out_type =
      kind == CeilingKind::kInt8Gemm ? memory::data_type::s32 : memory::data_type::f32;
  CeilingResult result;
  result.kind = kind;
  result.size = n;
  result.name = StrCat("onednn_", CeilingKindName(kind), "_", n);
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    memory::desc a_desc({n, n}, in_type, memory::format_tag::ab);
    memory::desc b_desc({n, n}, in_type, memory::format_tag::ab);
    memory::desc c_desc({n, n}, out_type, memory::format_tag::ab);
    memory a(a_desc, engine), b(b_desc, engine), c(c_desc, engine);
    std::vector<float> values(static_cast<size_t>(n * n));
    for (auto [mem, seed] : {std::pair{&a, 1u}, std::pair{&b, 2u}}) {
      FillUniform(values.data(), n * n, seed);
      if (in_type == memory::data_type::f32) {
        std::memcpy(mem->get_data_handle(), values.data(), values.size() * sizeof(float));
      } else if (in_type == memory::data_type::s8) {
        auto* out = static_cast<int8_t*>(mem->get_data_handle());
        for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<int8_t>(values[i] * 127);
      } else {
        auto* out = static_cast<uint16_t*>(mem->get_data_handle());
        for (size_t i = 0; i < values.size(); ++i) out[i] = Bf16Bits(values[i]);
      }
    }
    // Timed twice: B as it lies, and B in the layout oneDNN picks for it
    // (reordered before the timed runs, as plugrt keeps weight arguments);
    // the ceiling is the faster.
    for (const bool own_layout : {false, true}) {
      const memory::desc b_any({n, n}, in_type, memory::format_tag::any);
      dnnl::matmul::primitive_desc descriptor;
      try {
#if DNNL_VERSION_MAJOR >= 3
        descriptor =
            dnnl::matmul::primitive_desc(engine, a_desc, own_layout ? b_any : b_desc, c_desc);
#else
        descriptor = dnnl::matmul::primitive_desc(
            dnnl::matmul::desc(a_desc, own_layout ? b_any : b_desc, c_desc), engine);
#endif
      } catch (const dnnl::error& error) {
        if (error.status != dnnl_unimplemented) throw;
        if (own_layout) break;
        result.unavailable = StrCat("oneDNN has no ",
                                    kind == CeilingKind::kSgemm      ? "f32"
                                    : kind == CeilingKind::kInt8Gemm ? "int8"
                                                                     : "bf16",
                                    " matmul for this CPU");
        return result;
      }
      dnnl::matmul matmul(descriptor);
      memory weights = b;
      if (own_layout) {
        weights = memory(descriptor.weights_desc(), engine);
        dnnl::reorder(b, weights).execute(stream, b, weights);
        stream.wait();
      }
      std::memset(c.get_data_handle(), 0, static_cast<size_t>(n * n) * 4);  // f32 or s32
      const std::unordered_map<int, memory> args = {
          {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, c}};
      PLUGRT_ASSIGN_OR_RETURN(std::vector<double> times,
                              TimeRepeated(policy, [&]() -> StatusOr<double> {
                                const long long start = NowNanoseconds();
                                matmul.execute(stream, args);
                                stream.wait();
                                return MillisecondsSince(start);
                              }));
      TimeSummary time = Summarize(std::move(times));
      if (result.impl.empty() || time.median < result.time.median) {
        result.time = time;
        result.impl = StrCat(descriptor.impl_info_str(),
                             own_layout ? ", B in its layout" : ", B as it lies");
      }
    }
  } catch (const dnnl::error& error) {
    return Internal(result.name, ": oneDNN failed: ", error.what());
  }
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  result.gflops = flops / (result.time.median * 1e-3) / 1e9;
  return result;
}

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using FloatArray = std::unique_ptr<float[], FreeDeleter>;

StatusOr<FloatArray> AllocateArray(int64_t count) {
  void* memory = std::aligned_alloc(64, static_cast<size_t>(count) * sizeof(float));
  if (memory == nullptr) return ResourceExhausted("cannot allocate ", count * 4, " bytes");
  return FloatArray(static_cast<float*>(memory));
}

// Copy (c[i] = a[i]), triad (a[i] = b[i] + s*c[i]) and read (the sum of b) over
// 64M floats, each
// thread touching the same static chunk it first wrote.
StatusOr<std::vector<CeilingResult>> MeasureBandwidth(const RepeatPolicy& policy, int threads) {
  const int64_t n = kBandwidthElements;
  PLUGRT_ASSIGN_OR_RETURN(FloatArray a, AllocateArray(n));
  PLUGRT_ASSIGN_OR_RETURN(FloatArray b, AllocateArray(n));
  PLUGRT_ASSIGN_OR_RETURN(FloatArray c, AllocateArray(n));
  float* pa = a.get();
  float* pb = b.get();
  float* pc = c.get();
  omp_set_num_threads(threads);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    pa[i] = 1.0f;
    pb[i] = 2.0f;
    pc[i] = 0.5f;
  }
  const double array_bytes = static_cast<double>(n) * sizeof(float);
  std::vector<CeilingResult> results;

  CeilingResult copy;
  copy.name = "copy";
  copy.kind = CeilingKind::kBandwidth;
  copy.bytes = 2 * array_bytes;
  omp_set_num_threads(threads);
  // (An OpenMP pragma cannot sit inside a macro's arguments: the loops are
  // named lambdas.)
  auto copy_once = [&]() -> StatusOr<double> {
    const long long start = NowNanoseconds();
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i];
    return MillisecondsSince(start);
  };
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> copy_times, TimeRepeated(policy, copy_once));
  copy.time = Summarize(std::move(copy_times));
  copy.gbps = copy.bytes / (copy.time.median * 1e-3) / 1e9;
  results.push_back(std::move(copy));

  CeilingResult triad;
  triad.name = "triad";
  triad.kind = CeilingKind::kBandwidth;
  triad.bytes = 3 * array_bytes;
  const float s = 3.0f;
  omp_set_num_threads(threads);
  auto triad_once = [&]() -> StatusOr<double> {
    const long long start = NowNanoseconds();
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) pa[i] = pb[i] + s * pc[i];
    return MillisecondsSince(start);
  };
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> triad_times, TimeRepeated(policy, triad_once));
  triad.time = Summarize(std::move(triad_times));
  triad.gbps = triad.bytes / (triad.time.median * 1e-3) / 1e9;
  results.push_back(std::move(triad));

  // Read: the sum of one array, what a pass that streams its weights does.
  CeilingResult read;
  read.name = std::string(kReadCeilingName);
  read.kind = CeilingKind::kBandwidth;
  read.bytes = array_bytes;
  float total = 0;
  omp_set_num_threads(threads);
  auto read_once = [&]() -> StatusOr<double> {
    const long long start = NowNanoseconds();
    float sum = 0;
    // Eight vectors of partial sums per thread (n is a multiple of 32), in
    // GCC's vector types so the loop is vector loads and adds at any -O and
    // -march: it waits on memory, not on one chain of adds. Each thread reads
    // the part of b it first touched.
#pragma omp parallel reduction(+ : sum)
    {
      typedef float Lanes __attribute__((vector_size(16)));
      const int64_t blocks = n / 32;
      const int64_t thread = omp_get_thread_num();
      const int64_t count = omp_get_num_threads();
      const Lanes* lanes = reinterpret_cast<const Lanes*>(pb);  // 64-byte aligned
      Lanes partial[8] = {};
      for (int64_t i = blocks * thread / count * 8; i < blocks * (thread + 1) / count * 8; i += 8) {
        for (int j = 0; j < 8; ++j) partial[j] += lanes[i + j];
      }
      for (int j = 0; j < 8; ++j) {
        for (int l = 0; l < 4; ++l) sum += partial[j][l];
      }
    }
    total += sum;
    return MillisecondsSince(start);
  };
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> read_times, TimeRepeated(policy, read_once));
  read.time = Summarize(std::move(read_times));
  read.gbps = read.bytes / (read.time.median * 1e-3) / 1e9;
  results.push_back(std::move(read));

  // Keep the loops' results observable so they are not optimized away.
  volatile float sink = pa[n / 2] + pc[n / 3] + total;
  (void)sink;
  return results;
}

}  // namespace

std::string_view CeilingKindName(CeilingKind kind) {
  switch (kind) {
    case CeilingKind::kSgemm: return "sgemm";
    case CeilingKind::kBf16Gemm: return "bf16gemm";
    case CeilingKind::kInt8Gemm: return "int8gemm";
    case CeilingKind::kBandwidth: return "bandwidth";
    case CeilingKind::kLapack: return "lapack";
    case CeilingKind::kModel: return "model";
  }
  return "unknown";
}

std::optional<CeilingKind> ParseCeilingKind(std::string_view name) {
  if (name == "sgemm") return CeilingKind::kSgemm;
  if (name == "bf16gemm") return CeilingKind::kBf16Gemm;
  if (name == "int8gemm") return CeilingKind::kInt8Gemm;
  if (name == "bandwidth") return CeilingKind::kBandwidth;
  if (name == "lapack") return CeilingKind::kLapack;
  if (name == "model") return CeilingKind::kModel;
  return std::nullopt;
}

int OnlineCores() {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(cores) : 1;
}

StatusOr<std::vector<CeilingResult>> MeasureCeilings(const CeilingSelection& selection,
                                                     int threads, const RepeatPolicy& policy) {
  // The ceilings run OpenMP (oneDNN's matmul, the bandwidth loops) on this
  // thread, and the plugin runs its own on its device threads. libgomp
  // counts every thread any team ever made; once that count passes the
  // cores, every team's idle threads spin only about 100 times before they
  // sleep, and each later parallel loop pays a futex wake-up. This thread's
  // team is let go on the way out, so the workloads timed next run as in a
  // process that never measured a ceiling (LSTM b1: 32 against 26 ms).
  struct ReleaseTeam {
    ~ReleaseTeam() { omp_pause_resource_all(omp_pause_soft); }
  } release_team;
  std::vector<CeilingResult> results;
  for (CeilingKind kind : {CeilingKind::kSgemm, CeilingKind::kBf16Gemm, CeilingKind::kInt8Gemm}) {
    const bool wanted = kind == CeilingKind::kSgemm      ? selection.sgemm
                        : kind == CeilingKind::kBf16Gemm ? selection.bf16gemm
                                                         : selection.int8gemm;
    if (!wanted) continue;
    for (int64_t n : kGemmSizes) {
      omp_set_num_threads(threads);
      PLUGRT_ASSIGN_OR_RETURN(CeilingResult result, MeasureMatmul(kind, n, policy));
      results.push_back(std::move(result));
    }
  }
  if (selection.bandwidth) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<CeilingResult> bandwidth,
                            MeasureBandwidth(policy, threads));
    for (CeilingResult& result : bandwidth) results.push_back(std::move(result));
  }
  if (selection.lapack) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<CeilingResult> lapack, MeasureLapackCeilings(threads, policy));
    for (CeilingResult& result : lapack) results.push_back(std::move(result));
  }
  return results;
}

}  // namespace plugrt::tools
