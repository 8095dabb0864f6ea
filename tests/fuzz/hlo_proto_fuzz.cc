// libFuzzer entry point for the HLO proto reader (format "hlo": a serialized
// HloModuleProto -> IR): reader_outcome.h says what each input must give.
// Seeds: the HLO text seeds as protos (write_seeds.cc).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compiler/importers/hlo/hlo_reader.h"
#include "reader_outcome.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  plugrt::fuzz::CheckReaderOutcome(plugrt::shlo::ReadHloModuleProto(bytes, "fuzz.pb"));
  return 0;
}
