// libFuzzer entry point for the HLO proto reader (format "hlo": a serialized
// HloModuleProto -> IR): any bytes must give a module or an
// INVALID_ARGUMENT / UNIMPLEMENTED error, never a crash, and a module read
// must survive the verifier. Seeds: the HLO text seeds as protos
// (write_seeds.cc).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/importers/hlo/hlo_reader.h"
#include "stablehlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto module = plugrt::shlo::ReadHloModuleProto(bytes, "fuzz.pb");
  if (!module.ok()) {
    const plugrt::StatusCode code = module.status().code();
    if (code != plugrt::StatusCode::kInvalidArgument && code != plugrt::StatusCode::kUnimplemented) {
      std::abort();
    }
    return 0;
  }
  (void)plugrt::shlo::VerifyModule(**module);
  return 0;
}
