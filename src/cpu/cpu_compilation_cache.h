// plugrt CPU backend: what the persistent compilation cache
// (filesystem/compilation_cache.h) holds for the CPU plugin. An entry is an
// executable as CpuExecutable::Serialize writes it (the verified, lowered
// module and its compile options); a hit skips parsing, verification and
// lowering and rebuilds the plan with CpuExecutable::Deserialize.
#ifndef PLUGRT_CPU_CPU_COMPILATION_CACHE_H_
#define PLUGRT_CPU_CPU_COMPILATION_CACHE_H_

#include <memory>
#include <string>
#include <string_view>

#include "cpu/cpu_options.h"
#include "filesystem/compilation_cache.h"
#include "sdk/executable.h"

namespace plugrt::cpu {

// Everything a compile's result depends on: the program (format and bytes,
// so its content fingerprint), the serialized compile options, the plugin's
// version and build (its GNU build ID: a rebuilt plugin starts a new set of
// entries), and the client's options that shape the plan (fast paths, jit,
// the test harness, the kernel thread budget, the kernel plugins' paths).
std::string CompilationCacheKey(const sdk::Program& program, std::string_view compile_options,
                                const CpuOptions& options);

// The cache of `options` (compilation_cache_dir), or null when it is off.
StatusOr<std::shared_ptr<fs::CompilationCache>> OpenCompilationCache(const CpuOptions& options);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_COMPILATION_CACHE_H_
