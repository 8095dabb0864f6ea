// libFuzzer entry point for the binary module loader: any input must give a
// module or an INVALID_ARGUMENT error, and a loaded module must print and
// serialize to bytes that load back to the same printed text. Inputs that
// look like whole serialized modules are also decoded without their header
// and checksum, so mutations reach the structural checks instead of stopping
// at the checksum. Built and run by tests/fuzz/CMakeLists.txt; longer runs:
// docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "stablehlo/printer.h"
#include "compiler/importers/serialize.h"

namespace {

using plugrt::StatusCode;
namespace shlo = plugrt::shlo;

void CheckResult(const plugrt::StatusOr<std::unique_ptr<shlo::Module>>& loaded) {
  if (!loaded.ok()) {
    if (loaded.status().code() != StatusCode::kInvalidArgument) std::abort();
    return;
  }
  std::string printed = shlo::PrintModule(**loaded);
  auto again = shlo::DeserializeModule(shlo::SerializeModule(**loaded));
  // A loaded module that does not survive its own round trip is a bug.
  if (!again.ok() || shlo::PrintModule(**again) != printed) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  CheckResult(shlo::DeserializeModule(bytes));
  constexpr size_t kFrame = shlo::internal::kModuleHeaderSize + shlo::internal::kModuleTrailerSize;
  if (bytes.size() >= kFrame && bytes.substr(0, 8) == "PLUGRTIR") {
    std::string_view payload = bytes.substr(shlo::internal::kModuleHeaderSize,
                                            bytes.size() - kFrame);
    CheckResult(shlo::internal::DecodeModulePayload(payload));
  } else {
    CheckResult(shlo::internal::DecodeModulePayload(bytes));
  }
  return 0;
}
