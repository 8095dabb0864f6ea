// libFuzzer entry point for the binary module loader: any input must give a
// module or an INVALID_ARGUMENT error, and a loaded module must print and
// serialize to bytes that load back to the same printed text. Inputs that
// look like whole serialized modules are also decoded without their header
// and checksum, so mutations reach the structural checks instead of stopping
// at the checksum. Not part of the normal build (tests/fuzz/ is not globbed).
// Build and run from the repository root:
//
//   IR="src/stablehlo/serialize.cc src/stablehlo/ir.cc src/stablehlo/printer.cc
//       src/stablehlo/element_type.cc src/stablehlo/op_code.cc
//       src/stablehlo/float_format.cc src/common/status.cc"
//   clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined \
//     -Iinclude -Isrc tests/fuzz/module_loader_fuzz.cc $IR -o /tmp/module_loader_fuzz
//
// Seeds: the same file built with -DPLUGRT_WRITE_SEEDS (and without
// -fsanitize=fuzzer) is a tool writing serialized corpus programs:
//
//   clang++-14 -std=c++20 -O1 -DPLUGRT_WRITE_SEEDS -Iinclude -Isrc \
//     tests/fuzz/module_loader_fuzz.cc $IR src/stablehlo/parser*.cc \
//     src/stablehlo/lexer.cc -o /tmp/module_loader_seeds
//   mkdir -p /tmp/loader_corpus
//   /tmp/module_loader_seeds /tmp/loader_corpus ../shared/stablehlo/interpret/*.mlir
//   /tmp/module_loader_fuzz -max_total_time=60 -max_len=65536 /tmp/loader_corpus
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "stablehlo/printer.h"
#include "stablehlo/serialize.h"

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

#ifndef PLUGRT_WRITE_SEEDS

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

#else  // PLUGRT_WRITE_SEEDS

#include <cstdio>
#include <fstream>
#include <sstream>

#include "stablehlo/parser.h"

// module_loader_seeds OUT_DIR FILE.mlir...: writes every section that parses.
int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR FILE.mlir...\n", argv[0]);
    return 2;
  }
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    int section = 0;
    for (const auto& s : shlo::SplitSections(source)) {
      auto module = shlo::ParseModule(s.text, argv[i], s.first_line);
      ++section;
      if (!module.ok()) continue;
      std::string name = argv[i];
      name = name.substr(name.find_last_of('/') + 1);
      std::ofstream out(std::string(argv[1]) + "/" + name + "." + std::to_string(section) + ".bin",
                        std::ios::binary);
      out << shlo::SerializeModule(**module);
      ++written;
    }
  }
  std::printf("wrote %d seeds\n", written);
  return 0;
}

#endif  // PLUGRT_WRITE_SEEDS
