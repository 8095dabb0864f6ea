// fuzz_seeds OUT_DIR FILE.mlir...: writes the seed corpora of the three fuzz
// targets from StableHLO programs. For every `// -----` section that parses:
//   OUT_DIR/parser/NAME.N.mlir          the section's text (parser_fuzz)
//   OUT_DIR/module/NAME.N.bin           its serialized module (module_loader_fuzz)
//   OUT_DIR/executable/NAME.N.plugrtex  its serialized executable, when it
//                                       compiles (executable_loader_fuzz)
// and OUT_DIR/bytecode/mhlo_program.mlirbc, an MHLO program as MLIR bytecode
// (bytecode_fuzz, next to the corpus' portable artifacts).
// OUT_DIR is emptied first. Fails when a file cannot be read or nothing was written, so a broken seed
// step cannot leave the fuzzers running on empty corpora.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cpu/cpu_executable.h"
#include "compiler/importers/mlir/parser.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/serialize.h"
#include "compiler/mhlo_bytecode_program.h"

namespace {

bool WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  namespace shlo = plugrt::shlo;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR FILE.mlir...\n", argv[0]);
    return 2;
  }
  const fs::path out = argv[1];
  fs::remove_all(out);
  for (const char* dir : {"parser", "module", "executable", "hlo_text", "hlo_proto", "bytecode"}) {
    fs::create_directories(out / dir);
  }
  if (!WriteFile(out / "bytecode" / "mhlo_program.mlirbc", shlo::bc_test::MhloBytecode())) {
    std::fprintf(stderr, "fuzz_seeds: cannot write the bytecode seed\n");
    return 1;
  }
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_seeds: cannot read %s\n", argv[i]);
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    const std::string stem = fs::path(argv[i]).stem().string();
    if (fs::path(argv[i]).extension() == ".hlo") {  // HLO text: itself and its proto
      auto proto = shlo::HloTextToProtoBytes(source, argv[i]);
      if (!proto.ok() || !WriteFile(out / "hlo_text" / (stem + ".hlo"), source) ||
          !WriteFile(out / "hlo_proto" / (stem + ".pb"), *proto)) {
        std::fprintf(stderr, "fuzz_seeds: cannot write the HLO seeds of %s\n", argv[i]);
        return 1;
      }
      ++written;
      continue;
    }
    int section = 0;
    for (const shlo::SourceSection& s : shlo::SplitSections(source)) {
      const std::string name = stem + "." + std::to_string(++section);
      auto module = shlo::ParseModule(s.text, argv[i], s.first_line);
      if (!module.ok()) continue;
      bool ok = WriteFile(out / "parser" / (name + ".mlir"), s.text) &&
                WriteFile(out / "module" / (name + ".bin"), shlo::SerializeModule(**module));
      auto executable = plugrt::cpu::CpuExecutable::Compile(s.text, argv[i]);
      if (executable.ok()) {
        auto bytes = (*executable)->Serialize();
        ok = ok && bytes.ok() && WriteFile(out / "executable" / (name + ".plugrtex"), *bytes);
      }
      if (!ok) {
        std::fprintf(stderr, "fuzz_seeds: cannot write the seeds of %s\n", name.c_str());
        return 1;
      }
      ++written;
    }
  }
  std::printf("fuzz_seeds: seeds from %d sections\n", written);
  return written > 0 ? 0 : 1;
}
