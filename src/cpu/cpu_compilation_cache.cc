#include "cpu/cpu_compilation_cache.h"

#include "common/content_hash.h"
#include "cpu/cpu_version.h"

namespace plugrt::cpu {

std::string CompilationCacheKey(const sdk::Program& program, std::string_view compile_options,
                                const CpuOptions& options) {
  ContentHasher hasher;
  // Each field framed by its length, so boundaries count.
  auto field = [&](std::string_view bytes) {
    hasher.UpdateU64(bytes.size());
    hasher.Update(bytes);
  };
  field("plugrt-cpu compilation cache key 1");
  field(kPluginVersion);
  field(program.format);
  field(program.code);
  field(compile_options);
  hasher.UpdateU64(options.program.fast_paths);
  hasher.UpdateU64(options.program.jit);
  hasher.UpdateU64(options.program.conformance_harness);
  hasher.UpdateU64(static_cast<uint64_t>(options.program.kernel_threads));
  hasher.UpdateU64(options.kernel_plugins.size());
  for (const std::string& path : options.kernel_plugins) field(path);
  return hasher.HexDigest();
}

StatusOr<std::shared_ptr<fs::CompilationCache>> OpenCompilationCache(const CpuOptions& options) {
  if (options.compilation_cache_dir.empty()) return std::shared_ptr<fs::CompilationCache>();
  return fs::CompilationCache::Open(options.compilation_cache_dir,
                                    options.compilation_cache_max_bytes);
}

}  // namespace plugrt::cpu
