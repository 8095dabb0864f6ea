// libFuzzer entry point for the portable-artifact (MLIR bytecode) reader: any
// input must give a module or an INVALID_ARGUMENT error, never a crash, an
// unbounded allocation or a hang; modules read go through the writer too.
// Seeds: the corpus' vhlo/ artifacts. Built and run by
// tests/fuzz/CMakeLists.txt; longer runs: docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/bytecode/writer.h"
#include "stablehlo/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto module = plugrt::shlo::ReadBytecodeModule(bytes, "fuzz.mlirbc");
  if (!module.ok()) {
    if (module.status().code() != plugrt::StatusCode::kInvalidArgument) std::abort();
    return 0;
  }
  // A module that was read prints, and the writer takes it (a program or a
  // refusal, never a crash) for the newest or, by the input's last byte, the
  // oldest target (one write per input keeps the run short); what it writes
  // reads back without a crash.
  (void)plugrt::shlo::PrintModule(**module);
  const char* target = (data[size - 1] & 1) ? "0.9.0" : "1.20.0";
  auto written = plugrt::shlo::WriteBytecodeModule(**module, target);
  if (written.ok()) (void)plugrt::shlo::ReadBytecodeModule(*written, "fuzz-written.mlirbc");
  return 0;
}
