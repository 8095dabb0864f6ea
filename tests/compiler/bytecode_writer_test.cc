// The portable-artifact writer: programs written as bytecode for a StableHLO
// version read back (plugrt's reader) into the program they were, in the
// canonical printed form; what a target version cannot express is refused
// naming the op or type and the version; each target gets the bytecode
// format version, and the producer, upstream writes for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "compiler/importers/bytecode/canonical.h"
#include "compiler/importers/bytecode/container.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/bytecode/writer.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "testutil/corpus.h"
#include "testutil/plugin_env.h"

namespace plugrt::shlo {
namespace {

namespace fs = std::filesystem;
using testutil::CorpusDir;
using testutil::ReadFile;

// (program, target) pairs that must read back identically: floors set in
// tests/CMakeLists.txt (they only rise).

// One target of each bytecode format version (0, 1, 3, 4, 6) and versions
// where ops gained versions.
const std::vector<std::string> kTargets = {"1.20.0", "1.9.0", "1.0.0", "0.14.0",
                                           "0.12.0", "0.10.0", "0.9.0"};

std::string Canonical(Module& module) {
  CanonicalizeAttributeOrder(module);
  return PrintModule(module);
}

// "stablehlo_legalize_to_vhlo.1_4_0" -> "1.4.0".
std::optional<std::string> VersionInName(const fs::path& file) {
  std::string stem = file.filename().string();
  stem = stem.substr(0, stem.find(".mlir"));
  size_t dot = stem.rfind('.');
  if (dot == std::string::npos) return std::nullopt;
  std::string v = stem.substr(dot + 1);
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0]))) return std::nullopt;
  std::replace(v.begin(), v.end(), '_', '.');
  return v;
}

struct Tally {
  int identical = 0;
  int refused = 0;
};

// Writes `module` for `target` and reads it back: identical, or refused
// with an INVALID_ARGUMENT that names the target; anything else fails.
void RoundTrip(const Module& module, const std::string& original, const std::string& target,
               const std::string& what, Tally* tally) {
  StatusOr<std::string> bytes = WriteBytecodeModule(module, target);
  if (!bytes.ok()) {
    EXPECT_EQ(bytes.status().code(), StatusCode::kInvalidArgument)
        << what << " @" << target << ": " << bytes.status().ToString();
    EXPECT_NE(bytes.status().message().find("writing StableHLO " + target), std::string::npos)
        << bytes.status().ToString();
    ++tally->refused;
    return;
  }
  StatusOr<std::unique_ptr<Module>> back = ReadBytecodeModule(*bytes, what + ".mlirbc");
  if (!back.ok()) {
    ADD_FAILURE() << what << " @" << target << " does not read back: " << back.status().ToString();
    return;
  }
  std::string again = Canonical(**back);
  if (again != original) {
    ADD_FAILURE() << what << " @" << target << " reads back differently";
    return;
  }
  ++tally->identical;
}

TEST(BytecodeWriterTest, VhloCorpusProgramsReadBackAtEveryTarget) {
  Tally tally;
  int own_version_identical = 0, programs = 0;
  for (const fs::path& file : testutil::MlirFiles(CorpusDir() / "vhlo")) {
    if (file.extension() != ".mlir") continue;
    StatusOr<std::unique_ptr<Module>> module = ParseModule(ReadFile(file), file.string());
    if (!module.ok()) continue;  // the upstream tests of invalid VHLO
    ++programs;
    std::unique_ptr<Module> copy = std::move(*module);
    std::string original = Canonical(*copy);
    std::vector<std::string> targets = kTargets;
    // The upstream tests of invalid downgrades name the version their
    // program cannot be written for.
    std::optional<std::string> own = VersionInName(file);
    const bool own_valid = own && file.filename().string().find("invalid") == std::string::npos;
    if (own && std::find(targets.begin(), targets.end(), *own) == targets.end()) {
      targets.push_back(*own);
    }
    for (const std::string& target : targets) {
      int before = tally.identical;
      RoundTrip(*copy, original, target, file.filename().string(), &tally);
      // A program written for its own version (the legalization and
      // downgrade tests) or for the current one always can be.
      if ((own_valid && target == *own) || target == "1.20.0") {
        EXPECT_EQ(tally.identical, before + 1) << file.filename() << " @" << target;
        if (own_valid && target == *own) ++own_version_identical;
      }
    }
  }
  std::cout << programs << " programs; " << tally.identical << " (program, target) pairs read "
            << "back identically, " << tally.refused << " refused\n";
  EXPECT_EQ(own_version_identical, 38);
  EXPECT_GE(tally.identical, PLUGRT_BYTECODE_WRITER_VHLO_FLOOR);
}

// Each X.mlir.bc twin: upstream's artifact and ours for the same version
// read into the same program, in the same bytecode format version, with the
// same producer string.
TEST(BytecodeWriterTest, OurArtifactsReadAsUpstreamTwins) {
  int twins = 0;
  for (const auto& entry : fs::directory_iterator(CorpusDir() / "vhlo")) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".mlir.bc") || name == "invalid_vhlo_future.mlir.bc") continue;
    std::optional<std::string> version = VersionInName(entry.path());
    ASSERT_TRUE(version.has_value()) << name;
    fs::path twin = entry.path();
    twin.replace_extension();
    std::string upstream_bytes = ReadFile(entry.path());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> upstream,
                                ReadBytecodeModule(upstream_bytes, name));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> text,
                                ParseModule(ReadFile(twin), twin.string()));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string ours, WriteBytecodeModule(*text, *version));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> back, ReadBytecodeModule(ours, name));
    EXPECT_EQ(Canonical(*back), Canonical(*upstream)) << name;
    // Magic, format version, producer "StableHLO_vX.Y.Z\0".
    size_t header = upstream_bytes.find('\0') + 1;
    EXPECT_EQ(ours.substr(0, header), upstream_bytes.substr(0, header)) << name;
    ++twins;
  }
  EXPECT_EQ(twins, 33);
}

// A fixed sample of testdata/ (every 16th file in sorted order): JAX's
// programs read back at old and new targets; CHLO programs are refused.
// Then a sample of quantized/ (uniform quantized types).
TEST(BytecodeWriterTest, TestdataSampleReadsBack) {
  std::vector<fs::path> files = testutil::MlirFiles(CorpusDir() / "testdata");
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 1900u);
  Tally tally;
  int chlo = 0;
  for (size_t i = 0; i < files.size(); i += 16) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> module,
                                ParseModule(ReadFile(files[i]), files[i].string()));
    std::string original = Canonical(*module);
    bool has_chlo = original.find("\"chlo.") != std::string::npos;
    chlo += has_chlo;
    for (const char* target : {"1.20.0", "1.0.0", "0.14.0", "0.9.0"}) {
      int refused = tally.refused;
      RoundTrip(*module, original, target, files[i].filename().string(), &tally);
      EXPECT_EQ(tally.refused != refused, has_chlo) << files[i].filename() << " @" << target;
    }
  }
  // Quantized programs (every 4th of quantized/ that holds one module) at
  // the current version.
  std::vector<fs::path> quantized = testutil::MlirFiles(CorpusDir() / "quantized");
  ASSERT_GT(quantized.size(), 100u);
  int quantized_identical = 0;
  for (size_t i = 0; i < quantized.size(); i += 4) {
    StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadFile(quantized[i]), quantized[i].string());
    if (!module.ok()) continue;  // several modules in one file
    std::string original = Canonical(**module);
    const int refused = tally.refused, identical = tally.identical;
    RoundTrip(**module, original, "1.20.0", quantized[i].filename().string(), &tally);
    EXPECT_EQ(tally.refused, refused) << quantized[i].filename();
    quantized_identical += tally.identical - identical;
  }
  EXPECT_GE(quantized_identical, 10);
  std::cout << tally.identical << " (program, target) pairs of testdata/ and quantized/ read back "
            << "identically, "
            << tally.refused << " refused (" << chlo << " CHLO programs)\n";
  EXPECT_GE(tally.identical, PLUGRT_BYTECODE_WRITER_TESTDATA_FLOOR);
}

std::unique_ptr<Module> Parse(const std::string& text) {
  StatusOr<std::unique_ptr<Module>> m = ParseModule(text, "test.mlir");
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(*m) : nullptr;
}

void ExpectRefused(const Module& module, const std::string& target,
                   const std::vector<std::string>& mentions) {
  StatusOr<std::string> bytes = WriteBytecodeModule(module, target);
  ASSERT_FALSE(bytes.ok()) << "written for " << target;
  EXPECT_EQ(bytes.status().code(), StatusCode::kInvalidArgument);
  for (const std::string& m : mentions) {
    EXPECT_NE(bytes.status().message().find(m), std::string::npos)
        << "'" << m << "' not in: " << bytes.status().ToString();
  }
}

TEST(BytecodeWriterTest, OpNewerThanTheTargetIsRefused) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.tan"(%arg0) : (tensor<f32>) -> tensor<f32>
    "func.return"(%0) : (tensor<f32>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  ExpectRefused(*m, "1.3.0", {"stablehlo.tan", "1.4.0", "1.3.0"});
  PLUGRT_EXPECT_OK(WriteBytecodeModule(*m, "1.4.0").status());
  // A patch release has its minor release's op versions.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string patch, WriteBytecodeModule(*m, "1.9.3"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> back, ReadBytecodeModule(patch, "p"));
  EXPECT_EQ(back->functions.at(0)->body->front().operations.at(0)->name, "stablehlo.tan");
}

TEST(BytecodeWriterTest, AttributeNewerThanTheTargetIsRefused) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<5x2x4x9xf32>, %arg1: tensor<1x5x2xi32>) -> tensor<1x5x1xf32> {
    %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1, 2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<5x2x4x9xf32>, tensor<1x5x2xi32>) -> tensor<1x5x1xf32>
    "func.return"(%0) : (tensor<1x5x1xf32>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  ExpectRefused(*m, "1.0.0", {"stablehlo.gather", "_batching_dims", "1.1.0", "1.0.0"});
  PLUGRT_EXPECT_OK(WriteBytecodeModule(*m, "1.1.0").status());
}

TEST(BytecodeWriterTest, TypeNewerThanTheTargetIsRefused) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<2xf8E4M3>) -> tensor<2xf8E4M3> {
    "func.return"(%arg0) : (tensor<2xf8E4M3>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  ExpectRefused(*m, "1.6.0", {"vhlo.f8E4M3_v1", "1.7.0", "1.6.0"});
  PLUGRT_EXPECT_OK(WriteBytecodeModule(*m, "1.7.0").status());
}

TEST(BytecodeWriterTest, ChloAndBadTargetsAreRefused) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "chlo.erf"(%arg0) : (tensor<f32>) -> tensor<f32>
    "func.return"(%0) : (tensor<f32>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  ExpectRefused(*m, "1.20.0", {"chlo.erf", "lower CHLO"});
  for (const char* bad : {"2.0.0", "0.8.0", "1.2", "1.2.3.4", "v1.2.0", ""}) {
    if (std::string(bad).empty()) continue;  // empty: the current version
    StatusOr<std::string> bytes = WriteBytecodeModule(*m, bad);
    ASSERT_FALSE(bytes.ok()) << bad;
    EXPECT_EQ(bytes.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(bytes.status().message().find(bad), std::string::npos) << bytes.status().ToString();
  }
}

// Upstream's Version::getBytecodeVersion: the format older releases read.
TEST(BytecodeWriterTest, FormatVersionFollowsTheTarget) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.exponential"(%arg0) : (tensor<f32>) -> tensor<f32>
    "func.return"(%0) : (tensor<f32>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  const std::pair<const char*, int> cases[] = {{"0.9.0", 0},  {"0.10.0", 1}, {"0.11.0", 1},
                                               {"0.12.0", 3}, {"0.13.0", 3}, {"0.14.0", 4},
                                               {"0.15.0", 6}, {"1.0.0", 6},  {"1.20.0", 6}};
  for (const auto& [target, format] : cases) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, WriteBytecodeModule(*m, target));
    ASSERT_GT(bytes.size(), 5u);
    EXPECT_EQ(bytes.substr(0, 4), std::string("ML\xEFR", 4));
    EXPECT_EQ(static_cast<unsigned char>(bytes[4]), (format << 1) | 1) << target;
    EXPECT_EQ(bytes.substr(5, bytes.find('\0', 5) - 5), std::string("StableHLO_v") + target);
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> back, ReadBytecodeModule(bytes, target));
    EXPECT_EQ(back->functions.at(0)->body->front().operations.at(0)->name,
              "stablehlo.exponential");
  }
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string current, WriteBytecodeModule(*m, ""));
  EXPECT_EQ(current.substr(5, 18), std::string("StableHLO_v1.20.0\0", 18));
}

TEST(BytecodeWriterTest, SourceLocationsAreWritten) {
  std::unique_ptr<Module> m = Parse(R"(module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("model.py":12:7)
    "func.return"(%0) : (tensor<f32>) -> ()
  }
})");
  ASSERT_NE(m, nullptr);
  for (const char* target : {"1.20.0", "0.9.0"}) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, WriteBytecodeModule(*m, target));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> back, ReadBytecodeModule(bytes, "x"));
    const Operation& add = *back->functions.at(0)->body->front().operations.at(0);
    ASSERT_NE(add.location.source, nullptr) << target;
    EXPECT_NE(add.location.ToString().find("model.py:12:7"), std::string::npos)
        << add.location.ToString();
  }
}

}  // namespace
}  // namespace plugrt::shlo

namespace plugrt::shlo {
namespace {

using bytecode::BcAttr;
using bytecode::BcOp;

// A type's spelling without a bounds encoding: plugrt's IR keeps none (the
// text parser drops #stablehlo.type_extensions), so the writer writes none.
std::string TypeText(std::string text) {
  for (size_t at; (at = text.find(", #stablehlo.type_extensions<")) != std::string::npos;) {
    size_t end = text.find(">", at);
    text.erase(at, end + 1 - at);
  }
  return text;
}

// An attribute as text, for comparing the VHLO two writers produced
// (locations and dictionary order aside).
std::string Key(const BcAttr* a) {
  if (a == nullptr) return "null";
  std::string s = StrCat(static_cast<int>(a->kind), "|", a->family, "|", a->str, "|",
                         a->bool_value, "|", a->int_value, "|", a->bits, "|",
                         a->type ? TypeText(a->type->text) : "", "|", a->atol_bits, "|", a->rtol_bits, "|",
                         Key(a->mode), "|");
  for (int64_t v : a->ints) s += StrCat(v, ",");
  s += "|";
  for (int64_t v : a->ints2) s += StrCat(v, ",");
  s += "|";
  for (char c : a->data) s += StrCat(static_cast<int>(static_cast<unsigned char>(c)), ",");
  s += "[";
  for (const BcAttr* e : a->elements) s += Key(e) + ";";
  s += "]{";
  std::vector<std::string> entries;
  for (const auto& [k, v] : a->entries) entries.push_back(Key(k) + "=" + Key(v));
  std::sort(entries.begin(), entries.end());
  for (const std::string& e : entries) s += e + ";";
  return s + "}";
}

// The first difference between two decoded op trees, or empty.
std::string CompareOps(const BcOp& a, const BcOp& b) {
  if (a.name != b.name) return a.name + " vs " + b.name;
  std::vector<std::string> x, y;
  // An explicit `public` and none are one visibility (plugrt's IR keeps no
  // difference).
  auto entry = [](const std::string& n, const BcAttr* v) {
    if (n == "sym_visibility" && v != nullptr && v->str == "public") return n + "=" + Key(nullptr);
    if (n == "sym_visibility" && v != nullptr && v->str.empty()) return n + "=" + Key(nullptr);
    return n + "=" + Key(v);
  };
  for (const auto& [n, v] : a.attributes) x.push_back(entry(n, v));
  for (const auto& [n, v] : b.attributes) y.push_back(entry(n, v));
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  if (x != y) {
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (x[i] != y[i]) return a.name + ": " + x[i].substr(0, 300) + "\n   vs " + y[i].substr(0, 300);
    }
    return a.name + ": attribute counts differ";
  }
  if (a.result_types.size() != b.result_types.size()) return a.name + ": result counts differ";
  for (size_t i = 0; i < a.result_types.size(); ++i) {
    if (TypeText(a.result_types[i]->text) != TypeText(b.result_types[i]->text)) {
      return a.name + ": result " + a.result_types[i]->text + " vs " + b.result_types[i]->text;
    }
  }
  if (a.operand_ids.size() != b.operand_ids.size() || a.regions.size() != b.regions.size()) {
    return a.name + ": operand or region counts differ";
  }
  for (size_t r = 0; r < a.regions.size(); ++r) {
    if (a.regions[r].blocks.size() != b.regions[r].blocks.size()) return a.name + ": blocks differ";
    for (size_t k = 0; k < a.regions[r].blocks.size(); ++k) {
      const auto& p = a.regions[r].blocks[k];
      const auto& q = b.regions[r].blocks[k];
      if (p.ops.size() != q.ops.size() || p.arg_types.size() != q.arg_types.size()) {
        return a.name + ": block contents differ";
      }
      for (size_t i = 0; i < p.arg_types.size(); ++i) {
        if (TypeText(p.arg_types[i]->text) != TypeText(q.arg_types[i]->text)) {
          return a.name + ": block argument types";
        }
      }
      for (size_t i = 0; i < p.ops.size(); ++i) {
        std::string d = CompareOps(*p.ops[i], *q.ops[i]);
        if (!d.empty()) return d;
      }
    }
  }
  return "";
}

// Decoded, our artifact of each X.mlir.bc twin holds the VHLO upstream's
// holds: the same op versions, attribute values (defaults included, splats
// as splats), types and regions, at every version of the corpus. Set aside:
// locations, dictionary order, bounds encodings and an explicit `public`
// (plugrt's IR keeps neither).
TEST(BytecodeWriterTest, OurVhloIsUpstreamsVhlo) {
  int same = 0;
  for (const auto& entry : fs::directory_iterator(CorpusDir() / "vhlo")) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".mlir.bc") || name == "invalid_vhlo_future.mlir.bc") continue;
    std::optional<std::string> version = VersionInName(entry.path());
    ASSERT_TRUE(version.has_value());
    fs::path twin = entry.path();
    twin.replace_extension();
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<bytecode::BcFile> upstream,
                                bytecode::DecodeBytecode(ReadFile(entry.path())));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Module> text,
                                ParseModule(ReadFile(twin), twin.string()));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, WriteBytecodeModule(*text, *version));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<bytecode::BcFile> ours,
                                bytecode::DecodeBytecode(bytes));
    ASSERT_EQ(upstream->top_ops.size(), 1u);
    ASSERT_EQ(ours->top_ops.size(), 1u);
    EXPECT_EQ(ours->version, upstream->version) << name;
    std::string difference = CompareOps(*ours->top_ops[0], *upstream->top_ops[0]);
    if (difference.empty()) {
      ++same;
    } else {
      ADD_FAILURE() << name << ": ours vs upstream's: " << difference;
    }
  }
  std::cout << same << " artifacts hold the VHLO upstream's hold\n";
  EXPECT_EQ(same, 33);
}

}  // namespace
}  // namespace plugrt::shlo
