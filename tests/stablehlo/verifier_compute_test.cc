// Verifier rules of the compute ops: dot, dot_general, convolution,
// dynamic_conv, reduce, reduce_window, select_and_scatter, fft,
// triangular_solve, cholesky, rng, rng_bit_generator and batch_norm_*. Each
// op has valid programs and one violation per important rule, located at
// the op and naming the spec's constraint label.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "testutil/verify_text.h"

namespace plugrt::shlo {
namespace {

using testutil::ExpectValid;
using testutil::ExpectViolation;
using testutil::GenericOpProgram;
using testutil::kOpAt;
using testutil::MainProgram;

// ----------------------------------------------------------------- dot_general

std::string DotGeneral(std::string_view dims, std::string_view lhs, std::string_view rhs,
                       std::string_view result, std::string_view extra = "") {
  return MainProgram(
      StrCat("%a: ", lhs, ", %b: ", rhs),
      StrCat("%0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<",
             dims, ">", extra, "} : (", lhs, ", ", rhs, ") -> ", result),
      result);
}

constexpr std::string_view kBatchMatmul =
    "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
    "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]";

TEST(VerifierDotGeneral, AcceptsBatchMatmulAndPrettyForm) {
  ExpectValid(DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<2x4x5xf32>",
                         "tensor<2x3x5xf32>",
                         ", precision_config = [#stablehlo<precision DEFAULT>, "
                         "#stablehlo<precision HIGHEST>]"));
  // Dynamic dimensions are compatible with anything; the result type may
  // differ from the operands'.
  ExpectValid(DotGeneral(kBatchMatmul, "tensor<?x3x4xi8>", "tensor<2x?x5xi8>",
                         "tensor<2x3x5xi32>"));
  ExpectValid(MainProgram("%a: tensor<4x3xf32>, %b: tensor<3x6xf32>",
                          "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                          "(tensor<4x3xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>",
                          "tensor<4x6xf32>"));
}

TEST(VerifierDotGeneral, BatchingDimensionCountsMatch) {
  ExpectViolation(DotGeneral("lhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], "
                             "rhs_contracting_dimensions = [1]",
                             "tensor<2x3x4xf32>", "tensor<2x4x5xf32>", "tensor<2x3x2x5xf32>"),
                  kOpAt, "stablehlo.dot_general", "(C1)", "[0] vs []");
}

TEST(VerifierDotGeneral, ContractingDimensionCountsMatch) {
  ExpectViolation(DotGeneral("lhs_contracting_dimensions = [1], rhs_contracting_dimensions = []",
                             "tensor<4x3xf32>", "tensor<3x6xf32>", "tensor<4x3x6xf32>"),
                  kOpAt, "(C2)", "[1] vs []");
}

TEST(VerifierDotGeneral, DimensionsAreUnique) {
  ExpectViolation(DotGeneral("lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                             "lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]",
                             "tensor<2x3xf32>", "tensor<2x2xf32>", "tensor<2x3xf32>"),
                  kOpAt, "(C3)", "is_unique(lhs_batching_dimensions + lhs_contracting_dimensions)");
  ExpectViolation(DotGeneral("lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], "
                             "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]",
                             "tensor<2x3xf32>", "tensor<3x2xf32>", "tensor<2xf32>"),
                  kOpAt, "(C4)");
}

TEST(VerifierDotGeneral, DimensionsAreInRange) {
  ExpectViolation(DotGeneral("lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]",
                             "tensor<4x3xf32>", "tensor<3x6xf32>", "tensor<4x6xf32>"),
                  kOpAt, "(C6)", "0 <= lhs_contracting_dimensions < rank(lhs)", "[2] for rank 2");
  ExpectViolation(DotGeneral("lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [-1]",
                             "tensor<4x3xf32>", "tensor<3x6xf32>", "tensor<4x6xf32>"),
                  kOpAt, "(C8)", "[-1] for rank 2");
}

TEST(VerifierDotGeneral, BatchingSizesMatch) {
  ExpectViolation(
      DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<3x4x5xf32>", "tensor<2x3x5xf32>"),
      kOpAt, "(C9)", "dim(lhs, 0) = [2], dim(rhs, 0) = [3]");
}

TEST(VerifierDotGeneral, ContractingSizesMatch) {
  ExpectViolation(
      DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<2x7x5xf32>", "tensor<2x3x5xf32>"),
      kOpAt, "(C10)", "dim(lhs, 2) = [4], dim(rhs, 1) = [7]");
}

TEST(VerifierDotGeneral, PrecisionConfigHasTwoEntries) {
  ExpectViolation(
      DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<2x4x5xf32>", "tensor<2x3x5xf32>",
                 ", precision_config = [#stablehlo<precision DEFAULT>]"),
      kOpAt, "(C11)", "size(precision_config) = 2", "1 entries");
}

TEST(VerifierDotGeneral, ResultShapeIsBatchThenFreeDimensions) {
  ExpectViolation(
      DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<2x4x5xf32>", "tensor<2x5x3xf32>"),
      kOpAt, "(C12)", "result has shape [2, 5, 3], expected [2, 3, 5]");
}

TEST(VerifierDotGeneral, OperandElementTypesMatch) {
  ExpectViolation(
      DotGeneral(kBatchMatmul, "tensor<2x3x4xf32>", "tensor<2x4x5xf16>", "tensor<2x3x5xf32>"),
      kOpAt, "(C13)", "f32 vs f16");
}

TEST(VerifierDotGeneral, AlgorithmRules) {
  const std::string algorithm =
      "algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, "
      "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
      "num_primitive_operations = 1, allow_imprecise_accumulation = false>";
  auto program = [&](std::string_view precision, std::string_view alg) {
    return MainProgram(
        "%a: tensor<4x3xf32>, %b: tensor<3x6xf32>",
        StrCat("%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], "
               "precision = [",
               precision, "], ", alg, " : (tensor<4x3xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>"),
        "tensor<4x6xf32>");
  };
  ExpectValid(program("DEFAULT, DEFAULT", algorithm));
  ExpectViolation(program("DEFAULT, HIGH", algorithm), kOpAt, "(C21)", "got HIGH");
  std::string zero = algorithm;
  zero.replace(zero.find("num_primitive_operations = 1"), 28, "num_primitive_operations = 0");
  ExpectViolation(program("DEFAULT, DEFAULT", zero), kOpAt, "(C24)",
                  "num_primitive_operations = 0");
}

TEST(VerifierDotGeneral, NeedsDimensionNumbers) {
  ExpectViolation(MainProgram("%a: tensor<3xf32>, %b: tensor<3xf32>",
                              "%0 = \"stablehlo.dot_general\"(%a, %b) : (tensor<3xf32>, "
                              "tensor<3xf32>) -> tensor<f32>",
                              "tensor<f32>"),
                  kOpAt, "(structure)", "dot_dimension_numbers");
}

// ------------------------------------------------------------------------- dot

std::string Dot(std::string_view lhs, std::string_view rhs, std::string_view result) {
  return GenericOpProgram("dot", {lhs, rhs}, result);
}

TEST(VerifierDot, AcceptsVectorAndMatrixProducts) {
  ExpectValid(Dot("tensor<2x3xf32>", "tensor<3xf32>", "tensor<2xf32>"));
  ExpectValid(Dot("tensor<3xf32>", "tensor<3xf32>", "tensor<f32>"));
  ExpectValid(Dot("tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"));
}

TEST(VerifierDot, OperandsHaveRankOneOrTwo) {
  ExpectViolation(Dot("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x2xf32>"), kOpAt,
                  "stablehlo.dot", "(structure)", "ranks 3 and 1");
}

TEST(VerifierDot, ContractsLastOfLhsWithFirstOfRhs) {
  ExpectViolation(Dot("tensor<2x3xf32>", "tensor<4x5xf32>", "tensor<2x5xf32>"), kOpAt, "(C10)",
                  "dim(lhs, 1) = [3], dim(rhs, 0) = [4]");
}

TEST(VerifierDot, ResultShape) {
  ExpectViolation(Dot("tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<4x2xf32>"), kOpAt, "(C12)",
                  "expected [2, 4]");
}

// ---------------------------------------------------------------- convolution

// A 2-D convolution [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] with `attrs`
// added to the generic form's attribute dictionary.
std::string Conv(std::string_view lhs, std::string_view rhs, std::string_view result,
                 std::string_view attrs = "",
                 std::string_view dims = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]") {
  return MainProgram(StrCat("%a: ", lhs, ", %b: ", rhs),
                     StrCat("%0 = \"stablehlo.convolution\"(%a, %b) {dimension_numbers = "
                            "#stablehlo.conv<",
                            dims, ">", attrs, "} : (", lhs, ", ", rhs, ") -> ", result),
                     result);
}

TEST(VerifierConvolution, AcceptsTheSpecExampleAndPrettyForms) {
  ExpectValid(Conv("tensor<1x4x4x1xi64>", "tensor<3x3x1x1xi64>", "tensor<1x2x2x1xi64>",
                   ", window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, "
                   "lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, "
                   "window_reversal = array<i1: false, false>, feature_group_count = 1 : i64, "
                   "batch_group_count = 1 : i64, precision_config = [#stablehlo<precision "
                   "DEFAULT>, #stablehlo<precision DEFAULT>]"));
  ExpectValid(MainProgram(
      "%a: tensor<1x16x16x2xf32>, %b: tensor<2x3x2x2xf32>",
      "%0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
      "window = {pad = [[1, 1], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> "
      "tensor<1x32x33x2xf32>",
      "tensor<1x32x33x2xf32>"));
  // Grouped features, empty windows, a '?' batch and an i32 accumulator.
  ExpectValid(Conv("tensor<?x5x5x4xi8>", "tensor<3x3x2x6xi8>", "tensor<?x3x3x6xi32>",
                   ", feature_group_count = 2 : i64"));
  ExpectValid(Conv("tensor<2x3x9x10xf32>", "tensor<3x3x10x5xf32>", "tensor<2x3x0x6xf32>", "",
                   "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"));
}

TEST(VerifierConvolution, OperandRanksMatch) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x1x1xf32>", "tensor<1x2x2x1xf32>"), kOpAt,
                  "stablehlo.convolution", "(C1)", "rank(lhs) = 4, rank(rhs) = 3");
}

TEST(VerifierConvolution, WindowStridesArePositive) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", window_strides = array<i64: 1>"),
                  kOpAt, "(C2)", "size(window_strides) = N - 2");
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", window_strides = array<i64: 1, 0>"),
                  kOpAt, "(C3)", "window_strides[1] = 0");
}

TEST(VerifierConvolution, PaddingHasShapeNMinus2By2) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", padding = dense<0> : tensor<2x3xi64>"),
                  kOpAt, "(C4)", "shape(padding) = [N - 2, 2]", "shape [2, 3]");
}

TEST(VerifierConvolution, DilationsArePositiveAndSized) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", lhs_dilation = array<i64: 1, 0>"),
                  kOpAt, "(C6)", "lhs_dilation[1] = 0");
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", rhs_dilation = array<i64: 1, 1, 1>"),
                  kOpAt, "(C7)", "rhs_dilation has 3 entries");
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", window_reversal = array<i1: false>"),
                  kOpAt, "(C9)", "size(window_reversal) = N - 2");
}

// The raw form of the dimension numbers (the compact form rejects broken
// layouts while parsing): batch, feature, spatial of input, kernel, output.
std::string RawConvDims(std::string_view input, std::string_view kernel,
                        std::string_view output) {
  return StrCat("raw input_batch_dimension = 0, input_feature_dimension = 3, "
                "input_spatial_dimensions = [",
                input,
                "], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, "
                "kernel_spatial_dimensions = [",
                kernel,
                "], output_batch_dimension = 0, output_feature_dimension = 3, "
                "output_spatial_dimensions = [",
                output, "]");
}

TEST(VerifierConvolution, DimensionNumbersArePermutations) {
  const std::string_view lhs = "tensor<1x4x4x1xf32>", rhs = "tensor<3x3x1x1xf32>",
                         result = "tensor<1x2x2x1xf32>";
  ExpectValid(Conv(lhs, rhs, result, "", RawConvDims("1, 2", "0, 1", "1, 2")));
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 1", "0, 1", "1, 2")), kOpAt, "(C13)",
                  "input_dimensions = [0, 1, 1, 3]");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 4", "0, 1", "1, 2")), kOpAt, "(C13)",
                  "input_dimensions = [0, 1, 4, 3], N = 4");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1", "0, 1", "1, 2")), kOpAt, "(C12)",
                  "input_spatial_dimensions has 1 entries");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 2", "0, 2", "1, 2")), kOpAt, "(C18)",
                  "kernel_dimensions = [0, 2, 2, 3]");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 2", "0, 1, 2", "1, 2")), kOpAt,
                  "(C17)");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 2", "0, 1", "0, 2")), kOpAt, "(C20)",
                  "output_dimensions = [0, 0, 2, 3]");
  ExpectViolation(Conv(lhs, rhs, result, "", RawConvDims("1, 2", "0, 1", "2")), kOpAt, "(C19)");
}

TEST(VerifierConvolution, GroupCountRules) {
  ExpectViolation(Conv("tensor<1x4x4x3xf32>", "tensor<3x3x1x4xf32>", "tensor<1x2x2x4xf32>",
                       ", feature_group_count = 2 : i64"),
                  kOpAt, "(C11)", "3 % 2 != 0");
  ExpectViolation(Conv("tensor<1x4x4x4xf32>", "tensor<3x3x4x4xf32>", "tensor<1x2x2x4xf32>",
                       ", feature_group_count = 2 : i64"),
                  kOpAt, "(C14)", "dim(rhs, 2) = 4, dim(lhs, 3) = 4, feature_group_count = 2");
  ExpectViolation(Conv("tensor<3x4x4x1xf32>", "tensor<3x3x1x4xf32>", "tensor<1x2x2x4xf32>",
                       ", batch_group_count = 2 : i64"),
                  kOpAt, "(C10)", "3 % 2 != 0");
  ExpectViolation(Conv("tensor<2x4x4x2xf32>", "tensor<3x3x1x4xf32>", "tensor<1x2x2x4xf32>",
                       ", batch_group_count = 2 : i64, feature_group_count = 2 : i64"),
                  kOpAt, "(C23)", "feature_group_count = 2, batch_group_count = 2");
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", feature_group_count = 0 : i64"),
                  kOpAt, "(C21)");
}

TEST(VerifierConvolution, PrecisionConfigHasTwoEntries) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2x1xf32>",
                       ", precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision "
                       "DEFAULT>, #stablehlo<precision DEFAULT>]"),
                  kOpAt, "(C24)", "3 entries");
}

TEST(VerifierConvolution, ResultShapeFollowsTheWindows) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x3x2x1xf32>"), kOpAt,
                  "(C25)", "result has shape [1, 3, 2, 1], expected [1, 2, 2, 1]");
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x2x2xf32>"), kOpAt,
                  "(C26)", "rank(result) = 3, N = 4");
}

TEST(VerifierConvolution, OperandElementTypesMatch) {
  ExpectViolation(Conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf16>", "tensor<1x2x2x1xf32>"), kOpAt,
                  "(C27)", "f32 vs f16");
}

std::string DynamicConv(std::string_view padding, std::string_view result) {
  return MainProgram(
      StrCat("%a: tensor<1x4x4x1xi64>, %b: tensor<3x3x1x1xi64>, %p: ", padding),
      StrCat("%0 = \"stablehlo.dynamic_conv\"(%a, %b, %p) {window_strides = array<i64: 4, 4>, "
             "lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<[b, 0, 1, "
             "f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = "
             "1 : i64} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, ",
             padding, ") -> ", result),
      result);
}

TEST(VerifierDynamicConv, AcceptsAPaddingOperand) {
  ExpectValid(DynamicConv("tensor<2x2xi64>", "tensor<1x2x2x1xi64>"));
  // Spatial sizes depend on the runtime padding.
  ExpectValid(DynamicConv("tensor<2x2xi32>", "tensor<1x7x1x1xi64>"));
}

TEST(VerifierDynamicConv, PaddingOperandShape) {
  ExpectViolation(DynamicConv("tensor<3x2xi64>", "tensor<1x2x2x1xi64>"), kOpAt,
                  "stablehlo.dynamic_conv", "(C4)", "padding has shape [3, 2]");
}

TEST(VerifierDynamicConv, BatchAndFeatureDimensionsOfTheResult) {
  ExpectViolation(DynamicConv("tensor<2x2xi64>", "tensor<1x2x2x2xi64>"), kOpAt, "(C25)",
                  "expected [1, ?, ?, 1]");
}

// ---------------------------------------------------------------------- reduce

// A reduce of `inputs` by an add body over `body` element type.
std::string Reduce(std::string_view input, std::string_view init, std::string_view body,
                   std::string_view dims, std::string_view result) {
  return MainProgram(StrCat("%a: ", input, ", %i: ", init),
                     StrCat("%0 = \"stablehlo.reduce\"(%a, %i) ({\n  ^bb0(%x: tensor<", body,
                            ">, %y: tensor<", body, ">):\n    %s = stablehlo.add %x, %y : tensor<",
                            body, ">\n    stablehlo.return %s : tensor<", body,
                            ">\n  }) {dimensions = array<i64: ", dims, ">} : (", input, ", ", init,
                            ") -> ", result),
                     result);
}

TEST(VerifierReduce, AcceptsGenericAndPrettyForms) {
  ExpectValid(Reduce("tensor<2x3xf32>", "tensor<f32>", "f32", "1", "tensor<2xf32>"));
  ExpectValid(Reduce("tensor<2x?x4xi32>", "tensor<i32>", "i32", "0, 2", "tensor<?xi32>"));
  // A wider body type: is_promotable(f32, f64), results take the body's type.
  ExpectValid(Reduce("tensor<2x3xf32>", "tensor<f32>", "f64", "1", "tensor<2xf64>"));
  ExpectValid(
      MainProgram("%a: tensor<1x6xi64>, %i: tensor<i64>",
                  "%0 = stablehlo.reduce(%a init: %i) applies stablehlo.add across dimensions "
                  "= [1] : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>",
                  "tensor<1xi64>"));
}

TEST(VerifierReduce, VariadicInputsShareAShape) {
  ExpectViolation(
      MainProgram("%a: tensor<2x3xf32>, %b: tensor<3x2xi32>, %i: tensor<f32>, %j: tensor<i32>",
                  "%0:2 = \"stablehlo.reduce\"(%a, %b, %i, %j) ({\n  ^bb0(%x: tensor<f32>, %y: "
                  "tensor<i32>, %z: tensor<f32>, %w: tensor<i32>):\n    stablehlo.return %x, %y : "
                  "tensor<f32>, tensor<i32>\n  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, "
                  "tensor<3x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)",
                  "tensor<2xf32>", "%0#0"),
      kOpAt, "stablehlo.reduce", "(C1)", "same(shape(inputs...))");
}

TEST(VerifierReduce, InitValuesHaveTheInputElementTypes) {
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f64>", "f64", "1", "tensor<2xf64>"), kOpAt,
                  "(C2)", "init_values[0] is tensor<f64>");
}

TEST(VerifierReduce, InputsAndInitValuesPair) {
  ExpectViolation(
      MainProgram("%a: tensor<2x3xf32>, %i: tensor<f32>, %j: tensor<f32>",
                  "%0 = \"stablehlo.reduce\"(%a, %i, %j) ({\n  ^bb0(%x: tensor<f32>, %y: "
                  "tensor<f32>):\n    stablehlo.return %x : tensor<f32>\n  }) {dimensions = "
                  "array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2xf32>",
                  "tensor<2xf32>"),
      kOpAt, "(C3)", "3 operands, 1 results");
}

TEST(VerifierReduce, DimensionsAreUniqueAndInRange) {
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f32>", "f32", "2", "tensor<2x3xf32>"), kOpAt,
                  "(C4)", "[2] for rank 2");
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f32>", "f32", "1, 1", "tensor<2xf32>"), kOpAt,
                  "(C5)", "is_unique(dimensions)");
}

TEST(VerifierReduce, BodySignature) {
  ExpectViolation(Reduce("tensor<2x3xi32>", "tensor<i32>", "f32", "1", "tensor<2xf32>"), kOpAt,
                  "(C6)", "i32 is not promotable to f32");
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f32>", "f16", "1", "tensor<2xf16>"), kOpAt,
                  "(C6)", "f32 is not promotable to f16");
  ExpectViolation(
      MainProgram(
          "%a: tensor<2x3xf32>, %i: tensor<f32>",
          "%0 = \"stablehlo.reduce\"(%a, %i) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
          "    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
          "    stablehlo.return %c : tensor<i1>\n  }) {dimensions = array<i64: 1>} : "
          "(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>",
          "tensor<2xf32>"),
      kOpAt, "(C6)", "the results differ");
}

TEST(VerifierReduce, ResultsDropTheReducedDimensions) {
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f32>", "f32", "1", "tensor<3xf32>"), kOpAt,
                  "(C7)", "results[0] has shape [3], expected [2]");
}

TEST(VerifierReduce, ResultsHaveTheBodyElementTypes) {
  ExpectViolation(Reduce("tensor<2x3xf32>", "tensor<f32>", "f64", "1", "tensor<2xf32>"), kOpAt,
                  "(C8)", "E0 = f64");
}

// --------------------------------------------------------------- reduce_window

std::string ReduceWindow(std::string_view input, std::string_view attrs, std::string_view result,
                         std::string_view body = "i64") {
  return MainProgram(StrCat("%a: ", input, ", %i: tensor<i64>"),
                     StrCat("%0 = \"stablehlo.reduce_window\"(%a, %i) ({\n  ^bb0(%x: tensor<", body,
                            ">, %y: tensor<", body, ">):\n    %s = stablehlo.add %x, %y : tensor<",
                            body, ">\n    stablehlo.return %s : tensor<", body, ">\n  }) {", attrs,
                            "} : (", input, ", tensor<i64>) -> ", result),
                     result);
}

constexpr std::string_view kSpecWindow =
    "window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, "
    "base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, "
    "padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>";

TEST(VerifierReduceWindow, AcceptsTheSpecExample) {
  ExpectValid(ReduceWindow("tensor<3x2xi64>", kSpecWindow, "tensor<2x2xi64>"));
  ExpectValid(ReduceWindow("tensor<?x2xi64>", kSpecWindow, "tensor<2x2xi64>"));
  ExpectValid(ReduceWindow("tensor<4x6xi64>", "window_dimensions = array<i64: 2, 3>, "
                           "window_strides = array<i64: 2, 3>",
                           "tensor<2x2xi64>"));
}

TEST(VerifierReduceWindow, WindowDimensionsMatchTheRankAndArePositive) {
  ExpectViolation(
      ReduceWindow("tensor<3x2xi64>", "window_dimensions = array<i64: 2>", "tensor<2x2xi64>"),
      kOpAt, "stablehlo.reduce_window", "(C4)",
      "window_dimensions has 1 entries, rank(inputs[0]) = 2");
  ExpectViolation(
      ReduceWindow("tensor<3x2xi64>", "window_dimensions = array<i64: 0, 1>", "tensor<4x2xi64>"),
      kOpAt, "(C5)", "window_dimensions[0] = 0");
  ExpectViolation(
      ReduceWindow("tensor<3x2xi64>", "window_strides = array<i64: 1, 1>", "tensor<3x2xi64>"),
      kOpAt, "(structure)", "window_dimensions' is required");
}

TEST(VerifierReduceWindow, StridesAndDilationsArePositive) {
  ExpectViolation(ReduceWindow("tensor<3x2xi64>",
                               "window_dimensions = array<i64: 1, 1>, window_strides = "
                               "array<i64: 1, -1>",
                               "tensor<3x2xi64>"),
                  kOpAt, "(C7)", "window_strides[1] = -1");
  ExpectViolation(ReduceWindow("tensor<3x2xi64>",
                               "window_dimensions = array<i64: 1, 1>, base_dilations = "
                               "array<i64: 0, 1>",
                               "tensor<3x2xi64>"),
                  kOpAt, "(C9)");
  ExpectViolation(ReduceWindow("tensor<3x2xi64>",
                               "window_dimensions = array<i64: 1, 1>, window_dilations = "
                               "array<i64: 1, 1, 1>",
                               "tensor<3x2xi64>"),
                  kOpAt, "(C10)");
}

TEST(VerifierReduceWindow, PaddingHasShapeRankBy2) {
  ExpectViolation(ReduceWindow("tensor<3x2xi64>",
                               "window_dimensions = array<i64: 1, 1>, padding = dense<0> : "
                               "tensor<1x2xi64>",
                               "tensor<3x2xi64>"),
                  kOpAt, "(C12)", "shape(padding) = [rank(inputs[0]), 2]", "shape [1, 2]");
}

TEST(VerifierReduceWindow, BodySignature) {
  ExpectViolation(ReduceWindow("tensor<3x2xi64>", kSpecWindow, "tensor<2x2xi32>", "i32"), kOpAt,
                  "(C13)", "i64 is not promotable to i32");
}

TEST(VerifierReduceWindow, ResultShapeIsTheNumberOfWindows) {
  ExpectViolation(ReduceWindow("tensor<3x2xi64>", kSpecWindow, "tensor<3x2xi64>"), kOpAt, "(C15)",
                  "results[0] has shape [3, 2], expected [2, 2]");
}

TEST(VerifierReduceWindow, InitValuesHaveTheInputElementTypes) {
  ExpectViolation(
      MainProgram("%a: tensor<3xi32>, %i: tensor<i64>",
                  "%0 = \"stablehlo.reduce_window\"(%a, %i) ({\n  ^bb0(%x: tensor<i64>, %y: "
                  "tensor<i64>):\n    stablehlo.return %x : tensor<i64>\n  }) {window_dimensions = "
                  "array<i64: 1>} : (tensor<3xi32>, tensor<i64>) -> tensor<3xi64>",
                  "tensor<3xi64>"),
      kOpAt, "(C3)", "inputs[0] is tensor<3xi32>");
}

// ---------------------------------------------------------- select_and_scatter

std::string SelectAndScatter(std::string_view operand, std::string_view source,
                             std::string_view result, std::string_view select_ret = "%c",
                             std::string_view scatter = "i64",
                             std::string_view window = "array<i64: 3, 1>") {
  return MainProgram(
      StrCat("%a: ", operand, ", %s: ", source, ", %i: tensor<i64>"),
      StrCat("%0 = \"stablehlo.select_and_scatter\"(%a, %s, %i) ({\n  ^bb0(%x: tensor<i64>, %y: "
             "tensor<i64>):\n    %c = stablehlo.compare GE, %x, %y : (tensor<i64>, tensor<i64>) "
             "-> tensor<i1>\n    stablehlo.return ",
             select_ret, " : ", select_ret == "%c" ? "tensor<i1>" : "tensor<i64>",
             "\n  }, {\n  ^bb0(%u: tensor<", scatter, ">, %v: tensor<", scatter,
             ">):\n    %t = stablehlo.add %u, %v : tensor<", scatter,
             ">\n    stablehlo.return %t : tensor<", scatter,
             ">\n  }) {window_dimensions = ", window,
             ", window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : "
             "tensor<2x2xi64>} : (",
             operand, ", ", source, ", tensor<i64>) -> ", result),
      result);
}

TEST(VerifierSelectAndScatter, AcceptsTheSpecExample) {
  ExpectValid(SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi64>", "tensor<4x2xi64>"));
}

TEST(VerifierSelectAndScatter, SourceHasTheOperandElementType) {
  ExpectViolation(SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi32>", "tensor<4x2xi64>"), kOpAt,
                  "stablehlo.select_and_scatter", "(C1)", "i64 vs i32");
}

TEST(VerifierSelectAndScatter, SourceShapeIsTheNumberOfWindows) {
  ExpectViolation(SelectAndScatter("tensor<4x2xi64>", "tensor<3x2xi64>", "tensor<4x2xi64>"), kOpAt,
                  "(C2)", "source has shape [3, 2], expected [2, 2]");
}

TEST(VerifierSelectAndScatter, WindowDimensionsMatchTheRank) {
  ExpectViolation(SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi64>", "tensor<4x2xi64>", "%c",
                                   "i64", "array<i64: 3>"),
                  kOpAt, "(C4)", "rank(operand) = 2");
}

TEST(VerifierSelectAndScatter, SelectReturnsI1) {
  ExpectViolation(SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi64>", "tensor<4x2xi64>", "%x"),
                  kOpAt, "(C9)", "select returns (tensor<i64>), expected (tensor<i1>)");
}

TEST(VerifierSelectAndScatter, ScatterSignature) {
  ExpectViolation(
      SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi64>", "tensor<4x2xf32>", "%c", "f32"), kOpAt,
      "(C10)", "i64 is not promotable to f32");
}

TEST(VerifierSelectAndScatter, ResultHasTheOperandShapeAndScatterType) {
  ExpectViolation(SelectAndScatter("tensor<4x2xi64>", "tensor<2x2xi64>", "tensor<2x4xi64>"), kOpAt,
                  "(C11)", "[4, 2] vs [2, 4]");
}

// ------------------------------------------------------------------------- fft

std::string Fft(std::string_view type, std::string_view length, std::string_view operand,
                std::string_view result) {
  return MainProgram(StrCat("%a: ", operand),
                     StrCat("%0 = stablehlo.fft %a, type = ", type, ", length = [", length, "] : (",
                            operand, ") -> ", result),
                     result);
}

TEST(VerifierFft, AcceptsEachFftType) {
  ExpectValid(Fft("FFT", "2, 2", "tensor<3x2x2xcomplex<f32>>", "tensor<3x2x2xcomplex<f32>>"));
  ExpectValid(Fft("IFFT", "4", "tensor<4xcomplex<f64>>", "tensor<4xcomplex<f64>>"));
  ExpectValid(Fft("RFFT", "2, 2, 4", "tensor<2x2x4xf64>", "tensor<2x2x3xcomplex<f64>>"));
  ExpectValid(Fft("IRFFT", "4, 4", "tensor<4x3xcomplex<f32>>", "tensor<4x4xf32>"));
  ExpectValid(Fft("RFFT", "5", "tensor<?x5xf32>", "tensor<?x3xcomplex<f32>>"));
}

TEST(VerifierFft, LengthFitsTheRank) {
  ExpectViolation(Fft("FFT", "2, 2", "tensor<2xcomplex<f32>>", "tensor<2xcomplex<f32>>"), kOpAt,
                  "stablehlo.fft", "(C1)", "size(fft_length) = 2, rank(operand) = 1");
}

TEST(VerifierFft, ElementTypesFollowTheFftType) {
  ExpectViolation(Fft("FFT", "4", "tensor<4xf32>", "tensor<4xf32>"), kOpAt, "(C2)",
                  "FFT from f32 to f32");
  ExpectViolation(Fft("RFFT", "4", "tensor<4xf32>", "tensor<3xcomplex<f64>>"), kOpAt, "(C2)",
                  "RFFT from f32 to complex<f64>");
  ExpectViolation(Fft("IRFFT", "4", "tensor<3xcomplex<f32>>", "tensor<4xf64>"), kOpAt, "(C2)");
}

TEST(VerifierFft, OneToThreeLengths) {
  ExpectViolation(
      Fft("FFT", "1, 1, 1, 2", "tensor<1x1x1x2xcomplex<f32>>", "tensor<1x1x1x2xcomplex<f32>>"),
      kOpAt, "(C3)", "fft_length = [1, 1, 1, 2]");
}

TEST(VerifierFft, RealTensorEndsInFftLength) {
  ExpectViolation(Fft("RFFT", "8", "tensor<4xf32>", "tensor<3xcomplex<f32>>"), kOpAt, "(C4)",
                  "fft_length = [8]");
  ExpectViolation(Fft("IRFFT", "4", "tensor<3xcomplex<f32>>", "tensor<6xf32>"), kOpAt, "(C4)");
}

TEST(VerifierFft, ResultShape) {
  ExpectViolation(Fft("RFFT", "4", "tensor<4xf32>", "tensor<4xcomplex<f32>>"), kOpAt, "(C5)");
  ExpectViolation(Fft("IRFFT", "4", "tensor<4xcomplex<f32>>", "tensor<4xf32>"), kOpAt, "(C5)");
  ExpectViolation(Fft("FFT", "4", "tensor<2x4xcomplex<f32>>", "tensor<3x4xcomplex<f32>>"), kOpAt,
                  "(C5)");
}

TEST(VerifierFft, FftTypeIsRequired) {
  ExpectViolation(MainProgram("%a: tensor<4xcomplex<f32>>",
                              "%0 = \"stablehlo.fft\"(%a) {fft_length = array<i64: 4>} : "
                              "(tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>",
                              "tensor<4xcomplex<f32>>"),
                  kOpAt, "(structure)", "'fft_type' is required");
}

// ------------------------------------------------------------ triangular_solve

std::string TriangularSolve(std::string_view a, std::string_view b, std::string_view result,
                            bool left_side = true) {
  return MainProgram(StrCat("%a: ", a, ", %b: ", b),
                     StrCat("%0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = ",
                            left_side ? "true" : "false",
                            ", lower = true, unit_diagonal = false, transpose_a = "
                            "#stablehlo<transpose NO_TRANSPOSE>} : (",
                            a, ", ", b, ") -> ", result),
                     result);
}

TEST(VerifierTriangularSolve, AcceptsLeftAndRightSides) {
  ExpectValid(TriangularSolve("tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>"));
  ExpectValid(TriangularSolve("tensor<2x3x3xf64>", "tensor<2x4x3xf64>", "tensor<2x4x3xf64>",
                              false));
  ExpectValid(TriangularSolve("tensor<?x?xcomplex<f32>>", "tensor<3x2xcomplex<f32>>",
                              "tensor<3x2xcomplex<f32>>"));
}

TEST(VerifierTriangularSolve, ElementTypesMatch) {
  ExpectViolation(TriangularSolve("tensor<3x3xf32>", "tensor<3x1xf64>", "tensor<3x1xf64>"), kOpAt,
                  "stablehlo.triangular_solve", "(C1)", "f32 vs f64");
}

TEST(VerifierTriangularSolve, RanksMatchAndAreAtLeastTwo) {
  ExpectViolation(TriangularSolve("tensor<3x3xf32>", "tensor<3xf32>", "tensor<3xf32>"), kOpAt,
                  "(C2)", "rank(a) = 2, rank(b) = 1");
}

TEST(VerifierTriangularSolve, ShapesRelate) {
  ExpectViolation(TriangularSolve("tensor<3x4xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>"), kOpAt,
                  "(C3)", "dim(a, -2) = dim(a, -1) = dim(b, -2)");
  ExpectViolation(TriangularSolve("tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<3x1xf32>", false),
                  kOpAt, "(C3)", "dim(b, -1) (not left_side)");
  ExpectViolation(TriangularSolve("tensor<2x3x3xf32>", "tensor<4x3x1xf32>", "tensor<4x3x1xf32>"),
                  kOpAt, "(C3)", "shape(a)[:-2] = shape(b)[:-2]");
}

TEST(VerifierTriangularSolve, ResultHasTheTypeOfB) {
  ExpectViolation(TriangularSolve("tensor<3x3xf32>", "tensor<3x1xf32>", "tensor<1x3xf32>"), kOpAt,
                  "(C4)", "tensor<3x1xf32> vs tensor<1x3xf32>");
}

TEST(VerifierTriangularSolve, TakesFloatingPointOrComplex) {
  ExpectViolation(TriangularSolve("tensor<3x3xi32>", "tensor<3x1xi32>", "tensor<3x1xi32>"), kOpAt,
                  "(I1)", "a is a tensor of floating-point or complex type");
}

// -------------------------------------------------------------------- cholesky

std::string Cholesky(std::string_view a, std::string_view result) {
  return MainProgram(
      StrCat("%a: ", a),
      StrCat("%0 = \"stablehlo.cholesky\"(%a) {lower = true} : (", a, ") -> ", result), result);
}

TEST(VerifierCholesky, AcceptsBatchesOfSquareMatrices) {
  ExpectValid(Cholesky("tensor<3x3xf32>", "tensor<3x3xf32>"));
  ExpectValid(Cholesky("tensor<2x?x4xcomplex<f64>>", "tensor<2x4x4xcomplex<f64>>"));
}

TEST(VerifierCholesky, ResultHasTheTypeOfA) {
  ExpectViolation(Cholesky("tensor<3x3xf32>", "tensor<3x3xf64>"), kOpAt, "stablehlo.cholesky",
                  "(C1)", "tensor<3x3xf32> vs tensor<3x3xf64>");
}

TEST(VerifierCholesky, AIsABatchOfSquareMatrices) {
  ExpectViolation(Cholesky("tensor<3xf32>", "tensor<3xf32>"), kOpAt, "(C2)", "2 <= rank(a)");
  ExpectViolation(Cholesky("tensor<2x3x4xf32>", "tensor<2x3x4xf32>"), kOpAt, "(C3)",
                  "dim(a, -2) = dim(a, -1)");
}

TEST(VerifierCholesky, TakesFloatingPointOrComplex) {
  ExpectViolation(Cholesky("tensor<3x3xi32>", "tensor<3x3xi32>"), kOpAt, "(I1)", "tensor<3x3xi32>");
}

// ------------------------------------------------------------------------- rng

std::string Rng(std::string_view distribution, std::string_view element,
                std::string_view result, std::string_view shape_values = "[3, 3]",
                std::string_view b = "") {
  const std::string b_type = b.empty() ? StrCat("tensor<", element, ">") : std::string(b);
  return StrCat(
      "\nfunc.func @main(%a: tensor<", element, ">, %b: ", b_type, ") -> ", result,
      " {\n  %shape = stablehlo.constant dense<", shape_values, "> : tensor<2xi64>\n"
      "  %0 = \"stablehlo.rng\"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution ",
      distribution, ">} : (tensor<", element, ">, ", b_type, ", tensor<2xi64>) -> ", result,
      "\n  return %0 : ", result, "\n}\n");
}

constexpr std::string_view kRngAt = "test.mlir:4:3";

TEST(VerifierRng, AcceptsUniformAndNormal) {
  ExpectValid(Rng("UNIFORM", "i32", "tensor<3x3xi32>"));
  ExpectValid(Rng("NORMAL", "f32", "tensor<3x3xf32>"));
  ExpectValid(Rng("UNIFORM", "f32", "tensor<3x?xf32>"));
  // A shape that is not a constant only fixes the rank.
  ExpectValid(MainProgram("%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>",
                          "%0 = \"stablehlo.rng\"(%a, %b, %s) {rng_distribution = "
                          "#stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, "
                          "tensor<2xi64>) -> tensor<5x7xf32>",
                          "tensor<5x7xf32>"));
}

TEST(VerifierRng, ElementTypesMatch) {
  ExpectViolation(Rng("UNIFORM", "i32", "tensor<3x3xi32>", "[3, 3]", "tensor<i64>"), kRngAt,
                  "stablehlo.rng", "(C1)", "i32, i64, i32");
}

TEST(VerifierRng, NormalNeedsFloats) {
  ExpectViolation(Rng("NORMAL", "i32", "tensor<3x3xi32>"), kRngAt, "(C2)",
                  "is_float(a) when rng_distribution = NORMAL");
}

TEST(VerifierRng, ResultShapeIsShape) {
  ExpectViolation(Rng("UNIFORM", "f32", "tensor<3x4xf32>"), kRngAt, "(C3)", "shape = [3, 3]");
  ExpectViolation(MainProgram("%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>",
                              "%0 = \"stablehlo.rng\"(%a, %b, %s) {rng_distribution = "
                              "#stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, "
                              "tensor<2xi64>) -> tensor<5xf32>",
                              "tensor<5xf32>"),
                  kOpAt, "(C3)", "shape has 2 entries");
}

TEST(VerifierRng, BoundsAreScalars) {
  ExpectViolation(Rng("UNIFORM", "f32", "tensor<3x3xf32>", "[3, 3]", "tensor<2xf32>"), kRngAt,
                  "(I2)", "b is a 0-dimensional tensor");
}

// ----------------------------------------------------------- rng_bit_generator

std::string RngBitGenerator(std::string_view algorithm, std::string_view state,
                            std::string_view out_state) {
  return MainProgram(StrCat("%s: ", state),
                     StrCat("%0:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = "
                            "#stablehlo<rng_algorithm ",
                            algorithm, ">} : (", state, ") -> (", out_state, ", tensor<4x4xui32>)"),
                     "tensor<4x4xui32>", "%0#1");
}

TEST(VerifierRngBitGenerator, AcceptsEachAlgorithm) {
  ExpectValid(RngBitGenerator("THREE_FRY", "tensor<2xui64>", "tensor<2xui64>"));
  ExpectValid(RngBitGenerator("PHILOX", "tensor<3xui64>", "tensor<3xui64>"));
  ExpectValid(RngBitGenerator("DEFAULT", "tensor<5xui64>", "tensor<5xui64>"));
  ExpectValid(MainProgram("%s: tensor<2xui64>",
                          "%0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : "
                          "(tensor<2xui64>) -> (tensor<2xui64>, tensor<10xf32>)",
                          "tensor<10xf32>", "%0#1"));
}

TEST(VerifierRngBitGenerator, OutputStateHasTheInitialStateType) {
  ExpectViolation(RngBitGenerator("THREE_FRY", "tensor<2xui64>", "tensor<3xui64>"), kOpAt,
                  "stablehlo.rng_bit_generator", "(C1)", "tensor<2xui64> vs tensor<3xui64>");
}

TEST(VerifierRngBitGenerator, StateSizeFollowsTheAlgorithm) {
  ExpectViolation(RngBitGenerator("THREE_FRY", "tensor<3xui64>", "tensor<3xui64>"), kOpAt, "(C2)",
                  "size(initial_state) = 2 for THREE_FRY");
  ExpectViolation(RngBitGenerator("PHILOX", "tensor<4xui64>", "tensor<4xui64>"), kOpAt, "(C2)",
                  "2 or 3 for PHILOX");
}

TEST(VerifierRngBitGenerator, StateIsUi64) {
  ExpectViolation(RngBitGenerator("THREE_FRY", "tensor<2xui32>", "tensor<2xui32>"), kOpAt, "(I2)",
                  "initial_state is a tensor of type ui64");
}

// ------------------------------------------------------------------ batch_norm

std::string BatchNormInference(std::string_view operand, std::string_view vec,
                               std::string_view result, int feature_index = 2,
                               std::string_view mean = "") {
  const std::string m = mean.empty() ? std::string(vec) : std::string(mean);
  return MainProgram(
      StrCat("%x: ", operand, ", %s: ", vec, ", %o: ", vec, ", %m: ", m, ", %v: ", vec),
      StrCat("%0 = \"stablehlo.batch_norm_inference\"(%x, %s, %o, %m, %v) {epsilon = 0.001 : f32, "
             "feature_index = ",
             feature_index, " : i64} : (", operand, ", ", vec, ", ", vec, ", ", m, ", ", vec,
             ") -> ", result),
      result);
}

TEST(VerifierBatchNormInference, AcceptsAFeatureDimension) {
  ExpectValid(BatchNormInference("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x2x3xf32>"));
  ExpectValid(BatchNormInference("tensor<2x?x2xf64>", "tensor<2xf64>", "tensor<2x3x2xf64>"));
}

TEST(VerifierBatchNormInference, FeatureIndexInRange) {
  ExpectViolation(BatchNormInference("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x2x3xf32>", 3),
                  kOpAt, "stablehlo.batch_norm_inference", "(C1)",
                  "feature_index = 3, rank(operand) = 3");
}

TEST(VerifierBatchNormInference, OneElementType) {
  ExpectViolation(BatchNormInference("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x2x3xf32>", 2,
                                     "tensor<3xf64>"),
                  kOpAt, "(C2)", "mean is tensor<3xf64>");
}

TEST(VerifierBatchNormInference, VectorsHaveTheFeatureSize) {
  ExpectViolation(BatchNormInference("tensor<2x2x3xf32>", "tensor<2xf32>", "tensor<2x2x3xf32>"),
                  kOpAt, "(C3)", "size(scale) = dim(operand, feature_index)",
                  "dim(operand, 2) = [3]");
  ExpectViolation(BatchNormInference("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x2x3xf32>", 2,
                                     "tensor<4xf32>"),
                  kOpAt, "(C5)", "size(mean)");
}

TEST(VerifierBatchNormInference, ResultHasTheOperandType) {
  ExpectViolation(BatchNormInference("tensor<2x2x3xf32>", "tensor<3xf32>", "tensor<2x3x2xf32>"),
                  kOpAt, "(C7)", "tensor<2x2x3xf32> vs tensor<2x3x2xf32>");
}

TEST(VerifierBatchNormInference, TakesFloatingPoint) {
  ExpectViolation(BatchNormInference("tensor<2x2x3xi32>", "tensor<3xi32>", "tensor<2x2x3xi32>"),
                  kOpAt, "(I1)", "operand is a tensor of floating-point type");
}

std::string BatchNormTraining(std::string_view output, std::string_view mean,
                              std::string_view var) {
  return MainProgram(
      "%x: tensor<4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>",
      StrCat("%0:3 = \"stablehlo.batch_norm_training\"(%x, %s, %o) {epsilon = 0.001 : f32, "
             "feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (",
             output, ", ", mean, ", ", var, ")"),
      output, "%0#0");
}

TEST(VerifierBatchNormTraining, AcceptsAFeatureDimension) {
  ExpectValid(BatchNormTraining("tensor<4x3xf32>", "tensor<3xf32>", "tensor<3xf32>"));
}

TEST(VerifierBatchNormTraining, StatisticsHaveTheFeatureSize) {
  ExpectViolation(BatchNormTraining("tensor<4x3xf32>", "tensor<4xf32>", "tensor<3xf32>"), kOpAt,
                  "stablehlo.batch_norm_training", "(C5)", "batch_mean is tensor<4xf32>");
  ExpectViolation(BatchNormTraining("tensor<4x3xf32>", "tensor<3xf32>", "tensor<2xf32>"), kOpAt,
                  "(C6)", "batch_var is tensor<2xf32>");
}

TEST(VerifierBatchNormTraining, OutputHasTheOperandType) {
  ExpectViolation(BatchNormTraining("tensor<3x4xf32>", "tensor<3xf32>", "tensor<3xf32>"), kOpAt,
                  "(C7)", "type(output) = type(operand)");
  ExpectViolation(BatchNormTraining("tensor<4x3xf16>", "tensor<3xf32>", "tensor<3xf32>"), kOpAt,
                  "(C2)", "output is tensor<4x3xf16>");
}

std::string BatchNormGrad(std::string_view grad_output, std::string_view vec,
                          std::string_view grad_operand, std::string_view grad_scale) {
  return MainProgram(
      StrCat("%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: ", vec,
             ", %v: tensor<3xf32>, %g: ", grad_output),
      StrCat("%0:3 = \"stablehlo.batch_norm_grad\"(%x, %s, %m, %v, %g) {epsilon = 0.001 : f32, "
             "feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, ",
             vec, ", tensor<3xf32>, ", grad_output, ") -> (", grad_operand, ", ", grad_scale,
             ", tensor<3xf32>)"),
      grad_operand, "%0#0");
}

TEST(VerifierBatchNormGrad, AcceptsAFeatureDimension) {
  ExpectValid(BatchNormGrad("tensor<2x3xf32>", "tensor<3xf32>", "tensor<2x3xf32>",
                            "tensor<3xf32>"));
}

TEST(VerifierBatchNormGrad, GradientsHaveTheOperandShape) {
  ExpectViolation(
      BatchNormGrad("tensor<3x2xf32>", "tensor<3xf32>", "tensor<2x3xf32>", "tensor<3xf32>"), kOpAt,
      "stablehlo.batch_norm_grad", "(C3)", "grad_output is tensor<3x2xf32>");
}

TEST(VerifierBatchNormGrad, VectorsShareAShape) {
  ExpectViolation(
      BatchNormGrad("tensor<2x3xf32>", "tensor<4xf32>", "tensor<2x3xf32>", "tensor<3xf32>"), kOpAt,
      "(C4)", "mean is tensor<4xf32>");
  ExpectViolation(
      BatchNormGrad("tensor<2x3xf32>", "tensor<3xf32>", "tensor<2x3xf32>", "tensor<3xf64>"), kOpAt,
      "(C2)", "grad_scale is tensor<3xf64>");
}

TEST(VerifierBatchNormGrad, ScaleHasTheFeatureSize) {
  ExpectViolation(
      MainProgram(
          "%x: tensor<2x3xf32>, %s: tensor<2xf32>",
          "%0:3 = \"stablehlo.batch_norm_grad\"(%x, %s, %s, %s, %x) {epsilon = 0.001 : f32, "
          "feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, "
          "tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>)",
          "tensor<2x3xf32>", "%0#0"),
      kOpAt, "(C5)", "size(scale) = dim(operand, feature_index)");
}

}  // namespace
}  // namespace plugrt::shlo
