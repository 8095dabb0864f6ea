// Tests of the compute kernels (reduce, windows, sort, map, dot,
// convolution, fft, linear algebra, batch norm, rng) on small inputs with
// hand-computed results, most from the StableHLO spec's examples.
#include <cmath>
#include <complex>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cpu/kernels/batch_norm.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/convolution.h"
#include "testutil/convolution_config.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/fft.h"
#include "cpu/kernels/linalg.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/reduce.h"
#include "cpu/kernels/rng.h"
#include "cpu/kernels/sort.h"
#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

template <typename T>
Tensor Make(ElementType type, std::vector<int64_t> dims, std::vector<T> values) {
  Tensor t(type, std::move(dims));
  EXPECT_EQ(static_cast<size_t>(t.num_elements()), values.size());
  std::memcpy(t.MutableData(), values.data(), values.size() * sizeof(T));
  return t;
}
Tensor I64(std::vector<int64_t> dims, std::vector<int64_t> v) {
  return Make(ElementType::kSI64, std::move(dims), std::move(v));
}
Tensor F32(std::vector<int64_t> dims, std::vector<float> v) {
  return Make(ElementType::kF32, std::move(dims), std::move(v));
}
Tensor F64(std::vector<int64_t> dims, std::vector<double> v) {
  return Make(ElementType::kF64, std::move(dims), std::move(v));
}
template <typename T>
std::vector<T> Values(const Tensor& t) {
  return std::vector<T>(t.as<T>(), t.as<T>() + t.num_elements());
}

// A scalar body computing one binary op on two rank-0 tensors of type T.
template <typename T, typename Fn>
ScalarBody Binary(Fn fn) {
  return [fn](const std::vector<Tensor>& args) -> StatusOr<std::vector<Tensor>> {
    Tensor r(args[0].type(), {});
    r.mutable_as<T>()[0] = fn(args[0].as<T>()[0], args[1].as<T>()[0]);
    return std::vector<Tensor>{r};
  };
}
// A body returning i1 pred(a, b).
template <typename T, typename Fn>
ScalarBody Predicate(Fn fn) {
  return [fn](const std::vector<Tensor>& args) -> StatusOr<std::vector<Tensor>> {
    Tensor r(ElementType::kI1, {});
    r.mutable_as<uint8_t>()[0] = fn(args[0].as<T>()[0], args[1].as<T>()[0]) ? 1 : 0;
    return std::vector<Tensor>{r};
  };
}

// --- reduce -----------------------------------------------------------------

TEST(ReduceTest, FastSumOverOneDimension) {
  Tensor in = I64({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor out = ReduceFast(in, I64({}, {10}), {1}, ReduceKind::kAdd);
  EXPECT_THAT(out.dims(), ElementsAre(2));
  EXPECT_THAT(Values<int64_t>(out), ElementsAre(16, 25));
  out = ReduceFast(in, I64({}, {0}), {0, 1}, ReduceKind::kAdd);
  EXPECT_THAT(out.dims(), ElementsAre());
  EXPECT_THAT(Values<int64_t>(out), ElementsAre(21));
  out = ReduceFast(in, I64({}, {0}), {0}, ReduceKind::kAdd);
  EXPECT_THAT(Values<int64_t>(out), ElementsAre(5, 7, 9));
}

TEST(ReduceTest, FastMaxPropagatesNanAndOrdersSignedZeros) {
  const float nan = std::nanf("");
  Tensor in = F32({2, 2}, {1.0f, nan, -0.0f, 0.0f});
  Tensor out = ReduceFast(in, F32({}, {-INFINITY}), {1}, ReduceKind::kMaximum);
  std::vector<float> v = Values<float>(out);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_FALSE(std::signbit(v[1]));
}

TEST(ReduceTest, FastIntegerOverflowWraps) {
  Tensor in = Make<int32_t>(ElementType::kSI32, {2}, {INT32_MAX, 1});
  Tensor out = ReduceFast(in, Make<int32_t>(ElementType::kSI32, {}, {0}), {0}, ReduceKind::kAdd);
  EXPECT_EQ(out.as<int32_t>()[0], INT32_MIN);
}

TEST(ReduceTest, FastBf16SumRoundsOnce) {
  // 256 + 1 + 1 is exactly 258 in bf16 only if added before rounding.
  auto bf = [](double v) { return static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kBF16, v)); };
  Tensor in = Make<uint16_t>(ElementType::kBF16, {3}, {bf(256), bf(1), bf(1)});
  Tensor out = ReduceFast(in, Make<uint16_t>(ElementType::kBF16, {}, {bf(0)}), {0},
                          ReduceKind::kAdd);
  EXPECT_EQ(shlo::DecodeFloat(ElementType::kBF16, out.as<uint16_t>()[0]), 258.0);
}

TEST(ReduceTest, VariadicBodyComputesArgmax) {
  Tensor values = F32({4}, {3, 7, 7, 1});
  Tensor index = I64({4}, {0, 1, 2, 3});
  // (max, argmax) keeping the first index on ties.
  ScalarBody body = [](const std::vector<Tensor>& a) -> StatusOr<std::vector<Tensor>> {
    float av = a[0].as<float>()[0], bv = a[2].as<float>()[0];
    int64_t ai = a[1].as<int64_t>()[0], bi = a[3].as<int64_t>()[0];
    bool take_b = bv > av || (bv == av && bi < ai);
    return std::vector<Tensor>{take_b ? a[2] : a[0], take_b ? a[3] : a[1]};
  };
  auto out = ReduceWithBody({values, index}, {F32({}, {-INFINITY}), I64({}, {0})}, {0}, body);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].as<float>()[0], 7.0f);
  EXPECT_EQ((*out)[1].as<int64_t>()[0], 1);
}

TEST(ReduceTest, BodyErrorsPropagate) {
  ScalarBody failing = [](const std::vector<Tensor>&) -> StatusOr<std::vector<Tensor>> {
    return InvalidArgument("boom");
  };
  auto out = ReduceWithBody({I64({2}, {1, 2})}, {I64({}, {0})}, {0}, failing);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), ::testing::HasSubstr("boom"));
}

// --- reduce_window ----------------------------------------------------------

WindowGeometry SpecWindow() {
  WindowGeometry w;
  w.window_dimensions = {2, 1};
  w.window_strides = {4, 1};
  w.base_dilations = {2, 1};
  w.window_dilations = {3, 1};
  w.padding_low = {2, 0};
  w.padding_high = {1, 0};
  return w;
}

TEST(ReduceWindowTest, SpecExampleWithDilationsAndPadding) {
  Tensor in = I64({3, 2}, {1, 2, 3, 4, 5, 6});
  WindowGeometry w = SpecWindow();
  auto dims = WindowResultDims(in.dims(), w);
  ASSERT_TRUE(dims.ok());
  EXPECT_THAT(*dims, ElementsAre(2, 2));
  Tensor fast = ReduceWindowFast(in, I64({}, {0}), w, *dims, ReduceKind::kAdd);
  EXPECT_THAT(Values<int64_t>(fast), ElementsAre(0, 0, 3, 4));
  auto slow = ReduceWindowWithBody({in}, {I64({}, {0})}, w, *dims,
                                   Binary<int64_t>([](int64_t a, int64_t b) { return a + b; }));
  ASSERT_TRUE(slow.ok());
  EXPECT_THAT(Values<int64_t>((*slow)[0]), ElementsAre(0, 0, 3, 4));
}

TEST(ReduceWindowTest, PaddingReadsTheInitValue) {
  // 1-D [1, 2, 3], window 2, stride 1, padding 1 on both sides, init 10:
  // windows (pad,1) (1,2) (2,3) (3,pad) -> each adds init once more for pads.
  WindowGeometry w{{2}, {1}, {1}, {1}, {1}, {1}};
  Tensor in = I64({3}, {1, 2, 3});
  auto dims = WindowResultDims(in.dims(), w);
  ASSERT_TRUE(dims.ok());
  Tensor out = ReduceWindowFast(in, I64({}, {10}), w, *dims, ReduceKind::kAdd);
  EXPECT_THAT(Values<int64_t>(out), ElementsAre(21, 13, 15, 23));
}

TEST(ReduceWindowTest, RejectsZeroStride) {
  WindowGeometry w{{2}, {0}, {1}, {1}, {0}, {0}};
  EXPECT_FALSE(WindowResultDims({3}, w).ok());
  WindowGeometry short_window{{2, 2}, {1}, {1}, {1}, {0}, {0}};
  EXPECT_FALSE(WindowResultDims({3}, short_window).ok());
}

// --- select_and_scatter -----------------------------------------------------

TEST(SelectAndScatterTest, SpecExample) {
  Tensor operand = I64({4, 2}, {1, 5, 2, 5, 3, 6, 4, 4});
  Tensor source = I64({2, 2}, {5, 6, 7, 8});
  WindowGeometry w{{3, 1}, {2, 1}, {1, 1}, {1, 1}, {0, 0}, {1, 0}};
  auto out = SelectAndScatter(operand, source, I64({}, {0}), w,
                              Predicate<int64_t>([](int64_t a, int64_t b) { return a >= b; }),
                              Binary<int64_t>([](int64_t a, int64_t b) { return a + b; }));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Values<int64_t>(*out), ElementsAre(0, 0, 0, 0, 5, 14, 7, 0));
}

// --- sort and map -----------------------------------------------------------

TEST(SortTest, SpecExampleTwoOperandsAlongDimensionZero) {
  Tensor a = I64({2, 3}, {1, 2, 3, 3, 2, 1});
  Tensor b = I64({2, 3}, {3, 2, 1, 1, 2, 3});
  ScalarBody greater = [](const std::vector<Tensor>& args) -> StatusOr<std::vector<Tensor>> {
    Tensor r(ElementType::kI1, {});
    r.mutable_as<uint8_t>()[0] = args[0].as<int64_t>()[0] > args[1].as<int64_t>()[0];
    return std::vector<Tensor>{r};
  };
  auto out = Sort({a, b}, 0, greater);
  ASSERT_TRUE(out.ok());
  EXPECT_THAT(Values<int64_t>((*out)[0]), ElementsAre(3, 2, 3, 1, 2, 1));
  EXPECT_THAT(Values<int64_t>((*out)[1]), ElementsAre(1, 2, 1, 3, 2, 3));
}

TEST(SortTest, StableForEqualKeys) {
  Tensor keys = I64({6}, {1, 0, 1, 0, 2, 0});
  Tensor payload = I64({6}, {0, 1, 2, 3, 4, 5});
  ScalarBody less = [](const std::vector<Tensor>& args) -> StatusOr<std::vector<Tensor>> {
    Tensor r(ElementType::kI1, {});
    r.mutable_as<uint8_t>()[0] = args[0].as<int64_t>()[0] < args[1].as<int64_t>()[0];
    return std::vector<Tensor>{r};
  };
  auto out = Sort({keys, payload}, 0, less);
  ASSERT_TRUE(out.ok());
  EXPECT_THAT(Values<int64_t>((*out)[0]), ElementsAre(0, 0, 0, 1, 1, 2));
  EXPECT_THAT(Values<int64_t>((*out)[1]), ElementsAre(1, 3, 5, 0, 2, 4));
}

TEST(SortTest, InconsistentComparatorStaysInBounds) {
  Tensor keys = I64({5}, {5, 4, 3, 2, 1});
  ScalarBody always = [](const std::vector<Tensor>&) -> StatusOr<std::vector<Tensor>> {
    Tensor r(ElementType::kI1, {});
    r.mutable_as<uint8_t>()[0] = 1;
    return std::vector<Tensor>{r};
  };
  auto out = Sort({keys}, 0, always);
  ASSERT_TRUE(out.ok());
  std::vector<int64_t> v = Values<int64_t>((*out)[0]);
  std::sort(v.begin(), v.end());
  EXPECT_THAT(v, ElementsAre(1, 2, 3, 4, 5));  // a permutation, nothing lost
  EXPECT_FALSE(Sort({keys}, 1, always).ok());
}

TEST(MapTest, AppliesBodyPerElement) {
  auto out = Map({I64({2, 2}, {0, 1, 2, 3}), I64({2, 2}, {4, 5, 6, 7})}, ElementType::kSI64,
                 Binary<int64_t>([](int64_t a, int64_t b) { return a * b; }));
  ASSERT_TRUE(out.ok());
  EXPECT_THAT(Values<int64_t>(*out), ElementsAre(0, 5, 12, 21));
}

// --- dot_general ------------------------------------------------------------

TEST(DotGeneralTest, SpecExampleWithBatching) {
  Tensor lhs = I64({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor rhs = I64({2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1});
  DotDimensions dd{{0}, {0}, {2}, {1}};
  auto dims = DotResultDims(lhs.dims(), rhs.dims(), dd);
  ASSERT_TRUE(dims.ok());
  EXPECT_THAT(*dims, ElementsAre(2, 2, 2));
  Tensor out = DotGeneral(lhs, rhs, dd, ElementType::kSI64);
  EXPECT_THAT(Values<int64_t>(out), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
}

TEST(DotGeneralTest, TransposedOperandsAndMixedResultType) {
  // lhs^T (3x2)^T . rhs^T: lhs contracts dim 0, rhs contracts dim 1.
  Tensor lhs = Make<int8_t>(ElementType::kSI8, {3, 2}, {1, 4, 2, 5, 3, 6});   // A^T, A=[[1,2,3],[4,5,6]]
  Tensor rhs = Make<int8_t>(ElementType::kSI8, {2, 3}, {7, 9, 11, 8, 10, 12});  // B^T, B=[[7,8],[9,10],[11,12]]
  DotDimensions dd{{}, {}, {0}, {1}};
  Tensor out = DotGeneral(lhs, rhs, dd, ElementType::kSI32);
  EXPECT_THAT(out.dims(), ElementsAre(2, 2));
  EXPECT_THAT(Values<int32_t>(out), ElementsAre(58, 64, 139, 154));
}

TEST(DotGeneralTest, ComplexAndRejectsBadDims) {
  using C = std::complex<float>;
  Tensor lhs = Make<C>(ElementType::kC64, {2}, {C(1, 1), C(0, 2)});
  Tensor rhs = Make<C>(ElementType::kC64, {2}, {C(2, 0), C(1, -1)});
  Tensor out = DotGeneral(lhs, rhs, DotDimensions{{}, {}, {0}, {0}}, ElementType::kC64);
  EXPECT_EQ(out.as<C>()[0], C(4, 4));  // (1+i)*2 + 2i*(1-i) = 2+2i + 2i+2
  EXPECT_FALSE(DotResultDims({2, 3}, {4, 3}, DotDimensions{{}, {}, {1}, {0}}).ok());
  EXPECT_FALSE(DotResultDims({2, 3}, {3}, DotDimensions{{}, {}, {5}, {0}}).ok());
  EXPECT_FALSE(DotResultDims({2, 3}, {3}, DotDimensions{{1}, {}, {1}, {0}}).ok());
}

// --- convolution ------------------------------------------------------------

ConvolutionConfig Nhwc2D() { return testing::Nhwc2D(/*stride=*/4, /*padding=*/0, /*lhs_dilation=*/2); }

TEST(ConvolutionTest, SpecExampleWithLhsDilation) {
  Tensor lhs = I64({1, 4, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17});
  Tensor rhs = I64({3, 3, 1, 1}, std::vector<int64_t>(9, 1));
  ConvolutionConfig c = Nhwc2D();
  auto dims = ConvolutionResultDims(lhs.dims(), rhs.dims(), c);
  ASSERT_TRUE(dims.ok()) << dims.status().ToString();
  EXPECT_THAT(*dims, ElementsAre(1, 2, 2, 1));
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(10, 26, 46, 62));
  // dynamic_conv's interpreter test: same with padding 1 everywhere.
  c.padding_low = {1, 1};
  c.padding_high = {1, 1};
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(1, 5, 10, 14));
}

ConvolutionConfig Ncw1D() {
  ConvolutionConfig c;
  c.input_batch_dimension = 0;
  c.input_feature_dimension = 1;
  c.input_spatial_dimensions = {2};
  c.kernel_output_feature_dimension = 0;
  c.kernel_input_feature_dimension = 1;
  c.kernel_spatial_dimensions = {2};
  c.output_batch_dimension = 0;
  c.output_feature_dimension = 1;
  c.output_spatial_dimensions = {2};
  c.window_strides = {1};
  c.padding_low = {0};
  c.padding_high = {0};
  c.lhs_dilation = {1};
  c.rhs_dilation = {1};
  c.window_reversal = {false};
  return c;
}

TEST(ConvolutionTest, FeatureGroups) {
  // Two input features, two groups: output feature g sees only input g.
  Tensor lhs = F32({1, 2, 1}, {1, 2});
  Tensor rhs = F32({2, 1, 1}, {10, 100});
  ConvolutionConfig c = Ncw1D();
  c.feature_group_count = 2;
  ASSERT_TRUE(ConvolutionResultDims(lhs.dims(), rhs.dims(), c).ok());
  EXPECT_THAT(Values<float>(Convolution(lhs, rhs, c, ElementType::kF32)), ElementsAre(10, 200));
}

TEST(ConvolutionTest, BatchGroups) {
  // Two batches, two batch groups: output feature g sees only batch g.
  Tensor lhs = F32({2, 1, 1}, {1, 2});
  Tensor rhs = F32({2, 1, 1}, {10, 100});
  ConvolutionConfig c = Ncw1D();
  c.batch_group_count = 2;
  auto dims = ConvolutionResultDims(lhs.dims(), rhs.dims(), c);
  ASSERT_TRUE(dims.ok());
  EXPECT_THAT(*dims, ElementsAre(1, 2, 1));
  EXPECT_THAT(Values<float>(Convolution(lhs, rhs, c, ElementType::kF32)), ElementsAre(10, 200));
}

TEST(ConvolutionTest, ReversalStridesRhsDilationAndPadding) {
  Tensor lhs = I64({1, 1, 5}, {1, 2, 3, 4, 5});
  Tensor rhs = I64({1, 1, 2}, {1, 10});
  ConvolutionConfig c = Ncw1D();
  // Plain: out[i] = x[i] + 10 x[i+1].
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(21, 32, 43, 54));
  c.window_reversal = {true};  // out[i] = 10 x[i] + x[i+1]
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(12, 23, 34, 45));
  c.window_reversal = {false};
  c.rhs_dilation = {2};  // out[i] = x[i] + 10 x[i+2]
  c.window_strides = {2};
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(31, 53));
  c.rhs_dilation = {1};
  c.window_strides = {1};
  c.padding_low = {1};
  c.padding_high = {-1};  // padded: [0,1,2,3,4]
  EXPECT_THAT(Values<int64_t>(Convolution(lhs, rhs, c, ElementType::kSI64)),
              ElementsAre(10, 21, 32, 43));
}

TEST(ConvolutionTest, RejectsMismatchedFeatures) {
  ConvolutionConfig c = Ncw1D();
  EXPECT_FALSE(ConvolutionResultDims({1, 3, 4}, {2, 2, 1}, c).ok());
  c.feature_group_count = 2;
  c.batch_group_count = 2;
  EXPECT_FALSE(ConvolutionResultDims({2, 2, 4}, {2, 1, 1}, c).ok());
  ConvolutionConfig bad = Ncw1D();
  bad.input_spatial_dimensions = {1};
  EXPECT_FALSE(ConvolutionResultDims({1, 1, 4}, {1, 1, 1}, bad).ok());
}

// --- fft --------------------------------------------------------------------

using C64 = std::complex<float>;
using C128 = std::complex<double>;

TEST(FftTest, ImpulseAndRealTransforms) {
  Tensor impulse = Make<C128>(ElementType::kC128, {4}, {1, 0, 0, 0});
  Tensor spectrum = Fft(impulse, FftType::kFft, {4}, ElementType::kC128);
  EXPECT_THAT(Values<C128>(spectrum), ElementsAre(C128(1), C128(1), C128(1), C128(1)));

  Tensor real = F64({4}, {1, 2, 3, 4});
  Tensor r = Fft(real, FftType::kRfft, {4}, ElementType::kC128);
  ASSERT_THAT(r.dims(), ElementsAre(3));
  std::vector<C128> v = Values<C128>(r);
  EXPECT_NEAR(std::abs(v[0] - C128(10, 0)), 0, 1e-12);
  EXPECT_NEAR(std::abs(v[1] - C128(-2, 2)), 0, 1e-12);
  EXPECT_NEAR(std::abs(v[2] - C128(-2, 0)), 0, 1e-12);
  Tensor back = Fft(r, FftType::kIrfft, {4}, ElementType::kF64);
  std::vector<double> b = Values<double>(back);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(b[i], i + 1, 1e-12);
}

TEST(FftTest, RoundTripPowerOfTwoAndOddLengths) {
  for (int64_t n : {8, 5, 6}) {
    std::vector<C64> x;
    for (int64_t i = 0; i < 2 * n; ++i) x.push_back(C64(std::sin(i + 1.0f), std::cos(3.0f * i)));
    Tensor in = Make<C64>(ElementType::kC64, {2, n}, x);
    Tensor f = Fft(in, FftType::kFft, {n}, ElementType::kC64);
    // Against a direct DFT of the first row.
    for (int64_t k = 0; k < n; ++k) {
      C128 sum = 0;
      for (int64_t j = 0; j < n; ++j) {
        sum += C128(x[j]) * std::polar(1.0, -2 * M_PI * j * k / n);
      }
      EXPECT_NEAR(std::abs(C128(f.as<C64>()[k]) - sum), 0, 1e-4) << n << " " << k;
    }
    Tensor g = Fft(f, FftType::kIfft, {n}, ElementType::kC64);
    for (int64_t i = 0; i < 2 * n; ++i) {
      EXPECT_NEAR(std::abs(C128(g.as<C64>()[i]) - C128(x[i])), 0, 1e-5);
    }
  }
}

TEST(FftTest, MultiDimensionalRealRoundTrip) {
  std::vector<double> x;
  for (int i = 0; i < 2 * 3 * 4; ++i) x.push_back(std::cos(i * 0.7) + i);
  Tensor in = F64({2, 3, 4}, x);
  Tensor f = Fft(in, FftType::kRfft, {3, 4}, ElementType::kC128);
  EXPECT_THAT(f.dims(), ElementsAre(2, 3, 3));
  EXPECT_NEAR(f.as<C128>()[0].real(), [&] {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += x[i];
    return s;
  }(), 1e-9);
  Tensor back = Fft(f, FftType::kIrfft, {3, 4}, ElementType::kF64);
  std::vector<double> b = Values<double>(back);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(b[i], x[i], 1e-9);
  EXPECT_FALSE(FftResultDims({2, 3, 4}, FftType::kIrfft, {3, 4}).ok());
  EXPECT_FALSE(FftResultDims({4}, FftType::kFft, {4, 4}).ok());
}

// --- linear algebra ---------------------------------------------------------

TEST(TriangularSolveTest, SpecExample) {
  Tensor a = F32({3, 3}, {1, 0, 0, 2, 4, 0, 3, 5, 6});
  Tensor b = F32({3, 3}, {2, 0, 0, 4, 8, 0, 6, 10, 12});
  auto x = TriangularSolve(a, b, true, true, false, TransposeKind::kNoTranspose);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_THAT(Values<float>(*x), ElementsAre(2, 0, 0, 0, 2, 0, 0, 0, 2));
}

// op(A) as a dense matrix from the triangle the solver reads.
std::vector<double> OpOf(const std::vector<double>& a, int n, bool lower, bool unit,
                         TransposeKind t) {
  std::vector<double> m(n * n, 0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (lower ? j > i : j < i) continue;
      double v = (i == j && unit) ? 1 : a[i * n + j];
      if (t == TransposeKind::kNoTranspose) {
        m[i * n + j] = v;
      } else {
        m[j * n + i] = v;
      }
    }
  }
  return m;
}

TEST(TriangularSolveTest, AllVariantsSatisfyTheirEquation) {
  // The other triangle holds junk the solver must ignore.
  const std::vector<double> a = {2, 9, 9, 1, 3, 9, -1, 2, 4};
  const std::vector<double> a_upper = {2, 1, -1, 9, 3, 2, 9, 9, 4};
  const std::vector<double> b = {1, 2, 3, 4, 5, 6};  // 3x2 (left) or 2x3 (right)
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {false, true}) {
        for (TransposeKind t : {TransposeKind::kNoTranspose, TransposeKind::kTranspose,
                                TransposeKind::kAdjoint}) {
          const std::vector<double>& av = lower ? a : a_upper;
          std::vector<int64_t> bdims = left ? std::vector<int64_t>{3, 2}
                                            : std::vector<int64_t>{2, 3};
          auto x = TriangularSolve(F64({1, 3, 3}, av), F64({1, bdims[0], bdims[1]}, b), left,
                                   lower, unit, t);
          ASSERT_TRUE(x.ok()) << x.status().ToString();
          std::vector<double> xv = Values<double>(*x);
          std::vector<double> m = OpOf(av, 3, lower, unit, t);
          for (int64_t i = 0; i < bdims[0]; ++i) {
            for (int64_t j = 0; j < bdims[1]; ++j) {
              double sum = 0;
              for (int k = 0; k < 3; ++k) {
                sum += left ? m[i * 3 + k] * xv[k * bdims[1] + j]
                            : xv[i * bdims[1] + k] * m[k * 3 + j];
              }
              EXPECT_NEAR(sum, b[i * bdims[1] + j], 1e-9)
                  << "left=" << left << " lower=" << lower << " unit=" << unit
                  << " transpose=" << static_cast<int>(t);
            }
          }
        }
      }
    }
  }
}

TEST(TriangularSolveTest, ComplexAdjointConjugates) {
  // op(A) = A^H with A = [[2, 0], [i, 1]] lower: A^H = [[2, -i], [0, 1]].
  Tensor a = Make<C128>(ElementType::kC128, {2, 2}, {2, 0, C128(0, 1), 1});
  Tensor b = Make<C128>(ElementType::kC128, {2, 1}, {C128(2, -1), 1});
  auto x = TriangularSolve(a, b, true, true, false, TransposeKind::kAdjoint);
  ASSERT_TRUE(x.ok());
  // x1 = 1; 2 x0 - i x1 = 2 - i -> x0 = 1.
  EXPECT_NEAR(std::abs(x->as<C128>()[0] - C128(1, 0)), 0, 1e-12);
  EXPECT_NEAR(std::abs(x->as<C128>()[1] - C128(1, 0)), 0, 1e-12);
}

TEST(TriangularSolveTest, RejectsBadShapes) {
  EXPECT_FALSE(TriangularSolve(F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({2, 1}, {1, 2}), true, true,
                               false, TransposeKind::kNoTranspose).ok());
  EXPECT_FALSE(TriangularSolve(I64({1, 1}, {1}), I64({1, 1}, {1}), true, true, false,
                               TransposeKind::kNoTranspose).ok());
}

TEST(CholeskyTest, LowerAndUpperBatched) {
  std::vector<double> m = {4, 12, -16, 12, 37, -43, -16, -43, 98};
  std::vector<double> two = m;
  two.insert(two.end(), m.begin(), m.end());
  auto l = Cholesky(F64({2, 3, 3}, two), true);
  ASSERT_TRUE(l.ok());
  std::vector<double> expected = {2, 0, 0, 6, 1, 0, -8, 5, 3};
  std::vector<double> lv = Values<double>(*l);
  for (int i = 0; i < 18; ++i) EXPECT_NEAR(lv[i], expected[i % 9], 1e-12) << i;
  auto u = Cholesky(F64({3, 3}, m), false);
  ASSERT_TRUE(u.ok());
  std::vector<double> uv = Values<double>(*u);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(uv[i * 3 + j], expected[j * 3 + i], 1e-12);
  }
}

TEST(CholeskyTest, NotPositiveDefiniteGivesNan) {
  auto l = Cholesky(F32({2, 2}, {1, 2, 2, 1}), true);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->as<float>()[0], 1.0f);
  EXPECT_TRUE(std::isnan(l->as<float>()[3]));
}

// --- batch norm -------------------------------------------------------------

TEST(BatchNormTest, InferenceTrainingAndGrad) {
  auto inf = BatchNormInference(F32({2, 2}, {1, 2, 3, 4}), F32({2}, {1, 2}), F32({2}, {0, 1}),
                                F32({2}, {2, 3}), F32({2}, {1, 1}), 0.0, 1);
  ASSERT_TRUE(inf.ok());
  EXPECT_THAT(Values<float>(*inf), ElementsAre(-1, -1, 1, 3));

  auto train = BatchNormTraining(F32({2, 2}, {1, 2, 3, 6}), F32({2}, {1, 1}), F32({2}, {0, 0}),
                                 0.0, 1);
  ASSERT_TRUE(train.ok());
  EXPECT_THAT(Values<float>((*train)[0]), ElementsAre(-1, -1, 1, 1));
  EXPECT_THAT(Values<float>((*train)[1]), ElementsAre(2, 4));
  EXPECT_THAT(Values<float>((*train)[2]), ElementsAre(1, 4));

  // Feature 0 only: x = [1, 3], mean 2, var 1, scale 1, grad_output [1, 0].
  auto grad = BatchNormGrad(F32({2, 1}, {1, 3}), F32({1}, {1}), F32({1}, {2}), F32({1}, {1}),
                            F32({2, 1}, {1, 0}), 0.0, 1);
  ASSERT_TRUE(grad.ok());
  // xhat = [-1, 1]; grad_offset = 1; grad_scale = -1;
  // grad_x = g - 1/2 - xhat * (-1) / 2 = [1 - .5 - .5, 0 - .5 + .5] = [0, 0].
  EXPECT_THAT(Values<float>((*grad)[0]), ElementsAre(0, 0));
  EXPECT_THAT(Values<float>((*grad)[1]), ElementsAre(-1));
  EXPECT_THAT(Values<float>((*grad)[2]), ElementsAre(1));
  EXPECT_FALSE(BatchNormInference(F32({2}, {1, 2}), F32({3}, {1, 1, 1}), F32({3}, {0, 0, 0}),
                                  F32({3}, {0, 0, 0}), F32({3}, {1, 1, 1}), 0, 0).ok());
}

// --- rng --------------------------------------------------------------------

Tensor U64(std::vector<int64_t> dims, std::vector<uint64_t> v) {
  return Make(ElementType::kUI64, std::move(dims), std::move(v));
}

TEST(RngBitGeneratorTest, ThreeFryMatchesXla) {
  // From the conformance corpus (rng_bit_generator_uint64_2).
  auto r = RngBitGenerator(U64({2}, {3, 3}), RngAlgorithm::kThreeFry, ElementType::kUI64, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(Values<uint64_t>(r->state), ElementsAre(3, 4));
  EXPECT_EQ(r->bits.as<uint64_t>()[0], 3349939604322698703ull);
  // rng_bit_generator_uint32_4: state words [1, 4, 0, 1] as ui64, 100x100.
  auto big = RngBitGenerator(U64({2}, {(4ull << 32) | 1, 1ull << 32}), RngAlgorithm::kThreeFry,
                             ElementType::kUI64, {100, 100});
  ASSERT_TRUE(big.ok());
  EXPECT_THAT(Values<uint64_t>(big->state), ElementsAre((4ull << 32) | 1, (1ull << 32) + 10000));
  EXPECT_EQ(big->bits.as<uint64_t>()[0], 0xA3E974730835D3C1ull);
}

// Random123's published known answers (its tests/kat_vectors, which JAX and
// TensorFlow's XLA tests also check) through rng_bit_generator's state
// layout as XLA's RngBitGeneratorExpander defines it: state[0] is the key
// (low word first); THREE_FRY's counter is state[1]; PHILOX's 128-bit
// counter is state[1] (low) and state[2] (high), or, with a 2-word state,
// state[1] (low) and state[0] (high). XLA's CPU compiler expands DEFAULT to
// PHILOX. 32-bit outputs take a block's four words in order, 64-bit outputs
// join words (0,1) and (2,3) low word first, narrower outputs keep the low
// bits of one word each.
TEST(RngBitGeneratorTest, DefaultIsPhiloxOnRandom123Vectors) {
  struct Kat {
    uint32_t ctr[4];
    uint32_t key[2];
    uint32_t out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  auto join = [](uint32_t lo, uint32_t hi) { return (uint64_t{hi} << 32) | lo; };
  for (const Kat& k : kats) {
    const uint64_t key = join(k.key[0], k.key[1]);
    const uint64_t lo = join(k.ctr[0], k.ctr[1]), hi = join(k.ctr[2], k.ctr[3]);
    auto r = RngBitGenerator(U64({3}, {key, lo, hi}), RngAlgorithm::kPhilox, ElementType::kUI32,
                             {2, 2});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_THAT(Values<uint32_t>(r->bits), ElementsAre(k.out[0], k.out[1], k.out[2], k.out[3]));
    // One block used: the 128-bit counter advances by one, carrying.
    EXPECT_THAT(Values<uint64_t>(r->state), ElementsAre(key, lo + 1, lo + 1 == 0 ? hi + 1 : hi));
    auto wide = RngBitGenerator(U64({3}, {key, lo, hi}), RngAlgorithm::kPhilox,
                                ElementType::kUI64, {2});
    ASSERT_TRUE(wide.ok());
    EXPECT_THAT(Values<uint64_t>(wide->bits),
                ElementsAre(join(k.out[0], k.out[1]), join(k.out[2], k.out[3])));
    auto bytes = RngBitGenerator(U64({3}, {key, lo, hi}), RngAlgorithm::kPhilox,
                                 ElementType::kUI8, {4});
    ASSERT_TRUE(bytes.ok());
    EXPECT_THAT(Values<uint8_t>(bytes->bits),
                ElementsAre(k.out[0] & 0xff, k.out[1] & 0xff, k.out[2] & 0xff, k.out[3] & 0xff));
    // DEFAULT with a 2-word state: the counter's high word is the key, so
    // the vectors whose counter's high half equals the key apply.
    if (hi == key) {
      auto d = RngBitGenerator(U64({2}, {key, lo}), RngAlgorithm::kDefault, ElementType::kUI32,
                               {4});
      ASSERT_TRUE(d.ok());
      EXPECT_THAT(Values<uint32_t>(d->bits),
                  ElementsAre(k.out[0], k.out[1], k.out[2], k.out[3]));
      // The state keeps the low counter word only (a carry is dropped).
      EXPECT_THAT(Values<uint64_t>(d->state), ElementsAre(key, lo + 1));
    }
  }
}

TEST(RngBitGeneratorTest, ThreeFryOnRandom123Vectors) {
  // Threefry-2x32-20 known answers: (counter words, key words) -> output
  // words; one 64-bit element per counter, low word first.
  struct Kat {
    uint64_t counter, key, out;
  };
  const Kat kats[] = {
      {0, 0, 0x99ba4efe6b200159ull},
      {~0ull, ~0ull, 0xbb002be71cb996fcull},
      {0x85a308d3243f6a88ull, 0x0370734413198a2eull, 0x483df7a0c4923a9cull},
  };
  for (const Kat& k : kats) {
    auto r = RngBitGenerator(U64({2}, {k.key, k.counter}), RngAlgorithm::kThreeFry,
                             ElementType::kUI64, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->bits.as<uint64_t>()[0], k.out);
    EXPECT_THAT(Values<uint64_t>(r->state), ElementsAre(k.key, k.counter + 1));
    // 32-bit scalars take the block's first word.
    auto narrow = RngBitGenerator(U64({2}, {k.key, k.counter}), RngAlgorithm::kThreeFry,
                                  ElementType::kUI32, {});
    ASSERT_TRUE(narrow.ok());
    EXPECT_EQ(narrow->bits.as<uint32_t>()[0], static_cast<uint32_t>(k.out));
  }
}

TEST(RngBitGeneratorTest, PhiloxAndNarrowTypesAdvanceTheCounter) {
  auto p = RngBitGenerator(U64({3}, {1, 2, 3}), RngAlgorithm::kPhilox, ElementType::kUI32, {5});
  ASSERT_TRUE(p.ok());
  EXPECT_THAT(Values<uint64_t>(p->state), ElementsAre(1, 4, 3));  // 2 blocks of 4 words
  auto d = RngBitGenerator(U64({2}, {1, 2}), RngAlgorithm::kDefault, ElementType::kUI64, {3});
  ASSERT_TRUE(d.ok());
  EXPECT_THAT(Values<uint64_t>(d->state), ElementsAre(1, 4));
  auto t = RngBitGenerator(U64({2}, {1, 2}), RngAlgorithm::kThreeFry, ElementType::kUI8, {3, 4});
  ASSERT_TRUE(t.ok());
  EXPECT_THAT(Values<uint64_t>(t->state), ElementsAre(1, 8));  // half of 12 blocks
  EXPECT_FALSE(
      RngBitGenerator(U64({1}, {1}), RngAlgorithm::kThreeFry, ElementType::kUI32, {2}).ok());
  EXPECT_EQ(RngBitGenerator(U64({2}, {1, 2}), RngAlgorithm::kThreeFry, ElementType::kC64, {2})
                .status()
                .code(),
            StatusCode::kUnimplemented);
}

TEST(RngTest, UniformStaysInRangeAndNormalIsFinite) {
  auto u = RngUniform(F32({}, {2}), F32({}, {3}), ElementType::kF32, {1000}, 7);
  ASSERT_TRUE(u.ok());
  for (float v : Values<float>(*u)) {
    EXPECT_GE(v, 2.0f);
    EXPECT_LT(v, 3.0f);
  }
  auto i = RngUniform(I64({}, {-5}), I64({}, {5}), ElementType::kSI64, {1000}, 7);
  ASSERT_TRUE(i.ok());
  for (int64_t v : Values<int64_t>(*i)) {
    EXPECT_GE(v, -5);
    EXPECT_LT(v, 5);
  }
  auto n = RngNormal(F64({}, {0}), F64({}, {1}), ElementType::kF64, {100}, 7);
  ASSERT_TRUE(n.ok());
  for (double v : Values<double>(*n)) EXPECT_TRUE(std::isfinite(v));
}

// RunWithTeamAsleep runs its function once, on the calling thread, for any
// team size; the team is usable right after, and an exception thrown inside
// reaches the caller (after the sleeping members are released).
TEST(RunWithTeamAsleep, RunsOnceOnTheCallerAndPassesExceptionsOn) {
  for (int threads : {1, 2, 3}) {
    int calls = 0;
    std::thread::id ran_on;
    RunWithTeamAsleep(threads, [&] {
      ++calls;
      ran_on = std::this_thread::get_id();
    });
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(ran_on, std::this_thread::get_id());
    std::vector<int> seen(64, 0);
    ParallelFor(64, threads, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) seen[static_cast<size_t>(i)] += 1;
    });
    EXPECT_EQ(seen, std::vector<int>(64, 1));
    EXPECT_THROW(RunWithTeamAsleep(threads, [] { throw std::runtime_error("inside"); }),
                 std::runtime_error);
  }
}

}  // namespace
}  // namespace plugrt::cpu
