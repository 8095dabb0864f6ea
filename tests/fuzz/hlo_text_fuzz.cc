// libFuzzer entry point for the HLO text reader (text -> HloModuleProto ->
// IR): reader_outcome.h says what each input must give. Built and run by
// tests/fuzz/CMakeLists.txt; seeds: tests/fuzz/hlo_seeds/.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compiler/importers/hlo/hlo_reader.h"
#include "reader_outcome.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // Elided constants stay refused: filling one allocates what its shape
  // says, which no input size bounds (the fill has its own tests).
  plugrt::fuzz::CheckReaderOutcome(
      plugrt::shlo::ReadHloText(text, "fuzz.hlo", plugrt::shlo::ReadOptions{}));
  return 0;
}
