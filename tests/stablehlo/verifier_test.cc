// The verifier: every program of the conformance corpus verifies (before and
// after the CHLO lowering), and the structural rules (signatures, calls,
// terminators) reject what breaks them with a located, named rule. The
// per-op rules have their own files (verifier_*_test.cc).
#include <gtest/gtest.h>

#include "compiler/passes/lower_chlo.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/verifier.h"
#include "testutil/corpus.h"
#include "testutil/verify_text.h"
#include "testutil/programs.h"

namespace plugrt::shlo {
namespace {

using testutil::ExpectValid;
using testutil::ExpectViolation;

// Parses, verifies, lowers CHLO and verifies again; "" when all is well.
std::string VerifySection(std::string_view text, const std::string& file, int first_line) {
  auto module = ParseModule(text, file, first_line);
  if (!module.ok()) return "parse: " + module.status().ToString();
  Status status = VerifyModule(**module);
  if (!status.ok()) return "verify: " + status.ToString();
  status = LowerChlo(**module);
  if (!status.ok()) return "";  // lowering errors are the lowering's tests' business
  status = VerifyModule(**module);
  if (!status.ok()) return "verify after CHLO lowering: " + status.ToString();
  return "";
}

TEST(VerifierCorpus, EveryTestdataProgramVerifies) {
  auto files = testutil::MlirFiles(testutil::CorpusDir() / "testdata");
  ASSERT_FALSE(files.empty()) << "corpus not found at " << testutil::CorpusDir();
  int failures = 0;
  for (const auto& file : files) {
    std::string error = VerifySection(testutil::ReadFile(file), file.string(), 1);
    if (!error.empty() && ++failures <= 20) ADD_FAILURE() << error;
  }
  EXPECT_EQ(failures, 0) << "of " << files.size() << " files";
}

TEST(VerifierCorpus, EveryInterpretSectionVerifies) {
  auto files = testutil::MlirFiles(testutil::CorpusDir() / "interpret");
  ASSERT_FALSE(files.empty()) << "corpus not found at " << testutil::CorpusDir();
  int failures = 0;
  int sections = 0;
  for (const auto& file : files) {
    const std::string text = testutil::ReadFile(file);
    for (const SourceSection& section : SplitSections(text)) {
      ++sections;
      std::string error = VerifySection(section.text, file.string(), section.first_line);
      if (!error.empty() && ++failures <= 20) ADD_FAILURE() << error;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << sections << " sections";
}

// ------------------------------------------------------------ structure

// Element and byte counts are int64 everywhere after verification: a type
// whose counts overflow is refused here, naming it, instead of wrapping
// around at execute.
TEST(VerifierStructure, TensorsWhoseCountsOverflowAreRefused) {
  ExpectViolation(R"(
func.func @main(%x: tensor<f32>) -> tensor<100000x100000x100000x100000xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<100000x100000x100000x100000xf32>
  return %0 : tensor<100000x100000x100000x100000xf32>
})",
                  "test.mlir:2:1", "fit in 64 bits",
                  "tensor<100000x100000x100000x100000xf32> has more elements than fit");
  // The element count fits (2^62), its bytes as f32 do not.
  ExpectViolation(R"(
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<4294967296x1073741824xf32>
  %1 = stablehlo.slice %0 [0:1, 0:1] : (tensor<4294967296x1073741824xf32>) -> tensor<1x1xf32>
  %2 = stablehlo.reshape %1 : (tensor<1x1xf32>) -> tensor<f32>
  return %2 : tensor<f32>
})",
                  "test.mlir:3:3", "stablehlo.broadcast_in_dim",
                  "tensor<4294967296x1073741824xf32> has 4611686018427387904 elements, more bytes");
  // Inside a region: a block argument.
  ExpectViolation(R"(
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.map"(%x) ({
    ^bb0(%a: tensor<100000x100000x100000x100000xf32>):
      stablehlo.return %a : tensor<100000x100000x100000x100000xf32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                  "stablehlo.map", "has more elements than fit");
  // Large but representable shapes still verify.
  ExpectValid(plugrt::testing::kOversizedProgram);
}


TEST(VerifierStructure, AcceptsAWellFormedProgram) {
  ExpectValid(R"(
func.func @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @helper(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)");
}

TEST(VerifierStructure, ReturnMustMatchTheFunctionResults) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
})",
                  "test.mlir:3:3", "(structure)", "@main declares (tensor<3xf32>)");
}

TEST(VerifierStructure, CallsMustMatchTheCallee) {
  ExpectViolation(R"(
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = func.call @helper(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
})",
                  "test.mlir:6:3", "func.call", "callee's signature");
}

TEST(VerifierStructure, CallsNeedAnExistingCallee) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @missing(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                  "test.mlir:3:3", "no @missing");
}

TEST(VerifierStructure, CompositeDecompositionMustExistAndMatch) {
  const char* kProgram = R"(
func.func private @my_add(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %x, %y : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.composite "my.add" %a, %a {decomposition = @DECOMP} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})";
  auto with = [&](const std::string& decomposition) {
    std::string text = kProgram;
    text.replace(text.find("DECOMP"), 6, decomposition);
    return text;
  };
  ExpectValid(with("my_add"));
  ExpectViolation(with("missing"), "test.mlir:7:3", "(C2)", "no @missing");
  ExpectViolation(with("main"), "test.mlir:7:3", "(C3)", "calls @main");
}

TEST(VerifierStructure, RegionsEndWithStablehloReturn) {
  ExpectViolation(R"(
func.func @main(%a: tensor<2xf32>, %i: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.reduce"(%a, %i) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                  "test.mlir:3:3", "each region ends with stablehlo.return");
}

}  // namespace
}  // namespace plugrt::shlo
