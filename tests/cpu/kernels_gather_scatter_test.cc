// Gather, scatter and torch_index_select kernels: the spec's examples (with
// and without batching dims), index clamping, implicit index vectors,
// variadic scatter and skipped out-of-bounds windows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "cpu/exec/program.h"
#include "cpu/kernels/gather_scatter.h"
#include "compiler/importers/mlir/parser.h"
#include "testutil/tensor_values.h"

namespace plugrt::cpu {
namespace {

using Dims = std::vector<int64_t>;

template <typename T>
Tensor Make(ElementType type, Dims dims, const std::vector<T>& values) {
  return testing::MakeTensor(type, std::move(dims), values);
}
Tensor I64(Dims dims, const std::vector<int64_t>& values) {
  return Make(ElementType::kSI64, std::move(dims), values);
}
template <typename T>
std::vector<T> Values(const Tensor& t) {
  return testing::TensorValues<T>(t);
}
std::vector<int64_t> I64Values(const Tensor& t) { return Values<int64_t>(t); }

std::vector<int64_t> Iota(int64_t n, int64_t first = 1) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

// results[i] += updates[i] for i64 and f32 tensors.
ScatterCombiner AddCombiner() {
  return [](std::vector<Tensor>& results, int64_t r, const std::vector<Tensor>& updates,
            int64_t u) -> Status {
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].type() == ElementType::kSI64) {
        results[i].mutable_as<int64_t>()[r] += updates[i].as<int64_t>()[u];
      } else if (results[i].type() == ElementType::kF32) {
        results[i].mutable_as<float>()[r] += updates[i].as<float>()[u];
      } else {
        return InvalidArgument("test combiner: unexpected type");
      }
    }
    return OkStatus();
  };
}

TEST(Gather, SpecExample) {
  Tensor operand = I64({3, 4, 2}, Iota(24));
  Tensor indices = I64({2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9});
  GatherDimensionNumbers d;
  d.offset_dims = {2, 3};
  d.collapsed_slice_dims = {0};
  d.start_index_map = {1, 0};
  d.index_vector_dim = 2;
  auto r = Gather(operand, indices, d, {1, 2, 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dims(), (Dims{2, 3, 2, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                                 9,  10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20}));
}

TEST(Gather, SpecExampleWithBatchingDims) {
  Tensor operand = I64({2, 3, 4, 2}, Iota(48));
  Tensor indices = I64({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,
                                      0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0});
  GatherDimensionNumbers d;
  d.offset_dims = {3, 4};
  d.collapsed_slice_dims = {1};
  d.operand_batching_dims = {0};
  d.start_indices_batching_dims = {1};
  d.start_index_map = {2, 1};
  d.index_vector_dim = 3;
  auto r = Gather(operand, indices, d, {1, 1, 2, 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dims(), (Dims{2, 2, 3, 2, 2}));
  EXPECT_EQ(I64Values(*r),
            (std::vector<int64_t>{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                  33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,
                                  1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24,
                                  43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30}));
}

TEST(Gather, ClampsStartsAndAcceptsImplicitIndexVector) {
  Tensor operand = I64({10}, Iota(10, 0));
  GatherDimensionNumbers d;
  d.offset_dims = {1};
  d.start_index_map = {0};
  d.index_vector_dim = 1;
  auto r = Gather(operand, Make<int32_t>(ElementType::kSI32, {3, 1}, {-3, 8, 4}), d, {3});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dims(), (Dims{3, 3}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{0, 1, 2, 7, 8, 9, 4, 5, 6}));

  // index_vector_dim == rank: each index is a scalar; collapsing dim 0.
  GatherDimensionNumbers scalar;
  scalar.collapsed_slice_dims = {0};
  scalar.start_index_map = {0};
  scalar.index_vector_dim = 1;
  auto s = Gather(operand, Make<uint8_t>(ElementType::kUI8, {2}, {2, 200}), scalar, {1});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->dims(), (Dims{2}));
  EXPECT_EQ(I64Values(*s), (std::vector<int64_t>{2, 9}));
}

TEST(Gather, CorpusShapeRowGather) {
  // The testdata form: one index into a 3-vector, index_vector_dim = 1.
  Tensor operand = I64({3}, {10, 20, 30});
  GatherDimensionNumbers d;
  d.collapsed_slice_dims = {0};
  d.start_index_map = {0};
  d.index_vector_dim = 1;
  auto r = Gather(operand, Make<int32_t>(ElementType::kSI32, {1, 1}, {2}), d, {1});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{30}));
}

TEST(Gather, RejectsInconsistentDimensionNumbers) {
  Tensor operand = I64({3, 4}, Iota(12));
  Tensor indices = I64({2, 1}, {0, 1});
  GatherDimensionNumbers d;
  d.offset_dims = {1};
  d.collapsed_slice_dims = {0};
  d.start_index_map = {0};
  d.index_vector_dim = 1;
  EXPECT_TRUE(Gather(operand, indices, d, {1, 4}).ok());
  EXPECT_FALSE(Gather(operand, indices, d, {1, 5}).ok());  // slice larger than operand
  EXPECT_FALSE(Gather(operand, indices, d, {2, 4}).ok());  // collapsed dim size != 1
  GatherDimensionNumbers bad_map = d;
  bad_map.start_index_map = {0, 1};  // index vectors have one entry
  EXPECT_FALSE(Gather(operand, indices, bad_map, {1, 4}).ok());
  GatherDimensionNumbers bad_ivd = d;
  bad_ivd.index_vector_dim = 3;
  EXPECT_FALSE(Gather(operand, indices, bad_ivd, {1, 4}).ok());
  GatherDimensionNumbers bad_offset = d;
  bad_offset.offset_dims = {5};
  EXPECT_FALSE(Gather(operand, indices, bad_offset, {1, 4}).ok());
  GatherDimensionNumbers bad_batch = d;
  bad_batch.operand_batching_dims = {1};
  bad_batch.start_indices_batching_dims = {0};  // sizes 4 vs 2
  bad_batch.offset_dims = {};
  EXPECT_FALSE(Gather(operand, indices, bad_batch, {1, 1}).ok());
  EXPECT_FALSE(Gather(operand, Make<float>(ElementType::kF32, {2, 1}, {0, 1}), d, {1, 4}).ok());
}

TEST(Scatter, SpecExample) {
  Tensor input = I64({3, 4, 2}, Iota(24));
  Tensor indices = I64({2, 3, 2}, {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9});
  Tensor updates = I64({2, 3, 2, 2}, std::vector<int64_t>(24, 1));
  ScatterDimensionNumbers d;
  d.update_window_dims = {2, 3};
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {1, 0};
  d.index_vector_dim = 2;
  auto r = Scatter({input}, indices, {updates}, d, AddCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(I64Values((*r)[0]), (std::vector<int64_t>{1,  2,  5,  6,  7,  8,  7,  8,
                                                      10, 11, 12, 13, 14, 15, 16, 17,
                                                      18, 19, 20, 21, 21, 22, 23, 24}));
  EXPECT_EQ(I64Values(input), Iota(24));  // the input is not modified
}

TEST(Scatter, SpecExampleWithBatchingDims) {
  Tensor input = I64({2, 3, 4, 2}, Iota(48));
  Tensor indices = I64({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,
                                      0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0});
  Tensor updates = I64({2, 2, 3, 2, 2}, std::vector<int64_t>(48, 1));
  ScatterDimensionNumbers d;
  d.update_window_dims = {3, 4};
  d.inserted_window_dims = {1};
  d.input_batching_dims = {0};
  d.scatter_indices_batching_dims = {1};
  d.scatter_dims_to_operand_dims = {2, 1};
  d.index_vector_dim = 3;
  auto r = Scatter({input}, indices, {updates}, d, AddCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values((*r)[0]),
            (std::vector<int64_t>{3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12,
                                  15, 16, 17, 18, 17, 18, 19, 20, 22, 23, 24, 25,
                                  25, 26, 28, 29, 30, 31, 31, 32, 35, 36, 38, 39,
                                  38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48}));
}

TEST(Scatter, DefaultIndexVectorDimZero) {
  // The corpus's most common form: indices tensor<1xi64> = [1], no
  // index_vector_dim (0), one window of 1x3 into row 1 of 1x2x3.
  Tensor input = Make<float>(ElementType::kF32, {1, 2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor updates = Make<float>(ElementType::kF32, {1, 3}, {10, 20, 30});
  ScatterDimensionNumbers d;
  d.update_window_dims = {0, 1};
  d.inserted_window_dims = {1};
  d.scatter_dims_to_operand_dims = {1};
  auto r = Scatter({input}, I64({1}, {1}), {updates}, d, AddCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Values<float>((*r)[0]), (std::vector<float>{1, 2, 3, 14, 25, 36}));
}

TEST(Scatter, VariadicInputs) {
  Tensor a = I64({4}, {0, 0, 0, 0});
  Tensor b = Make<float>(ElementType::kF32, {4}, {1, 1, 1, 1});
  Tensor indices = I64({3, 1}, {3, 0, 3});
  Tensor ua = I64({3}, {5, 6, 7});
  Tensor ub = Make<float>(ElementType::kF32, {3}, {0.5f, 0.25f, 2});
  ScatterDimensionNumbers d;
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  auto r = Scatter({a, b}, indices, {ua, ub}, d, AddCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(I64Values((*r)[0]), (std::vector<int64_t>{6, 0, 0, 12}));
  EXPECT_EQ(Values<float>((*r)[1]), (std::vector<float>{1.25f, 1, 1, 3.5f}));
}

TEST(Scatter, SkipsWindowsNotWhollyInBounds) {
  Tensor input = I64({5}, {0, 0, 0, 0, 0});
  // Windows of 2 at starts -1, 4 (partly outside), 2 (inside), 7 (outside).
  Tensor indices = I64({4, 1}, {-1, 4, 2, 7});
  Tensor updates = I64({4, 2}, {1, 1, 2, 2, 3, 4, 5, 5});
  ScatterDimensionNumbers d;
  d.update_window_dims = {1};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  auto r = Scatter({input}, indices, {updates}, d, AddCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values((*r)[0]), (std::vector<int64_t>{0, 0, 3, 4, 0}));
}

TEST(Scatter, ReplaceCombinerLastUpdateWins) {
  Tensor input = I64({3}, {1, 2, 3});
  ScatterDimensionNumbers d;
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  auto r = Scatter({input}, I64({3, 1}, {2, 0, 2}), {I64({3}, {7, 8, 9})}, d,
                   ScatterReplaceCombiner());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values((*r)[0]), (std::vector<int64_t>{8, 2, 9}));
}

TEST(Scatter, CombinerErrorsPropagate) {
  ScatterDimensionNumbers d;
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  ScatterCombiner failing = [](std::vector<Tensor>&, int64_t, const std::vector<Tensor>&,
                               int64_t) { return Internal("boom"); };
  auto r = Scatter({I64({3}, {1, 2, 3})}, I64({1, 1}, {0}), {I64({1}, {5})}, d, failing);
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

TEST(Scatter, RejectsInconsistentOperands) {
  Tensor input = I64({4}, {0, 0, 0, 0});
  ScatterDimensionNumbers d;
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  Tensor indices = I64({2, 1}, {0, 1});
  EXPECT_TRUE(Scatter({input}, indices, {I64({2}, {1, 1})}, d, AddCombiner()).ok());
  // Updates' scatter dims must match the indices' batch dims.
  EXPECT_FALSE(Scatter({input}, indices, {I64({3}, {1, 1, 1})}, d, AddCombiner()).ok());
  // Update element type must match the input's.
  EXPECT_FALSE(Scatter({input}, indices, {Make<float>(ElementType::kF32, {2}, {1, 1})}, d,
                       AddCombiner())
                   .ok());
  // Window larger than the input.
  ScatterDimensionNumbers wide;
  wide.update_window_dims = {1};
  wide.scatter_dims_to_operand_dims = {0};
  wide.index_vector_dim = 1;
  EXPECT_FALSE(Scatter({input}, indices, {I64({2, 5}, Iota(10))}, wide, AddCombiner()).ok());
  ScatterDimensionNumbers bad = d;
  bad.scatter_dims_to_operand_dims = {1};
  EXPECT_FALSE(Scatter({input}, indices, {I64({2}, {1, 1})}, bad, AddCombiner()).ok());
  EXPECT_FALSE(Scatter({input, input}, indices, {I64({2}, {1, 1})}, d, AddCombiner()).ok());
}

TEST(TorchIndexSelect, SelectsRowsAndBatches) {
  Tensor operand = I64({3, 2}, {1, 2, 3, 4, 5, 6});
  auto rows = TorchIndexSelect(operand, Make<int32_t>(ElementType::kSI32, {2}, {2, 0}), 0, 0);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->dims(), (Dims{2, 2}));
  EXPECT_EQ(I64Values(*rows), (std::vector<int64_t>{5, 6, 1, 2}));

  Tensor batched = I64({2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = TorchIndexSelect(batched, I64({2, 2}, {0, 2, 1, 1}), 1, 1);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->dims(), (Dims{2, 2}));
  EXPECT_EQ(I64Values(*b), (std::vector<int64_t>{1, 3, 5, 5}));

  EXPECT_FALSE(TorchIndexSelect(operand, I64({1}, {0}), 2, 0).ok());
  EXPECT_FALSE(TorchIndexSelect(batched, I64({3, 1}, {0, 0, 0}), 1, 1).ok());
}

// Parses, compiles and runs a program with no arguments.
StatusOr<std::vector<RtValue>> RunProgram(std::string_view text) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(text, "test.mlir"));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program,
                          Program::Compile(std::shared_ptr<const shlo::Module>(std::move(module))));
  ExecContext context;
  return program->Run({}, context);
}

TEST(ScatterOp, RunsTheUpdateRegionPerElement) {
  auto r = RunProgram(R"(
func.func @main() -> tensor<4xi64> {
  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %indices = stablehlo.constant dense<[[3], [0], [3]]> : tensor<3x1xi64>
  %updates = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %0 = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = stablehlo.multiply %a, %b : tensor<i64>
    stablehlo.return %m : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<4xi64>, tensor<3x1xi64>, tensor<3xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(I64Values((*r)[0].tensor), (std::vector<int64_t>{20, 2, 3, 1200}));
}

TEST(ScatterOp, VariadicRegionAndReplaceRegion) {
  // Two inputs whose region keeps the larger update pair (argmax-like), and
  // a plain overwrite region.
  auto r = RunProgram(R"(
func.func @main() -> (tensor<3xf32>, tensor<3xi32>, tensor<3xi32>) {
  %v = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<[-1, -1, -1]> : tensor<3xi32>
  %idx = stablehlo.constant dense<[[1], [1], [2]]> : tensor<3x1xi32>
  %uv = stablehlo.constant dense<[5.0, 7.0, 1.0]> : tensor<3xf32>
  %ui = stablehlo.constant dense<[10, 11, 12]> : tensor<3xi32>
  %0:2 = "stablehlo.scatter"(%v, %i, %idx, %uv, %ui) ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nv = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %ni = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %nv, %ni : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<3xf32>, tensor<3xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>)
    -> (tensor<3xf32>, tensor<3xi32>)
  %1 = "stablehlo.scatter"(%i, %idx, %ui) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<3xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return %0#0, %0#1, %1 : tensor<3xf32>, tensor<3xi32>, tensor<3xi32>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ(Values<float>((*r)[0].tensor), (std::vector<float>{0, 7, 1}));
  EXPECT_EQ(Values<int32_t>((*r)[1].tensor), (std::vector<int32_t>{-1, 11, 12}));
  EXPECT_EQ(Values<int32_t>((*r)[2].tensor), (std::vector<int32_t>{-1, 11, 12}));
}

TEST(ScatterOp, BadDimensionNumbersFailAtCompileTime) {
  auto r = RunProgram(R"(
func.func @main() -> tensor<4xi64> {
  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %indices = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi64>
  %updates = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %0 = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    stablehlo.return %b : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<4xi64>, tensor<2x1xi64>, tensor<3xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("stablehlo.scatter"), std::string::npos)
      << r.status().message();
}

TEST(GatherOp, ChecksTheResultTypeAtCompileTime) {
  auto r = RunProgram(R"(
func.func @main() -> tensor<2xi64> {
  %operand = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %indices = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %0 = "stablehlo.gather"(%operand, %indices) {dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1>} : (tensor<3xi64>, tensor<2x1xi32>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values((*r)[0].tensor), (std::vector<int64_t>{30, 10}));
  auto bad = RunProgram(R"(
func.func @main() -> tensor<3xi64> {
  %operand = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %indices = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %0 = "stablehlo.gather"(%operand, %indices) {dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1>} : (tensor<3xi64>, tensor<2x1xi32>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
})");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(TorchIndexSelectOp, GenericForm) {
  auto r = RunProgram(R"(
func.func @main() -> tensor<2x2xi64> {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %index = stablehlo.constant dense<[[0, 2], [1, 1]]> : tensor<2x2xi32>
  %0 = "stablehlo.torch_index_select"(%operand, %index) {dim = 1 : i64, batch_dims = 1 : i64}
    : (tensor<2x3xi64>, tensor<2x2xi32>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(I64Values((*r)[0].tensor), (std::vector<int64_t>{1, 3, 5, 5}));
}

}  // namespace
}  // namespace plugrt::cpu
