#include "tools/bench_cache.h"

#include <stdlib.h>

#include <filesystem>
#include <vector>

#include "filesystem/file_io.h"

namespace plugrt::tools {

StatusOr<CompileCacheResult> MeasureCompileCache(std::shared_ptr<Plugin> plugin,
                                                 const ClientOptions& options,
                                                 std::string_view text, const std::string& path,
                                                 const RepeatPolicy& policy) {
  char pattern[] = "/tmp/plugrt-bench-cache-XXXXXX";
  if (mkdtemp(pattern) == nullptr) return Internal("plugrt bench: cannot create a temporary folder");
  const std::string root = pattern;
  struct Cleanup {
    std::string root;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(root, ignored);
    }
  } cleanup{root};

  auto compile_ms = [&](const std::string& dir, const char* form) -> StatusOr<double> {
    ClientOptions with_cache = options;
    with_cache.create_options.push_back(NamedValue{"compilation_cache_dir", dir});
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(plugin, with_cache));
    const long long start = NowNanoseconds();
    StatusOr<LoadedExecutable> compiled = client->Compile(text);
    const double ms = MillisecondsSince(start);
    if (!compiled.ok()) {
      return Status(compiled.status().code(), StrCat(path, ": ", form, " compile failed: ",
                                                     compiled.status().message()));
    }
    return ms;
  };
  const std::string warm_dir = root + "/warm";
  PLUGRT_RETURN_IF_ERROR(compile_ms(warm_dir, "populating").status());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> names, fs::GetChildren(warm_dir));
  CompileCacheResult result;
  for (const std::string& name : names) {
    if (name.ends_with(".pcc")) result.entry_bytes += fs::Stat(warm_dir + "/" + name)->length;
  }
  if (result.entry_bytes == 0) {
    return FailedPrecondition(path, ": the plugin stored no compilation cache entry (does it "
                                    "support the compilation_cache_dir option?)");
  }
  std::vector<double> cold_ms, warm_ms;
  int cold_dirs = 0;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> pairs,
                          TimeRepeated(policy, [&]() -> StatusOr<double> {
                            const std::string cold_dir = StrCat(root, "/cold", cold_dirs++);
                            PLUGRT_ASSIGN_OR_RETURN(double c, compile_ms(cold_dir, "cold"));
                            PLUGRT_ASSIGN_OR_RETURN(double w, compile_ms(warm_dir, "warm"));
                            cold_ms.push_back(c);
                            warm_ms.push_back(w);
                            return c + w;
                          }));
  const size_t warmup = cold_ms.size() - pairs.size();
  cold_ms.erase(cold_ms.begin(), cold_ms.begin() + static_cast<std::ptrdiff_t>(warmup));
  warm_ms.erase(warm_ms.begin(), warm_ms.begin() + static_cast<std::ptrdiff_t>(warmup));
  result.cold = Summarize(std::move(cold_ms));
  result.warm = Summarize(std::move(warm_ms));
  if (result.cold.median > 0) result.warm_vs_cold = result.warm.median / result.cold.median;
  return result;
}

}  // namespace plugrt::tools
