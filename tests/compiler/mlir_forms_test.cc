// The program forms other tools print, read by the MLIR text reader: the
// mhlo dialect (read as its StableHLO twin), the generic form of modules and
// functions, dense_resource constants with the trailing resource section,
// and ops of other dialects exporters mix in (arith's constants, casts and
// arithmetic on scalars, tensor.cast, tensor.extract, ml_program globals,
// func.call). What has no counterpart is refused by name, with file:line:col.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "compiler/importers/mlir/parser.h"
#include "compiler/passes/flatten_entry_tuples.h"
#include "compiler/passes/lower_tensor_ops.h"
#include "stablehlo/ir.h"
#include "stablehlo/printer.h"

namespace plugrt::shlo {
namespace {

std::string Printed(std::string_view text) {
  auto module = ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return "<error>";
  return PrintModule(**module);
}

std::string ErrorOf(std::string_view text) {
  auto module = ParseModule(text, "bad.mlir");
  if (module.ok()) return "<parsed>";
  EXPECT_EQ(module.status().code(), StatusCode::kInvalidArgument);
  return module.status().message();
}

const std::vector<std::unique_ptr<Operation>>& BodyOps(const Module& m) {
  return m.functions.front()->body->front().operations;
}

template <typename T>
T Element(const Attribute& attr, size_t i) {
  T value;
  std::memcpy(&value, attr.dense->bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

// ---------------------------------------------------------------- mhlo

constexpr std::string_view kMhloProgram = R"mlir(
module @m {
  func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<2x2x1x1xf32>,
                  %arg2: tensor<3x2xf32>, %arg3: tensor<2x1xi32>)
      -> (tensor<1x3x3x1xf32>, tensor<2x2xf32>, tensor<2x2xi1>, tensor<2xf32>, tensor<2xf32>,
          tensor<2x2xf32>) {
    %0 = mhlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
         precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision HIGHEST>]}
        : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
    %1 = "mhlo.gather"(%arg2, %arg3) {dimension_numbers = #mhlo.gather<offset_dims = [1],
        collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
        indices_are_sorted = false, slice_sizes = dense<[1, 2]> : tensor<2xi64>}
        : (tensor<3x2xf32>, tensor<2x1xi32>) -> tensor<2x2xf32>
    %2 = mhlo.copy %1 : tensor<2x2xf32>
    %3 = mhlo.compare LT, %2, %2, FLOAT : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
    %4 = "mhlo.compare"(%2, %2) {comparison_direction = #mhlo<comparison_direction GE>,
        compare_type = #mhlo<comparison_type TOTALORDER>}
        : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
    %5 = mhlo.and %3, %4 : tensor<2x2xi1>
    %6 = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = mhlo.reduce(%2 init: %6) applies mhlo.add across dimensions = [1]
        : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = "mhlo.reduce"(%2, %6) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "mhlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%m) : (tensor<f32>) -> ()
    }) {dimensions = dense<0> : tensor<1xi64>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
    %9 = mhlo.erf %8 : tensor<2xf32>
    %10 = "mhlo.transpose"(%2) {permutation = dense<[1, 0]> : tensor<2xi64>}
        : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %0, %2, %5, %7, %9, %10 : tensor<1x3x3x1xf32>, tensor<2x2xf32>, tensor<2x2xi1>,
        tensor<2xf32>, tensor<2xf32>, tensor<2x2xf32>
  }
}
)mlir";

constexpr std::string_view kStablehloTwin = R"mlir(
module @m {
  func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<2x2x1x1xf32>,
                  %arg2: tensor<3x2xf32>, %arg3: tensor<2x1xi32>)
      -> (tensor<1x3x3x1xf32>, tensor<2x2xf32>, tensor<2x2xi1>, tensor<2xf32>, tensor<2xf32>,
          tensor<2x2xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
         precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}
        : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
    %1 = "stablehlo.gather"(%arg2, %arg3) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
        collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
        indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}
        : (tensor<3x2xf32>, tensor<2x1xi32>) -> tensor<2x2xf32>
    %3 = stablehlo.compare LT, %1, %1, FLOAT : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
    %4 = "stablehlo.compare"(%1, %1) {comparison_direction = #stablehlo<comparison_direction GE>,
        compare_type = #stablehlo<comparison_type TOTALORDER>}
        : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
    %5 = stablehlo.and %3, %4 : tensor<2x2xi1>
    %6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%1 init: %6) applies stablehlo.add across dimensions = [1]
        : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = "stablehlo.reduce"(%1, %6) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
    %9 = chlo.erf %8 : tensor<2xf32>
    %10 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %0, %1, %5, %7, %9, %10 : tensor<1x3x3x1xf32>, tensor<2x2xf32>, tensor<2x2xi1>,
        tensor<2xf32>, tensor<2xf32>, tensor<2x2xf32>
  }
}
)mlir";

TEST(MlirFormsMhlo, ProgramReadsAsItsStablehloTwin) {
  std::string mhlo = Printed(kMhloProgram);
  EXPECT_EQ(mhlo, Printed(kStablehloTwin));
  EXPECT_EQ(mhlo.find("mhlo.c"), std::string::npos) << mhlo;  // no mhlo op or attribute left
  EXPECT_EQ(mhlo.find("#mhlo"), std::string::npos) << mhlo;
  auto module = ParseModule(kMhloProgram, "test.mlir");
  ASSERT_TRUE(module.ok());
  for (const auto& op : BodyOps(**module)) {
    EXPECT_NE(op->name.rfind("mhlo.", 0), 0u) << op->name;
    if (op->name.rfind("stablehlo.", 0) == 0) {
      EXPECT_NE(op->code, OpCode::kUnknown) << op->name;
    }
  }
}

TEST(MlirFormsMhlo, ChannelHandleDotAndScatterSpellings) {
  constexpr std::string_view kMhlo = R"mlir(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<1x1xi32>,
                %u: tensor<1x3xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "mhlo.dot_general"(%a, %b) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]}
      : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = "mhlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = mhlo.add %x, %y : tensor<f32>
    mhlo.return %s : tensor<f32>
  }) {indices_are_sorted = false, scatter_dimension_numbers = #mhlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
      unique_indices = false} : (tensor<2x3xf32>, tensor<1x1xi32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = "mhlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = mhlo.add %x, %y : tensor<f32>
    mhlo.return %s : tensor<f32>
  }) {channel_handle = #mhlo.channel_handle<handle = 1, type = 0>,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
)mlir";
  std::string twin(kMhlo);
  for (size_t pos; (pos = twin.find("mhlo")) != std::string::npos;) twin.replace(pos, 4, "stablehlo");
  EXPECT_EQ(Printed(kMhlo), Printed(twin));
  auto module = ParseModule(kMhlo, "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const Attribute* handle = BodyOps(**module)[2]->attribute("channel_handle");
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(handle->kind, Attribute::Kind::kStruct);
  EXPECT_EQ(handle->str, "stablehlo.channel_handle");
}

TEST(MlirFormsMhlo, GenericConvolutionAndEnumSpellings) {
  constexpr std::string_view kMhlo = R"mlir(
func.func @main(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>, %c: tensor<4xcomplex<f32>>,
                %lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<2xui64>)
    -> (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<4xcomplex<f32>>, tensor<3xf32>,
        tensor<2xui64>, tensor<4xui32>) {
  %0 = "mhlo.convolution"(%x, %w) {batch_group_count = 1 : i64,
      dimension_numbers = #mhlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
      feature_group_count = 1 : i64, lhs_dilation = dense<1> : tensor<2xi64>,
      padding = dense<0> : tensor<2x2xi64>, rhs_dilation = dense<1> : tensor<2xi64>,
      window_strides = dense<1> : tensor<2xi64>}
      : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  %1 = "mhlo.convolution"(%x, %w) {batch_group_count = 1 : i64,
      dimension_numbers = #mhlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,
        input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2,
        kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
        output_batch_dimension = 0, output_feature_dimension = 3,
        output_spatial_dimensions = [1, 2]>,
      feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>,
      padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>,
      window_strides = array<i64: 1, 1>}
      : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  %2 = "mhlo.fft"(%c) {fft_length = dense<4> : tensor<1xi64>, fft_type = #mhlo<fft_type FFT>}
      : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %shape = mhlo.constant dense<3> : tensor<1xi64>
  %3 = "mhlo.rng"(%lo, %hi, %shape) {rng_distribution = #mhlo.rng_distribution<UNIFORM>}
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  %4:2 = "mhlo.rng_bit_generator"(%s) {rng_algorithm = #mhlo.rng_algorithm<THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %0, %1, %2, %3, %4#0, %4#1 : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>,
      tensor<4xcomplex<f32>>, tensor<3xf32>, tensor<2xui64>, tensor<4xui32>
}
)mlir";
  constexpr std::string_view kTwin = R"mlir(
func.func @main(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>, %c: tensor<4xcomplex<f32>>,
                %lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<2xui64>)
    -> (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<4xcomplex<f32>>, tensor<3xf32>,
        tensor<2xui64>, tensor<4xui32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
       padding = dense<0> : tensor<2x2xi64>}
      : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  %2 = stablehlo.fft %c, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  %3 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  %4:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %0, %0, %2, %3, %4#0, %4#1 : tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>,
      tensor<4xcomplex<f32>>, tensor<3xf32>, tensor<2xui64>, tensor<4xui32>
}
)mlir";
  auto mhlo = ParseModule(kMhlo, "test.mlir");
  auto twin = ParseModule(kTwin, "test.mlir");
  ASSERT_TRUE(mhlo.ok()) << mhlo.status().ToString();
  ASSERT_TRUE(twin.ok()) << twin.status().ToString();
  const auto& m = BodyOps(**mhlo);
  const auto& t = BodyOps(**twin);
  ASSERT_EQ(m.size(), 7u);
  ASSERT_EQ(t.size(), 6u);
  // Both convolutions, attribute by attribute (the attribute order differs).
  for (int i : {0, 1}) {
    EXPECT_EQ(m[i]->name, "stablehlo.convolution");
    for (const auto& [name, value] : t[0]->attributes) {
      const Attribute* other = m[i]->attribute(name);
      ASSERT_NE(other, nullptr) << name;
      EXPECT_TRUE(*other == value) << name << ": " << other->ToString() << " vs "
                                   << value.ToString();
    }
  }
  for (size_t i = 2; i < m.size(); ++i) {
    EXPECT_EQ(m[i]->name, t[i - 1]->name);
    for (const auto& [name, value] : t[i - 1]->attributes) {
      const Attribute* other = m[i]->attribute(name);
      ASSERT_NE(other, nullptr) << m[i]->name << " " << name;
      EXPECT_TRUE(*other == value) << name << ": " << other->ToString() << " vs "
                                   << value.ToString();
    }
  }
}

TEST(MlirFormsMhlo, TopKAndIdentities) {
  auto module = ParseModule(R"mlir(
func.func @main(%arg0: tensor<16xf32>, %t: !stablehlo.token) -> (tensor<4xf32>, tensor<4xi32>, tensor<16xf32>) {
  %0:2 = mhlo.topk(%arg0, k = 4, largest = true) : tensor<16xf32> -> (tensor<4xf32>, tensor<4xi32>)
  %1 = "mhlo.add_dependency"(%arg0, %t) : (tensor<16xf32>, !stablehlo.token) -> tensor<16xf32>
  return %0#0, %0#1, %1 : tensor<4xf32>, tensor<4xi32>, tensor<16xf32>
}
)mlir", "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const auto& ops = BodyOps(**module);
  ASSERT_EQ(ops.size(), 2u);  // top_k, return: add_dependency is its operand
  EXPECT_EQ(ops[0]->name, "chlo.top_k");
  EXPECT_EQ(ops[0]->attribute("largest"), nullptr);
  ASSERT_NE(ops[0]->attribute("k"), nullptr);
  EXPECT_EQ(ops[1]->operands[2], (*module)->functions[0]->body->front().arguments[0].get());

  std::string error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<16xf32>) -> tensor<4xf32> {
  %0:2 = mhlo.topk(%arg0, k = 4, largest = false) : tensor<16xf32> -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0 : tensor<4xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:10:"), std::string::npos) << error;
  EXPECT_NE(error.find("largest = false"), std::string::npos) << error;
}

// Older TensorFlow and JAX exports pass and return tuples; the entry's
// signature is flattened as XLA flattens it for a PJRT client (depth first),
// the tuples rebuilt and taken apart inside.
TEST(MlirFormsMhlo, TupleSignaturesAreFlattenedAsXlaFlattensThem) {
  auto module = ParseModule(R"mlir(
func.func @main(%arg0: tuple<tensor<2xf32>, tuple<tensor<i32>>>, %arg1: tensor<2xf32> {mhlo.sharding = "{replicated}"}) -> (tuple<tensor<2xf32>, tensor<i32>>, tensor<2xf32>) {
  %0 = mhlo.get_tuple_element %arg0[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>
  %1 = mhlo.get_tuple_element %arg0[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %2 = mhlo.get_tuple_element %1[0] : (tuple<tensor<i32>>) -> tensor<i32>
  %3 = mhlo.add %0, %arg1 : tensor<2xf32>
  %4 = mhlo.tuple %3, %2 : tuple<tensor<2xf32>, tensor<i32>>
  return %4, %arg1 : tuple<tensor<2xf32>, tensor<i32>>, tensor<2xf32>
}
)mlir",
                            "tuples.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  StatusOr<bool> changed = passes::FlattenEntryTuples(**module);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(PrintModule(**module), Printed(R"mlir(
func.func @main(%a: tensor<2xf32>, %b: tensor<i32>, %arg1: tensor<2xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>) {
  %t0 = stablehlo.tuple %b : tuple<tensor<i32>>
  %t = stablehlo.tuple %a, %t0 : tuple<tensor<2xf32>, tuple<tensor<i32>>>
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32>
  %1 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<i32>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<i32>>) -> tensor<i32>
  %3 = stablehlo.add %0, %arg1 : tensor<2xf32>
  %4 = stablehlo.tuple %3, %2 : tuple<tensor<2xf32>, tensor<i32>>
  %r0 = stablehlo.get_tuple_element %4[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %r1 = stablehlo.get_tuple_element %4[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  return %r0, %r1, %arg1 : tensor<2xf32>, tensor<i32>, tensor<2xf32>
}
)mlir"));
  // A signature without tuples is left as it is.
  StatusOr<bool> again = passes::FlattenEntryTuples(**module);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(MlirFormsMhlo, OpsWithoutCounterpartAreRefusedByName) {
  std::string error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mhlo.add %arg0, %arg0 : tensor<2xf32>
  %1 = "mhlo.async_start"(%0) {called_computation = @f} : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:3:8: 'mhlo.async_start' has no StableHLO counterpart"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mhlo.bitcast %arg0 : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: 'mhlo.bitcast'"), std::string::npos) << error;
}

// ---------------------------------------------------------------- generic form

TEST(MlirFormsGeneric, GenericModuleReadsAsItsPrettyTwin) {
  constexpr std::string_view kPretty = R"mlir(
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func @main(%arg0: tensor<2xf32> {jax.arg_info = "x"}) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
    %1 = call @helper(%0) : (tensor<2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @helper(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {jax.x = 1 : i64} {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @declared(%arg0: tensor<2xf32>) -> tensor<2xf32>
}
)mlir";
  constexpr std::string_view kGeneric = R"mlir(
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{jax.arg_info = "x"}], function_type = (tensor<2xf32>) -> tensor<2xf32>,
                  res_attrs = [{jax.result_info = ""}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %1 = "func.call"(%0) <{callee = @helper}> : (tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%1) : (tensor<2xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "helper",
                  sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) {jax.x = 1 : i64} : () -> ()
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "declared",
                  sym_visibility = "private"}> ({
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32} : () -> ()
)mlir";
  EXPECT_EQ(Printed(kGeneric), Printed(kPretty));
  // Generic functions in a pretty module, and a pretty one in a generic module.
  constexpr std::string_view kMixed = R"mlir(
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  "func.func"() <{arg_attrs = [{jax.arg_info = "x"}], function_type = (tensor<2xf32>) -> tensor<2xf32>,
                  res_attrs = [{jax.result_info = ""}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
    %1 = "func.call"(%0) <{callee = @helper}> : (tensor<2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }) : () -> ()
  func.func private @helper(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {jax.x = 1 : i64} {
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @declared(%arg0: tensor<2xf32>) -> tensor<2xf32>
}
)mlir";
  EXPECT_EQ(Printed(kMixed), Printed(kPretty));
}

TEST(MlirFormsGeneric, PropertiesOnAnyOpActAsAttributes) {
  std::string generic = Printed(R"mlir(
func.func @main(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0>, limit_indices = array<i64: 2>,
      strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}
)mlir");
  EXPECT_EQ(generic, Printed(R"mlir(
func.func @main(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  %0 = stablehlo.slice %arg0 [0:2] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir"));
}

TEST(MlirFormsGeneric, BadGenericFunctionsAreLocatedErrors) {
  std::string error = ErrorOf(R"mlir("builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3xf32>):
    "func.return"(%arg0) : (tensor<3xf32>) -> ()
  }) : () -> ()
}) : () -> ()
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("function_type says tensor<2xf32>"), std::string::npos) << error;
  error = ErrorOf(R"mlir("builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
  }) : () -> ()
}) : () -> ()
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("public function @main has no body"), std::string::npos) << error;
  error = ErrorOf(R"mlir("builtin.module"() ({
  "func.func"() <{sym_name = "main"}> ({
  }) : () -> ()
}) : () -> ()
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:3: func.func needs a function_type"), std::string::npos)
      << error;
  error = ErrorOf(R"mlir("builtin.module"() ({
  "stablehlo.add"() : () -> ()
}) : () -> ()
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:3: expected a function (func.func)"), std::string::npos)
      << error;
}

// ---------------------------------------------------------------- dense_resource

TEST(MlirFormsResources, DenseResourceTakesItsBlobFromTheResourceSection) {
  auto module = ParseModule(R"mlir(module {
  func.func @main() -> (tensor<3xf32>, tensor<2xi32>, tensor<2xf32>) {
    %0 = stablehlo.constant dense_resource<blob_f32> : tensor<3xf32>
    %1 = "stablehlo.constant"() {value = dense_resource<"ints.0"> : tensor<2xi32>} : () -> tensor<2xi32>
    %2 = arith.constant dense_resource<blob_f32_2> : tensor<2xf32>
    return %0, %1, %2 : tensor<3xf32>, tensor<2xi32>, tensor<2xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob_f32: "0x040000000000803F0000004000004040",
      "ints.0": "0x04000000FFFFFFFF07000000",
      blob_f32_2: "0x080000000000C0BF00000000"
    }
  }
#-}
)mlir", "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const auto& ops = BodyOps(**module);
  const Attribute* f = ops[0]->attribute("value");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->dense->bytes.size(), 12u);
  EXPECT_EQ(Element<float>(*f, 0), 1.0f);
  EXPECT_EQ(Element<float>(*f, 1), 2.0f);
  EXPECT_EQ(Element<float>(*f, 2), 3.0f);
  const Attribute* i = ops[1]->attribute("value");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(Element<int32_t>(*i, 0), -1);
  EXPECT_EQ(Element<int32_t>(*i, 1), 7);
  EXPECT_EQ(ops[2]->name, "stablehlo.constant");
  const Attribute* g = ops[2]->attribute("value");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(Element<float>(*g, 0), -1.5f);
  EXPECT_EQ(Element<float>(*g, 1), 0.0f);
  // The same program with dense<...> prints the same.
  EXPECT_EQ(PrintModule(**module), Printed(R"mlir(module {
  func.func @main() -> (tensor<3xf32>, tensor<2xi32>, tensor<2xf32>) {
    %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %1 = stablehlo.constant dense<[-1, 7]> : tensor<2xi32>
    %2 = stablehlo.constant dense<[-1.5, 0.0]> : tensor<2xf32>
    return %0, %1, %2 : tensor<3xf32>, tensor<2xi32>, tensor<2xf32>
  }
}
)mlir"));
}

TEST(MlirFormsResources, ElidedAndMissingBlobsAreRefused) {
  std::string error = ErrorOf(R"mlir(func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.constant dense_resource<__elided__> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:27: dense_resource<__elided__>: the weights were left out "
                       "of the file"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.constant dense_resource<w0> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
{-#
  dialect_resources: { builtin: { w1: "0x040000000000803F0000004000004040" } }
#-}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:27: dense_resource<w0> has no blob"), std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.constant dense_resource<w0> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
{-#
  dialect_resources: { builtin: { w0: "0x040000000000803F" } }
#-}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:27: dense_resource<w0> has 4 bytes but tensor<3xf32> needs 12"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.constant dense_resource<w0> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
{-#
  dialect_resources: { builtin: { w0: "0x04zz" } }
#-}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:27: the blob of dense_resource<w0> is not a hex string"),
            std::string::npos)
      << error;
  // A dense_resource alone (no file around it) has no data.
  auto attr = ParseAttributeText("dense_resource<x> : tensor<2xf32>");
  ASSERT_FALSE(attr.ok());
  EXPECT_NE(attr.status().message().find("dense_resource<x> has no blob"), std::string::npos);
}

TEST(MlirFormsResources, ElidedResourcesAreFilledOnlyWhenAsked) {
  const char text[] = R"mlir(func.func @main() -> (tensor<3xf32>, tensor<2xi32>) {
  %0 = stablehlo.constant dense_resource<__elided__> : tensor<3xf32>
  %1 = stablehlo.constant dense_resource<__elided__> : tensor<2xi32>
  return %0, %1 : tensor<3xf32>, tensor<2xi32>
}
)mlir";
  ReadOptions zeros;
  zeros.elided.mode = ElidedConstantFill::Mode::kZeros;
  auto filled = ParseModule(text, "elided.mlir", zeros);
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  const std::string printed = PrintModule(**filled);
  EXPECT_NE(printed.find("dense<\"0x000000000000000000000000\"> : tensor<3xf32>"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("dense<[0, 0]> : tensor<2xi32>"), std::string::npos) << printed;
  ReadOptions random;
  random.elided.mode = ElidedConstantFill::Mode::kRandom;
  random.elided.seed = 3;
  auto a = ParseModule(text, "elided.mlir", random);
  auto b = ParseModule(text, "elided.mlir", random);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(PrintModule(**a), PrintModule(**b));
  EXPECT_NE(PrintModule(**a), printed);
  EXPECT_FALSE(ParseModule(text, "elided.mlir").ok());
}

// ---------------------------------------------------------------- other dialects

TEST(MlirFormsDialects, ArithConstantReadsAsStablehloConstant) {
  std::string arith = Printed(R"mlir(
func.func @main() -> (tensor<2xf32>, tensor<i32>) {
  %0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = "arith.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  return %0, %1 : tensor<2xf32>, tensor<i32>
}
)mlir");
  EXPECT_EQ(arith, Printed(R"mlir(
func.func @main() -> (tensor<2xf32>, tensor<i32>) {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.constant dense<3> : tensor<i32>
  return %0, %1 : tensor<2xf32>, tensor<i32>
}
)mlir"));
  // A value that is not a number of the type is refused where it stands.
  std::string error = ErrorOf(R"mlir(func.func @main() -> tensor<f32> {
  %c = arith.constant "text" : i32
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:23: arith.constant \"text\" does not fit tensor<i32>"),
            std::string::npos)
      << error;
}

// Shape arithmetic as TensorFlow's and torch-mlir's exporters write it:
// scalars (and index values, as i64) are 0-d tensors, arith's ops their
// StableHLO counterparts, in pretty and generic form.
TEST(MlirFormsDialects, ArithScalarsReadAsZeroDimensionalTensors) {
  EXPECT_EQ(Printed(R"mlir(
func.func @main(%x: tensor<2x3xf32>, %n: tensor<i64>) -> (tensor<f32>, tensor<i32>, tensor<2x3xf32>, tensor<i64>) {
  %c = arith.constant 2.5 : f32
  %one = arith.constant 1 : index
  %two = arith.constant 2 : i64
  %yes = arith.constant true
  %k = tensor.extract %n[] : tensor<i64>
  %sum = arith.addi %k, %two overflow<nsw> : i64
  %i = arith.index_cast %one : index to i32
  %f = arith.sitofp %sum : i64 to f32
  %g = arith.mulf %f, %c fastmath<fast> : f32
  %t = arith.constant dense<1.0> : tensor<2x3xf32>
  %u = arith.subf %x, %t : tensor<2x3xf32>
  %b = "arith.muli"(%sum, %two) : (i64, i64) -> i64
  return %g, %i, %u, %b : tensor<f32>, tensor<i32>, tensor<2x3xf32>, tensor<i64>
}
)mlir"),
            Printed(R"mlir(
func.func @main(%x: tensor<2x3xf32>, %n: tensor<i64>) -> (tensor<f32>, tensor<i32>, tensor<2x3xf32>, tensor<i64>) {
  %c = stablehlo.constant dense<2.5> : tensor<f32>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %yes = stablehlo.constant dense<true> : tensor<i1>
  %sum = stablehlo.add %n, %two : tensor<i64>
  %i = stablehlo.convert %one : (tensor<i64>) -> tensor<i32>
  %f = stablehlo.convert %sum : (tensor<i64>) -> tensor<f32>
  %g = stablehlo.multiply %f, %c : tensor<f32>
  %t = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %u = stablehlo.subtract %x, %t : tensor<2x3xf32>
  %b = stablehlo.multiply %sum, %two : tensor<i64>
  return %g, %i, %u, %b : tensor<f32>, tensor<i32>, tensor<2x3xf32>, tensor<i64>
}
)mlir"));
  // Types must agree; unsigned ops and element reads at an index are refused.
  std::string error = ErrorOf(R"mlir(func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %0 = arith.addi %n, %n : i32
  return %0 : tensor<i64>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:26: operand of arith.addi has type tensor<i64> but the op's "
                       "type says tensor<i32>"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %0 = arith.divui %n, %n : i64
  return %0 : tensor<i64>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: 'arith.divui' is not supported"), std::string::npos) << error;
  error = ErrorOf(R"mlir(func.func @main(%t: tensor<3xi64>, %i: tensor<i64>) -> tensor<i64> {
  %0 = tensor.extract %t[%i, %i] : tensor<3xi64>
  return %0 : tensor<i64>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: tensor.extract from tensor<3xi64> with 2 indices is not "
                       "supported"),
            std::string::npos)
      << error;
}

// Comparisons and selects (TensorFlow's shape guards): each predicate with
// a StableHLO direction reads as a compare, the others are refused by name.
TEST(MlirFormsDialects, ArithComparisonsAndSelectsReadAsStablehlo) {
  EXPECT_EQ(Printed(R"mlir(
func.func @main(%a: tensor<i64>, %b: tensor<i64>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<i64>, tensor<3xi1>, tensor<i1>, tensor<i32>) {
  %k = tensor.extract %a[] : tensor<i64>
  %l = tensor.extract %b[] : tensor<i64>
  %lt = arith.cmpi slt, %k, %l : i64
  %m = arith.select %lt, %k, %l : i64
  %ne = arith.cmpf une, %x, %y : tensor<3xf32>
  %ge = "arith.cmpi"(%k, %l) <{predicate = 5 : i64}> : (i64, i64) -> i1
  %z = arith.extui %ge : i1 to i32
  return %m, %ne, %ge, %z : tensor<i64>, tensor<3xi1>, tensor<i1>, tensor<i32>
}
)mlir"),
            Printed(R"mlir(
func.func @main(%a: tensor<i64>, %b: tensor<i64>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<i64>, tensor<3xi1>, tensor<i1>, tensor<i32>) {
  %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %m = stablehlo.select %lt, %a, %b : tensor<i1>, tensor<i64>
  %ne = stablehlo.compare NE, %x, %y, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %ge = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %z = stablehlo.convert %ge : (tensor<i1>) -> tensor<i32>
  return %m, %ne, %ge, %z : tensor<i64>, tensor<3xi1>, tensor<i1>, tensor<i32>
}
)mlir"));
  for (const char* refused : {"arith.cmpi ult, %k, %k : i64", "arith.cmpf ueq, %f, %f : f32",
                              "arith.extui %k : i64 to i64"}) {
    std::string program = std::string(R"mlir(func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %k = tensor.extract %a[] : tensor<i64>
  %f = arith.sitofp %k : i64 to f32
  %0 = )mlir") + refused + R"mlir(
  return %a : tensor<i64>
}
)mlir";
    std::string error = ErrorOf(program);
    EXPECT_NE(error.find("bad.mlir:4:"), std::string::npos) << refused << ": " << error;
    EXPECT_NE(error.find("not supported"), std::string::npos) << refused << ": " << error;
  }
}

// tensor.extract at an index and tensor.from_elements (shape operands built
// from scalars) take several StableHLO ops: the parser keeps them and
// passes/lower_tensor_ops.cc lowers them.
TEST(MlirFormsDialects, TensorExtractAndFromElementsLowerToStablehlo) {
  auto module = ParseModule(R"mlir(
func.func @main(%t: tensor<2x3xi64>, %i: tensor<i64>) -> (tensor<2xi64>, tensor<i64>) {
  %c1 = arith.constant 1 : index
  %e = tensor.extract %t[%i, %c1] : tensor<2x3xi64>
  %v = tensor.from_elements %e, %i : tensor<2xi64>
  %one = tensor.from_elements %e : tensor<1x1xi64>
  %s = tensor.extract %one[%c1, %c1] : tensor<1x1xi64>
  return %v, %s : tensor<2xi64>, tensor<i64>
}
)mlir",
                            "tensor.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  StatusOr<bool> changed = passes::LowerTensorOps(**module);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(PrintModule(**module), Printed(R"mlir(
func.func @main(%t: tensor<2x3xi64>, %i: tensor<i64>) -> (tensor<2xi64>, tensor<i64>) {
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %0 = stablehlo.dynamic_slice %t, %i, %c1, sizes = [1, 1] : (tensor<2x3xi64>, tensor<i64>, tensor<i64>) -> tensor<1x1xi64>
  %e = stablehlo.reshape %0 : (tensor<1x1xi64>) -> tensor<i64>
  %1 = stablehlo.reshape %e : (tensor<i64>) -> tensor<1xi64>
  %2 = stablehlo.reshape %i : (tensor<i64>) -> tensor<1xi64>
  %v = stablehlo.concatenate %1, %2, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %3 = stablehlo.reshape %e : (tensor<i64>) -> tensor<1xi64>
  %one = stablehlo.reshape %3 : (tensor<1xi64>) -> tensor<1x1xi64>
  %4 = stablehlo.dynamic_slice %one, %c1, %c1, sizes = [1, 1] : (tensor<1x1xi64>, tensor<i64>, tensor<i64>) -> tensor<1x1xi64>
  %s = stablehlo.reshape %4 : (tensor<1x1xi64>) -> tensor<i64>
  return %v, %s : tensor<2xi64>, tensor<i64>
}
)mlir"));
  std::string error = ErrorOf(R"mlir(func.func @main(%i: tensor<i64>) -> tensor<3xi64> {
  %v = tensor.from_elements %i, %i : tensor<3xi64>
  return %v : tensor<3xi64>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:38: tensor.from_elements of 2 elements cannot make "
                       "tensor<3xi64>"),
            std::string::npos)
      << error;
}

// tensor.dim at a constant index reads the dimension's size (as i64, an
// index); at an index computed at run time it is refused.
TEST(MlirFormsDialects, TensorDimAtAConstantIndexReadsTheSize) {
  auto module = ParseModule(R"mlir(
func.func @main(%t: tensor<?x3xf32>) -> tensor<i64> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %t, %c0 : tensor<?x3xf32>
  return %d : tensor<i64>
}
)mlir",
                            "dim.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  StatusOr<bool> changed = passes::LowerTensorOps(**module);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(PrintModule(**module), Printed(R"mlir(
func.func @main(%t: tensor<?x3xf32>) -> tensor<i64> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.get_dimension_size %t, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %d = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
  return %d : tensor<i64>
}
)mlir"));
  module = ParseModule(R"mlir(
func.func @main(%t: tensor<?x3xf32>, %i: tensor<i64>) -> tensor<i64> {
  %k = tensor.extract %i[] : tensor<i64>
  %d = tensor.dim %t, %k : tensor<?x3xf32>
  return %d : tensor<i64>
}
)mlir",
                       "dim.mlir");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  changed = passes::LowerTensorOps(**module);
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(changed.status().message().find("dimension computed at run time"), std::string::npos)
      << changed.status().ToString();
}

// Weights as ml_program globals: each load reads as a constant of the
// global's initial value.
TEST(MlirFormsDialects, MlProgramGlobalsReadAsConstants) {
  EXPECT_EQ(Printed(R"mlir(
module {
  ml_program.global private @w(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  ml_program.global private mutable @b(dense<0.5> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %w = ml_program.global_load_const @w : tensor<2xf32>
    %b = ml_program.global_load @b : tensor<2xf32>
    %g = "ml_program.global_load_const"() {global = @w} : () -> tensor<2xf32>
    %0 = stablehlo.multiply %x, %w : tensor<2xf32>
    %1 = stablehlo.add %0, %b : tensor<2xf32>
    %2 = stablehlo.add %1, %g : tensor<2xf32>
    return %2 : tensor<2xf32>
  }
}
)mlir"),
            Printed(R"mlir(
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<0.5> : tensor<2xf32>
  %g = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = stablehlo.multiply %x, %w : tensor<2xf32>
  %1 = stablehlo.add %0, %b : tensor<2xf32>
  %2 = stablehlo.add %1, %g : tensor<2xf32>
  return %2 : tensor<2xf32>
}
)mlir"));
  std::string error = ErrorOf(R"mlir(module {
  ml_program.global private @w : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:21: ml_program.global @w has no initial value"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(module {
  func.func @main() -> tensor<2xf32> {
    %w = ml_program.global_load_const @w : tensor<2xf32>
    return %w : tensor<2xf32>
  }
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:3:39: no ml_program.global @w is defined before this load"),
            std::string::npos)
      << error;
  error = ErrorOf(R"mlir(module {
  ml_program.global private mutable @b(dense<0.5> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    ml_program.global_store @b = %x : tensor<2xf32>
    return %x : tensor<2xf32>
  }
}
)mlir");
  EXPECT_NE(error.find("'ml_program.global_store' is not supported"), std::string::npos) << error;
}

TEST(MlirFormsDialects, TensorCastBetweenEqualShapesIsItsOperand) {
  EXPECT_EQ(Printed(R"mlir(
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tensor.cast %arg0 : tensor<2xf32> to tensor<2xf32>
  %1 = "tensor.cast"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = stablehlo.add %1, %0 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
)mlir"),
            Printed(R"mlir(
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %2 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
)mlir"));
  std::string error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<?xf32>) -> tensor<2xf32> {
  %0 = tensor.cast %arg0 : tensor<?xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: tensor.cast from tensor<?xf32> to tensor<2xf32> is not "
                       "supported"),
            std::string::npos)
      << error;
}

TEST(MlirFormsDialects, OtherDialectsAreRefusedByName) {
  std::string error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = arith.ceildivsi %arg0, %arg0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: 'arith.ceildivsi' is not supported"), std::string::npos)
      << error;
  error = ErrorOf(R"mlir(func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tensor.empty"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)mlir");
  EXPECT_NE(error.find("bad.mlir:2:8: 'tensor.empty' is not supported"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace plugrt::shlo
