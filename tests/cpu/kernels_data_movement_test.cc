// Data-movement kernels on small inputs, mostly the StableHLO spec's own
// examples, across element byte sizes.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <algorithm>
#include <string_view>
#include <vector>

#include "cpu/exec/program.h"
#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/index_values.h"
#include "cpu/kernels/strided_copy.h"
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
Tensor ScalarI64(int64_t v) { return I64({}, {v}); }

template <typename T>
std::vector<T> Values(const Tensor& t) {
  return testing::TensorValues<T>(t);
}
std::vector<int64_t> I64Values(const Tensor& t) { return Values<int64_t>(t); }

TEST(BroadcastInDim, SpecExample) {
  Tensor operand = I64({1, 3}, {1, 2, 3});
  auto r = BroadcastInDim(operand, {2, 3, 2}, {2, 1});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dims(), (Dims{2, 3, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(BroadcastInDim, ScalarAndExpandingDims) {
  auto r = BroadcastInDim(Make<float>(ElementType::kF32, {}, {2.5f}), {2, 2}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Values<float>(*r), (std::vector<float>{2.5f, 2.5f, 2.5f, 2.5f}));
  // The dynamic_broadcast_in_dim interpreter test: 3x1 -> 3x2x2 with dims [0, 2].
  auto r2 = BroadcastInDim(I64({3, 1}, {1, 2, 3}), {3, 2, 2}, {0, 2});
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(I64Values(*r2), (std::vector<int64_t>{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
}

TEST(BroadcastInDim, RejectsBadArguments) {
  Tensor operand = I64({3}, {1, 2, 3});
  EXPECT_EQ(BroadcastInDim(operand, {2, 4}, {1}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(BroadcastInDim(operand, {3, 3}, {2}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(BroadcastInDim(operand, {3, 3}, {}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(BroadcastInDim(operand, {3, -1}, {0}).status().code(), StatusCode::kInvalidArgument);
}

TEST(Reshape, KeepsElementsAndChecksCount) {
  Tensor operand = I64({2, 3}, {1, 2, 3, 4, 5, 6});
  auto r = Reshape(operand, {3, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dims(), (Dims{3, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Reshape(operand, {4, 2}).status().code(), StatusCode::kInvalidArgument);
}

TEST(Transpose, SpecExample) {
  Tensor operand = I64({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto r = Transpose(operand, {2, 1, 0});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dims(), (Dims{2, 3, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 7, 3, 9, 5, 11, 2, 8, 4, 10, 6, 12}));
}

// Larger transposes take a tiled path (the source contiguous along one
// dimension, the result along the last): every permutation of random shapes
// of rank 2 to 4, sizes off the 16-element tile, for 1- to 16-byte elements,
// against the element-by-element index map.
TEST(Transpose, TiledPermutationsOfRandomShapesMatchTheIndexMap) {
  std::mt19937 rng(3);
  const std::pair<ElementType, int> types[] = {{ElementType::kSI8, 1}, {ElementType::kBF16, 2},
                                               {ElementType::kF32, 4}, {ElementType::kF64, 8},
                                               {ElementType::kC128, 16}};
  for (int round = 0; round < 24; ++round) {
    const int rank = 2 + round % 3;
    Dims dims(rank);
    for (int64_t& d : dims) d = std::uniform_int_distribution<int64_t>(1, rank == 2 ? 70 : 21)(rng);
    const auto [type, bytes] = types[round % 5];
    Tensor operand(type, dims);
    for (int64_t i = 0; i < operand.num_elements() * bytes; ++i) {
      operand.MutableData()[i] = static_cast<std::byte>(rng() & 0x7f);
    }
    Dims perm(rank);
    for (int i = 0; i < rank; ++i) perm[i] = i;
    do {
      auto result = Transpose(operand, perm);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      const Dims src_strides = operand.Strides();
      const Dims& rdims = result->dims();
      Dims index(rank, 0);
      for (int64_t flat = 0; flat < result->num_elements(); ++flat) {
        int64_t from = 0;
        for (int k = 0; k < rank; ++k) from += index[k] * src_strides[perm[k]];
        ASSERT_EQ(std::memcmp(result->data() + flat * bytes, operand.data() + from * bytes, bytes), 0)
            << "round " << round << ", element " << flat;
        for (int k = rank - 1; k >= 0; --k) {
          if (++index[k] < rdims[k]) break;
          index[k] = 0;
        }
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

// StridedCopy between two views of any dimension order (a copy into a
// column-major layout, as custom calls declare them, among them): the result
// is visited in its own order and transposed pairs go through the tiles.
TEST(StridedCopy, AnySourceAndDestinationOrderMatchesTheIndexMap) {
  std::mt19937 rng(11);
  for (int round = 0; round < 40; ++round) {
    const int rank = 1 + round % 4;
    Dims dims(rank);
    for (int64_t& d : dims) d = std::uniform_int_distribution<int64_t>(1, rank <= 2 ? 60 : 13)(rng);
    const int bytes = 1 << (round % 5);
    // Each view's strides: its own random order of the dims, packed.
    auto packed = [&](const Dims& order) {
      Dims strides(rank);
      int64_t stride = 1;
      for (int64_t k : order) {
        strides[k] = stride;
        stride *= dims[k];
      }
      return strides;
    };
    Dims src_order(rank), dst_order(rank);
    for (int i = 0; i < rank; ++i) src_order[i] = dst_order[i] = i;
    std::shuffle(src_order.begin(), src_order.end(), rng);
    std::shuffle(dst_order.begin(), dst_order.end(), rng);
    const Dims ss = packed(src_order), ds = packed(dst_order);
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    std::vector<std::byte> src(count * bytes), dst(count * bytes, std::byte{0});
    for (std::byte& b : src) b = static_cast<std::byte>(rng() & 0xff);
    StridedCopy(src.data(), ss, dst.data(), ds, dims, bytes);
    Dims index(rank, 0);
    for (int64_t n = 0; n < count; ++n) {
      int64_t from = 0, to = 0;
      for (int k = 0; k < rank; ++k) {
        from += index[k] * ss[k];
        to += index[k] * ds[k];
      }
      ASSERT_EQ(std::memcmp(dst.data() + to * bytes, src.data() + from * bytes, bytes), 0)
          << "round " << round << ", element " << n;
      for (int k = rank - 1; k >= 0; --k) {
        if (++index[k] < dims[k]) break;
        index[k] = 0;
      }
    }
  }
}

TEST(Transpose, EveryElementSize) {
  // 2x3 -> 3x2 for 1-, 2-, 4-, 8- and 16-byte elements.
  auto i8 = Transpose(Make<int8_t>(ElementType::kSI8, {2, 3}, {1, 2, 3, 4, 5, 6}), {1, 0});
  ASSERT_TRUE(i8.ok());
  EXPECT_EQ(Values<int8_t>(*i8), (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
  auto bf = Transpose(Make<uint16_t>(ElementType::kBF16, {2, 3}, {1, 2, 3, 4, 5, 6}), {1, 0});
  ASSERT_TRUE(bf.ok());
  EXPECT_EQ(Values<uint16_t>(*bf), (std::vector<uint16_t>{1, 4, 2, 5, 3, 6}));
  auto f = Transpose(Make<float>(ElementType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6}), {1, 0});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Values<float>(*f), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  using C = std::complex<double>;
  auto c = Transpose(Make<C>(ElementType::kC128, {2, 3},
                             {C(1, -1), C(2, -2), C(3, -3), C(4, -4), C(5, -5), C(6, -6)}),
                     {1, 0});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(Values<C>(*c),
            (std::vector<C>{C(1, -1), C(4, -4), C(2, -2), C(5, -5), C(3, -3), C(6, -6)}));
  auto i4 = Transpose(Make<int8_t>(ElementType::kSI4, {2, 2}, {-8, 7, -1, 0}), {1, 0});
  ASSERT_TRUE(i4.ok());
  EXPECT_EQ(Values<int8_t>(*i4), (std::vector<int8_t>{-8, -1, 7, 0}));
}

TEST(Transpose, RejectsNonPermutation) {
  Tensor operand = I64({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(Transpose(operand, {0, 0}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Transpose(operand, {0, 2}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Transpose(operand, {0}).status().code(), StatusCode::kInvalidArgument);
}

TEST(Slice, SpecExample) {
  Tensor operand = I64({3, 6}, {0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1});
  auto r = Slice(operand, {0, 2}, {3, 6}, {2, 3});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dims(), (Dims{2, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 1, 1, 1}));
}

TEST(Slice, ContiguousRowsAndEmpty) {
  Tensor operand = I64({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto r = Slice(operand, {1, 1}, {3, 3}, {1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{5, 6, 9, 10}));
  auto empty = Slice(operand, {1, 2}, {1, 4}, {1, 1});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->dims(), (Dims{0, 2}));
}

TEST(Slice, RejectsOutOfRange) {
  Tensor operand = I64({4}, {1, 2, 3, 4});
  EXPECT_FALSE(Slice(operand, {0}, {5}, {1}).ok());
  EXPECT_FALSE(Slice(operand, {-1}, {2}, {1}).ok());
  EXPECT_FALSE(Slice(operand, {3}, {2}, {1}).ok());
  EXPECT_FALSE(Slice(operand, {0}, {2}, {0}).ok());
}

TEST(DynamicSlice, SpecExampleClampsStart) {
  Tensor operand = I64({4, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  auto r = DynamicSlice(operand, {-1, 3}, {2, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 1, 1, 1}));
  auto far = DynamicSlice(I64({5}, {0, 1, 2, 3, 4}), {100}, {2});
  ASSERT_TRUE(far.ok());
  EXPECT_EQ(I64Values(*far), (std::vector<int64_t>{3, 4}));
  EXPECT_FALSE(DynamicSlice(operand, {0, 0}, {5, 1}).ok());
  EXPECT_FALSE(DynamicSlice(operand, {0}, {1, 1}).ok());
}

TEST(DynamicUpdateSlice, SpecExampleClampsAndLeavesOperand) {
  Tensor operand = I64({4, 4}, {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1});
  Tensor update = I64({2, 2}, {1, 1, 1, 1});
  auto r = DynamicUpdateSlice(operand, update, {-1, 3});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(I64Values(*r), std::vector<int64_t>(16, 1));
  EXPECT_EQ(I64Values(operand),
            (std::vector<int64_t>{1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  auto mid = DynamicUpdateSlice(I64({2, 3}, {0, 0, 0, 0, 0, 0}), I64({1, 2}, {7, 8}), {1, 1});
  ASSERT_TRUE(mid.ok());
  EXPECT_EQ(I64Values(*mid), (std::vector<int64_t>{0, 0, 0, 0, 7, 8}));
  EXPECT_FALSE(DynamicUpdateSlice(update, operand, {0, 0}).ok());
}

TEST(Concatenate, SpecExampleAndInnerDimension) {
  auto r = Concatenate({I64({3, 2}, {1, 2, 3, 4, 5, 6}), I64({1, 2}, {7, 8})}, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dims(), (Dims{4, 2}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  auto c = Concatenate({I64({2, 1}, {1, 2}), I64({2, 0}, {}), I64({2, 2}, {3, 4, 5, 6})}, 1);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->dims(), (Dims{2, 3}));
  EXPECT_EQ(I64Values(*c), (std::vector<int64_t>{1, 3, 4, 2, 5, 6}));
  EXPECT_FALSE(Concatenate({I64({2, 1}, {1, 2}), I64({3, 1}, {1, 2, 3})}, 1).ok());
  EXPECT_FALSE(Concatenate({I64({2}, {1, 2})}, 1).ok());
  EXPECT_FALSE(Concatenate({}, 0).ok());
}

TEST(Pad, SpecExampleWithNegativeEdgesAndInterior) {
  Tensor operand =
      I64({5, 4}, {0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0, 0, 0, 0});
  auto r = Pad(operand, ScalarI64(-1), {1, -1}, {1, -1}, {0, 1});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dims(), (Dims{7, 5}));
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{-1, -1, -1, -1, -1,  //
                                                 -1, 0,  -1, 0,  -1,  //
                                                 -1, 1,  -1, 2,  -1,  //
                                                 -1, 3,  -1, 4,  -1,  //
                                                 -1, 5,  -1, 6,  -1,  //
                                                 -1, 0,  -1, 0,  -1,  //
                                                 -1, -1, -1, -1, -1}));
}

TEST(Pad, OneDimensionalCases) {
  Tensor operand = I64({3}, {1, 2, 3});
  auto interior = Pad(operand, ScalarI64(0), {2}, {1}, {1});
  ASSERT_TRUE(interior.ok());
  EXPECT_EQ(I64Values(*interior), (std::vector<int64_t>{0, 0, 1, 0, 2, 0, 3, 0}));
  // Cropping into the interior padding: [1 p p 2 p p 3] without its first element.
  auto crop = Pad(operand, ScalarI64(9), {-1}, {0}, {2});
  ASSERT_TRUE(crop.ok());
  EXPECT_EQ(I64Values(*crop), (std::vector<int64_t>{9, 9, 2, 9, 9, 3}));
  // Cropping more than the operand leaves only padding.
  auto gone = Pad(operand, ScalarI64(7), {-5}, {3}, {0});
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(I64Values(*gone), (std::vector<int64_t>{7}));
  auto high_crop = Pad(operand, ScalarI64(7), {1}, {-2}, {0});
  ASSERT_TRUE(high_crop.ok());
  EXPECT_EQ(I64Values(*high_crop), (std::vector<int64_t>{7, 1}));
  auto empty = Pad(I64({0}, {}), ScalarI64(4), {1}, {1}, {3});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(I64Values(*empty), (std::vector<int64_t>{4, 4}));
}

TEST(Pad, RejectsBadPaddings) {
  Tensor operand = I64({3}, {1, 2, 3});
  EXPECT_FALSE(Pad(operand, ScalarI64(0), {-4}, {0}, {0}).ok());
  EXPECT_FALSE(Pad(operand, ScalarI64(0), {0}, {0}, {-1}).ok());
  EXPECT_FALSE(Pad(operand, Make<float>(ElementType::kF32, {}, {0}), {0}, {0}, {0}).ok());
  EXPECT_FALSE(Pad(operand, ScalarI64(0), {0, 0}, {0}, {0}).ok());
  EXPECT_FALSE(Pad(operand, ScalarI64(0), {0}, {0}, {int64_t{1} << 39}).ok());
}

TEST(Reverse, SpecExample) {
  Tensor operand = I64({3, 2}, {1, 2, 3, 4, 5, 6});
  auto r = Reverse(operand, {1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(I64Values(*r), (std::vector<int64_t>{2, 1, 4, 3, 6, 5}));
  auto both = Reverse(operand, {0, 1});
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(I64Values(*both), (std::vector<int64_t>{6, 5, 4, 3, 2, 1}));
  auto none = Reverse(operand, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(I64Values(*none), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(Reverse(operand, {2}).ok());
  EXPECT_FALSE(Reverse(operand, {0, 0}).ok());
}

TEST(IndexValues, WidensEveryIntegerType) {
  auto u8 = IndexValues(Make<uint8_t>(ElementType::kUI8, {2}, {200, 3}));
  ASSERT_TRUE(u8.ok());
  EXPECT_EQ(*u8, (std::vector<int64_t>{200, 3}));
  auto s32 = IndexValues(Make<int32_t>(ElementType::kSI32, {2}, {-7, 9}));
  ASSERT_TRUE(s32.ok());
  EXPECT_EQ(*s32, (std::vector<int64_t>{-7, 9}));
  auto u64 = IndexValues(Make<uint64_t>(ElementType::kUI64, {1}, {~uint64_t{0}}));
  ASSERT_TRUE(u64.ok());
  EXPECT_EQ((*u64)[0], INT64_MAX);
  EXPECT_FALSE(IndexValues(Make<float>(ElementType::kF32, {1}, {1})).ok());
  EXPECT_FALSE(ScalarIndexValue(I64({2}, {1, 2})).ok());
}

TEST(StridedCopy, OddElementSizeAndFill) {
  // 6-byte elements take the generic path.
  std::vector<std::byte> src(12), dst(12);
  for (size_t i = 0; i < src.size(); ++i) src[i] = std::byte(i);
  StridedCopy(src.data() + 6, {-1}, dst.data(), {1}, {2}, 6);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(dst[i], std::byte(6 + i));
    EXPECT_EQ(dst[6 + i], std::byte(i));
  }
  std::vector<int32_t> filled(5, 0);
  int32_t value = 42;
  FillElements(reinterpret_cast<std::byte*>(filled.data()), 5,
               reinterpret_cast<const std::byte*>(&value), 4);
  EXPECT_EQ(filled, std::vector<int32_t>(5, 42));
  EXPECT_FALSE(CheckedElementCount({int64_t{1} << 30, int64_t{1} << 30}).ok());
  EXPECT_EQ(*CheckedElementCount({3, 0, int64_t{1} << 62}), 0);
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

TEST(DataMovementOps, DeprecatedBroadcastRealDynamicSliceAndSetDimensionSize) {
  auto r = RunProgram(R"(
func.func @main() -> (tensor<2x3xi64>, tensor<2xi64>, tensor<3xi64>, tensor<i32>) {
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %0 = "stablehlo.broadcast"(%v) {broadcast_sizes = array<i64: 2>}
    : (tensor<3xi64>) -> tensor<2x3xi64>
  %start = stablehlo.constant dense<[0]> : tensor<1xi64>
  %limit = stablehlo.constant dense<[3]> : tensor<1xi64>
  %strides = stablehlo.constant dense<[2]> : tensor<1xi64>
  %1 = "stablehlo.real_dynamic_slice"(%v, %start, %limit, %strides)
    : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %size = stablehlo.constant dense<3> : tensor<i32>
  %2 = "stablehlo.set_dimension_size"(%v, %size) {dimension = 0 : i64}
    : (tensor<3xi64>, tensor<i32>) -> tensor<3xi64>
  %3 = "stablehlo.get_dimension_size"(%0) {dimension = 1 : i64} : (tensor<2x3xi64>) -> tensor<i32>
  func.return %0, %1, %2, %3 : tensor<2x3xi64>, tensor<2xi64>, tensor<3xi64>, tensor<i32>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ(I64Values((*r)[0].tensor), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(I64Values((*r)[1].tensor), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(I64Values((*r)[2].tensor), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(Values<int32_t>((*r)[3].tensor), (std::vector<int32_t>{3}));
}

TEST(DataMovementOps, WrongResultTypeIsAnError) {
  auto r = RunProgram(R"(
func.func @main() -> tensor<2x2xi64> {
  %v = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0 = stablehlo.transpose %v, dims = [1, 0] : (tensor<2x3xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("stablehlo.transpose"), std::string::npos)
      << r.status().message();
  auto missing = RunProgram(R"(
func.func @main() -> tensor<3xi64> {
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %0 = "stablehlo.reverse"(%v) : (tensor<3xi64>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
})");
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace plugrt::cpu
