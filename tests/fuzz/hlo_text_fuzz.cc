// libFuzzer entry point for the HLO text reader (text -> HloModuleProto ->
// IR): any input must give a module or an INVALID_ARGUMENT / UNIMPLEMENTED
// error, never a crash, and a module read must survive the verifier. Built
// and run by tests/fuzz/CMakeLists.txt; seeds: tests/fuzz/hlo_seeds/.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/importers/hlo/hlo_reader.h"
#include "stablehlo/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  plugrt::shlo::ReadOptions options;  // elided constants filled, so more text gets through
  options.elided.mode = plugrt::shlo::ElidedConstantFill::Mode::kZeros;
  auto module = plugrt::shlo::ReadHloText(text, "fuzz.hlo", options);
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
