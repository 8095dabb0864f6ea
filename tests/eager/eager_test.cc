// The eager layer (src/eager) over the CPU plugin with two devices, each op
// group checked against the same computation written by hand as a StableHLO
// program and run through the client's compiled path; tensor features also
// over the SDK's example plugin, which proves the layer needs nothing of the
// CPU plugin.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <future>
#include <iostream>
#include <thread>

#include "eager/context.h"
#include "testutil/eager_context.h"
#include "testutil/plugin_env.h"

namespace plugrt::eager {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Context> MakeContext(ContextOptions options = {}) {
  return testing::MakeEagerContext(std::move(options));
}

template <typename T>
Tensor Make(Context& ctx, std::vector<T> values, std::vector<int64_t> dims,
            std::optional<std::string> device = std::nullopt) {
  auto t = ctx.FromVector<T>(values, std::move(dims), std::move(device));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : Tensor();
}

// Runs `op` built by `setup`; its outputs (a test failure if it fails).
std::vector<Tensor> RunOp(Context& ctx, const std::string& name,
                        const std::function<void(Op&)>& setup) {
  Op op(ctx, name);
  setup(op);
  auto outputs = op.Execute();
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  return outputs.ok() ? *outputs : std::vector<Tensor>();
}

// The compiled path: `program` compiled by the client and run on `inputs`'
// buffers on device 0; each output's bytes.
std::vector<std::vector<std::byte>> RunCompiled(Context& ctx, const std::string& program,
                                                const std::vector<Tensor>& inputs) {
  auto executable = ctx.client().Compile(program);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString();
  if (!executable.ok()) return {};
  std::vector<Buffer*> args;
  for (const Tensor& t : inputs) {
    EXPECT_TRUE(t.Await().ok());
    args.push_back(const_cast<Buffer*>(&t.state()->buffer()));
  }
  auto outputs = executable->Execute({args});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  std::vector<std::vector<std::byte>> bytes;
  if (!outputs.ok()) return bytes;
  for (Buffer& b : (*outputs)[0]) bytes.push_back(*b.ToHostVector());
  return bytes;
}

void ExpectSameAsCompiled(Context& ctx, const std::vector<Tensor>& eager, const std::string& program,
                          const std::vector<Tensor>& inputs) {
  std::vector<std::vector<std::byte>> expected = RunCompiled(ctx, program, inputs);
  ASSERT_EQ(eager.size(), expected.size());
  for (size_t i = 0; i < eager.size(); ++i) {
    auto got = eager[i].ToHost();
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, expected[i]) << "output " << i << ": " << eager[i].Summary();
  }
}

TEST(EagerOps, ElementwiseMatchesCompiled) {
  auto ctx = MakeContext();
  Tensor a = Make<float>(*ctx, {1, 4, 9, 16, 25, 36}, {2, 3});
  Tensor b = Make<float>(*ctx, {0.5, 1, 1.5, 2, 2.5, 3}, {2, 3});
  auto product = RunOp(*ctx, "stablehlo.multiply", [&](Op& op) {
    ASSERT_TRUE(op.AddInput(a).ok());
    ASSERT_TRUE(op.AddInput(b).ok());
  });
  ASSERT_EQ(product.size(), 1u);
  auto root = RunOp(*ctx, "stablehlo.sqrt", [&](Op& op) { ASSERT_TRUE(op.AddInput(product[0]).ok()); });
  ExpectSameAsCompiled(*ctx, root, R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %p = stablehlo.multiply %a, %b : tensor<2x3xf32>
  %r = stablehlo.sqrt %p : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
})", {a, b});
  EXPECT_EQ(*root[0].dims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(*root[0].dtype(), PJRT_Buffer_Type_F32);
  auto cmp = RunOp(*ctx, "stablehlo.compare", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("comparison_direction", std::string("GT")).ok());
    ASSERT_TRUE(op.AddInput(a).ok());
    ASSERT_TRUE(op.AddInput(b).ok());
  });
  EXPECT_EQ(*cmp[0].dtype(), PJRT_Buffer_Type_PRED);
  EXPECT_EQ(*cmp[0].ToVector<uint8_t>(), (std::vector<uint8_t>{1, 1, 1, 1, 1, 1}));
}

TEST(EagerOps, DotGeneralMatchesCompiled) {
  auto ctx = MakeContext();
  Tensor lhs = Make<float>(*ctx, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3});
  Tensor rhs = Make<float>(*ctx, {1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 1, 1}, {2, 3, 2});
  auto out = RunOp(*ctx, "stablehlo.dot_general", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("lhs_batching_dimensions", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("rhs_batching_dimensions", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("lhs_contracting_dimensions", std::vector<int64_t>{2}).ok());
    ASSERT_TRUE(op.SetAttr("rhs_contracting_dimensions", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.AddInput(lhs).ok());
    ASSERT_TRUE(op.AddInput(rhs).ok());
  });
  ExpectSameAsCompiled(*ctx, out, R"(
func.func @main(%a: tensor<2x2x3xf32>, %b: tensor<2x3x2xf32>) -> tensor<2x2x2xf32> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
})", {lhs, rhs});
  // First batch: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]].
  auto values = *out[0].ToVector<float>();
  EXPECT_EQ(values[0], 4);
  EXPECT_EQ(values[1], 5);
}

constexpr const char* kFunctions = R"(
func.func @max_of(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %r = stablehlo.maximum %x, %y : tensor<f32>
  return %r : tensor<f32>
}
func.func public @below_ten(%i: tensor<i32>, %acc: tensor<f32>) -> tensor<i1> {
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func @step(%i: tensor<i32>, %acc: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %next = stablehlo.add %i, %one : tensor<i32>
  %f = stablehlo.convert %next : (tensor<i32>) -> tensor<f32>
  %sum = func.call @add_f32(%acc, %f) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %next, %sum : tensor<i32>, tensor<f32>
}
func.func @add_f32(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %r = stablehlo.add %x, %y : tensor<f32>
  return %r : tensor<f32>
}
func.func @greater_first(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %r : tensor<i1>
}
)";

TEST(EagerOps, DynamicSliceAndUpdateClampTheirStarts) {
  auto ctx = MakeContext();
  std::vector<float> v(20);
  for (int i = 0; i < 20; ++i) v[i] = static_cast<float>(i);
  Tensor x = Make<float>(*ctx, v, {4, 5});
  Tensor one = Make<int32_t>(*ctx, {1}, {});
  Tensor four = Make<int32_t>(*ctx, {4}, {});  // past the end: clamped to 2
  auto sliced = RunOp(*ctx, "stablehlo.dynamic_slice", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("slice_sizes", std::vector<int64_t>{2, 3}).ok());
    ASSERT_TRUE(op.AddInput(x).ok());
    ASSERT_TRUE(op.AddInputList({one, four}).ok());
  });
  ASSERT_EQ(sliced.size(), 1u);
  EXPECT_EQ(*sliced[0].ToVector<float>(), (std::vector<float>{7, 8, 9, 12, 13, 14}));
  Tensor patch = Make<float>(*ctx, {-1, -2}, {1, 2});
  auto updated = RunOp(*ctx, "stablehlo.dynamic_update_slice", [&](Op& op) {
    ASSERT_TRUE(op.AddInput(x).ok());
    ASSERT_TRUE(op.AddInput(patch).ok());
    ASSERT_TRUE(op.AddInputList({four, four}).ok());  // clamped to (3, 3)
  });
  ASSERT_EQ(updated.size(), 1u);
  std::vector<float> expected = v;
  expected[18] = -1;
  expected[19] = -2;
  EXPECT_EQ(*updated[0].ToVector<float>(), expected);
}

TEST(EagerOps, GatherTakesRowsAndWindows) {
  auto ctx = MakeContext();
  std::vector<float> v(12);
  for (int i = 0; i < 12; ++i) v[i] = static_cast<float>(i);
  Tensor x = Make<float>(*ctx, v, {4, 3});
  Tensor rows = Make<int32_t>(*ctx, {2, 0, 2}, {3, 1});
  auto gathered = RunOp(*ctx, "stablehlo.gather", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("offset_dims", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.SetAttr("collapsed_slice_dims", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("start_index_map", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("index_vector_dim", int64_t{1}).ok());
    ASSERT_TRUE(op.SetAttr("slice_sizes", std::vector<int64_t>{1, 3}).ok());
    ASSERT_TRUE(op.AddInput(x).ok());
    ASSERT_TRUE(op.AddInput(rows).ok());
  });
  ASSERT_EQ(gathered.size(), 1u);
  EXPECT_EQ(*gathered[0].dims(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(*gathered[0].ToVector<float>(), (std::vector<float>{6, 7, 8, 0, 1, 2, 6, 7, 8}));
  Tensor start = Make<int32_t>(*ctx, {1, 1}, {2});  // a 2x2 window at (1, 1)
  auto window = RunOp(*ctx, "stablehlo.gather", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("offset_dims", std::vector<int64_t>{0, 1}).ok());
    ASSERT_TRUE(op.SetAttr("start_index_map", std::vector<int64_t>{0, 1}).ok());
    ASSERT_TRUE(op.SetAttr("index_vector_dim", int64_t{0}).ok());
    ASSERT_TRUE(op.SetAttr("slice_sizes", std::vector<int64_t>{2, 2}).ok());
    ASSERT_TRUE(op.AddInput(x).ok());
    ASSERT_TRUE(op.AddInput(start).ok());
  });
  ASSERT_EQ(window.size(), 1u);
  EXPECT_EQ(*window[0].ToVector<float>(), (std::vector<float>{4, 5, 7, 8}));
}

TEST(EagerOps, ConvolutionSumsWindowsInAnyLayout) {
  auto ctx = MakeContext();
  // A 3x3 image (NHWC, one channel) and a 2x2 kernel of ones (HWIO):
  // each output is the sum of a 2x2 window.
  Tensor image = Make<float>(*ctx, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1});
  Tensor kernel = Make<float>(*ctx, {1, 1, 1, 1}, {2, 2, 1, 1});
  auto out = RunOp(*ctx, "stablehlo.convolution", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("input_batch_dimension", int64_t{0}).ok());
    ASSERT_TRUE(op.SetAttr("input_feature_dimension", int64_t{3}).ok());
    ASSERT_TRUE(op.SetAttr("input_spatial_dimensions", std::vector<int64_t>{1, 2}).ok());
    ASSERT_TRUE(op.SetAttr("kernel_input_feature_dimension", int64_t{2}).ok());
    ASSERT_TRUE(op.SetAttr("kernel_output_feature_dimension", int64_t{3}).ok());
    ASSERT_TRUE(op.SetAttr("kernel_spatial_dimensions", std::vector<int64_t>{0, 1}).ok());
    ASSERT_TRUE(op.SetAttr("output_batch_dimension", int64_t{0}).ok());
    ASSERT_TRUE(op.SetAttr("output_feature_dimension", int64_t{3}).ok());
    ASSERT_TRUE(op.SetAttr("output_spatial_dimensions", std::vector<int64_t>{1, 2}).ok());
    ASSERT_TRUE(op.AddInput(image).ok());
    ASSERT_TRUE(op.AddInput(kernel).ok());
  });
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(*out[0].dims(), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(*out[0].ToVector<float>(), (std::vector<float>{12, 16, 24, 28}));
}

TEST(EagerOps, ReduceWindowGivesCumulativeSums) {
  auto ctx = MakeContext();
  Tensor x = Make<float>(*ctx, {1, 2, 3, 4}, {4});
  Tensor zero = Make<float>(*ctx, {0}, {});
  auto out = RunOp(*ctx, "stablehlo.reduce_window", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("window_dimensions", std::vector<int64_t>{4}).ok());
    ASSERT_TRUE(op.SetAttr("padding", std::vector<int64_t>{3, 0}).ok());
    ASSERT_TRUE(op.SetAttr("body", Reducer::kAdd).ok());
    ASSERT_TRUE(op.AddInputList({x}).ok());
    ASSERT_TRUE(op.AddInputList({zero}).ok());
  });
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(*out[0].ToVector<float>(), (std::vector<float>{1, 3, 6, 10}));
}

TEST(EagerOps, ReduceWithBuiltInAndLoadedReducersMatchesCompiled) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kFunctions).ok());
  Tensor x = Make<float>(*ctx, {3, -1, 7, 2, 8, -5}, {2, 3});
  Tensor zero = Make<float>(*ctx, {0}, {});
  Tensor low = Make<float>(*ctx, {-100}, {});
  auto sum = RunOp(*ctx, "stablehlo.reduce", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("dimensions", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.SetAttr("body", Reducer::kAdd).ok());
    ASSERT_TRUE(op.AddInputList({x}).ok());
    ASSERT_TRUE(op.AddInputList({zero}).ok());
  });
  auto max = RunOp(*ctx, "stablehlo.reduce", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("dimensions", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("body", FunctionRef{"max_of"}).ok());
    ASSERT_TRUE(op.AddInputList({x}).ok());
    ASSERT_TRUE(op.AddInputList({low}).ok());
  });
  EXPECT_EQ(*sum[0].ToVector<float>(), (std::vector<float>{9, 5}));
  EXPECT_EQ(*max[0].ToVector<float>(), (std::vector<float>{3, 8, 7}));
  ExpectSameAsCompiled(*ctx, {sum[0], max[0]}, R"(
func.func @main(%x: tensor<2x3xf32>, %zero: tensor<f32>, %low: tensor<f32>) -> (tensor<2xf32>, tensor<3xf32>) {
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %m = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %s, %m : tensor<2xf32>, tensor<3xf32>
})", {x, zero, low});
}

TEST(EagerOps, ConcatenateListInputMatchesCompiled) {
  auto ctx = MakeContext();
  Tensor a = Make<int32_t>(*ctx, {1, 2, 3, 4}, {2, 2});
  Tensor b = Make<int32_t>(*ctx, {5, 6}, {2, 1});
  Tensor c = Make<int32_t>(*ctx, {7, 8, 9, 10, 11, 12}, {2, 3});
  auto out = RunOp(*ctx, "stablehlo.concatenate", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("dimension", int64_t{1}).ok());
    ASSERT_TRUE(op.AddInputList({a, b, c}).ok());
    EXPECT_EQ(*op.InputLength("inputs"), 3);
  });
  EXPECT_EQ(*out[0].dims(), (std::vector<int64_t>{2, 6}));
  ExpectSameAsCompiled(*ctx, out, R"(
func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x1xi32>, %c: tensor<2x3xi32>) -> tensor<2x6xi32> {
  %r = stablehlo.concatenate %a, %b, %c, dim = 1 : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  return %r : tensor<2x6xi32>
})", {a, b, c});
}

TEST(EagerOps, TransposeReshapeBroadcastMatchCompiled) {
  auto ctx = MakeContext();
  Tensor a = Make<float>(*ctx, {1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor row = Make<float>(*ctx, {10, 20, 30}, {3});
  auto t = RunOp(*ctx, "stablehlo.transpose", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("permutation", std::vector<int64_t>{1, 0}).ok());
    ASSERT_TRUE(op.AddInput(a).ok());
  });
  auto r = RunOp(*ctx, "stablehlo.reshape", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("shape", Shape{{6}}).ok());
    ASSERT_TRUE(op.AddInput(t[0]).ok());
  });
  auto b = RunOp(*ctx, "stablehlo.broadcast_in_dim", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("shape", Shape{{2, 3}}).ok());
    ASSERT_TRUE(op.SetAttr("broadcast_dimensions", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.AddInput(row).ok());
  });
  EXPECT_EQ(*r[0].ToVector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  ExpectSameAsCompiled(*ctx, {t[0], r[0], b[0]}, R"(
func.func @main(%a: tensor<2x3xf32>, %row: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.reshape %t : (tensor<3x2xf32>) -> tensor<6xf32>
  %b = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %t, %r, %b : tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>
})", {a, row});
}

TEST(EagerOps, WhileWithLoadedFunctionsMatchesCompiled) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kFunctions).ok());
  Tensor i0 = Make<int32_t>(*ctx, {0}, {});
  Tensor acc0 = Make<float>(*ctx, {0}, {});
  auto out = RunOp(*ctx, "stablehlo.while", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("cond", FunctionRef{"below_ten"}).ok());
    ASSERT_TRUE(op.SetAttr("body", FunctionRef{"step"}).ok());
    ASSERT_TRUE(op.AddInputList({i0, acc0}).ok());
    EXPECT_EQ(*op.OutputLength("results"), 2);
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(*out[0].ToVector<int32_t>(), std::vector<int32_t>{10});
  EXPECT_EQ(*out[1].ToVector<float>(), std::vector<float>{55});
  ExpectSameAsCompiled(*ctx, out, R"(
func.func @main(%i0: tensor<i32>, %acc0: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %r:2 = stablehlo.while(%i = %i0, %acc = %acc0) : tensor<i32>, tensor<f32>
  cond {
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %f = stablehlo.convert %next : (tensor<i32>) -> tensor<f32>
    %sum = stablehlo.add %acc, %f : tensor<f32>
    stablehlo.return %next, %sum : tensor<i32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<f32>
})", {i0, acc0});
}

TEST(EagerOps, SortWithComparatorFunctionMatchesCompiled) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kFunctions).ok());
  Tensor keys = Make<float>(*ctx, {3, 1, 4, 1.5, 5}, {5});
  Tensor values = Make<int32_t>(*ctx, {0, 1, 2, 3, 4}, {5});
  auto out = RunOp(*ctx, "stablehlo.sort", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("dimension", int64_t{0}).ok());
    ASSERT_TRUE(op.SetAttr("is_stable", true).ok());
    ASSERT_TRUE(op.SetAttr("comparator", FunctionRef{"greater_first"}).ok());
    ASSERT_TRUE(op.AddInputList({keys, values}).ok());
  });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(*out[1].ToVector<int32_t>(), (std::vector<int32_t>{4, 2, 0, 3, 1}));
  ExpectSameAsCompiled(*ctx, out, R"(
func.func @main(%k: tensor<5xf32>, %v: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
})", {keys, values});
  // Without a comparator: comparison_direction on the first input.
  auto ascending = RunOp(*ctx, "stablehlo.sort", [&](Op& op) {
    ASSERT_TRUE(op.AddInputList({keys}).ok());
  });
  EXPECT_EQ(*ascending[0].ToVector<float>(), (std::vector<float>{1, 1.5, 3, 4, 5}));
}

TEST(EagerOps, ScatterWithReducerAndPadMatchCompiled) {
  auto ctx = MakeContext();
  Tensor input = Make<float>(*ctx, {1, 1, 1, 1, 1}, {5});
  Tensor indices = Make<int32_t>(*ctx, {0, 3, 0}, {3, 1});
  Tensor updates = Make<float>(*ctx, {10, 20, 30}, {3});
  auto scattered = RunOp(*ctx, "stablehlo.scatter", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("inserted_window_dims", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("scatter_dims_to_operand_dims", std::vector<int64_t>{0}).ok());
    ASSERT_TRUE(op.SetAttr("index_vector_dim", int64_t{1}).ok());
    ASSERT_TRUE(op.SetAttr("update_computation", Reducer::kAdd).ok());
    ASSERT_TRUE(op.AddInputList({input}).ok());
    ASSERT_TRUE(op.AddInput(indices).ok());
    ASSERT_TRUE(op.AddInputList({updates}).ok());
  });
  EXPECT_EQ(*scattered[0].ToVector<float>(), (std::vector<float>{41, 1, 1, 21, 1}));
  Tensor zero = Make<float>(*ctx, {0}, {});
  auto padded = RunOp(*ctx, "stablehlo.pad", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("edge_padding_low", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.SetAttr("edge_padding_high", std::vector<int64_t>{2}).ok());
    ASSERT_TRUE(op.SetAttr("interior_padding", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.AddInput(input).ok());
    ASSERT_TRUE(op.AddInput(zero).ok());
  });
  EXPECT_EQ(*padded[0].dims(), std::vector<int64_t>{12});
  ExpectSameAsCompiled(*ctx, {scattered[0], padded[0]}, R"(
func.func @main(%input: tensor<5xf32>, %indices: tensor<3x1xi32>, %updates: tensor<3xf32>, %zero: tensor<f32>) -> (tensor<5xf32>, tensor<12xf32>) {
  %s = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<5xf32>
  %p = stablehlo.pad %input, %zero, low = [1], high = [2], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<12xf32>
  return %s, %p : tensor<5xf32>, tensor<12xf32>
})", {input, indices, updates, zero});
}

TEST(EagerOps, FunctionCalledByNameWithArgumentList) {
  auto ctx = MakeContext();
  ASSERT_TRUE(ctx->LoadFunctions(kFunctions).ok());
  Tensor i = Make<int32_t>(*ctx, {4}, {});
  Tensor acc = Make<float>(*ctx, {1.5}, {});
  Op step(*ctx, "step");
  ASSERT_TRUE(step.is_function());
  EXPECT_EQ(*step.InputLength("args"), 2);
  EXPECT_EQ(*step.OutputLength("results"), 2);
  ASSERT_TRUE(step.AddInput(i).ok());
  auto missing = step.Execute();
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("'args'"));
  ASSERT_TRUE(step.AddInput(acc).ok());
  EXPECT_FALSE(step.AddInput(acc).ok());  // a third argument
  auto out = step.Execute();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*(*out)[0].ToVector<int32_t>(), std::vector<int32_t>{5});
  EXPECT_EQ(*(*out)[1].ToVector<float>(), std::vector<float>{6.5});
  // Loading a name twice, or @main, is refused.
  EXPECT_FALSE(ctx->LoadFunctions(kFunctions).ok());
  EXPECT_FALSE(ctx->LoadFunctions("func.func @main() -> () { return }").ok());
}

TEST(EagerOps, ConstantIotaSliceConvert) {
  auto ctx = MakeContext();
  std::vector<int32_t> raw = {7, 8, 9};
  DenseTensor value{{PJRT_Buffer_Type_S32, {3}}, {}};
  value.data.resize(12);
  std::memcpy(value.data.data(), raw.data(), 12);
  auto c = RunOp(*ctx, "stablehlo.constant", [&](Op& op) { ASSERT_TRUE(op.SetAttr("value", value).ok()); });
  EXPECT_EQ(*c[0].ToVector<int32_t>(), raw);
  auto iota = RunOp(*ctx, "stablehlo.iota", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("shape", Shape{{6}}).ok());
    ASSERT_TRUE(op.SetAttr("element_type", PJRT_Buffer_Type_S32).ok());
    ASSERT_TRUE(op.SetAttr("iota_dimension", int64_t{0}).ok());
  });
  auto sliced = RunOp(*ctx, "stablehlo.slice", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("start_indices", std::vector<int64_t>{1}).ok());
    ASSERT_TRUE(op.SetAttr("limit_indices", std::vector<int64_t>{6}).ok());
    ASSERT_TRUE(op.SetAttr("strides", std::vector<int64_t>{2}).ok());
    ASSERT_TRUE(op.AddInput(iota[0]).ok());
  });
  auto f = RunOp(*ctx, "stablehlo.convert", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("element_type", PJRT_Buffer_Type_F64).ok());
    ASSERT_TRUE(op.AddInput(sliced[0]).ok());
  });
  EXPECT_EQ(*f[0].ToVector<double>(), (std::vector<double>{1, 3, 5}));
}

TEST(EagerOps, PredConstantAndMalformedFunctionTexts) {
  auto ctx = MakeContext();
  DenseTensor mask{{PJRT_Buffer_Type_PRED, {2, 2}}, {std::byte{1}, std::byte{0}, std::byte{0}, std::byte{1}}};
  auto c = RunOp(*ctx, "stablehlo.constant", [&](Op& op) { ASSERT_TRUE(op.SetAttr("value", mask).ok()); });
  EXPECT_EQ(*c[0].ToVector<uint8_t>(), (std::vector<uint8_t>{1, 0, 0, 1}));
  DenseTensor short_data{{PJRT_Buffer_Type_F32, {4}}, {std::byte{0}}};
  Op bad(*ctx, "stablehlo.constant");
  ASSERT_TRUE(bad.SetAttr("value", short_data).ok());
  EXPECT_THAT(bad.Execute().status().message(), HasSubstr("needs 16 bytes"));
  for (const char* text :
       {"", "func.func", "func.func @", "func.func @f(", "func.func @f(%a) {}",
        "func.func @f(%a: tensor<f32>) -> (tensor<f32> {", "func.func @f() -> tensor<f32>",
        "func.func @f() { \"unterminated", "func.func private @g(%a: tensor<f32>) -> tensor<f32>",
        "module { func.func @h() -> () { return } ) }",
        "func.func @k() -> () { return } \"open"}) {
    EXPECT_FALSE(ctx->LoadFunctions(text).ok()) << text;
  }
  EXPECT_TRUE(ctx->functions().Names().empty());
}

TEST(EagerOps, ListLengthQueriesAndWrongCounts) {
  auto ctx = MakeContext();
  Tensor x = Make<float>(*ctx, {1, 2}, {2});
  Tensor zero = Make<float>(*ctx, {0}, {});
  Op reduce(*ctx, "stablehlo.reduce");
  auto unknown = reduce.InputLength("inputs");
  EXPECT_EQ(unknown.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(reduce.OutputLength("results").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(reduce.InputLength("operand").status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(reduce.SetAttr("N", int64_t{2}).ok());
  EXPECT_EQ(*reduce.InputLength("inputs"), 2);
  EXPECT_EQ(*reduce.InputLength("init_values"), 2);
  EXPECT_EQ(*reduce.OutputLength("results"), 2);
  Status wrong = reduce.AddInputList({x});
  EXPECT_EQ(wrong.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(wrong.message(), HasSubstr("'inputs'"));
  ASSERT_TRUE(reduce.AddInputList({x, x}).ok());
  wrong = reduce.AddInputList({zero});
  EXPECT_THAT(wrong.message(), HasSubstr("'init_values'"));
  // A single input given as a list, a list as a single input.
  Op add(*ctx, "stablehlo.add");
  EXPECT_FALSE(add.AddInputList({x}).ok());
  EXPECT_EQ(*add.InputLength("lhs"), 1);
  Op concat(*ctx, "stablehlo.concatenate");
  EXPECT_THAT(concat.AddInput(x).message(), HasSubstr("AddInputList"));
  // A missing input names it.
  ASSERT_TRUE(add.AddInput(x).ok());
  auto missing = add.Execute();
  EXPECT_THAT(missing.status().message(), HasSubstr("'rhs'"));
  // Unknown ops.
  Op nope(*ctx, "stablehlo.no_such_op");
  EXPECT_EQ(nope.Execute().status().code(), StatusCode::kUnimplemented);
  Op missing_function(*ctx, "not_loaded");
  EXPECT_EQ(missing_function.Execute().status().code(), StatusCode::kNotFound);
}

TEST(EagerOps, AttributeErrorsNameOpAndAttribute) {
  auto ctx = MakeContext();
  Tensor x = Make<float>(*ctx, {1, 2}, {2});
  Op t(*ctx, "stablehlo.transpose");
  ASSERT_TRUE(t.SetAttr("permutation", std::string(100, 'z')).ok());
  ASSERT_TRUE(t.AddInput(x).ok());
  auto result = t.Execute();
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("stablehlo.transpose"));
  EXPECT_THAT(result.status().message(), HasSubstr("'permutation'"));
  EXPECT_THAT(result.status().message(), HasSubstr("(100 chars)"));  // shortened
}

TEST(EagerOps, VerifierErrorsNameTheOp) {
  auto ctx = MakeContext();
  Tensor a = Make<float>(*ctx, {1, 2}, {2});
  Tensor b = Make<float>(*ctx, {1, 2, 3}, {3});
  Op add(*ctx, "stablehlo.add");
  ASSERT_TRUE(add.AddInput(a).ok());
  ASSERT_TRUE(add.AddInput(b).ok());
  auto result = add.Execute();
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("stablehlo.add on (f32[2], f32[3])"));
  std::cout << "verifier error: " << result.status().ToString() << "\n";
}

TEST(EagerCache, HitsMissesAndEviction) {
  ContextOptions options;
  options.cache_capacity = 2;
  auto ctx = MakeContext(options);
  Tensor a = Make<float>(*ctx, {1, 2}, {2});
  Tensor b = Make<float>(*ctx, {1, 2, 3}, {3});
  auto run = [&](const char* name, Tensor x) {
    RunOp(*ctx, name, [&](Op& op) { ASSERT_TRUE(op.AddInput(x).ok()); });
  };
  run("stablehlo.negate", a);
  run("stablehlo.negate", a);
  CacheStats stats = ctx->cache_stats();
  EXPECT_EQ(stats.misses, 1);
  EXPECT_EQ(stats.hits, 1);
  run("stablehlo.negate", b);  // another shape: another program
  run("stablehlo.abs", a);     // evicts negate f32[2]
  stats = ctx->cache_stats();
  EXPECT_EQ(stats.misses, 3);
  EXPECT_EQ(stats.evictions, 1);
  EXPECT_EQ(stats.entries, 2u);
  run("stablehlo.negate", a);
  EXPECT_EQ(ctx->cache_stats().misses, 4);
  // The same op on the other device is another program.
  auto on1 = Make<float>(*ctx, {1, 2}, {2}, "cpu:1");
  run("stablehlo.negate", on1);
  EXPECT_EQ(ctx->cache_stats().misses, 5);
}

TEST(EagerAsync, ErrorPoisonsOnlyDependents) {
  ContextOptions options;
  options.async = true;
  auto ctx = MakeContext(options);
  ASSERT_TRUE(ctx->is_async());
  Tensor a = Make<float>(*ctx, {1, 2}, {2});
  Tensor b = Make<float>(*ctx, {1, 2, 3}, {3});
  auto bad = RunOp(*ctx, "stablehlo.add", [&](Op& op) {  // enqueued: fails later
    ASSERT_TRUE(op.AddInput(a).ok());
    ASSERT_TRUE(op.AddInput(b).ok());
  });
  auto good = RunOp(*ctx, "stablehlo.add", [&](Op& op) {
    ASSERT_TRUE(op.AddInput(a).ok());
    ASSERT_TRUE(op.AddInput(a).ok());
  });
  auto dependent = RunOp(*ctx, "stablehlo.negate", [&](Op& op) { ASSERT_TRUE(op.AddInput(bad[0]).ok()); });
  auto independent = RunOp(*ctx, "stablehlo.negate", [&](Op& op) { ASSERT_TRUE(op.AddInput(good[0]).ok()); });
  Status first = ctx->Wait();
  EXPECT_FALSE(first.ok());
  EXPECT_THAT(first.message(), HasSubstr("stablehlo.add"));
  EXPECT_TRUE(ctx->Wait().ok());  // cleared
  EXPECT_FALSE(bad[0].Await().ok());
  Status poisoned = dependent[0].Await();
  EXPECT_FALSE(poisoned.ok());
  EXPECT_THAT(poisoned.message(), HasSubstr("comes from an op that failed"));
  EXPECT_TRUE(good[0].Await().ok());
  EXPECT_EQ(*independent[0].ToVector<float>(), (std::vector<float>{-2, -4}));
  // A pending result copied to the host asynchronously.
  auto tripled = RunOp(*ctx, "stablehlo.add", [&](Op& op) {
    ASSERT_TRUE(op.AddInput(good[0]).ok());
    ASSERT_TRUE(op.AddInput(a).ok());
  });
  std::vector<float> host(2);
  std::promise<Status> copied;
  tripled[0].ToHostAsync(host.data(), 8, [&](Status s) { copied.set_value(s); });
  EXPECT_TRUE(copied.get_future().get().ok());
  EXPECT_EQ(host, (std::vector<float>{3, 6}));
  EXPECT_TRUE(ctx->SetAsync(false).ok());
  EXPECT_FALSE(ctx->is_async());
}

TEST(EagerAsync, ContextDestroyedWithQueuedWorkFinishesIt) {
  ContextOptions options;
  options.async = true;
  auto ctx = MakeContext(options);
  Tensor one = Make<int32_t>(*ctx, {1, 1, 1}, {3});
  Tensor sum = one;
  for (int i = 0; i < 200; ++i) {
    auto next = RunOp(*ctx, "stablehlo.add", [&](Op& op) {
      ASSERT_TRUE(op.AddInput(sum).ok());
      ASSERT_TRUE(op.AddInput(one).ok());
    });
    ASSERT_EQ(next.size(), 1u);
    sum = next[0];
  }
  ctx.reset();  // waits for the queue; the tensors keep their buffers
  EXPECT_EQ(*sum.ToVector<int32_t>(), (std::vector<int32_t>{201, 201, 201}));
}

TEST(EagerTensor, ZeroCopyDeallocatorRunsExactlyOnce) {
  auto ctx = MakeContext();
  std::atomic<int> calls{0};
  alignas(64) static float data[4] = {1, 2, 3, 4};
  {
    auto t = ctx->FromHostZeroCopy(data, PJRT_Buffer_Type_F32, {4}, [&] { ++calls; });
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    auto doubled = RunOp(*ctx, "stablehlo.add", [&](Op& op) {
      ASSERT_TRUE(op.AddInput(*t).ok());
      ASSERT_TRUE(op.AddInput(*t).ok());
    });
    EXPECT_EQ(*doubled[0].ToVector<float>(), (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(calls.load(), 0);  // the CPU plugin aliases aligned data
  }
  EXPECT_EQ(calls.load(), 1);
  // On error: an unknown device, and a plugin error.
  auto bad_device = ctx->FromHostZeroCopy(data, PJRT_Buffer_Type_F32, {4}, [&] { ++calls; }, "cpu:9");
  EXPECT_EQ(bad_device.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(calls.load(), 2);
  auto bad_type = ctx->FromHostZeroCopy(data, PJRT_Buffer_Type_INVALID, {4}, [&] { ++calls; });
  EXPECT_FALSE(bad_type.ok());
  EXPECT_EQ(calls.load(), 3);
  // Context destroyed first: the tensor keeps the memory until it goes.
  auto t = ctx->FromHostZeroCopy(data, PJRT_Buffer_Type_F32, {4}, [&] { ++calls; });
  ASSERT_TRUE(t.ok());
  ctx.reset();
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(*t->ToVector<float>(), (std::vector<float>{1, 2, 3, 4}));
  *t = Tensor();
  EXPECT_EQ(calls.load(), 4);
  // And with the tensor dropped inside a context destroyed later.
  auto ctx2 = MakeContext();
  { ASSERT_TRUE(ctx2->FromHostZeroCopy(data, PJRT_Buffer_Type_F32, {4}, [&] { ++calls; }).ok()); }
  ctx2.reset();
  EXPECT_EQ(calls.load(), 5);
}

TEST(EagerPlacement, PolicyOnTwoDevices) {
  std::vector<std::string> warnings;
  ContextOptions options;
  options.placement = PlacementPolicy::kRefuse;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  auto ctx = MakeContext(options);
  ASSERT_EQ(ctx->devices().size(), 2u);
  EXPECT_EQ(ctx->devices()[1].name, "cpu:1");
  Tensor on0 = Make<float>(*ctx, {1, 2}, {2}, "cpu:0");
  Tensor on1 = Make<float>(*ctx, {10, 20}, {2}, "cpu:1");
  EXPECT_EQ(on1.device_name(), "cpu:1");
  auto add = [&](std::optional<std::string> device) {
    Op op(*ctx, "stablehlo.add");
    if (device) op.SetDevice(*device);
    EXPECT_TRUE(op.AddInput(on1).ok());
    EXPECT_TRUE(op.AddInput(on0).ok());
    return op.Execute();
  };
  auto refused = add(std::nullopt);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("cpu:0"));
  EXPECT_THAT(refused.status().message(), HasSubstr("cpu:1"));
  ctx->set_placement_policy(PlacementPolicy::kWarn);
  auto warned = add("cpu:0");  // explicit device: both inputs elsewhere? on1 moves
  ASSERT_TRUE(warned.ok()) << warned.status().ToString();
  EXPECT_EQ((*warned)[0].device_name(), "cpu:0");
  EXPECT_EQ(*(*warned)[0].ToVector<float>(), (std::vector<float>{11, 22}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("from cpu:1 to cpu:0"));
  ctx->set_placement_policy(PlacementPolicy::kCopy);
  auto silent = add(std::nullopt);  // the first input's device
  ASSERT_TRUE(silent.ok());
  EXPECT_EQ((*silent)[0].device_name(), "cpu:1");
  EXPECT_EQ(*(*silent)[0].ToVector<float>(), (std::vector<float>{11, 22}));
  EXPECT_EQ(warnings.size(), 1u);
  // No inputs: the default device.
  ASSERT_TRUE(ctx->SetDefaultDevice("cpu:1").ok());
  auto iota = RunOp(*ctx, "stablehlo.iota", [&](Op& op) {
    ASSERT_TRUE(op.SetAttr("shape", Shape{{3}}).ok());
    ASSERT_TRUE(op.SetAttr("element_type", PJRT_Buffer_Type_S32).ok());
    ASSERT_TRUE(op.SetAttr("iota_dimension", int64_t{0}).ok());
  });
  EXPECT_EQ(iota[0].device_name(), "cpu:1");
  EXPECT_EQ(ctx->SetDefaultDevice("tpu:0").code(), StatusCode::kNotFound);
  auto moved = ctx->CopyToDevice(on0, "cpu:1");
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_EQ(moved->device_name(), "cpu:1");
  EXPECT_EQ(*moved->ToVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(ctx->CopyToDevice(on0, "cpu:3").status().code(), StatusCode::kNotFound);
  Op unknown(*ctx, "stablehlo.negate");
  unknown.SetDevice("cpu:7");
  ASSERT_TRUE(unknown.AddInput(on0).ok());
  EXPECT_EQ(unknown.Execute().status().code(), StatusCode::kNotFound);
}

TEST(EagerContext, OverAnExistingClient) {
  auto client = plugrt::testing::CreateCpuClient(3);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::shared_ptr<Client> shared = std::move(client).value();
  auto ctx = Context::Create(shared);
  ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
  EXPECT_EQ(&(*ctx)->client(), shared.get());
  ASSERT_EQ((*ctx)->devices().size(), 3u);
  EXPECT_EQ((*ctx)->default_device().name, "cpu:0");
  EXPECT_EQ((*ctx)->FindDevice("cpu:5").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(Context::Create(std::shared_ptr<Client>()).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Context::Create("/no/such/plugin.so").status().code(), StatusCode::kNotFound);
}

// Tensor features over both plugins: the example plugin (SDK, no compiler)
// proves the layer relies on nothing of the CPU plugin.
class EagerTensorOverPlugins : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    auto ctx = Context::Create(GetParam());
    ASSERT_TRUE(ctx.ok()) << ctx.status().ToString();
    ctx_ = std::move(ctx).value();
  }
  std::unique_ptr<Context> ctx_;
};

TEST_P(EagerTensorOverPlugins, HostRoundTripQueriesAndCopies) {
  Tensor t = Make<int32_t>(*ctx_, {1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(*t.dtype(), PJRT_Buffer_Type_S32);
  EXPECT_EQ(*t.dims(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(*t.on_device_size(), 24u);
  EXPECT_EQ(t.device_name(), ctx_->devices()[0].name);
  EXPECT_TRUE(t.IsReady());
  EXPECT_EQ(*t.ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  auto copy = t.CopyToDevice(ctx_->devices()[0].device, ctx_->devices()[0].name);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_EQ(*copy->ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  std::vector<int32_t> host(6);
  std::promise<Status> done;
  t.ToHostAsync(host.data(), 24, [&](Status s) { done.set_value(s); });
  EXPECT_TRUE(done.get_future().get().ok());
  EXPECT_EQ(host[5], 6);
  EXPECT_THAT(t.Summary(), HasSubstr("s32[3,2] on "));
  Tensor big = Make<float>(*ctx_, std::vector<float>(100, 0.5f), {100});
  EXPECT_THAT(big.Summary(), HasSubstr("[0.5, 0.5, 0.5, 0.5, 0.5, 0.5, ... (100 values)]"));
}

TEST_P(EagerTensorOverPlugins, NpyRoundTrip) {
  Tensor t = Make<double>(*ctx_, {1.5, -2, 3}, {3});
  const std::string path = ::testing::TempDir() + "/eager_roundtrip.npy";
  ASSERT_TRUE(ctx_->SaveNpy(t, path).ok());
  auto back = ctx_->LoadNpy(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back->dtype(), PJRT_Buffer_Type_F64);
  EXPECT_EQ(*back->ToVector<double>(), (std::vector<double>{1.5, -2, 3}));
  std::filesystem::remove(path);
  EXPECT_EQ(ctx_->LoadNpy(path).status().code(), StatusCode::kNotFound);
}

TEST_P(EagerTensorOverPlugins, ZeroCopyDeallocatorExactlyOnce) {
  std::atomic<int> calls{0};
  alignas(64) static float data[2] = {1, 2};
  {
    auto t = ctx_->FromHostZeroCopy(data, PJRT_Buffer_Type_F32, {2}, [&] { ++calls; });
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(*t->ToVector<float>(), (std::vector<float>{1, 2}));
    EXPECT_LE(calls.load(), 1);  // 1 where the plugin copied (the example plugin)
  }
  ctx_.reset();
  EXPECT_EQ(calls.load(), 1);
}

TEST_P(EagerTensorOverPlugins, OpsRunOrFailClearlyInBothExecutors) {
  for (bool async : {false, true}) {
    ASSERT_TRUE(ctx_->SetAsync(async).ok());
    Tensor a = Make<float>(*ctx_, {1, 2}, {2});
    Op add(*ctx_, "stablehlo.add");
    ASSERT_TRUE(add.AddInput(a).ok());
    ASSERT_TRUE(add.AddInput(a).ok());
    auto out = add.Execute();
    if (out.ok()) {
      Status status = (*out)[0].Await();
      if (status.ok()) {
        EXPECT_EQ(*(*out)[0].ToVector<float>(), (std::vector<float>{2, 4}));
        continue;
      }
      out = status;
    }
    // A plugin without a compiler: UNIMPLEMENTED naming the op, never a hang.
    EXPECT_EQ(std::string(GetParam()), PLUGRT_EXAMPLE_PLUGIN_PATH);
    EXPECT_EQ(out.status().code(), StatusCode::kUnimplemented) << out.status().ToString();
    EXPECT_THAT(out.status().message(), HasSubstr("stablehlo.add"));
    EXPECT_EQ(ctx_->Wait().code(), async ? StatusCode::kUnimplemented : StatusCode::kOk);
  }
}

INSTANTIATE_TEST_SUITE_P(Plugins, EagerTensorOverPlugins,
                         ::testing::Values(PLUGRT_CPU_PLUGIN_PATH, PLUGRT_EXAMPLE_PLUGIN_PATH));

}  // namespace
}  // namespace plugrt::eager
