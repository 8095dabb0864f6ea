// Cost estimates of StableHLO modules (compiler/passes/cost_analysis.h) and the
// content hash (common/content_hash.h).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "common/content_hash.h"
#include "compiler/passes/lower_chlo.h"
#include "compiler/passes/cost_analysis.h"
#include "compiler/importers/mlir/parser.h"
#include "testutil/corpus.h"

namespace plugrt::shlo {
namespace {

CostEstimate CostOf(const std::string& text) {
  auto module = ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return {};
  auto cost = EstimateCost(**module);
  EXPECT_TRUE(cost.ok()) << cost.status().ToString();
  if (!cost.ok()) return {};
  return *cost;
}

Status CostError(const std::string& text) {
  auto module = ParseModule(text, "test.mlir");
  if (!module.ok()) return module.status();
  auto cost = EstimateCost(**module);
  return cost.status();
}

TEST(CostAnalysis, ElementwiseAdd) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
})");
  EXPECT_EQ(c.flops, 6);
  EXPECT_EQ(c.transcendentals, 0);
  EXPECT_EQ(c.bytes_accessed, 3 * 6 * 4);  // two operands and the result
}

TEST(CostAnalysis, ByteWidthsRoundUp) {
  // i1 and i4 take a whole byte each; f64 eight.
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<4xi4>, %p: tensor<4xi1>, %x: tensor<4xf64>) -> (tensor<4xi4>, tensor<4xf64>) {
  %0 = stablehlo.add %a, %a : tensor<4xi4>
  %1 = stablehlo.select %p, %x, %x : tensor<4xi1>, tensor<4xf64>
  func.return %0, %1 : tensor<4xi4>, tensor<4xf64>
})");
  EXPECT_EQ(c.flops, 8);
  EXPECT_EQ(c.bytes_accessed, 3 * 4 + (4 + 3 * 32));
}

TEST(CostAnalysis, DynamicDimsCountAsOne) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
})");
  EXPECT_EQ(c.flops, 3);
  EXPECT_EQ(c.bytes_accessed, 3 * 12);
}

TEST(CostAnalysis, ComplexArithmetic) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = stablehlo.multiply %a, %a : tensor<3xcomplex<f32>>
  %1 = stablehlo.add %0, %a : tensor<3xcomplex<f32>>
  func.return %1 : tensor<3xcomplex<f32>>
})");
  EXPECT_EQ(c.flops, 3 * 6 + 3 * 2);
  EXPECT_EQ(c.bytes_accessed, 2 * 3 * 3 * 8);
}

TEST(CostAnalysis, DotGeneral) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
})");
  EXPECT_EQ(c.flops, 48);
  EXPECT_EQ(c.transcendentals, 0);
  EXPECT_EQ(c.bytes_accessed, 4 * (6 + 12 + 8));
}

TEST(CostAnalysis, BatchedDotGeneralAndDot) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>, %v: tensor<3xf32>) -> (tensor<5x2x4xf32>, tensor<f32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %1 = stablehlo.dot %v, %v : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  func.return %0, %1 : tensor<5x2x4xf32>, tensor<f32>
})");
  EXPECT_EQ(c.flops, 2 * 5 * 2 * 4 * 3 + 2 * 3);
}

TEST(CostAnalysis, ComplexDotCountsFourRealMultiplyAdds) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  func.return %0 : tensor<2x4xcomplex<f32>>
})");
  EXPECT_EQ(c.flops, 4 * 48);
  EXPECT_EQ(c.bytes_accessed, 8 * (6 + 12 + 8));
}

TEST(CostAnalysis, DotGeneralBadDimensionIsAnError) {
  Status s = CostError(R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [7] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
})");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("out of range"), std::string::npos) << s.message();
}

TEST(CostAnalysis, Convolution) {
  // NHWC 1x4x4x1 with a 3x3x1x2 kernel: 2x2 outputs of 2 features.
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
})");
  EXPECT_EQ(c.flops, 2 * 8 * 9 * 1);
  EXPECT_EQ(c.bytes_accessed, 4 * (16 + 18 + 8));
}

TEST(CostAnalysis, Transcendentals) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  %2 = stablehlo.custom_call @plugrt.math.erf(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.add %2, %2 : tensor<4xf32>
  func.return %3 : tensor<4xf32>
})");
  EXPECT_EQ(c.transcendentals, 12);
  EXPECT_EQ(c.flops, 4);
  EXPECT_EQ(c.bytes_accessed, 3 * 32 + 48);
}

TEST(CostAnalysis, UnloweredChloSpecialFunction) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<5xf32>) -> tensor<5xf32> {
  %0 = chlo.lgamma %a : tensor<5xf32> -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
})");
  EXPECT_EQ(c.transcendentals, 5);
  EXPECT_EQ(c.flops, 0);
}

TEST(CostAnalysis, ConstantsAndDataMovement) {
  // The constant costs nothing itself; the broadcast reads it and writes.
  CostEstimate c = CostOf(R"(
func.func @main() -> tensor<2x3xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<3xf32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.transpose %0, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
})");
  EXPECT_EQ(c.flops, 0);
  EXPECT_EQ(c.bytes_accessed, (12 + 24) + (24 + 24));
}

TEST(CostAnalysis, Reduce) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
})");
  EXPECT_EQ(c.flops, 6);  // one add per input element
  EXPECT_EQ(c.bytes_accessed, 24 + 4 + 8);
}

TEST(CostAnalysis, ReduceWithRegionBody) {
  // Body: one multiply and one exp per application.
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<4x5xf32>) -> tensor<4xf32> {
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %init) across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %e = stablehlo.exponential %y : tensor<f32>
    %m = stablehlo.multiply %x, %e : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  func.return %0 : tensor<4xf32>
})");
  EXPECT_EQ(c.flops, 20);
  EXPECT_EQ(c.transcendentals, 20);
  EXPECT_EQ(c.bytes_accessed, 80 + 4 + 16);
}

TEST(CostAnalysis, FuncCallCostsTheCalleeEachTime) {
  CostEstimate c = CostOf(R"(
func.func private @f(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = func.call @f(%a) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = func.call @f(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %1 : tensor<2x2xf32>
})");
  EXPECT_EQ(c.flops, 8);
  EXPECT_EQ(c.bytes_accessed, 2 * 48);
}

TEST(CostAnalysis, RecursiveCallsTerminate) {
  CostEstimate c = CostOf(R"(
func.func private @g(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %x : tensor<f32>
  %1 = func.call @g(%0) : (tensor<f32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = func.call @g(%a) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
})");
  EXPECT_EQ(c.flops, 1);  // the recursive call counts nothing
}

TEST(CostAnalysis, CallErrors) {
  Status missing = CostError(R"(
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = func.call @nowhere(%a) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
})");
  EXPECT_EQ(missing.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("@nowhere"), std::string::npos) << missing.message();

  Status no_entry = CostError(R"(
func.func @a() { func.return }
func.func @b() { func.return })");
  EXPECT_EQ(no_entry.code(), StatusCode::kInvalidArgument) << no_entry.ToString();

  // A chain of calls longer than the walk allows: an error, not a crash.
  std::string chain;
  const int n = 3000;
  for (int i = 0; i < n; ++i) {
    chain += "func.func private @f" + std::to_string(i) + "(%x: tensor<f32>) -> tensor<f32> {\n";
    chain += "  %0 = func.call @f" + std::to_string(i + 1) +
             "(%x) : (tensor<f32>) -> tensor<f32>\n  func.return %0 : tensor<f32>\n}\n";
  }
  chain += "func.func private @f" + std::to_string(n) +
           "(%x: tensor<f32>) -> tensor<f32> {\n  func.return %x : tensor<f32>\n}\n";
  chain += "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
           "  %0 = func.call @f0(%a) : (tensor<f32>) -> tensor<f32>\n"
           "  func.return %0 : tensor<f32>\n}\n";
  Status deep = CostError(chain);
  EXPECT_EQ(deep.code(), StatusCode::kInvalidArgument) << deep.ToString();
}

// A loop `for (i = start; i DIR limit; i = i OP step)` with one f32 add on
// a 4-element tensor per iteration. Per iteration: cond compare (1 flop,
// 8+8+1 bytes), counter update (1 flop, 24 bytes), the add (4 flops, 48).
std::string CounterLoop(int start, const std::string& compare, int limit, const std::string& op,
                        int step) {
  return R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %start = stablehlo.constant dense<)" +
         std::to_string(start) + R"(> : tensor<i64>
  %limit = stablehlo.constant dense<)" +
         std::to_string(limit) + R"(> : tensor<i64>
  %step = stablehlo.constant dense<)" +
         std::to_string(step) + R"(> : tensor<i64>
  %r:2 = stablehlo.while(%i = %start, %acc = %x) : tensor<i64>, tensor<4xf32>
  cond {
    %c = stablehlo.compare )" +
         compare + R"( : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = )" + op + R"( : tensor<i64>
    %a = stablehlo.add %acc, %acc : tensor<4xf32>
    stablehlo.return %n, %a : tensor<i64>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
})";
}

double LoopTrips(const std::string& text) {
  CostEstimate c = CostOf(text);
  // Every iteration costs 6 flops and 8+8+1 + 24 + 48 bytes.
  EXPECT_EQ(c.bytes_accessed / (17 + 24 + 48), c.flops / 6);
  return c.flops / 6;
}

TEST(CostAnalysis, WhileTripCounts) {
  const std::string inc = "stablehlo.add %i, %step";
  const std::string inc_swapped = "stablehlo.add %step, %i";
  const std::string dec = "stablehlo.subtract %i, %step";
  EXPECT_EQ(LoopTrips(CounterLoop(0, "LT, %i, %limit", 10, inc, 1)), 10);
  EXPECT_EQ(LoopTrips(CounterLoop(0, "LT, %i, %limit", 10, inc, 3)), 4);  // 0 3 6 9
  EXPECT_EQ(LoopTrips(CounterLoop(1, "LE, %i, %limit", 10, inc_swapped, 3)), 4);  // 1 4 7 10
  EXPECT_EQ(LoopTrips(CounterLoop(10, "GT, %i, %limit", 0, dec, 2)), 5);  // 10 8 6 4 2
  EXPECT_EQ(LoopTrips(CounterLoop(10, "GE, %i, %limit", 0, dec, 2)), 6);
  EXPECT_EQ(LoopTrips(CounterLoop(0, "NE, %i, %limit", 12, inc, 4)), 3);
  EXPECT_EQ(LoopTrips(CounterLoop(5, "GT, %limit, %i", 8, inc, 1)), 3);  // 8 > i: 5 6 7
  EXPECT_EQ(LoopTrips(CounterLoop(-3, "LT, %i, %limit", 4, inc, 1)), 7);
  EXPECT_EQ(LoopTrips(CounterLoop(10, "LT, %i, %limit", 0, inc, 1)), 0);  // never runs
  // Patterns the count cannot be read from: one iteration.
  EXPECT_EQ(LoopTrips(CounterLoop(0, "NE, %i, %limit", 10, inc, 3)), 1);  // never equal
  EXPECT_EQ(LoopTrips(CounterLoop(0, "LT, %i, %limit", 10, dec, 1)), 1);  // runs away
  EXPECT_EQ(LoopTrips(CounterLoop(0, "LT, %i, %limit", 10, "stablehlo.multiply %i, %step", 2)),
            1);
}

TEST(CostAnalysis, WhileWithoutConstantLimitCountsOnce) {
  CostEstimate c = CostOf(R"(
func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r = stablehlo.while(%i = %zero) : tensor<i64>
  cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %next : tensor<i64>
  }
  func.return %r : tensor<i64>
})");
  EXPECT_EQ(c.flops, 2);
}

TEST(CostAnalysis, NestedLoopsMultiply) {
  // Inner loop: 3 trips of (compare + add) inside an outer loop of 5 trips;
  // the constants live in the outer scope and inside the regions.
  CostEstimate c = CostOf(R"(
func.func @main() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r = stablehlo.while(%i = %zero) : tensor<i64>
  cond {
    %five = stablehlo.constant dense<5> : tensor<i64>
    %c = stablehlo.compare LT, %i, %five : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %inner = stablehlo.while(%j = %zero) : tensor<i64>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i64>
      %c = stablehlo.compare LT, %j, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i64>
      %next = stablehlo.add %j, %one : tensor<i64>
      stablehlo.return %next : tensor<i64>
    }
    %one = stablehlo.constant dense<1> : tensor<i64>
    %next = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %next : tensor<i64>
  }
  func.return %r : tensor<i64>
})");
  EXPECT_EQ(c.flops, 5 * (1 + 1 + 3 * 2));
}

TEST(CostAnalysis, HugeShapesSaturate) {
  // 2^32 to the 40th overflows a double: the counts stop at the largest one.
  std::string type = "tensor<";
  for (int i = 0; i < 40; ++i) type += "4294967296x";
  type += "f32>";
  CostEstimate c = CostOf("func.func @main(%a: " + type + ") -> " + type +
                          " {\n  %0 = stablehlo.exponential %a : " + type +
                          "\n  %1 = stablehlo.add %0, %0 : " + type + "\n  func.return %1 : " +
                          type + "\n}\n");
  EXPECT_EQ(c.flops, DBL_MAX);
  EXPECT_EQ(c.transcendentals, DBL_MAX);
  EXPECT_EQ(c.bytes_accessed, DBL_MAX);
}

TEST(CostAnalysis, IfCountsTheDearerBranch) {
  CostEstimate c = CostOf(R"(
func.func @main(%p: tensor<i1>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r = "stablehlo.if"(%p) ({
    %e = stablehlo.exponential %x : tensor<8xf32>
    %m = stablehlo.multiply %e, %e : tensor<8xf32>
    stablehlo.return %m : tensor<8xf32>
  }, {
    stablehlo.return %x : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
})");
  EXPECT_EQ(c.flops, 8);
  EXPECT_EQ(c.transcendentals, 8);
  EXPECT_EQ(c.bytes_accessed, 64 + 96);
}

// Quantized values count their storage bytes: 4 f32 in, 4 i8 out.
TEST(CostAnalysis, QuantizedOpsCountStorageBytes) {
  CostEstimate c = CostOf(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>> {
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
})");
  EXPECT_EQ(c.flops, 0);
  EXPECT_EQ(c.bytes_accessed, 16 + 4);
}

TEST(CostAnalysis, FftCholeskyTriangularSolve) {
  CostEstimate fft = CostOf(R"(
func.func @main(%a: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  func.return %0 : tensor<3x8xcomplex<f32>>
})");
  EXPECT_EQ(fft.flops, 3 * 5 * 8 * 3);

  CostEstimate chol = CostOf(R"(
func.func @main(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  func.return %0 : tensor<2x3x3xf32>
})");
  EXPECT_EQ(chol.flops, 2 * 27.0 / 3);

  CostEstimate ts = CostOf(R"(
func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
})");
  EXPECT_EQ(ts.flops, 9 * 5);
}

bool Sane(const CostEstimate& c) {
  for (double v : {c.flops, c.transcendentals, c.bytes_accessed}) {
    if (!std::isfinite(v) || v < 0) return false;
  }
  return true;
}

// The entry function, or each public function of a section without one.
std::vector<const Function*> Costed(const Module& module) {
  if (const Function* entry = module.EntryFunction()) return {entry};
  std::vector<const Function*> out;
  for (const auto& f : module.functions) {
    if (f->is_public) out.push_back(f.get());
  }
  return out;
}

// Every corpus program that parses gets an estimate: its entry function, or
// each public function of a section without one; as written and again after
// CHLO lowering where it lowers.
TEST(CostAnalysis, WholeCorpus) {
  const auto dir = testutil::CorpusDir();
  auto files = testutil::MlirFiles(dir / "testdata");
  auto interpret = testutil::MlirFiles(dir / "interpret");
  ASSERT_GT(files.size(), 1000u) << "corpus not found at " << dir;
  ASSERT_FALSE(interpret.empty());
  files.insert(files.end(), interpret.begin(), interpret.end());
  int estimated = 0, with_flops = 0, estimated_lowered = 0;
  for (const auto& path : files) {
    const std::string text = testutil::ReadFile(path);
    for (const SourceSection& section : SplitSections(text)) {
      auto module = ParseModule(section.text, path.string(), section.first_line);
      if (!module.ok()) continue;  // the parser's tests cover these
      const std::string where = path.string() + ":" + std::to_string(section.first_line);
      if ((*module)->EntryFunction() == nullptr) {
        EXPECT_EQ(EstimateCost(**module).status().code(), StatusCode::kInvalidArgument) << where;
      }
      for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1 && !LowerChlo(**module).ok()) break;
        for (const Function* f : Costed(**module)) {
          auto cost = EstimateFunctionCost(**module, *f);
          ASSERT_TRUE(cost.ok()) << where << ": @" << f->name << ": " << cost.status().ToString();
          EXPECT_TRUE(Sane(*cost)) << where << ": @" << f->name;
          if (pass == 1) {
            ++estimated_lowered;
            continue;
          }
          ++estimated;
          if (cost->flops > 0) ++with_flops;
        }
      }
    }
  }
  std::printf("estimated %d functions (%d lowered), %d with flops\n", estimated,
              estimated_lowered, with_flops);
  EXPECT_GT(estimated, 2400);
  EXPECT_GT(estimated_lowered, 2400);
  EXPECT_GT(with_flops, estimated / 2);
}

}  // namespace
}  // namespace plugrt::shlo

namespace plugrt {
namespace {

TEST(ContentHash, PinnedDigests) {
  // Pinned once from this implementation: a change of algorithm changes
  // every stored fingerprint, so it must be deliberate.
  EXPECT_EQ(ContentHash(""), "f52a15e9a9b5e89b492b8d6066c09227");
  EXPECT_EQ(ContentHash("abc"), "83e336b35fe2b6cd86a08745c0879a2b");
}

TEST(ContentHash, Format) {
  const std::string d = ContentHash("plugrt");
  ASSERT_EQ(d.size(), 32u);
  for (char c : d) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << d;
}

TEST(ContentHash, DifferentInputsDiffer) {
  std::set<std::string> seen;
  std::vector<std::string> inputs = {"", "a", "b", "ab", "ba", "abc", "abd", std::string(1, '\0'),
                                     std::string(2, '\0'), std::string(64, 'x'),
                                     std::string(65, 'x')};
  for (int i = 0; i < 256; ++i) inputs.push_back(std::string(1, static_cast<char>(i)) + "tail");
  for (const std::string& in : inputs) seen.insert(ContentHash(in));
  EXPECT_EQ(seen.size(), std::set<std::string>(inputs.begin(), inputs.end()).size());
  // Each half moves on a one-bit change.
  const std::string a = ContentHash("module @m {}"), b = ContentHash("module @n {}");
  EXPECT_NE(a.substr(0, 16), b.substr(0, 16));
  EXPECT_NE(a.substr(16), b.substr(16));
}

TEST(ContentHash, SplitUpdatesEqualOne) {
  const std::string text = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32>";
  const std::string whole = ContentHash(text);
  for (size_t i = 0; i <= text.size(); ++i) {
    for (size_t j = i; j <= text.size(); j += 7) {
      ContentHasher h;
      h.Update(std::string_view(text).substr(0, i));
      h.Update(std::string_view(text).substr(i, j - i));
      h.Update(std::string_view(text).substr(j));
      EXPECT_EQ(h.HexDigest(), whole) << i << " " << j;
    }
  }
  // HexDigest does not disturb the state.
  ContentHasher h;
  h.Update("func.func");
  (void)h.HexDigest();
  h.Update(text.substr(9));
  EXPECT_EQ(h.HexDigest(), whole);
}

TEST(ContentHash, U64IsLittleEndianBytes) {
  ContentHasher a, b;
  a.UpdateU64(0x0807060504030201ULL);
  b.Update(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  EXPECT_EQ(a.HexDigest(), b.HexDigest());
  ContentHasher c;
  c.UpdateU64(0x0102030405060708ULL);
  EXPECT_NE(a.HexDigest(), c.HexDigest());
}

}  // namespace
}  // namespace plugrt
