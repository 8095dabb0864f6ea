// plugrt bench: what a bench/<name>.mlir file says about itself (its header
// line), the arguments its @main takes, and the deterministic pseudo-random
// inputs the bench command feeds it.
#ifndef PLUGRT_TOOLS_BENCH_PROGRAM_H_
#define PLUGRT_TOOLS_BENCH_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "tools/bench_ceilings.h"

namespace plugrt::tools {

// kEager: @main's ops one at a time through the eager layer, next to the
// program compiled whole (bench_eager.h).
enum class BenchKind { kExecute, kDispatch, kCompile, kEager };
std::string_view BenchKindName(BenchKind kind);  // "execute", "dispatch", "compile", "eager"

// Which rate is a workload's headline: GFLOP/s from the cost analysis, or
// GB/s of arguments plus outputs.
enum class BenchMetric { kFlops, kBytes };
std::string_view BenchMetricName(BenchMetric metric);  // "flops", "bytes"

// The first line, `// plugrt-bench: kind=dispatch iterations=100000
// metric=bytes ceiling=bandwidth` (every key optional; kind defaults to
// execute), and the comment lines right after it, which say in words what
// the program computes.
struct BenchHeader {
  BenchKind kind = BenchKind::kExecute;
  // kind=dispatch: executes per timed loop (required); kind=eager: runs of
  // the body per timed loop (optional, default 1).
  int64_t iterations = 0;
  std::optional<BenchMetric> metric;
  std::optional<CeilingKind> ceiling;
  // bytes=N: what one execute must move at the least (a model's weights
  // once, of an embedding table only the rows it gathers), for the memory
  // side of ceiling=model; default: the bytes of the arguments and outputs.
  std::optional<double> bytes;
  // compare=bytecode: also time parse + verify + compile of the program from
  // a portable artifact (written in-process) against from its text.
  bool compare_bytecode = false;
  // compare=cache: also time the compile cold and warm from the persistent
  // compilation cache (bench_cache.h). compare= takes a comma-separated list.
  bool compare_cache = false;
  std::string description;
};
inline constexpr std::string_view kBenchHeaderPrefix = "// plugrt-bench:";

// The header of program text `text` from file `path`. A file whose first
// line is not a plugrt-bench comment gets the defaults. Errors read
// "path:line:col: ...".
StatusOr<BenchHeader> ParseBenchHeader(std::string_view text, const std::string& path);

// One argument of @main: a static-shaped tensor.
struct ArgumentSpec {
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  // The output this argument is donated to (its tf.aliasing_output): the
  // bench then feeds that output back as this argument of the next execute,
  // as a serving loop carries a KV cache.
  std::optional<int64_t> aliased_output;
};

// The argument types of function @main in StableHLO text, from the project's
// StableHLO parser (parse errors name path:line:col; the plugin verifies and
// compiles the program itself). Arguments that are not static-shaped tensors
// (tokens, tuples, dynamic dimensions) are UNIMPLEMENTED, naming the function.
StatusOr<std::vector<ArgumentSpec>> ReadMainArguments(std::string_view text,
                                                      const std::string& path,
                                                      const std::string& fill_elided = "");

// A dense row-major host array of `spec` filled from a generator seeded with
// `seed`: floats uniform in [-1, 1) (bf16 and f16 rounded to nearest even
// from f32), complex parts likewise, signed integers in [-8, 8), unsigned in
// [0, 8) (narrower types: what fits), pred 0 or 1. Same seed, same bytes.
StatusOr<std::vector<std::byte>> RandomArgumentData(const ArgumentSpec& spec, uint64_t seed);

// Argument `index` of the program at `program_path`: saved values where the
// program has a folder of them beside it (NAME.args/arg<index>.npy for
// NAME.mlir or NAME.hlo: a model's real or realistic weights, such as
// bench/models/gen_models.py --args writes; their type and shape must be the
// argument's), else RandomArgumentData with seed 0x5EED + index. `saved` is
// set when the values came from the folder.
StatusOr<std::vector<std::byte>> ArgumentData(const std::string& program_path, size_t index,
                                              const ArgumentSpec& spec, bool* saved = nullptr);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_PROGRAM_H_
