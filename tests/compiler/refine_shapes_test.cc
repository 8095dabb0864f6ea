// passes::RefineShapes: each dynamic op's static form, shape arithmetic
// folded to constants, call specialisation, and the errors for shapes that
// contradict the program and for failed shape assertions; plus the CPU
// plugin's polymorphic executables (refined per argument shapes, cached).
#include "compiler/passes/refine_shapes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "stablehlo/verifier.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"
#include "client/npy.h"

namespace plugrt {
namespace {

using shlo::ElementType;
using shlo::Type;

Type F32(std::vector<int64_t> dims) { return Type::Tensor(ElementType::kF32, std::move(dims)); }
Type I64() { return Type::Scalar(ElementType::kSI64); }

// Parses `text`, refines it with `types` (and `values` for the leading
// arguments), and returns the printed static module, or the error.
StatusOr<std::string> Refine(const std::string& text, std::vector<Type> types,
                             std::vector<std::optional<int64_t>> values = {}) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::ParseModule(text, "t.mlir"));
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*module));
  values.resize(types.size());
  PLUGRT_RETURN_IF_ERROR(passes::RefineShapes(*module, {std::move(types), std::move(values)}));
  if (passes::IsShapePolymorphic(*module)) return Internal("still polymorphic");
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*module));
  return shlo::PrintModule(*module);
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RefineShapesTest, DynamicBroadcastInDimFromDimensionArgument) {
  const std::string text = R"(
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?x4xf32> {mhlo.sharding = ""}) -> tensor<2x?x4xf32> {
  %0 = stablehlo.constant dense<2> : tensor<1xi32>
  %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.constant dense<4> : tensor<1xi32>
  %4 = stablehlo.concatenate %0, %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %5 = stablehlo.dynamic_broadcast_in_dim %arg1, %4, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  return %5 : tensor<2x?x4xf32>
})";
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(text, "t.mlir");
  ASSERT_TRUE(module.ok());
  EXPECT_TRUE(passes::IsShapePolymorphic(**module));
  EXPECT_EQ(passes::DimensionArguments(**module), std::vector<size_t>{0});
  StatusOr<std::string> out = Refine(text, {I64(), F32({3, 4})}, {3});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "stablehlo.broadcast_in_dim")) << *out;
  EXPECT_FALSE(Has(*out, "dynamic_broadcast_in_dim")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<2x3x4xf32>")) << *out;
  // The dimension argument folded away: no concatenate is left.
  EXPECT_FALSE(Has(*out, "concatenate")) << *out;
}

TEST(RefineShapesTest, DynamicReshapeIotaPadSlice) {
  const std::string text = R"(
func.func @main(%arg0: tensor<?xf32>) -> (tensor<?x2xf32>, tensor<?xi32>, tensor<?xf32>, tensor<?xf32>) {
  %d = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %d1 = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %half = stablehlo.divide %d1, %two : tensor<1xi32>
  %shape = stablehlo.concatenate %half, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %arg0, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %i = stablehlo.dynamic_iota %d1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %none = stablehlo.constant dense<0> : tensor<1xi32>
  %p = stablehlo.dynamic_pad %arg0, %zero, %one, %two, %one : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  %s = stablehlo.real_dynamic_slice %arg0, %one, %d1, %two : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %r, %i, %p, %s : tensor<?x2xf32>, tensor<?xi32>, tensor<?xf32>, tensor<?xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({6})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  for (const char* dynamic : {"dynamic_reshape", "dynamic_iota", "dynamic_pad",
                              "real_dynamic_slice", "get_dimension_size"}) {
    EXPECT_FALSE(Has(*out, dynamic)) << dynamic << " left in\n" << *out;
  }
  EXPECT_TRUE(Has(*out, "-> tensor<3x2xf32>")) << *out;   // reshape
  EXPECT_TRUE(Has(*out, "tensor<6xi32>")) << *out;        // iota
  EXPECT_TRUE(Has(*out, "-> tensor<14xf32>")) << *out;    // pad: 1 + 6 + 5 interior + 2
  EXPECT_TRUE(Has(*out, "-> tensor<3xf32>")) << *out;     // slice [1, 6) step 2
}

TEST(RefineShapesTest, DynamicGatherConvAndDataDependentSlice) {
  const std::string text = R"(
func.func @main(%arg0: tensor<?x4xf32>, %idx: tensor<i32>, %k: tensor<3x4x5xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>, tensor<1x?x5xf32>) {
  %ind = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %sizes = stablehlo.constant dense<[1, 4]> : tensor<2xi32>
  %g = "stablehlo.dynamic_gather"(%arg0, %ind, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %i1 = stablehlo.reshape %idx : (tensor<i32>) -> tensor<1xi32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %start = stablehlo.concatenate %i1, %z, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %size = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %limit = stablehlo.add %start, %size : tensor<2xi32>
  %ones = stablehlo.constant dense<1> : tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %arg0, %start, %limit, %ones : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  %x = stablehlo.reshape %arg0 : (tensor<?x4xf32>) -> tensor<1x?x4xf32>
  %pad = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi32>
  %c = "stablehlo.dynamic_conv"(%x, %k, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x?x4xf32>, tensor<3x4x5xf32>, tensor<1x2xi32>) -> tensor<1x?x5xf32>
  return %g, %s, %c : tensor<?x4xf32>, tensor<?x2xf32>, tensor<1x?x5xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({6, 4}), Type::Scalar(ElementType::kSI32),
                                            F32({3, 4, 5})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "\"stablehlo.gather\"")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<2x4xf32>")) << *out;
  // The start depends on data, its size does not: a dynamic_slice.
  EXPECT_TRUE(Has(*out, "\"stablehlo.dynamic_slice\"")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<1x2xf32>")) << *out;
  EXPECT_TRUE(Has(*out, "\"stablehlo.convolution\"")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<1x6x5xf32>")) << *out;
}

TEST(RefineShapesTest, JaxDynamicCustomCalls) {
  const std::string text = R"(
func.func private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
func.func @main(%arg0: tensor<i64>, %x: tensor<?xf32> {mhlo.sharding = ""}, %state: tensor<2xui64> {mhlo.sharding = ""}) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xi32>, tensor<2xui64>, tensor<?xui32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.constant dense<2> : tensor<1xi64>
  %s = stablehlo.constant dense<1> : tensor<1xi64>
  %pad = stablehlo.constant dense<0> : tensor<1x2xi64>
  %r = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %w, %s, %s, %s, %pad) {called_computations = [@sum]} : (tensor<?xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<?xf32>
  %k = stablehlo.constant dense<2> : tensor<i64>
  %v, %i = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k) : (tensor<?xf32>, tensor<i64>) -> (tensor<?xf32>, tensor<?xi32>)
  %n = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
  %ns, %bits = stablehlo.custom_call @stablehlo.dynamic_rng_bit_generator(%state, %n) {mhlo.attributes = {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}} : (tensor<2xui64>, tensor<1xi64>) -> (tensor<2xui64>, tensor<?xui32>)
  return %r, %v, %i, %ns, %bits : tensor<?xf32>, tensor<?xf32>, tensor<?xi32>, tensor<2xui64>, tensor<?xui32>
})";
  StatusOr<std::string> out =
      Refine(text, {I64(), F32({5}), Type::Tensor(ElementType::kUI64, {2})}, {7});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "\"stablehlo.reduce_window\"")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<4xf32>")) << *out;  // window 2 over 5
  EXPECT_TRUE(Has(*out, "\"chlo.top_k\"")) << *out;
  EXPECT_TRUE(Has(*out, "tensor<2xi32>")) << *out;
  EXPECT_TRUE(Has(*out, "\"stablehlo.rng_bit_generator\"")) << *out;
  EXPECT_TRUE(Has(*out, "THREE_FRY")) << *out;
  EXPECT_TRUE(Has(*out, "tensor<7xui32>")) << *out;
  EXPECT_FALSE(Has(*out, "custom_call")) << *out;
  EXPECT_FALSE(Has(*out, "@sum")) << "the body was inlined; @sum is unreachable\n" << *out;
}

TEST(RefineShapesTest, DynamicApproxTopKWithResultShapeOperands) {
  // As JAX writes it: k and, listed in indices_of_shape_operands, one shape
  // operand per result.
  const std::string text = R"(
func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %four = stablehlo.constant dense<4> : tensor<i32>
  %k = stablehlo.subtract %n, %four : tensor<i32>
  %k1 = stablehlo.reshape %k : (tensor<i32>) -> tensor<1xi32>
  %v, %i = stablehlo.custom_call @stablehlo.dynamic_approx_top_k(%x, %iota, %init, %none, %k, %k1, %k1) {called_computations = [@gt], indices_of_shape_operands = dense<[5, 6]> : tensor<2xi64>, mhlo.backend_config = {aggregate_to_topk = true, reduction_dim = 0 : i64}} : (tensor<?xf32>, tensor<?xi32>, tensor<f32>, tensor<i32>, tensor<i32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %v, %i : tensor<?xf32>, tensor<?xi32>
})";
  StatusOr<std::string> out = Refine(text, {F32({10})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "call_target_name = \"ApproxTopK\"")) << *out;
  EXPECT_TRUE(Has(*out, "top_k = 6")) << *out;
  EXPECT_FALSE(Has(*out, "indices_of_shape_operands")) << *out;
  EXPECT_TRUE(Has(*out, "-> (tensor<6xf32>, tensor<6xi32>)")) << *out;
}

TEST(RefineShapesTest, StaticOpsFollowTheirOperands) {
  const std::string text = R"(
func.func @main(%x: tensor<?x8xf32>, %w: tensor<8x?xf32>) -> (tensor<?x5xcomplex<f32>>, tensor<?x?xf32>, tensor<?xf32>, tensor<8x?xf32>, tensor<?x2xf32>) {
  %f = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<?x8xf32>) -> tensor<?x5xcomplex<f32>>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  %t = stablehlo.tuple %x, %w : tuple<tensor<?x8xf32>, tensor<8x?xf32>>
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<?x8xf32>, tensor<8x?xf32>>) -> tensor<8x?xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %u = stablehlo.rng %zero, %one, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %f, %d, %r, %e, %u : tensor<?x5xcomplex<f32>>, tensor<?x?xf32>, tensor<?xf32>, tensor<8x?xf32>, tensor<?x2xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({3, 8}), F32({8, 4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "-> (tensor<3x5xcomplex<f32>>, tensor<3x4xf32>, tensor<3xf32>, "
                        "tensor<8x4xf32>, tensor<3x2xf32>)")) << *out;
}

TEST(RefineShapesTest, CalleesAreSpecialisedPerCall) {
  const std::string text = R"(
func.func private @twice(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @main(%arg0: tensor<i64>, %a: tensor<?xf32> {mhlo.sharding = ""}, %b: tensor<4xf32> {mhlo.sharding = ""}) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = func.call @twice(%arg0, %a) : (tensor<i64>, tensor<?xf32>) -> tensor<?xf32>
  %1 = func.call @twice(%arg0, %b) : (tensor<i64>, tensor<4xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
})";
  StatusOr<std::string> out = Refine(text, {I64(), F32({3}), F32({4})}, {3});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(Has(*out, "-> tensor<6xf32>")) << *out;
  EXPECT_TRUE(Has(*out, "-> tensor<8xf32>")) << *out;
}

TEST(RefineShapesTest, SetDimensionSizeToTheSizeItHasIsDropped) {
  const std::string text = R"(
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32> {mhlo.sharding = ""}) -> tensor<?xf32> {
  %n = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
  %0 = stablehlo.set_dimension_size %arg1, %n, dim = 0 : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
})";
  StatusOr<std::string> same = Refine(text, {I64(), F32({4})}, {4});
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_FALSE(Has(*same, "set_dimension_size")) << *same;
  StatusOr<std::string> smaller = Refine(text, {I64(), F32({4})}, {2});
  ASSERT_FALSE(smaller.ok());
  EXPECT_EQ(smaller.status().code(), StatusCode::kUnimplemented) << smaller.status().ToString();
}

TEST(RefineShapesTest, WhileAndIfTakeTheirOperandsShapes) {
  const std::string text = R"(
func.func @main(%x: tensor<?xf32>, %p: tensor<i1>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<?xf32>
   cond {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %twice = stablehlo.add %acc, %acc : tensor<?xf32>
    stablehlo.return %next, %twice : tensor<i32>, tensor<?xf32>
  }
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<?xf32>
  }, {
    %n = stablehlo.negate %x : tensor<?xf32>
    stablehlo.return %n : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  return %w#1, %r : tensor<?xf32>, tensor<?xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({5}), Type::Scalar(ElementType::kI1)});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_FALSE(Has(*out, "?")) << *out;
  EXPECT_TRUE(Has(*out, "-> (tensor<5xf32>, tensor<5xf32>)")) << *out;
}

TEST(RefineShapesTest, ArgumentShapeContradictingTheProgramNamesBoth) {
  const std::string text = R"(
func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %arg0 : tensor<?x4xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({3, 5})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(out.status().message(), "argument 0")) << out.status().ToString();
  EXPECT_TRUE(Has(out.status().message(), "tensor<?x4xf32>")) << out.status().ToString();
  EXPECT_TRUE(Has(out.status().message(), "tensor<3x5xf32>")) << out.status().ToString();
}

TEST(RefineShapesTest, DimensionValueContradictingAShapeIsRefused) {
  // The dimension argument says 5, the tensor has 3 rows.
  const std::string text = R"(
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32> {mhlo.sharding = ""}) -> tensor<?xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %arg1, %0, dims = [0] : (tensor<?xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
})";
  StatusOr<std::string> out = Refine(text, {I64(), F32({3})}, {5});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(out.status().message(), "t.mlir:4:")) << out.status().ToString();
  EXPECT_TRUE(Has(out.status().message(), "tensor<3xf32>")) << out.status().ToString();
  EXPECT_TRUE(Has(out.status().message(), "tensor<5xf32>")) << out.status().ToString();
}

TEST(RefineShapesTest, ShapeAssertionIsCheckedWithItsFormattedMessage) {
  const std::string text = R"(
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %d = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %min = stablehlo.constant dense<2> : tensor<i32>
  %ok = stablehlo.compare GE, %d, %min, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %d, %min) {error_message = "Input shapes do not match: dimension 'b' = {0} must be >= {1}", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
  return %arg0 : tensor<?xf32>
})";
  StatusOr<std::string> passing = Refine(text, {F32({3})});
  ASSERT_TRUE(passing.ok()) << passing.status().ToString();
  EXPECT_FALSE(Has(*passing, "shape_assertion")) << *passing;
  StatusOr<std::string> failing = Refine(text, {F32({1})});
  ASSERT_FALSE(failing.ok());
  EXPECT_EQ(failing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(failing.status().message(), "Input shapes do not match: dimension 'b' = 1 must be >= 2");
}

TEST(RefineShapesTest, ShapeOperandFromTensorDataIsRefused) {
  const std::string text = R"(
func.func @main(%arg0: tensor<?xf32>, %n: tensor<1xi32>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %n, dims = [0] : (tensor<?xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
})";
  StatusOr<std::string> out = Refine(text, {F32({1}), Type::Tensor(ElementType::kSI32, {1})});
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(Has(out.status().message(), "output_dimensions")) << out.status().ToString();
  EXPECT_TRUE(Has(out.status().message(), "tensor data")) << out.status().ToString();
}

// Through the plugin: one polymorphic executable runs with two shapes; its
// outputs take the refined shapes; its output dimensions are not guessed.
TEST(RefineShapesTest, PluginRunsAPolymorphicProgramPerShape) {
  const std::string text = R"(
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32> {mhlo.sharding = ""}) -> tensor<?xf32> {
  %0 = stablehlo.add %arg1, %arg1 : tensor<?xf32>
  return %0 : tensor<?xf32>
})";
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  StatusOr<LoadedExecutable> executable = (*client)->Compile(text);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  StatusOr<std::vector<Device>> devices = (*client)->addressable_devices();
  ASSERT_TRUE(devices.ok());
  for (int64_t n : {2, 5, 2}) {
    std::vector<float> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<float>(i);
    Buffer dim = testing::Upload(**client, devices->front(), PJRT_Buffer_Type_S64, {},
                                 std::vector<int64_t>{n});
    Buffer x = testing::Upload(**client, devices->front(), PJRT_Buffer_Type_F32, {n}, values);
    StatusOr<std::vector<std::vector<Buffer>>> out = executable->Execute({{&dim, &x}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    StatusOr<std::vector<int64_t>> dims = out->at(0).at(0).dimensions();
    ASSERT_TRUE(dims.ok());
    EXPECT_EQ(*dims, std::vector<int64_t>{n});
    std::vector<float> host(static_cast<size_t>(n));
    ASSERT_TRUE(out->at(0).at(0).ToHost(host.data(), host.size() * sizeof(float)).ok());
    EXPECT_EQ(host.back(), 2.0f * static_cast<float>(n - 1));
  }
  // A dimension argument that contradicts the tensor's shape.
  Buffer dim = testing::Upload(**client, devices->front(), PJRT_Buffer_Type_S64, {},
                               std::vector<int64_t>{4});
  Buffer wrong = testing::Upload(**client, devices->front(), PJRT_Buffer_Type_F32, {2, 2},
                                 std::vector<float>{1, 2, 3, 4});
  StatusOr<std::vector<std::vector<Buffer>>> refused = executable->Execute({{&dim, &wrong}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(refused.status().message(), "argument 1")) << refused.status().ToString();
  EXPECT_TRUE(Has(refused.status().message(), "tensor<2x2xf32>")) << refused.status().ToString();
}

// Output dimensions: not guessed for a polymorphic program; static once the
// compile options' argument layouts give every shape (refined at compile).
TEST(RefineShapesTest, OutputDimensionsAreHonest) {
  const std::string text = R"(
func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = stablehlo.negate %x : tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
})";
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  StatusOr<LoadedExecutable> polymorphic = (*client)->Compile(text);
  ASSERT_TRUE(polymorphic.ok()) << polymorphic.status().ToString();
  StatusOr<Executable> executable = polymorphic->GetExecutable();
  ASSERT_TRUE(executable.ok());
  StatusOr<std::vector<std::vector<int64_t>>> unknown = executable->output_dimensions();
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(Has(unknown.status().message(), "tensor<?x2xf32>")) << unknown.status().ToString();

  CompileOptions options;
  options.argument_layouts.push_back({PJRT_Buffer_Type_F32, {5, 2}, std::nullopt});
  StatusOr<LoadedExecutable> refined = (*client)->Compile(text, options);
  ASSERT_TRUE(refined.ok()) << refined.status().ToString();
  StatusOr<Executable> static_executable = refined->GetExecutable();
  ASSERT_TRUE(static_executable.ok());
  StatusOr<std::vector<std::vector<int64_t>>> dims = static_executable->output_dimensions();
  ASSERT_TRUE(dims.ok()) << dims.status().ToString();
  EXPECT_EQ(*dims, (std::vector<std::vector<int64_t>>{{5, 2}}));
  // A layout that contradicts the program is refused at compile.
  CompileOptions wrong;
  wrong.argument_layouts.push_back({PJRT_Buffer_Type_F32, {5, 3}, std::nullopt});
  StatusOr<LoadedExecutable> refused = (*client)->Compile(text, wrong);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(refused.status().message(), "tensor<?x2xf32>")) << refused.status().ToString();
}

// `plugrt run` takes the shapes (and the dimension argument's value) from
// its .npy inputs; `plugrt inspect` says the output shapes depend on them.
TEST(RefineShapesTest, CliRunRefinesFromNpyInputs) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "refine_shapes_cli";
  std::filesystem::create_directories(dir);
  std::ofstream((dir / "p.mlir").string()) << R"(
func.func @main(%arg0: tensor<i64>, %arg1: tensor<?xf32> {mhlo.sharding = ""}) -> tensor<?xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
  %1 = stablehlo.dynamic_iota %0, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>
  %2 = stablehlo.add %arg1, %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
})";
  auto write = [&](const std::string& name, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                   const void* data, size_t bytes) {
    plugrt::HostArray array{type, std::move(dims), std::vector<std::byte>(bytes)};
    std::memcpy(array.data.data(), data, bytes);
    ASSERT_TRUE(plugrt::WriteNpyFile((dir / name).string(), array).ok());
  };
  const int64_t three = 3, four = 4;
  const float x[3] = {10, 20, 30};
  write("n3.npy", PJRT_Buffer_Type_S64, {}, &three, sizeof three);
  write("n4.npy", PJRT_Buffer_Type_S64, {}, &four, sizeof four);
  write("x.npy", PJRT_Buffer_Type_F32, {3}, x, sizeof x);
  const std::string program = (dir / "p.mlir").string();
  testing::CommandResult ran = testing::RunCli("run " + program + " -i " + (dir / "n3.npy").string() +
                                               " -i " + (dir / "x.npy").string());
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
  EXPECT_TRUE(Has(ran.output, "f32[3]")) << ran.output;
  EXPECT_TRUE(Has(ran.output, "10., 21., 32.")) << ran.output;
  testing::CommandResult contradicted = testing::RunCli(
      "run " + program + " -i " + (dir / "n4.npy").string() + " -i " + (dir / "x.npy").string());
  EXPECT_TRUE(testing::FailedWith(contradicted, 1, "tensor<3xf32>")) << contradicted.output;
  // The example of the source tree, for two batch sizes.
  const std::string example =
      (std::filesystem::path(PLUGRT_TEST_SOURCE_DIR) / "examples/batch_polymorphic.mlir").string();
  const float rows[8] = {1, 2, 3, 4, -1, 0, 1, 0};
  write("x1.npy", PJRT_Buffer_Type_F32, {1, 4}, rows, 4 * sizeof(float));
  write("x2.npy", PJRT_Buffer_Type_F32, {2, 4}, rows, sizeof rows);
  testing::CommandResult one = testing::RunCli("run " + example + " -i " + (dir / "x1.npy").string());
  EXPECT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(Has(one.output, "f32[1,3]")) << one.output;
  EXPECT_TRUE(Has(one.output, "13.95")) << one.output;
  testing::CommandResult two = testing::RunCli("run " + example + " -i " + (dir / "x2.npy").string());
  EXPECT_EQ(two.exit_code, 0) << two.output;
  EXPECT_TRUE(Has(two.output, "f32[2,3]")) << two.output;
  EXPECT_TRUE(Has(two.output, "[13.95,  2.6 ]")) << two.output;
  testing::CommandResult inspected = testing::RunCli("inspect " + program);
  EXPECT_EQ(inspected.exit_code, 0) << inspected.output;
  EXPECT_TRUE(Has(inspected.output, "output 0: f32[shape depends on the arguments]"))
      << inspected.output;
}

}  // namespace
}  // namespace plugrt
