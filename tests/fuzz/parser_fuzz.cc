// libFuzzer entry point for the StableHLO parser and printer: any input must
// give a module or an INVALID_ARGUMENT error, and a parsed module must print
// to text that parses again. Built and run by tests/fuzz/CMakeLists.txt;
// longer runs: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = plugrt::shlo::ParseModule(text, "fuzz.mlir");
  if (!module.ok()) {
    if (module.status().code() != plugrt::StatusCode::kInvalidArgument) std::abort();
    return 0;
  }
  std::string printed = plugrt::shlo::PrintModule(**module);
  auto again = plugrt::shlo::ParseModule(printed, "printed.mlir");
  // A module whose print does not parse back is a printer or parser bug.
  if (!again.ok() || plugrt::shlo::PrintModule(**again) != printed) std::abort();
  return 0;
}
