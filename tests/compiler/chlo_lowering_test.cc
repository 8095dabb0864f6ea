// CHLO lowering: unit tests of individual lowerings (run through the CPU
// executor) and the corpus' CHLO programs end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cpu/exec/program.h"
#include "compiler/passes/lower_chlo.h"
#include "stablehlo/ir_builder.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt {
namespace {

using cpu::ExecContext;
using cpu::Program;
using cpu::RtValue;
using cpu::Tensor;

bool HasChlo(const shlo::Region& region) {
  for (const auto& block : region.blocks) {
    for (const auto& op : block->operations) {
      if (op->name.rfind("chlo.", 0) == 0) return true;
      for (const auto& nested : op->regions) {
        if (HasChlo(*nested)) return true;
      }
    }
  }
  return false;
}

StatusOr<std::shared_ptr<shlo::Module>> ParseAndLower(const std::string& text) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  PLUGRT_RETURN_IF_ERROR(shlo::LowerChlo(*module));
  return std::shared_ptr<shlo::Module>(std::move(module));
}

// Parses, lowers, checks no CHLO op is left, compiles and runs @main.
StatusOr<std::vector<RtValue>> LowerAndRun(const std::string& text) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<shlo::Module> module, ParseAndLower(text));
  for (const auto& f : module->functions) {
    if (f->body && HasChlo(*f->body)) return Internal("CHLO ops left after lowering");
  }
  // Corpus programs check their results with the conformance harness' ops.
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                          Program::Compile(module, {.conformance_harness = true}));
  ExecContext context;
  return program->Run({}, context);
}

template <typename T>
std::vector<T> Values(const RtValue& v) {
  const Tensor& t = v.tensor;
  return std::vector<T>(t.as<T>(), t.as<T>() + t.num_elements());
}

TEST(ChloLoweringTest, BroadcastAddNumpyStyle) {
  auto results = LowerAndRun(R"(
func.func @main() -> tensor<2x3xf32> {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})");
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ(results->at(0).tensor.dims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>(results->at(0)), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ChloLoweringTest, BroadcastWithExplicitDimensionsAndCompare) {
  auto results = LowerAndRun(R"(
func.func @main() -> (tensor<2x3xi32>, tensor<2x3xi1>) {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
  %0 = chlo.broadcast_subtract %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %c = stablehlo.constant dense<2> : tensor<i32>
  %1 = chlo.broadcast_compare %a, %c {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xi32>, tensor<2x3xi1>
})");
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ(Values<int32_t>(results->at(0)),
            (std::vector<int32_t>{-99, -98, -97, -196, -195, -194}));
  EXPECT_EQ(Values<uint8_t>(results->at(1)), (std::vector<uint8_t>{0, 0, 1, 1, 1, 1}));
}

TEST(ChloLoweringTest, BroadcastOfIncompatibleShapesIsAnError) {
  auto module = ParseAndLower(R"(
func.func @main() -> tensor<2x3xf32> {
  %a = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %b = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(module.status().message().find("chlo.broadcast_add"), std::string::npos);
}

TEST(ChloLoweringTest, NextAfterMatchesStdNextafter) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> xs = {1.0f, 1.0f, -1.0f, -1.0f, 0.0f, 0.0f, -0.0f, 2.0f,
                                 inf,  -inf, 1e-45f, 3.0f};
  const std::vector<float> ys = {2.0f, 0.0f, -2.0f, 0.0f, 1.0f, -1.0f, 0.0f, 2.0f,
                                 0.0f, 0.0f, 0.0f, std::nanf("")};
  auto list = [](const std::vector<float>& v) {
    std::ostringstream s;
    s.precision(9);
    s << "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s << ", ";
      if (std::isinf(v[i])) {
        s << (v[i] > 0 ? "0x7F800000" : "0xFF800000");
      } else if (std::isnan(v[i])) {
        s << "0x7FC00000";
      } else {
        s << std::showpoint << v[i];
      }
    }
    return s.str() + "]";
  };
  const std::string text = "func.func @main() -> tensor<12xf32> {\n"
                           "  %x = stablehlo.constant dense<" + list(xs) + "> : tensor<12xf32>\n"
                           "  %y = stablehlo.constant dense<" + list(ys) + "> : tensor<12xf32>\n"
                           "  %0 = chlo.next_after %x, %y : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>\n"
                           "  return %0 : tensor<12xf32>\n}\n";
  auto results = LowerAndRun(text);
  ASSERT_TRUE(results.ok()) << results.status().ToString() << "\n" << text;
  std::vector<float> got = Values<float>(results->at(0));
  for (size_t i = 0; i < xs.size(); ++i) {
    const float want = std::nextafter(xs[i], ys[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      uint32_t a, b;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, &want, 4);
      EXPECT_EQ(a, b) << "nextafter(" << xs[i] << ", " << ys[i] << ")";
    }
  }
}

TEST(ChloLoweringTest, TopKIsStableAndDescending) {
  auto results = LowerAndRun(R"(
func.func @main() -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %x = stablehlo.constant dense<[[3.0, 1.0, 3.0, 2.0], [-1.0, 5.0, 0.0, 5.0]]> : tensor<2x4xf32>
  %0, %1 = chlo.top_k(%x, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xi32>
})");
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ(Values<float>(results->at(0)), (std::vector<float>{3, 3, 5, 5}));
  EXPECT_EQ(Values<int32_t>(results->at(1)), (std::vector<int32_t>{0, 2, 1, 3}));
}

TEST(ChloLoweringTest, TopKWithKOutOfRangeIsAnError) {
  auto module = ParseAndLower(R"(
func.func @main() -> (tensor<5xf32>, tensor<5xi32>) {
  %x = stablehlo.constant dense<[3.0, 1.0, 3.0, 2.0]> : tensor<4xf32>
  %0, %1 = chlo.top_k(%x, k = 5) : tensor<4xf32> -> (tensor<5xf32>, tensor<5xi32>)
  return %0, %1 : tensor<5xf32>, tensor<5xi32>
})");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
}

TEST(ChloLoweringTest, PredicatesConjAndConstantLike) {
  auto results = LowerAndRun(R"(
func.func @main() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<4xf32>) {
  %x = stablehlo.constant dense<[0x7F800000, 0xFF800000, 1.0, 0x7FC00000]> : tensor<4xf32>
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %1 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  %2 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %3 = chlo.conj %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %4 = "chlo.constant_like"(%x) {value = 2.5 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xcomplex<f32>>, tensor<4xf32>
})");
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ(Values<uint8_t>(results->at(0)), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(Values<uint8_t>(results->at(1)), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(Values<uint8_t>(results->at(2)), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(Values<std::complex<float>>(results->at(3)),
            (std::vector<std::complex<float>>{{1, -2}, {3, 4}}));
  EXPECT_EQ(Values<float>(results->at(4)), (std::vector<float>{2.5, 2.5, 2.5, 2.5}));
}

// erf of f32 lowers to elementwise ops (so that it fuses with a GELU's other
// ops), within 8 ulp of erf computed in double over a sweep of [-6, 6], at
// tiny values, and with erf's values at +-0, +-inf and NaN.
TEST(ChloLoweringTest, ErfOfF32IsElementwiseAndWithinEightUlp) {
  const std::string text = R"(
func.func @main() -> (tensor<120001xf32>, tensor<120001xf32>, tensor<8xf32>, tensor<8xf32>) {
  %i = stablehlo.iota dim = 0 : tensor<120001xf32>
  %half = stablehlo.constant dense<60000.0> : tensor<120001xf32>
  %step = stablehlo.constant dense<1.0e-4> : tensor<120001xf32>
  %c = stablehlo.subtract %i, %half : tensor<120001xf32>
  %x = stablehlo.multiply %c, %step : tensor<120001xf32>
  %0 = chlo.erf %x : tensor<120001xf32> -> tensor<120001xf32>
  %s = stablehlo.constant dense<[0.0, -0.0, 1.0e-30, -3.0e-7, 0x7F800000, 0xFF800000, 0x7FC00000, 3.84]> : tensor<8xf32>
  %1 = chlo.erf %s : tensor<8xf32> -> tensor<8xf32>
  return %x, %0, %s, %1 : tensor<120001xf32>, tensor<120001xf32>, tensor<8xf32>, tensor<8xf32>
})";
  auto lowered = ParseAndLower(text);
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  for (const auto& op : (*lowered)->functions[0]->body->blocks[0]->operations) {
    EXPECT_NE(op->name, "stablehlo.custom_call") << "erf of f32 should be elementwise ops";
  }
  auto results = LowerAndRun(text);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  int checked = 0;
  for (int pair = 0; pair < 2; ++pair) {
    const std::vector<float> x = Values<float>(results->at(2 * pair));
    const std::vector<float> got = Values<float>(results->at(2 * pair + 1));
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = std::erf(static_cast<double>(x[i]));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << "erf(" << x[i] << ")";
        continue;
      }
      const float want_f = static_cast<float>(want);
      const double ulp = std::nextafter(std::fabs(want_f), 2.0f) - std::fabs(want_f);
      ASSERT_LE(std::fabs(got[i] - want), 8 * ulp) << "erf(" << x[i] << ") = " << want;
      if (x[i] == 0) EXPECT_EQ(std::signbit(got[i]), std::signbit(x[i]));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 120001 + 7);
}

TEST(ChloLoweringTest, MathOpsBecomeKernelCalls) {
  auto results = LowerAndRun(R"(
func.func @main() -> (tensor<2xf64>, tensor<2xf32>, tensor<2xi32>) {
  %x = stablehlo.constant dense<[0.5, 1.0]> : tensor<2xf64>
  %0 = chlo.lgamma %x : tensor<2xf64> -> tensor<2xf64>
  %y = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %1 = chlo.sinh %y : tensor<2xf32> -> tensor<2xf32>
  %a = stablehlo.constant dense<[268435456, -268435456]> : tensor<2xi32>
  %b = stablehlo.constant dense<[16, 16]> : tensor<2xi32>
  %2 = "chlo.mulhi"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2 : tensor<2xf64>, tensor<2xf32>, tensor<2xi32>
})");
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  std::vector<double> lg = Values<double>(results->at(0));
  EXPECT_DOUBLE_EQ(lg[0], std::log(std::sqrt(M_PI)));
  EXPECT_EQ(lg[1], 0.0);
  std::vector<float> sh = Values<float>(results->at(1));
  EXPECT_EQ(sh[0], 0.0f);
  EXPECT_FLOAT_EQ(sh[1], static_cast<float>(std::sinh(1.0)));
  EXPECT_EQ(Values<int32_t>(results->at(2)), (std::vector<int32_t>{1, -1}));
}

TEST(ChloLoweringTest, MathOpOnIntegersIsUnimplemented) {
  auto module = ParseAndLower(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = chlo.lgamma %x : tensor<2xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
})");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto program = Program::Compile(*module);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(program.status().message().find("lgamma"), std::string::npos);
  EXPECT_NE(program.status().message().find("i32"), std::string::npos);
}

TEST(ChloLoweringTest, UnknownChloOpStaysAndIsReported) {
  auto module = shlo::ParseModule(R"(
func.func @main() -> tensor<2xf32> {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = "chlo.no_such_op"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                                  "unknown.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  Status s = shlo::LowerChlo(**module);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(s.message().find("chlo.no_such_op"), std::string::npos);
  EXPECT_NE(s.message().find("unknown.mlir:4"), std::string::npos);
}

// ../shared/stablehlo seen from the repository root; CTest passes the
// configured location in PLUGRT_STABLEHLO_CORPUS.
std::filesystem::path CorpusRoot() {
  if (const char* env = std::getenv("PLUGRT_STABLEHLO_CORPUS")) return env;
  return std::filesystem::path(__FILE__).parent_path() / "../../shared/stablehlo";
}

// The corpus' CHLO programs check themselves; every one must pass.
TEST(ChloLoweringTest, CorpusChloPrograms) {
  const std::filesystem::path dir =
      CorpusRoot() / "testdata";
  if (!std::filesystem::exists(dir)) GTEST_FAIL() << "no corpus at " << dir;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find("_chlo") != std::string::npos) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  int passed = 0;
  std::set<std::string> failing;
  std::string failures;
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto results = LowerAndRun(text.str());
    if (results.ok()) {
      ++passed;
    } else {
      failing.insert(path.filename().string());
      failures += path.filename().string() + ": " +
                  results.status().message().substr(0, 300) + "\n";
    }
  }
  std::cout << passed << " of " << files.size() << " CHLO programs pass\n" << failures;
  // All 100 pass: a new failure, or a program gone from the corpus, shows.
  EXPECT_EQ(files.size(), 100u);
  EXPECT_EQ(failing, std::set<std::string>{}) << failures;
}

// The interpreter's CHLO tests: one function per `// -----` section.
TEST(ChloLoweringTest, InterpretChloSections) {
  const std::filesystem::path dir =
      CorpusRoot() / "interpret/chlo";
  if (!std::filesystem::exists(dir)) GTEST_FAIL() << "no corpus at " << dir;
  int passed = 0, total = 0;
  std::set<std::string> failing;
  std::string failures;
  for (const char* file : {"mulhi.mlir", "ragged_dot.mlir", "scan.mlir"}) {
    std::ifstream in(dir / file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string all = text.str();
    for (const shlo::SourceSection& section : shlo::SplitSections(all)) {
      ++total;
      Status status = [&]() -> Status {
        PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                                shlo::ParseModule(section.text, file, section.first_line));
        PLUGRT_RETURN_IF_ERROR(shlo::LowerChlo(*module));
        PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                                Program::Compile(std::shared_ptr<shlo::Module>(std::move(module)),
                                                 {.conformance_harness = true}));
        ExecContext context;
        return program->Run({}, context).status();
      }();
      if (status.ok()) {
        ++passed;
      } else {
        failing.insert(std::string(file) + ":" + std::to_string(section.first_line));
        failures += status.message().substr(0, 200) + "\n";
      }
    }
  }
  std::cout << passed << " of " << total << " interpret/chlo sections pass\n" << failures;
  // Every section of the three files (mulhi, ragged_dot, scan) passes; a
  // failure is named by file and first line of its section.
  EXPECT_EQ(failing, std::set<std::string>{}) << failures;
  EXPECT_EQ(total, 14);
  EXPECT_EQ(passed, 14);
}

}  // namespace
}  // namespace plugrt
