// Verifier rules of the shape ops (verifier_shape.cc): for each op a valid
// program and the violations of its rules, each located at the op (line 3,
// column 3 of the program) and naming the spec's label.
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

// ------------------------------------------------------------ broadcasts

std::string BroadcastInDim(std::string_view operand, std::string_view dims,
                           std::string_view result) {
  return MainProgram(StrCat("%a: ", operand),
                     StrCat("%0 = stablehlo.broadcast_in_dim %a, dims = [", dims, "] : (", operand,
                            ") -> ", result),
                     result);
}

TEST(VerifierShape, BroadcastInDimValid) {
  ExpectValid(BroadcastInDim("tensor<1x3xi32>", "2, 1", "tensor<2x3x2xi32>"));
  ExpectValid(BroadcastInDim("tensor<?x3xf32>", "0, 1", "tensor<4x3xf32>"));
  ExpectValid(BroadcastInDim("tensor<f32>", "", "tensor<2x2xf32>"));
}

TEST(VerifierShape, BroadcastInDimRules) {
  ExpectViolation(BroadcastInDim("tensor<3xi32>", "0", "tensor<3xf32>"), kOpAt, "(C1)",
                  "i32 vs f32");
  ExpectViolation(BroadcastInDim("tensor<1x3xi32>", "1", "tensor<2x3xi32>"), kOpAt, "(C2)",
                  "[1] for rank 2");
  ExpectViolation(BroadcastInDim("tensor<3xi32>", "2", "tensor<2x3xi32>"), kOpAt, "(C3)",
                  "[2] for rank 2");
  ExpectViolation(BroadcastInDim("tensor<3x3xi32>", "1, 1", "tensor<3x3xi32>"), kOpAt, "(C4)",
                  "[1, 1]");
  ExpectViolation(BroadcastInDim("tensor<2x3xi32>", "0, 1", "tensor<2x4xi32>"), kOpAt, "(C5)",
                  "dim 1 (3)");
}

std::string DynamicBroadcast(std::string_view shape_type, std::string_view extra) {
  return MainProgram(StrCat("%a: tensor<1x3xf32>, %s: ", shape_type),
                     StrCat("%0 = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %s) "
                            "{broadcast_dimensions = array<i64: 0, 1>",
                            extra, "} : (tensor<1x3xf32>, ", shape_type, ") -> tensor<?x3xf32>"),
                     "tensor<?x3xf32>");
}

TEST(VerifierShape, DynamicBroadcastInDim) {
  ExpectValid(DynamicBroadcast("tensor<2xi64>", ""));
  ExpectValid(DynamicBroadcast("tensor<2xi64>", ", known_expanding_dimensions = array<i64: 0>, "
                                                "known_nonexpanding_dimensions = array<i64: 1>"));
  ExpectViolation(DynamicBroadcast("tensor<3xi64>", ""), kOpAt, "(C7)", "3 elements, expected 2");
  ExpectViolation(DynamicBroadcast("tensor<2xf32>", ""), kOpAt, "(I2)", "integer type");
  ExpectViolation(DynamicBroadcast("tensor<2xi64>",
                                   ", known_expanding_dimensions = array<i64: 0>, "
                                   "known_nonexpanding_dimensions = array<i64: 0>"),
                  kOpAt, "(C8)", "[0] and [0]");
  ExpectViolation(DynamicBroadcast("tensor<2xi64>", ", known_expanding_dimensions = array<i64: 2>"),
                  kOpAt, "(C9)", "[2] for rank 2");
  ExpectViolation(
      DynamicBroadcast("tensor<2xi64>", ", known_nonexpanding_dimensions = array<i64: -1>"), kOpAt,
      "(C10)", "[-1]");
}

std::string Broadcast(std::string_view sizes, std::string_view result) {
  return MainProgram("%a: tensor<3xf32>",
                     StrCat("%0 = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: ",
                            sizes, ">} : (tensor<3xf32>) -> ", result),
                     result);
}

TEST(VerifierShape, Broadcast) {
  ExpectValid(Broadcast("2, 4", "tensor<2x4x3xf32>"));
  ExpectViolation(Broadcast("2", "tensor<3x2xf32>"), kOpAt, "(C2)", "expected [2, 3]");
  ExpectViolation(Broadcast("2", "tensor<2x3xi32>"), kOpAt, "(C1)", "f32 vs i32");
}

// ------------------------------------------------------------ concatenate

std::string Concatenate(std::string_view a, std::string_view b, int dimension,
                        std::string_view result) {
  return MainProgram(StrCat("%a: ", a, ", %b: ", b),
                     StrCat("%0 = \"stablehlo.concatenate\"(%a, %b) {dimension = ", dimension,
                            " : i64} : (", a, ", ", b, ") -> ", result),
                     result);
}

TEST(VerifierShape, Concatenate) {
  ExpectValid(Concatenate("tensor<2x3xf32>", "tensor<1x3xf32>", 0, "tensor<3x3xf32>"));
  ExpectValid(Concatenate("tensor<2x?xf32>", "tensor<?x3xf32>", 0, "tensor<?x3xf32>"));
  ExpectViolation(Concatenate("tensor<2x3xf32>", "tensor<1x3xi32>", 0, "tensor<3x3xf32>"), kOpAt,
                  "(C1)", "f32 vs i32");
  ExpectViolation(Concatenate("tensor<2x3xf32>", "tensor<2x4xf32>", 0, "tensor<4x3xf32>"), kOpAt,
                  "(C2)", "input #1 is [2, 4]");
  ExpectViolation(Concatenate("tensor<2x3xf32>", "tensor<2x3xf32>", 2, "tensor<4x3xf32>"), kOpAt,
                  "(C4)", "dimension 2 for rank 2");
  ExpectViolation(Concatenate("tensor<2x3xf32>", "tensor<2x3xf32>", 1, "tensor<2x6xf64>"), kOpAt,
                  "(C5)", "f64 vs f32");
  ExpectViolation(Concatenate("tensor<2x3xf32>", "tensor<2x3xf32>", 1, "tensor<2x5xf32>"), kOpAt,
                  "(C6)", "expected [2, 6]");
  ExpectViolation(MainProgram("",
                              "%0 = \"stablehlo.concatenate\"() {dimension = 0 : i64} : () -> "
                              "tensor<0xf32>",
                              "tensor<0xf32>"),
                  kOpAt, "(C3)", "no inputs");
}

// ------------------------------------------------------------ slices

std::string DynamicSlice(std::string_view i, std::string_view j, std::string_view sizes,
                         std::string_view result) {
  return MainProgram(
      StrCat("%a: tensor<3x4xf32>, %i: ", i, ", %j: ", j),
      StrCat("%0 = \"stablehlo.dynamic_slice\"(%a, %i, %j) {slice_sizes = array<i64: ", sizes,
             ">} : (tensor<3x4xf32>, ", i, ", ", j, ") -> ", result),
      result);
}

TEST(VerifierShape, DynamicSlice) {
  ExpectValid(DynamicSlice("tensor<i64>", "tensor<i64>", "2, 2", "tensor<2x2xf32>"));
  ExpectValid(MainProgram("%a: tensor<4xf32>, %i: tensor<i32>",
                          "%0 = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, "
                          "tensor<i32>) -> tensor<2xf32>",
                          "tensor<2xf32>"));
  ExpectViolation(DynamicSlice("tensor<i64>", "tensor<i64>", "2", "tensor<2xf32>"), kOpAt, "(C2)",
                  "slice_sizes [2], rank 2");
  ExpectViolation(DynamicSlice("tensor<i64>", "tensor<i32>", "2, 2", "tensor<2x2xf32>"), kOpAt,
                  "(C3)", "tensor<i64> vs tensor<i32>");
  ExpectViolation(DynamicSlice("tensor<1xi64>", "tensor<1xi64>", "2, 2", "tensor<2x2xf32>"), kOpAt,
                  "(I2)", "tensor<1xi64>");
  ExpectViolation(DynamicSlice("tensor<i64>", "tensor<i64>", "2, 5", "tensor<2x5xf32>"), kOpAt,
                  "(C4)", "slice_sizes [2, 5], operand [3, 4]");
  ExpectViolation(DynamicSlice("tensor<i64>", "tensor<i64>", "2, 2", "tensor<2x3xf32>"), kOpAt,
                  "(C5)", "result [2, 3]");
  ExpectViolation(DynamicSlice("tensor<i64>", "tensor<i64>", "2, 2", "tensor<2x2xi32>"), kOpAt,
                  "(C1)", "f32 vs i32");
}

std::string DynamicUpdateSlice(std::string_view update, std::string_view indices,
                               std::string_view index_types, std::string_view result) {
  return MainProgram(
      StrCat("%a: tensor<4x4xf32>, %u: ", update, ", %i: tensor<i32>, %j: tensor<i32>"),
      StrCat("%0 = \"stablehlo.dynamic_update_slice\"(%a, %u, ", indices, ") : (tensor<4x4xf32>, ",
             update, ", ", index_types, ") -> ", result),
      result);
}

TEST(VerifierShape, DynamicUpdateSlice) {
  const char* two = "tensor<i32>, tensor<i32>";
  ExpectValid(DynamicUpdateSlice("tensor<2x2xf32>", "%i, %j", two, "tensor<4x4xf32>"));
  ExpectViolation(DynamicUpdateSlice("tensor<2x2xf32>", "%i, %j", two, "tensor<4x5xf32>"), kOpAt,
                  "(C1)", "tensor<4x4xf32> vs tensor<4x5xf32>");
  ExpectViolation(DynamicUpdateSlice("tensor<2x2xf16>", "%i, %j", two, "tensor<4x4xf32>"), kOpAt,
                  "(C2)", "f16 vs f32");
  ExpectViolation(DynamicUpdateSlice("tensor<2xf32>", "%i, %j", two, "tensor<4x4xf32>"), kOpAt,
                  "(C3)", "1 vs 2");
  ExpectViolation(DynamicUpdateSlice("tensor<2x2xf32>", "%i", "tensor<i32>", "tensor<4x4xf32>"),
                  kOpAt, "(C4)", "1 start indices for rank 2");
  ExpectViolation(DynamicUpdateSlice("tensor<2x5xf32>", "%i, %j", two, "tensor<4x4xf32>"), kOpAt,
                  "(C6)", "update [2, 5], operand [4, 4]");
}

std::string Slice(std::string_view attrs, std::string_view result) {
  return MainProgram(
      "%a: tensor<8x4xf32>",
      StrCat("%0 = \"stablehlo.slice\"(%a) {", attrs, "} : (tensor<8x4xf32>) -> ", result), result);
}

TEST(VerifierShape, Slice) {
  ExpectValid(Slice("start_indices = array<i64: 1, 0>, limit_indices = array<i64: 7, 4>, "
                    "strides = array<i64: 2, 1>",
                    "tensor<3x4xf32>"));
  ExpectValid(Slice("start_indices = dense<[1, 0]> : tensor<2xi64>, "
                    "limit_indices = dense<[8, 4]> : tensor<2xi64>, "
                    "strides = dense<[3, 4]> : tensor<2xi64>",
                    "tensor<3x1xf32>"));
  ExpectViolation(Slice("start_indices = array<i64: 1, 0>, limit_indices = array<i64: 7, 4>, "
                        "strides = array<i64: 2, 1>",
                        "tensor<4x4xf32>"),
                  kOpAt, "(C5)", "expected [3, 4], result is [4, 4]");
  ExpectViolation(Slice("start_indices = array<i64: 1>, limit_indices = array<i64: 7>, "
                        "strides = array<i64: 2>",
                        "tensor<3xf32>"),
                  kOpAt, "(C2)", "sizes 1, 1, 1 for rank 2");
  ExpectViolation(Slice("start_indices = array<i64: 1, 0>, limit_indices = array<i64: 9, 4>, "
                        "strides = array<i64: 1, 1>",
                        "tensor<8x4xf32>"),
                  kOpAt, "(C3)", "limit 9");
  ExpectViolation(Slice("start_indices = array<i64: 3, 0>, limit_indices = array<i64: 2, 4>, "
                        "strides = array<i64: 1, 1>",
                        "tensor<0x4xf32>"),
                  kOpAt, "(C3)", "start 3, limit 2");
  ExpectViolation(Slice("start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 4>, "
                        "strides = array<i64: 0, 1>",
                        "tensor<8x4xf32>"),
                  kOpAt, "(C4)", "[0, 1]");
  ExpectViolation(Slice("start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 4>, "
                        "strides = array<i64: 1, 1>",
                        "tensor<8x4xf64>"),
                  kOpAt, "(C1)", "f32 vs f64");
}

TEST(VerifierShape, RealDynamicSlice) {
  auto program = [](std::string_view start, std::string_view result) {
    return GenericOpProgram("real_dynamic_slice",
                            {"tensor<4xf32>", start, "tensor<1xi64>", "tensor<1xi64>"}, result);
  };
  ExpectValid(program("tensor<1xi64>", "tensor<?xf32>"));
  ExpectViolation(program("tensor<2xi64>", "tensor<?xf32>"), kOpAt, "(C2)",
                  "start_indices has 2 elements, expected 1");
  ExpectViolation(program("tensor<1xi64>", "tensor<?x?xf32>"), kOpAt, "(C5)", "2 vs 1");
}

// ------------------------------------------------------------ pads

std::string Pad(std::string_view value, std::string_view low, std::string_view high,
                std::string_view interior, std::string_view result) {
  return MainProgram(
      StrCat("%a: tensor<2x3xf32>, %v: ", value),
      StrCat("%0 = stablehlo.pad %a, %v, low = [", low, "], high = [", high, "], interior = [",
             interior, "] : (tensor<2x3xf32>, ", value, ") -> ", result),
      result);
}

TEST(VerifierShape, Pad) {
  ExpectValid(Pad("tensor<f32>", "0, 1", "2, 1", "1, 0", "tensor<5x5xf32>"));
  ExpectValid(Pad("tensor<f32>", "-1, 0", "0, -2", "0, 0", "tensor<1x1xf32>"));
  ExpectViolation(Pad("tensor<f64>", "0, 0", "0, 0", "0, 0", "tensor<2x3xf32>"), kOpAt, "(C1)",
                  "f32 vs f64");
  ExpectViolation(Pad("tensor<1xf32>", "0, 0", "0, 0", "0, 0", "tensor<2x3xf32>"), kOpAt, "(I2)",
                  "tensor<1xf32>");
  ExpectViolation(Pad("tensor<f32>", "0", "0, 0", "0, 0", "tensor<2x3xf32>"), kOpAt, "(C2)",
                  "sizes 1, 2, 2 for rank 2");
  ExpectViolation(Pad("tensor<f32>", "0, 0", "0, 0", "-1, 0", "tensor<1x3xf32>"), kOpAt, "(C3)",
                  "[-1, 0]");
  ExpectViolation(Pad("tensor<f32>", "0, 1", "2, 1", "1, 0", "tensor<5x4xf32>"), kOpAt, "(C4)",
                  "expected [5, 5], result is [5, 4]");
}

TEST(VerifierShape, DynamicPad) {
  auto program = [](std::string_view low, std::string_view result) {
    return GenericOpProgram("dynamic_pad",
                            {"tensor<2xf32>", "tensor<f32>", low, "tensor<1xi64>", "tensor<1xi64>"},
                            result);
  };
  ExpectValid(program("tensor<1xi64>", "tensor<?xf32>"));
  ExpectViolation(program("tensor<2xi64>", "tensor<?xf32>"), kOpAt, "(C2)",
                  "edge_padding_low has 2 elements, expected 1");
  ExpectViolation(program("tensor<1xf32>", "tensor<?xf32>"), kOpAt, "(I3)", "integer type");
  ExpectViolation(program("tensor<1xi64>", "tensor<?x?xf32>"), kOpAt, "(C4)", "2 vs 1");
  ExpectViolation(program("tensor<1xi64>", "tensor<?xi32>"), kOpAt, "(C1)", "f32 vs i32");
}

// ------------------------------------------------------------ reshapes

TEST(VerifierShape, Reshape) {
  auto program = [](std::string_view result) {
    return MainProgram("%a: tensor<2x3xf32>",
                       StrCat("%0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> ", result), result);
  };
  ExpectValid(program("tensor<3x2xf32>"));
  ExpectValid(program("tensor<6xf32>"));
  ExpectViolation(program("tensor<7xf32>"), kOpAt, "(C2)", "[2, 3] has 6 elements, [7] has 7");
  ExpectViolation(program("tensor<6xi32>"), kOpAt, "(C1)", "f32 vs i32");
}

TEST(VerifierShape, DynamicReshape) {
  auto program = [](std::string_view shape, std::string_view result) {
    return MainProgram(StrCat("%a: tensor<2x3xf32>, %s: ", shape),
                       StrCat("%0 = stablehlo.dynamic_reshape %a, %s : (tensor<2x3xf32>, ", shape,
                              ") -> ", result),
                       result);
  };
  ExpectValid(program("tensor<2xi64>", "tensor<?x?xf32>"));
  ExpectValid(program("tensor<1xi32>", "tensor<6xf32>"));
  ExpectViolation(program("tensor<3xi64>", "tensor<?x?xf32>"), kOpAt, "(C4)",
                  "output_shape has 3 elements, expected 2");
  ExpectViolation(program("tensor<1xi64>", "tensor<5xf32>"), kOpAt, "(C2)", "has 5");
  ExpectViolation(program("tensor<2x1xi64>", "tensor<?x?xf32>"), kOpAt, "(I2)", "tensor<2x1xi64>");
}

TEST(VerifierShape, Transpose) {
  auto program = [](std::string_view dims, std::string_view result) {
    return MainProgram("%a: tensor<2x3x4xf32>",
                       StrCat("%0 = stablehlo.transpose %a, dims = [", dims,
                              "] : (tensor<2x3x4xf32>) -> ", result),
                       result);
  };
  ExpectValid(program("2, 0, 1", "tensor<4x2x3xf32>"));
  ExpectViolation(program("2, 0", "tensor<4x2xf32>"), kOpAt, "(C2)", "[2, 0] for rank 3");
  ExpectViolation(program("2, 0, 0", "tensor<4x2x2xf32>"), kOpAt, "(C2)", "[2, 0, 0]");
  ExpectViolation(program("2, 0, 3", "tensor<4x2x3xf32>"), kOpAt, "(C2)", "[2, 0, 3]");
  ExpectViolation(program("2, 0, 1", "tensor<2x3x4xf32>"), kOpAt, "(C3)", "expected [4, 2, 3]");
  ExpectViolation(program("2, 0, 1", "tensor<4x2x3xbf16>"), kOpAt, "(C1)", "f32 vs bf16");
}

TEST(VerifierShape, Reverse) {
  auto program = [](std::string_view dims, std::string_view result) {
    return MainProgram(
        "%a: tensor<2x3xf32>",
        StrCat("%0 = stablehlo.reverse %a, dims = [", dims, "] : (tensor<2x3xf32>) -> ", result),
        result);
  };
  ExpectValid(program("0, 1", "tensor<2x3xf32>"));
  ExpectViolation(program("1, 1", "tensor<2x3xf32>"), kOpAt, "(C2)", "[1, 1]");
  ExpectViolation(program("2", "tensor<2x3xf32>"), kOpAt, "(C3)", "[2] for rank 2");
  ExpectViolation(program("0", "tensor<3x2xf32>"), kOpAt, "(C1)", "tensor<3x2xf32>");
}

// ------------------------------------------------------------ iota, dimension sizes

TEST(VerifierShape, DynamicIota) {
  auto program = [](std::string_view shape, int dim, std::string_view result) {
    return MainProgram(
        StrCat("%s: ", shape),
        StrCat("%0 = stablehlo.dynamic_iota %s, dim = ", dim, " : (", shape, ") -> ", result),
        result);
  };
  ExpectValid(program("tensor<2xi64>", 1, "tensor<3x4xi64>"));
  ExpectValid(program("tensor<2xi32>", 0, "tensor<?x?xf32>"));
  ExpectViolation(program("tensor<2xi64>", 2, "tensor<3x4xi64>"), kOpAt, "(C1)",
                  "iota_dimension 2 for rank 2");
  ExpectViolation(program("tensor<3xi64>", 0, "tensor<3x4xi64>"), kOpAt, "(C2)",
                  "output_shape has 3 elements, expected 2");
}

TEST(VerifierShape, GetDimensionSize) {
  auto program = [](int dim, std::string_view result) {
    return MainProgram("%a: tensor<2x3xf32>",
                       StrCat("%0 = \"stablehlo.get_dimension_size\"(%a) {dimension = ", dim,
                              " : i64} : (tensor<2x3xf32>) -> ", result),
                       result);
  };
  ExpectValid(program(1, "tensor<i32>"));
  ExpectViolation(program(2, "tensor<i32>"), kOpAt, "(C1)", "dimension 2 for rank 2");
  ExpectViolation(program(-1, "tensor<i32>"), kOpAt, "(C1)", "dimension -1");
  ExpectViolation(program(0, "tensor<f32>"), kOpAt, "(structure)", "si32");
}

TEST(VerifierShape, SetDimensionSize) {
  auto program = [](int dim, std::string_view size, std::string_view result) {
    return MainProgram(StrCat("%a: tensor<4x2xf32>, %s: ", size),
                       StrCat("%0 = \"stablehlo.set_dimension_size\"(%a, %s) {dimension = ", dim,
                              " : i64} : (tensor<4x2xf32>, ", size, ") -> ", result),
                       result);
  };
  ExpectValid(program(0, "tensor<i32>", "tensor<?x2xf32>"));
  ExpectValid(program(1, "tensor<i32>", "tensor<4x2xf32>"));
  ExpectViolation(program(2, "tensor<i32>", "tensor<4x2xf32>"), kOpAt, "(C1)",
                  "dimension 2 for rank 2");
  ExpectViolation(program(0, "tensor<2xi32>", "tensor<4x2xf32>"), kOpAt, "(C2)", "tensor<2xi32>");
  ExpectViolation(program(0, "tensor<i32>", "tensor<4x3xf32>"), kOpAt, "(C3)",
                  "tensor<4x2xf32> vs tensor<4x3xf32>");
}

// ------------------------------------------------------------ gather

// Gather of the spec's first example: slices of 1x2x2 from a 3x4x2 operand.
std::string Gather(std::string_view numbers, std::string_view slice_sizes,
                   std::string_view result, std::string_view indices = "tensor<2x3x2xi64>") {
  return MainProgram(
      StrCat("%a: tensor<3x4x2xi64>, %i: ", indices),
      StrCat("%0 = \"stablehlo.gather\"(%a, %i) {dimension_numbers = "
             "#stablehlo.gather<",
             numbers, ">, slice_sizes = array<i64: ", slice_sizes,
             ">, indices_are_sorted = false} : (tensor<3x4x2xi64>, ", indices, ") -> ", result),
      result);
}

constexpr const char* kGatherNumbers =
    "offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], "
    "index_vector_dim = 2";

// Gather with batching dims (operand dim 0 with indices dim 1).
std::string BatchingGather(std::string_view operand, std::string_view numbers,
                           std::string_view result) {
  return MainProgram(StrCat("%a: ", operand, ", %i: tensor<2x2x3x2xi64>"),
                     StrCat("%0 = \"stablehlo.gather\"(%a, %i) {dimension_numbers = "
                            "#stablehlo.gather<",
                            numbers, ">, slice_sizes = array<i64: 1, 1, 2, 2>} : (", operand,
                            ", tensor<2x2x3x2xi64>) -> ", result),
                     result);
}

std::string BatchingNumbers(std::string_view start_index_map = "2, 1",
                            std::string_view indices_batching = "1") {
  return StrCat("offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], "
                "start_indices_batching_dims = [",
                indices_batching, "], start_index_map = [", start_index_map,
                "], index_vector_dim = 3");
}

TEST(VerifierShape, GatherValid) {
  ExpectValid(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2x2xi64>"));
  ExpectValid(Gather(kGatherNumbers, "1, 2, 2", "tensor<?x3x2x2xi64>", "tensor<?x3x2xi64>"));
  ExpectValid(BatchingGather("tensor<2x3x4x2xi32>", BatchingNumbers(), "tensor<2x2x3x2x2xi32>"));
  // index_vector_dim = rank(start_indices): each index is one number.
  ExpectValid(Gather("offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], "
                     "index_vector_dim = 1",
                     "1, 4, 2", "tensor<5x4x2xi64>", "tensor<5xi32>"));
}

TEST(VerifierShape, GatherDimensionNumbers) {
  ExpectViolation(Gather("offset_dims = [2, 3], start_index_map = [1, 0], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C1)", "rank 3");
  ExpectViolation(Gather("offset_dims = [2, 3], collapsed_slice_dims = [0], "
                         "start_index_map = [1, 0], index_vector_dim = 4",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C2)", "index_vector_dim 4 for rank 3");
  ExpectViolation(Gather("offset_dims = [2, 3], collapsed_slice_dims = [0], "
                         "start_index_map = [1], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C3)", "expected 2 entries");
  ExpectViolation(Gather("offset_dims = [3, 2], collapsed_slice_dims = [0], "
                         "start_index_map = [1, 0], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C4)", "[3, 2]");
  ExpectViolation(Gather("offset_dims = [2, 4], collapsed_slice_dims = [0], "
                         "start_index_map = [1, 0], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C5)", "[2, 4] for rank 4");
  ExpectViolation(Gather("offset_dims = [2], collapsed_slice_dims = [0], "
                         "operand_batching_dims = [0], start_indices_batching_dims = [0], "
                         "start_index_map = [1, 2], index_vector_dim = 2",
                         "1, 1, 2", "tensor<2x3x2xi64>"),
                  kOpAt, "(C6)", "[0] and [0]");
  ExpectViolation(Gather("offset_dims = [2], collapsed_slice_dims = [1, 0], "
                         "start_index_map = [1, 0], index_vector_dim = 2",
                         "1, 1, 2", "tensor<2x3x2xi64>"),
                  kOpAt, "(C7)", "[1, 0]");
  ExpectViolation(Gather("offset_dims = [2, 3], collapsed_slice_dims = [3], "
                         "start_index_map = [1, 0], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C8)", "[3] for rank 3");
  ExpectViolation(Gather("offset_dims = [2], collapsed_slice_dims = [0], "
                         "operand_batching_dims = [5], start_indices_batching_dims = [0], "
                         "start_index_map = [1, 2], index_vector_dim = 2",
                         "1, 1, 2", "tensor<2x3x2xi64>"),
                  kOpAt, "(C11)", "[5] for rank 3");
  ExpectViolation(Gather("offset_dims = [2, 3], collapsed_slice_dims = [0], "
                         "start_index_map = [1, 5], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C19)", "[1, 5] for rank 3");
  ExpectViolation(Gather("offset_dims = [2, 3], collapsed_slice_dims = [0], "
                         "start_index_map = [1, 1], index_vector_dim = 2",
                         "1, 2, 2", "tensor<2x3x2x2xi64>"),
                  kOpAt, "(C18)", "[1, 1] and []");
}

TEST(VerifierShape, GatherBatchingDims) {
  ExpectViolation(BatchingGather("tensor<3x3x4x2xi32>", BatchingNumbers(), "tensor<2x2x3x2x2xi32>"),
                  kOpAt, "(C17)", "operand [3, 3, 4, 2] dim 0 vs indices [2, 2, 3, 2] dim 1");
  ExpectViolation(
      BatchingGather("tensor<2x3x4x2xi32>", BatchingNumbers("2, 0"), "tensor<2x2x3x2x2xi32>"),
      kOpAt, "(C18)", "[2, 0] and [0]");
  ExpectViolation(
      BatchingGather("tensor<2x3x4x2xi32>", BatchingNumbers("2, 1", "3"), "tensor<2x2x3x2x2xi32>"),
      kOpAt, "(C15)", "index_vector_dim 3");
  ExpectViolation(
      BatchingGather("tensor<2x3x4x2xi32>", BatchingNumbers("2, 1", "4"), "tensor<2x2x3x2x2xi32>"),
      kOpAt, "(C14)", "[4] for rank 4");
  ExpectViolation(BatchingGather("tensor<2x3x4x2xi32>",
                                 "offset_dims = [3, 4], collapsed_slice_dims = [1], "
                                 "operand_batching_dims = [0], start_index_map = [2, 1], "
                                 "index_vector_dim = 3",
                                 "tensor<2x2x3x2x2xi32>"),
                  kOpAt, "(C16)", "[0] vs []");
}

TEST(VerifierShape, GatherSliceSizesAndResult) {
  ExpectViolation(Gather(kGatherNumbers, "1, 2", "tensor<2x3x2x2xi64>"), kOpAt, "(C20)",
                  "[1, 2] for rank 3");
  ExpectViolation(Gather(kGatherNumbers, "2, 2, 2", "tensor<2x3x2x2xi64>"), kOpAt, "(C9)",
                  "slice_sizes [2, 2, 2]");
  ExpectViolation(Gather(kGatherNumbers, "1, 5, 2", "tensor<2x3x5x2xi64>"), kOpAt, "(C21)",
                  "slice_sizes [1, 5, 2], operand [3, 4, 2]");
  ExpectViolation(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2x3xi64>"), kOpAt, "(C22)",
                  "expected [2, 3, 2, 2], result is [2, 3, 2, 3]");
  ExpectViolation(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2xi64>"), kOpAt, "(C5)",
                  "[2, 3] for rank 3");
  ExpectViolation(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2x2x1xi64>"), kOpAt, "(C22)",
                  "result rank 5, expected 4");
  ExpectViolation(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2x2xi32>"), kOpAt, "(C23)",
                  "i64 vs i32");
  ExpectViolation(Gather(kGatherNumbers, "1, 2, 2", "tensor<2x3x2x2xi64>", "tensor<2x3x2xf32>"),
                  kOpAt, "(I2)", "integer type");
}

TEST(VerifierShape, DynamicGather) {
  auto program = [](std::string_view sizes, std::string_view result) {
    return MainProgram(StrCat("%a: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %s: ", sizes),
                       StrCat("%0 = \"stablehlo.dynamic_gather\"(%a, %i, %s) {dimension_numbers = "
                              "#stablehlo.gather<",
                              kGatherNumbers,
                              ">, indices_are_sorted = false} : (tensor<3x4x2xi64>, "
                              "tensor<2x3x2xi64>, ",
                              sizes, ") -> ", result),
                       result);
  };
  ExpectValid(program("tensor<3xi64>", "tensor<2x3x2x2xi64>"));
  ExpectValid(program("tensor<3xi64>", "tensor<2x3x?x?xi64>"));
  ExpectViolation(program("tensor<2xi64>", "tensor<2x3x2x2xi64>"), kOpAt, "(C20)",
                  "slice_sizes has 2 elements, expected 3");
  ExpectViolation(program("tensor<3xi64>", "tensor<2x4x2x2xi64>"), kOpAt, "(C22)",
                  "expected [2, 3, ?, ?]");
}

// ------------------------------------------------------------ scatter

// Scatter of the spec's batching example: input dim 0 with indices dim 1.
std::string Scatter(std::string_view numbers, std::string_view update_type = "tensor<2x2x3x2x2xi64>",
                    std::string_view result = "tensor<2x3x4x2xi64>",
                    std::string_view region_type = "tensor<i64>") {
  return MainProgram(StrCat("%a: tensor<2x3x4x2xi64>, %i: tensor<2x2x3x2xi64>, %u: ", update_type),
                     StrCat("%0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                            "  ^bb0(%x: ",
                            region_type, ", %y: ", region_type,
                            "):\n"
                            "    %s = stablehlo.add %x, %y : ",
                            region_type,
                            "\n"
                            "    stablehlo.return %s : ",
                            region_type,
                            "\n"
                            "  }) {scatter_dimension_numbers = #stablehlo.scatter<",
                            numbers,
                            ">, indices_are_sorted = false, unique_indices = false} : "
                            "(tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, ",
                            update_type, ") -> ", result),
                     result);
}

std::string ScatterNumbers(std::string_view inserted = "1", std::string_view window = "3, 4",
                           std::string_view to_operand = "2, 1",
                           std::string_view indices_batching = "1", int index_vector_dim = 3) {
  return StrCat("update_window_dims = [", window, "], inserted_window_dims = [", inserted,
                "], input_batching_dims = [0], scatter_indices_batching_dims = [",
                indices_batching, "], scatter_dims_to_operand_dims = [", to_operand,
                "], index_vector_dim = ", index_vector_dim);
}

TEST(VerifierShape, ScatterValid) {
  ExpectValid(Scatter(ScatterNumbers()));
  // Windows smaller than the input's dims.
  ExpectValid(Scatter(ScatterNumbers(), "tensor<2x2x3x1x2xi64>"));
  ExpectValid(Scatter(ScatterNumbers(), "tensor<?x2x3x2x2xi64>", "tensor<2x3x?x2xi64>"));
}

TEST(VerifierShape, ScatterRules) {
  ExpectViolation(Scatter(ScatterNumbers("")), kOpAt, "(C2)", "rank 4");
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x2x3x2x3xi64>"), kOpAt, "(C4)",
                  "dim 4 exceeds 2");
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x3x3x2x2xi64>"), kOpAt, "(C4)", "dim 1 vs 2");
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x2x3x2x2x1xi64>"), kOpAt, "(C4)",
                  "updates rank 6, expected 5");
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x2x3x2x2xf32>"), kOpAt, "(C6)", "f32 vs i64");
  ExpectViolation(Scatter(ScatterNumbers("1", "4, 3")), kOpAt, "(C7)", "[4, 3]");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 5")), kOpAt, "(C8)", "[3, 5] for rank 5");
  ExpectViolation(Scatter(ScatterNumbers("0")), kOpAt, "(C9)", "[0] and [0]");
  ExpectViolation(Scatter(ScatterNumbers("4")), kOpAt, "(C11)", "[4] for rank 4");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 4", "2, 1", "3")), kOpAt, "(C16)",
                  "index_vector_dim 3");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 4", "2")), kOpAt, "(C19)", "expected 2 entries");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 4", "2, 0")), kOpAt, "(C20)", "[2, 0] and [0]");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 4", "2, 4")), kOpAt, "(C21)",
                  "[2, 4] for rank 4");
  ExpectViolation(Scatter(ScatterNumbers("1", "3, 4", "2, 1", "1", 5)), kOpAt, "(C22)",
                  "index_vector_dim 5 for rank 4");
}

TEST(VerifierShape, ScatterUpdateComputationAndResults) {
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x2x3x2x2xi64>", "tensor<2x3x4x3xi64>"), kOpAt,
                  "(C24)", "result [2, 3, 4, 3]");
  ExpectViolation(Scatter(ScatterNumbers(), "tensor<2x2x3x2x2xi64>", "tensor<2x3x4x2xi32>"), kOpAt,
                  "(C25)", "result #0 is i32, E0 is i64");
  // The region returns a tensor<2xi64>.
  ExpectViolation(
      MainProgram("%a: tensor<4xi64>, %i: tensor<1x1xi64>, %u: tensor<1xi64>",
                  "%0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                  "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
                  "    %s = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<i64>) -> "
                  "tensor<2xi64>\n"
                  "    stablehlo.return %s : tensor<2xi64>\n"
                  "  }) {scatter_dimension_numbers = #stablehlo.scatter<"
                  "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
                  "index_vector_dim = 1>} : "
                  "(tensor<4xi64>, tensor<1x1xi64>, tensor<1xi64>) -> tensor<4xi64>",
                  "tensor<4xi64>"),
      kOpAt, "(C23)", "returns (tensor<2xi64>), expected (tensor<i64>)");
  ExpectViolation(MainProgram("%a: tensor<4xi64>, %i: tensor<1x1xi64>",
                              "%0 = \"stablehlo.scatter\"(%a, %i) ({\n"
                              "  ^bb0(%x: tensor<i64>, %y: tensor<i64>):\n"
                              "    stablehlo.return %x : tensor<i64>\n"
                              "  }) {scatter_dimension_numbers = #stablehlo.scatter<"
                              "index_vector_dim = 1>} : (tensor<4xi64>, tensor<1x1xi64>) -> "
                              "tensor<4xi64>",
                              "tensor<4xi64>"),
                  kOpAt, "(C5)", "got 2 operands");
}

TEST(VerifierShape, ScatterOfTwoInputs) {
  auto program = [](std::string_view second_arg) {
    return StrCat(
        "\nfunc.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>, %i: tensor<2x1xi32>, "
        "%u: tensor<2xf32>, %v: tensor<2xi32>) -> tensor<4xi32> {\n"
        "  %0, %1 = \"stablehlo.scatter\"(%a, %b, %i, %u, %v) ({\n"
        "  ^bb0(%x: tensor<f32>, %y: tensor<i32>, %z: tensor<f32>, %w: ",
        second_arg,
        "):\n"
        "    stablehlo.return %z, %w : tensor<f32>, ",
        second_arg,
        "\n"
        "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
        "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : "
        "(tensor<4xf32>, tensor<4xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> "
        "(tensor<4xf32>, tensor<4xi32>)\n"
        "  return %1 : tensor<4xi32>\n}\n");
  };
  ExpectValid(program("tensor<i32>"));
  ExpectViolation(program("tensor<f32>"), kOpAt, "(C23)", "update_computation takes");
}

// ------------------------------------------------------------ sort

// Sorts a 2x3xf32 and a 2x3xi32 tensor; the comparator returns `returned`.
std::string Sort(std::string_view dimension, std::string_view comparator_args,
                 std::string_view returned = "%p : tensor<i1>",
                 std::string_view second_result = "tensor<2x3xi32>") {
  return StrCat(
      "\nfunc.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x3xf32> {\n"
      "  %0, %1 = \"stablehlo.sort\"(%a, %b) ({\n"
      "  ^bb0(",
      comparator_args,
      "):\n"
      "    %p = \"stablehlo.compare\"(%x, %y) {comparison_direction = "
      "#stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return ",
      returned,
      "\n"
      "  }) {dimension = ",
      dimension,
      " : i64, is_stable = true} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, ",
      second_result, ")\n  return %0 : tensor<2x3xf32>\n}\n");
}

constexpr const char* kSortArgs =
    "%x: tensor<f32>, %y: tensor<f32>, %z: tensor<i32>, %w: tensor<i32>";

TEST(VerifierShape, Sort) {
  ExpectValid(Sort("1", kSortArgs));
  ExpectValid(Sort("-2", kSortArgs));
  ExpectViolation(Sort("2", kSortArgs), kOpAt, "(C4)", "dimension 2 for rank 2");
  ExpectViolation(Sort("-3", kSortArgs), kOpAt, "(C4)", "dimension -3 for rank 2");
  ExpectViolation(Sort("0", "%x: tensor<f32>, %y: tensor<f32>, %z: tensor<i32>"), kOpAt, "(C5)",
                  "comparator takes (tensor<f32>, tensor<f32>, tensor<i32>)");
  ExpectViolation(Sort("0", "%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>, %w: tensor<i32>"),
                  kOpAt, "(C5)", "expected (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>)");
  ExpectViolation(Sort("0", kSortArgs, "%x : tensor<f32>"), kOpAt, "(C5)",
                  "comparator returns (tensor<f32>), expected (tensor<i1>)");
  ExpectViolation(Sort("0", kSortArgs, "%p, %p : tensor<i1>, tensor<i1>"), kOpAt, "(C5)",
                  "comparator returns (tensor<i1>, tensor<i1>)");
  ExpectViolation(Sort("0", kSortArgs, "%p : tensor<i1>", "tensor<2x3xi64>"), kOpAt, "(C2)",
                  "input #1 tensor<2x3xi32>, result tensor<2x3xi64>");
  ExpectViolation(
      MainProgram("%a: tensor<2xf32>, %b: tensor<3xf32>",
                  "%0, %1 = \"stablehlo.sort\"(%a, %b) ({\n"
                  "  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>, "
                  "%w: tensor<f32>):\n"
                  "    %p = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> "
                  "tensor<i1>\n"
                  "    stablehlo.return %p : tensor<i1>\n"
                  "  }) {dimension = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> "
                  "(tensor<2xf32>, tensor<3xf32>)",
                  "tensor<2xf32>"),
      kOpAt, "(C3)", "[2] vs [3]");
}

// ------------------------------------------------------------ legacy ops

TEST(VerifierShape, TorchIndexSelect) {
  auto program = [](std::string_view attrs, std::string_view index, std::string_view result) {
    return MainProgram(StrCat("%a: tensor<4x5x6xf32>, %i: ", index),
                       StrCat("%0 = \"stablehlo.torch_index_select\"(%a, %i) {", attrs,
                              "} : (tensor<4x5x6xf32>, ", index, ") -> ", result),
                       result);
  };
  ExpectValid(program("dim = 1 : i64, batch_dims = 0 : i64", "tensor<3xi32>",
                      "tensor<4x3x6xf32>"));
  ExpectValid(program("dim = 1 : i64, batch_dims = 1 : i64", "tensor<4x7xi64>",
                      "tensor<4x7x6xf32>"));
  ExpectViolation(
      program("dim = 3 : i64, batch_dims = 0 : i64", "tensor<3xi32>", "tensor<4x5x6xf32>"), kOpAt,
      "(C1)", "dim 3, batch_dims 0");
  ExpectViolation(
      program("dim = 1 : i64, batch_dims = 1 : i64", "tensor<3x7xi64>", "tensor<4x7x6xf32>"), kOpAt,
      "(C2)", "index [3, 7]");
  ExpectViolation(
      program("dim = 1 : i64, batch_dims = 0 : i64", "tensor<3xi32>", "tensor<4x5x6xf32>"), kOpAt,
      "(C4)", "expected [4, 3, 6]");
  ExpectViolation(program("dim = 1 : i64", "tensor<3xf32>", "tensor<4x3x6xf32>"), kOpAt, "(I2)",
                  "integer type");
}

std::string Einsum(std::string_view config, std::string_view lhs, std::string_view rhs,
                   std::string_view result) {
  return MainProgram(StrCat("%a: ", lhs, ", %b: ", rhs),
                     StrCat("%0 = \"stablehlo.einsum\"(%a, %b) {einsum_config = \"", config,
                            "\"} : (", lhs, ", ", rhs, ") -> ", result),
                     result);
}

TEST(VerifierShape, Einsum) {
  ExpectValid(Einsum("ab,bc->ac", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"));
  ExpectValid(Einsum("...ab,...bc->...ac", "tensor<5x2x3xf32>", "tensor<5x3x4xf32>",
                     "tensor<5x2x4xf32>"));
  ExpectValid(Einsum("ab,bc->ca", "tensor<?x3xf32>", "tensor<3x4xf32>", "tensor<4x?xf32>"));
  ExpectViolation(Einsum("ab,bc", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"), kOpAt,
                  "(C1)", "got \"ab,bc\"");
  ExpectViolation(Einsum("ab->ab", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x3xf32>"), kOpAt,
                  "(C1)", "lhs,rhs->result");
  ExpectViolation(Einsum("a1,bc->ac", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"),
                  kOpAt, "(C1)");
  ExpectViolation(Einsum("abc,bc->ac", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"),
                  kOpAt, "(C2)", "term \"abc\" for tensor<2x3xf32>");
  ExpectViolation(Einsum("ab,bc->ad", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4xf32>"),
                  kOpAt, "(C3)", "label 'd'");
  ExpectViolation(Einsum("ab,bc->aa", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x2xf32>"),
                  kOpAt, "(C3)", "label 'a'");
  ExpectViolation(Einsum("ab,bc->ac", "tensor<2x3xf32>", "tensor<5x4xf32>", "tensor<2x4xf32>"),
                  kOpAt, "(C4)", "label 'b' is 3 and 5");
  ExpectViolation(Einsum("ab,bc->ac", "tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x5xf32>"),
                  kOpAt, "(C5)", "label 'c' is 4");
}

TEST(VerifierShape, UnaryEinsum) {
  auto program = [](std::string_view config, std::string_view result) {
    return MainProgram("%a: tensor<7x2x3xf32>",
                       StrCat("%0 = \"stablehlo.unary_einsum\"(%a) {einsum_config = \"", config,
                              "\"} : (tensor<7x2x3xf32>) -> ", result),
                       result);
  };
  ExpectValid(program("abc->cba", "tensor<3x2x7xf32>"));
  ExpectValid(program("...ab->...ba", "tensor<7x3x2xf32>"));
  ExpectValid(program("abc->b", "tensor<2xf32>"));
  ExpectViolation(program("ab,c->a", "tensor<7xf32>"), kOpAt, "(C1)", "operand->result");
  ExpectViolation(program("ab->ba", "tensor<2x7xf32>"), kOpAt, "(C2)", "term \"ab\"");
  ExpectViolation(program("abc->cb", "tensor<3x3xf32>"), kOpAt, "(C5)", "label 'b' is 2");
}

}  // namespace
}  // namespace plugrt::shlo
