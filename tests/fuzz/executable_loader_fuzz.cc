// libFuzzer entry point for the CPU plugin's serialized-executable loader
// (CpuExecutable::Deserialize): any input must give an executable or an
// error, never a crash; a loaded executable must serialize to bytes that load
// again with the same fingerprint. Inputs that start with the "PLUGRTEX"
// magic get their trailing checksum recomputed first, so mutations reach the
// envelope's field checks (the module inside keeps its own checksum; its
// decoder has its own fuzz target, module_loader_fuzz.cc). Built and run by
// tests/fuzz/CMakeLists.txt; longer runs: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/content_hash.h"
#include "cpu/cpu_executable.h"
#include "compiler/importers/serialize.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  // Header (20 bytes) + checksum (8): re-frame so the checksum matches.
  constexpr size_t kHeader = 20;
  constexpr size_t kTrailer = 8;
  if (bytes.size() >= kHeader + kTrailer && bytes.compare(0, 8, "PLUGRTEX") == 0) {
    const size_t checked = bytes.size() - kTrailer;
    uint64_t hash = plugrt::Checksum64(std::string_view(bytes).substr(0, checked));
    for (size_t i = 0; i < 8; ++i) bytes[checked + i] = static_cast<char>((hash >> (8 * i)) & 0xff);
  }
  auto loaded = plugrt::cpu::CpuExecutable::Deserialize(bytes);
  if (!loaded.ok()) return 0;
  auto again_bytes = (*loaded)->Serialize();
  if (!again_bytes.ok()) std::abort();
  auto again = plugrt::cpu::CpuExecutable::Deserialize(*again_bytes);
  if (!again.ok() || *(*again)->fingerprint() != *(*loaded)->fingerprint()) std::abort();
  return 0;
}
