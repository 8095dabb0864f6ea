#include "cpu/cpu_compilation_cache.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>

#include "common/content_hash.h"
#include "cpu/cpu_version.h"

namespace plugrt::cpu {
namespace {

// The GNU build ID of the binary holding this code (the CPU plugin), so a
// rebuilt plugin of the same version never loads its predecessor's entries;
// empty when the linker wrote none.
std::string BuildId() {
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&BuildId), &self) == 0) return "";
  struct Search {
    const void* base;
    std::string id;
  } search{self.dli_fbase, ""};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        bool mine = false;
        for (int i = 0; i < info->dlpi_phnum && !mine; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && ph.p_offset == 0 &&
              reinterpret_cast<const void*>(info->dlpi_addr + ph.p_vaddr) == s->base) {
            mine = true;
          }
        }
        if (!mine) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          const char* end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof(note));
            const char* name = at + sizeof(note);
            const char* desc = name + ((note.n_namesz + 3) & ~3u);
            if (desc + note.n_descsz > end) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              s->id.assign(desc, note.n_descsz);
              return 1;
            }
            at = desc + ((note.n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

}  // namespace

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
  static const std::string build_id = BuildId();
  field(build_id);
  field(program.format);
  field(program.code);
  field(compile_options);
  hasher.UpdateU64(options.program.fast_paths);
  hasher.UpdateU64(options.program.jit);
  hasher.UpdateU64(options.program.conformance_harness);
  hasher.UpdateU64(static_cast<uint64_t>(options.program.kernel_threads));
  hasher.UpdateU64(options.kernel_plugins.size());
  for (const std::string& path : options.kernel_plugins) field(path);
  // Optimizer plugins rewrite programs and, with the user's switches, decide
  // which passes run (a compile's own switches are in its compile options).
  hasher.UpdateU64(options.optimizer_plugins.size());
  for (const std::string& path : options.optimizer_plugins) field(path);
  for (PLUGRT_PassSwitch value : options.program.pipeline.user_passes.values) {
    hasher.UpdateU64(static_cast<uint64_t>(value));
  }
  return hasher.HexDigest();
}

StatusOr<std::shared_ptr<fs::CompilationCache>> OpenCompilationCache(const CpuOptions& options) {
  if (options.compilation_cache_dir.empty()) return std::shared_ptr<fs::CompilationCache>();
  return fs::CompilationCache::Open(options.compilation_cache_dir,
                                    options.compilation_cache_max_bytes);
}

}  // namespace plugrt::cpu
