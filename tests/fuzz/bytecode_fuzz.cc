// libFuzzer entry point for the portable-artifact (MLIR bytecode) reader: any
// input must give a module or an INVALID_ARGUMENT error, never a crash, an
// unbounded allocation or a hang. Seeds: the corpus' vhlo/ artifacts. Built
// and run by tests/fuzz/CMakeLists.txt; longer runs: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "stablehlo/bytecode/reader.h"
#include "stablehlo/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto module = plugrt::shlo::ReadBytecodeModule(bytes, "fuzz.mlirbc");
  if (!module.ok()) {
    if (module.status().code() != plugrt::StatusCode::kInvalidArgument) std::abort();
    return 0;
  }
  // A module that was read prints.
  (void)plugrt::shlo::PrintModule(**module);
  return 0;
}
