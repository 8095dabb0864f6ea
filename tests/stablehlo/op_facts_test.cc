// The op table's facts (stablehlo/op_code.h) and the one set of shape
// functions (stablehlo/shape_rules.h) that the verifier, type inference, the
// eager layer and the kernels share.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "stablehlo/op_code.h"
#include "stablehlo/shape_rules.h"
#include "stablehlo/type_inference.h"
#include "testutil/verify_text.h"

namespace plugrt {
namespace {

using shlo::kDynamicSize;
using shlo::OpCode;
using shlo::OpShape;
using Dims = std::vector<int64_t>;
namespace shape = shlo::shape;

TEST(ShapeRules, DataMovement) {
  EXPECT_EQ(shape::Transpose({2, 3, 5}, {2, 0, 1}), (Dims{5, 2, 3}));
  EXPECT_EQ(shape::Slice({0, 1}, {7, 10}, {2, 3}), (Dims{4, 3}));
  EXPECT_EQ(shape::Concatenate({{2, 3}, {2, 4}, {2, 1}}, 1), (Dims{2, 8}));
  EXPECT_EQ(shape::Concatenate({{kDynamicSize, 3}, {2, 4}}, 1), (Dims{2, 7}));
  EXPECT_EQ(shape::Concatenate({{2, kDynamicSize}, {2, 4}}, 1), (Dims{2, kDynamicSize}));
  EXPECT_EQ(shape::Pad({3, 0}, {1, 2}, {0, 1}, {2, 5}), (Dims{8, 3}));
  EXPECT_EQ(shape::Pad({4}, {-1}, {-1}, {0}), (Dims{2}));
  EXPECT_EQ(shape::Broadcast({7}, {2, 3}), (Dims{7, 2, 3}));
  EXPECT_EQ(shape::Reduce({2, 3, 5}, {0, 2}), (Dims{3}));
  EXPECT_EQ(shape::Reshape(24, {2, kDynamicSize, 3}), (Dims{2, 4, 3}));
  EXPECT_EQ(shape::Reshape(24, {kDynamicSize, kDynamicSize}), (Dims{kDynamicSize, kDynamicSize}));
}

TEST(ShapeRules, Contractions) {
  // [b, m, k] x [b, k, n] -> [b, m, n]
  EXPECT_EQ(shape::DotGeneral({8, 4, 16}, {8, 16, 5}, {{0}, {0}, {2}, {1}}), (Dims{8, 4, 5}));
  EXPECT_EQ(shape::Dot({4, 16}, {16, 5}), (Dims{4, 5}));
  EXPECT_EQ(shape::Dot({16}, {16, 5}), (Dims{5}));
  // NHWC x HWIO, 3x3 kernel, stride 2, padding 1: 224 -> 112.
  shape::ConvDimensions nhwc{0, 3, {1, 2}, 2, 3, {0, 1}, 0, 3, {1, 2}};
  EXPECT_EQ(shape::Convolution({1, 224, 224, 3}, {3, 3, 3, 64}, nhwc, {2, 2}, {1, 1, 1, 1},
                               {1, 1}, {1, 1}, 1),
            (Dims{1, 112, 112, 64}));
  EXPECT_EQ(shape::Convolution({4, kDynamicSize, 10, 3}, {3, 3, 3, 8}, nhwc, {1, 1},
                               {0, 0, 0, 0}, {1, 1}, {2, 2}, 2),
            (Dims{2, kDynamicSize, 6, 8}));
}

TEST(ShapeRules, Windows) {
  // 2x2 max pool, stride 2; a dilated window; a window larger than the input.
  EXPECT_EQ(shape::ReduceWindow({1, 8, 8, 3}, {{1, 2, 2, 1}, {1, 2, 2, 1}, {1, 1, 1, 1},
                                               {1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0}}),
            (Dims{1, 4, 4, 3}));
  EXPECT_EQ(shape::WindowedSize(10, 3, 1, 0, 0, 1, 2), 6);
  EXPECT_EQ(shape::WindowedSize(2, 5, 1, 0, 0, 1, 1), 0);
  EXPECT_EQ(shape::WindowedSize(kDynamicSize, 3, 1, 0, 0, 1, 1), kDynamicSize);
  EXPECT_EQ(shape::Dilated(INT64_MAX, 2), kDynamicSize);  // overflow is unknown, not wrapped
}

TEST(ShapeRules, Gather) {
  // An embedding lookup: table [V, H], ids [B, S] -> [B, S, H].
  EXPECT_EQ(shape::Gather({2, 7}, {1, 768}, {{2}, {0}, {}, 2}), (Dims{2, 7, 768}));
  // index_vector_dim 0 over rank-1 indices: no batch dims.
  EXPECT_EQ(shape::Gather({1}, {10, 10, 1}, {{0, 1}, {2}, {}, 0}), (Dims{10, 10}));
}

// Every elementwise op's results follow its operands; every rule the table
// names has a function (type_inference.cc's kRules is indexed by OpShape).
TEST(OpTable, ShapeRulesAgreeWithTheOtherTraits) {
  for (size_t i = 1; i < shlo::kNumOpCodes; ++i) {
    const auto code = static_cast<OpCode>(i);
    const shlo::OpTraits& t = shlo::TraitsOf(code);
    SCOPED_TRACE(std::string(t.name));
    if (t.shape == OpShape::kLikeOperands || t.shape == OpShape::kSameShape) {
      EXPECT_TRUE(shlo::IsElementwise(code));
      EXPECT_EQ(t.results, 1);
    }
    if (shlo::IsCommutative(code)) EXPECT_EQ(t.operands, 2);
    if (shlo::IsTerminator(code)) EXPECT_EQ(t.results, 0);
  }
  EXPECT_EQ(shlo::TraitsOf(OpCode::kTranspose).attributes, "permutation");
  EXPECT_TRUE(shlo::TakesNoAttributes(OpCode::kAdd));
  EXPECT_EQ(shlo::TraitsOf(OpCode::kBatchNormTraining).results, 3);
}

TEST(OpTable, TheVerifierEnforcesCountsAndRequiredAttributes) {
  testutil::ExpectViolation(
      testutil::GenericOpProgram("transpose", {"tensor<2x3xf32>"}, "tensor<3x2xf32>"),
      testutil::kOpAt, "attribute 'permutation' is required");
  testutil::ExpectViolation(
      testutil::GenericOpProgram("abs", {"tensor<2xf32>", "tensor<2xf32>"}, "tensor<2xf32>"),
      testutil::kOpAt, "number of operands: expected 1, got 2");
}

// The verifier checks every result against the shape rule of its op, also
// where the op's own check has no rule for it.
TEST(OpTable, TheVerifierChecksResultsAgainstTypeInference) {
  EXPECT_TRUE(testutil::VerifyText(testutil::GenericOpProgram(
                                       "cholesky", {"tensor<3x3xf32>"}, "tensor<3x3xf32>"))
                  .ok());
  EXPECT_FALSE(testutil::VerifyText(testutil::GenericOpProgram(
                                        "cholesky", {"tensor<3x3xf32>"}, "tensor<4x4xf32>"))
                   .ok());
}

TEST(TypeInference, FillsUnknownDimsFromTheSameRules) {
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(R"(
func.func @main(%x: tensor<2x3xf32>, %y: tensor<3x5xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dot_general"(%x, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
)",
                                                                     "t.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const shlo::Operation& dot = *(*module)->functions[0]->body->front().operations[0];
  std::optional<Dims> dims = shlo::InferResultDims(dot, 0);
  ASSERT_TRUE(dims.has_value());
  EXPECT_EQ(*dims, (Dims{2, 5}));
  EXPECT_EQ(shlo::InferResultTypes(dot)[0].ToString(), "tensor<2x5xf32>");
}

}  // namespace
}  // namespace plugrt
