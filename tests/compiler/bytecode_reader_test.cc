// The portable-artifact (MLIR bytecode / VHLO) reader: every artifact of the
// corpus' vhlo/ folder reads into the program its .mlir twin parses to; op
// versions from the future, newer formats and damaged files are refused with
// INVALID_ARGUMENT naming the byte offset; and bytecode compiles and runs
// through the plugin like text.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "compiler/importers/bytecode/canonical.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/bytecode/writer.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "compiler/same_ir.h"
#include "testutil/corpus.h"
#include "testutil/plugin_env.h"

namespace plugrt::shlo {
namespace {

namespace fs = std::filesystem;
using testutil::CorpusDir;
using testutil::ReadFile;

// Artifacts of vhlo/ that must read identically to their twins (printed,
// and as IR structure). Floors only rise.
constexpr int kIdenticalFloor = 33;
constexpr int kSameIrFloor = 33;

std::string Canonical(Module& module) {
  CanonicalizeAttributeOrder(module);
  return PrintModule(module);
}

std::vector<fs::path> BytecodeFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(CorpusDir() / "vhlo")) {
    std::string name = entry.path().filename().string();
    if (name.size() > 8 && name.ends_with(".mlir.bc") && name != "invalid_vhlo_future.mlir.bc") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The first differing line of each function that differs.
std::string DescribeDifference(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < s.size()) {
      size_t end = s.find('\n', start);
      if (end == std::string::npos) end = s.size();
      lines.push_back(s.substr(start, end - start));
      start = end + 1;
    }
    return lines;
  };
  std::vector<std::string> x = split(a), y = split(b);
  std::string out;
  std::string function;
  bool reported = false;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (x[i].rfind("  func.func", 0) == 0) {
      function = x[i];
      reported = false;
    }
    if (x[i] != y[i] && !reported) {
      out += "\n  in " + function + "\n    bytecode: " + x[i] + "\n    text:     " + y[i];
      reported = true;
    }
    if (x[i].rfind("  func.func", 0) == 0 && y[i].rfind("  func.func", 0) != 0) break;
  }
  if (x.size() != y.size()) out += StrCat("\n  (", x.size(), " vs ", y.size(), " lines)");
  return out;
}

TEST(BytecodeReaderTest, CorpusArtifactsReadAsTheirTextTwins) {
  std::vector<fs::path> files = BytecodeFiles();
  ASSERT_EQ(files.size(), 33u);
  int identical = 0;
  for (const fs::path& bc : files) {
    fs::path twin = bc;
    twin.replace_extension();  // drop ".bc"
    StatusOr<std::unique_ptr<Module>> from_bc = ReadBytecodeModule(ReadFile(bc), bc.string());
    StatusOr<std::unique_ptr<Module>> from_text = ParseModule(ReadFile(twin), twin.string());
    if (!from_bc.ok()) {
      ADD_FAILURE() << bc.filename() << ": " << from_bc.status().ToString();
      continue;
    }
    if (!from_text.ok()) {
      ADD_FAILURE() << twin.filename() << " (text): " << from_text.status().ToString();
      continue;
    }
    std::string a = Canonical(**from_bc), b = Canonical(**from_text);
    if (a == b) {
      ++identical;
      continue;
    }
    ADD_FAILURE() << bc.filename() << " differs from its twin:" << DescribeDifference(a, b);
  }
  std::cout << identical << " of " << files.size() << " artifacts read identically\n";
  EXPECT_GE(identical, kIdenticalFloor);
}

// Every artifact builds the very IR its twin parses to (the reader builds
// IR straight from the bytecode, so equal printing alone could hide, say, an
// attribute of another kind that prints the same).
TEST(BytecodeReaderTest, CorpusArtifactsBuildTheIrOfTheirTextTwins) {
  std::vector<fs::path> files = BytecodeFiles();
  int same = 0;
  for (const fs::path& bc : files) {
    fs::path twin = bc;
    twin.replace_extension();  // drop ".bc"
    StatusOr<std::unique_ptr<Module>> from_bc = ReadBytecodeModule(ReadFile(bc), bc.string());
    StatusOr<std::unique_ptr<Module>> from_text = ParseModule(ReadFile(twin), twin.string());
    ASSERT_TRUE(from_bc.ok()) << from_bc.status().ToString();
    ASSERT_TRUE(from_text.ok()) << from_text.status().ToString();
    CanonicalizeAttributeOrder(**from_bc);
    CanonicalizeAttributeOrder(**from_text);
    std::string difference = SameIr().Compare(**from_bc, **from_text);
    if (difference.empty()) {
      ++same;
    } else {
      ADD_FAILURE() << bc.filename() << " builds other IR than its twin: " << difference;
    }
  }
  std::cout << same << " of " << files.size() << " artifacts build the IR of their twins\n";
  EXPECT_GE(same, kSameIrFloor);
}

// Damage inside the program (not the container): values used before their
// definition or out of their region, and a body whose argument types differ
// from the function type, give errors naming the byte offset, not a crash
// (the text parser caught these when the reader went through text).
TEST(BytecodeReaderTest, DamagedProgramsGiveErrorsNamingTheOffset) {
  const std::string text = R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %a : tensor<f32>
  %1 = stablehlo.multiply %0, %a : tensor<f32>
  return %1 : tensor<f32>
})";
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> parsed, ParseModule(text, "p.mlir"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, WriteBytecodeModule(*parsed, ""));
  PLUGRT_ASSERT_OK(ReadBytecodeModule(bytes, "p.mlirbc").status());
  // Flip every byte of the file in turn: each read either gives a program
  // that verifies or not, or an INVALID_ARGUMENT naming a byte offset.
  int errors = 0;
  for (size_t i = 4; i < bytes.size(); ++i) {
    for (unsigned char flip : {0x01u, 0x02u, 0x80u}) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ flip);
      StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(damaged, "p.mlirbc");
      if (m.ok()) continue;
      ++errors;
      EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument) << m.status().ToString();
      EXPECT_NE(m.status().message().find("at byte "), std::string::npos)
          << "byte " << i << ": " << m.status().ToString();
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(BytecodeReaderTest, FutureOpVersionIsRefusedByName) {
  fs::path path = CorpusDir() / "vhlo" / "invalid_vhlo_future.mlir.bc";
  StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(ReadFile(path), path.string());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("vhlo.constant_v99"), std::string::npos)
      << m.status().ToString();
  EXPECT_NE(m.status().message().find("at byte "), std::string::npos) << m.status().ToString();
}

// Ops keep the source location the bytecode records for them.
TEST(BytecodeReaderTest, LocationsComeFromTheBytecode) {
  fs::path path = CorpusDir() / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc";
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> m,
                              ReadBytecodeModule(ReadFile(path), path.string()));
  const Function* main = m->FindFunction("main");
  ASSERT_NE(main, nullptr);
  const Operation& add = *main->body->front().operations.at(0);
  EXPECT_EQ(add.name, "stablehlo.add");
  ASSERT_NE(add.location.source, nullptr);
  std::string where = add.location.ToString();
  EXPECT_NE(where.find("vhlo_emit_version_api.mlir:"), std::string::npos) << where;
}

// JAX puts Shardy's sdy.sharding_rule on the custom calls it exports (its
// lapack_?trsm_ffi calls among them). MLIR writes such an attribute as its
// text, filed under its own dialect ("sdy"), which the reader must accept
// as the text parser does.
TEST(BytecodeReaderTest, OtherDialectsAttributesOnOpsAreKeptAsText) {
  const std::string text = R"(
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {api_version = 4 : i32,
      sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, k]) {i=4, j=4, k=4}, custom>}
      : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
})";
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> parsed, ParseModule(text, "trsm.mlir"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, WriteBytecodeModule(*parsed, ""));
  // The dialect section names "sdy" (the string table holds it).
  EXPECT_NE(bytes.find(std::string("sdy") + '\0'), std::string::npos);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> read,
                              ReadBytecodeModule(bytes, "trsm.mlirbc"));
  const Function* main = read->FindFunction("main");
  ASSERT_NE(main, nullptr);
  const Operation& call = *main->body->front().operations.at(0);
  const Attribute* rule = call.attribute("sdy.sharding_rule");
  ASSERT_NE(rule, nullptr);
  EXPECT_NE(rule->ToString().find("#sdy.op_sharding_rule<([i, j], [i, k])->([i, k])"),
            std::string::npos)
      << rule->ToString();
  EXPECT_EQ(Canonical(*read), Canonical(*parsed));
}

TEST(BytecodeReaderTest, NewerBytecodeVersionIsRefused) {
  std::string bytes = ReadFile(CorpusDir() / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc");
  bytes[4] = static_cast<char>((7 << 1) | 1);  // format version 7
  StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(bytes, "v7.mlirbc");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("bytecode version 7"), std::string::npos)
      << m.status().ToString();
}

// Truncations and flipped bytes at many offsets: an error or a program,
// never a crash or hang (run under the sanitizers in CI).
TEST(BytecodeReaderTest, DamagedFilesGiveErrorsNotCrashes) {
  for (const char* name : {"stablehlo_legalize_to_vhlo.1_20_0.mlir.bc",
                           "stablehlo_legalize_to_vhlo.0_9_0.mlir.bc"}) {
    std::string bytes = ReadFile(CorpusDir() / "vhlo" / name);
    int errors = 0;
    for (size_t n = 0; n < bytes.size(); n += 401) {
      StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(bytes.substr(0, n), name);
      ASSERT_FALSE(m.ok()) << name << " truncated to " << n;
      EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
      ++errors;
    }
    for (size_t i = 4; i < bytes.size(); i += 97) {
      for (unsigned char flip : {0x01u, 0xFFu}) {
        std::string damaged = bytes;
        damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ flip);
        StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(damaged, name);
        if (!m.ok()) {
          EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
        }
      }
    }
    EXPECT_GT(errors, 0);
  }
}

// Bytecode written by hand: a prefix varint, and a section.
std::string VarInt(uint64_t v) {
  std::string out;
  if (v < 128) return std::string(1, static_cast<char>((v << 1) | 1));
  uint64_t encoded = (v << 2) | 2;  // two bytes: up to 2^14
  out.push_back(static_cast<char>(encoded & 0xFF));
  out.push_back(static_cast<char>(encoded >> 8));
  return out;
}
std::string Section(int id, const std::string& data) {
  return std::string(1, static_cast<char>(id)) + VarInt(data.size()) + data;
}

// Types that share types spell them out at each use: a tuple of 8 tuples of
// 8 ... of f32, twelve deep, would be 8^12 names long. The reader must stop
// at a bound, not try to allocate it.
TEST(BytecodeReaderTest, SharedTypesDoNotExpandWithoutBound) {
  std::string strings = VarInt(3) + VarInt(7) + VarInt(5) + VarInt(8) +
                        std::string("builtin\0vhlo\0module\0", 20);
  std::string dialects = VarInt(2) + VarInt(0 << 1) + VarInt(1 << 1) + VarInt(1) +
                         VarInt(0) + VarInt(1) + VarInt(2);
  const int kLevels = 12;
  std::string offsets = VarInt(1) + VarInt(kLevels + 1);
  offsets += VarInt(0) + VarInt(1) + VarInt((1 << 1) | 1);  // builtin: UnknownLoc
  offsets += VarInt(1) + VarInt(kLevels + 1) + VarInt((1 << 1) | 1);  // vhlo: f32
  std::string data = VarInt(15) + VarInt(4);
  for (int k = 1; k <= kLevels; ++k) {
    std::string tuple = VarInt(23) + VarInt(8);
    for (int i = 0; i < 8; ++i) tuple += VarInt(k - 1);
    offsets += VarInt((tuple.size() << 1) | 1);
    data += tuple;
  }
  // One op (builtin.module) with one result of the deepest type.
  std::string ir = VarInt(1 << 1) + VarInt(0) + std::string(1, '\x02') + VarInt(0) + VarInt(1) +
                   VarInt(kLevels);
  std::string bytes = std::string("ML\xEFR", 4) + VarInt(4) + std::string("test\0", 5) +
                      Section(0, strings) + Section(1, dialects) + Section(3, offsets) +
                      Section(2, data) + Section(4, ir);
  StatusOr<std::unique_ptr<Module>> m = ReadBytecodeModule(bytes, "bomb.mlirbc");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("too large"), std::string::npos) << m.status().ToString();
}

TEST(BytecodeReaderTest, BytecodeCompilesAndRunsThroughThePlugin) {
  std::string bytes = ReadFile(CorpusDir() / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(1));
  StatusOr<LoadedExecutable> exe = client->Compile(bytes);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, exe->addressable_devices());
  Buffer x = testing::Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {}, {2.5f});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, exe->Execute({{&x}}));
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].size(), 1u);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> out, results[0][0].ToHostVector());
  ASSERT_EQ(out.size(), sizeof(float));
  float value = 0;
  std::memcpy(&value, out.data(), sizeof(float));
  EXPECT_EQ(value, 5.0f);  // @main adds its argument to itself
}

}  // namespace
}  // namespace plugrt::shlo
