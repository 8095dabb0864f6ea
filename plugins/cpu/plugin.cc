// The CPU plugin's only export: the PJRT_Api table around the CPU backend.
#include <memory>

#include "cpu/cpu_plugin.h"
#include "pjrt_c_api.h"
#include "sdk/plugin.h"

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() {
  // Built once; loaders may call this repeatedly. No exception may cross the
  // C boundary: if the table cannot be built, the loader sees null.
  static const PJRT_Api* const api = []() -> const PJRT_Api* {
    try {
      return plugrt::sdk::BuildApi(std::make_unique<plugrt::cpu::CpuPlugin>());
    } catch (...) {
      return nullptr;
    }
  }();
  return api;
}
