// plugrt bench: the machine's ceilings, measured in the same process before
// the workloads: oneDNN's own matmul primitive called directly (f32,
// bf16 x bf16 -> f32, s8 x s8 -> s32) and memory bandwidth (OpenMP copy and
// triad loops).
#ifndef PLUGRT_TOOLS_BENCH_CEILINGS_H_
#define PLUGRT_TOOLS_BENCH_CEILINGS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "tools/bench_timing.h"

namespace plugrt::tools {

// The ceiling kinds a workload's header may name (ceiling=...). kModel is
// no measurement of its own: a whole model's limit is the larger of its
// FLOPs at the best sgemm rate and the bytes it must move (header bytes=,
// else arguments + outputs) at the best bandwidth (bench_command.cc).
enum class CeilingKind { kSgemm, kBf16Gemm, kInt8Gemm, kBandwidth, kLapack, kModel };
// "sgemm", "bf16gemm", "int8gemm", "bandwidth", "lapack", "model"
std::string_view CeilingKindName(CeilingKind kind);
std::optional<CeilingKind> ParseCeilingKind(std::string_view name);

// The read-bandwidth ceiling's name: the limit of work that only reads.
inline constexpr std::string_view kReadCeilingName = "read";

struct CeilingResult {
  std::string name;   // onednn_sgemm_1024, onednn_bf16gemm_2048, onednn_int8gemm_1024, copy, triad, read, lapack_lu_512
  CeilingKind kind;
  int64_t size = 0;   // M = N = K of a matmul; 0 for bandwidth
  TimeSummary time;   // milliseconds per timed call
  // The rate at the median time: GFLOP/s (2*M*N*K) for matmuls, GB/s
  // (bytes read + bytes written) for bandwidth.
  std::optional<double> gflops;
  std::optional<double> gbps;
  double bytes = 0;   // bandwidth: bytes moved per call
  std::string impl;   // matmuls: oneDNN's implementation name
  // Why it was not measured (no rate, no time), or empty: oneDNN has no matmul
  // for that type on this CPU (bf16 before AVX-512), which is no failure.
  std::string unavailable;
};

struct CeilingSelection {
  bool sgemm = false;
  bool bf16gemm = false;
  bool bandwidth = false;
  bool int8gemm = false;
  bool lapack = false;  // the linalg_* workloads' routines on LAPACKE (bench_lapack_ceilings.cc)
  bool any() const { return sgemm || bf16gemm || bandwidth || int8gemm || lapack; }
};

// The online cores: the thread count ceilings are measured with by default.
int OnlineCores();

// Measures the selected ceilings with `threads` OpenMP threads (set before
// each), timing as `policy` says. Matmuls: 1024^3 and 2048^3 with row-major
// plain A[M,K], B[K,N], C[M,N]; the primitive is created once and only its
// executes are timed; a matmul oneDNN does not implement on this CPU is
// returned with `unavailable` set. Bandwidth: 64M floats (256 MiB) per array
// (copy, triad, and read: the bytes of one array summed).
StatusOr<std::vector<CeilingResult>> MeasureCeilings(const CeilingSelection& selection,
                                                     int threads, const RepeatPolicy& policy);
// The LAPACK ceilings, one per linalg_* workload, named lapack_<workload
// without "linalg_">; compared by time (no rate).
StatusOr<std::vector<CeilingResult>> MeasureLapackCeilings(int threads, const RepeatPolicy& policy);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_CEILINGS_H_
