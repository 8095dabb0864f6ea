// Elementwise kernels on small inputs, against values worked out by hand from
// the StableHLO spec's definitions.
#include "cpu/kernels/elementwise.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/kernels/tensor.h"
#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A rank-1 tensor (or rank 0 when `scalar`) holding `values` as storage.
template <typename S>
Tensor Make(ElementType type, const std::vector<S>& values, bool scalar = false) {
  Tensor t(type, scalar ? std::vector<int64_t>{} : std::vector<int64_t>{static_cast<int64_t>(values.size())});
  std::memcpy(t.MutableData(), values.data(), values.size() * sizeof(S));
  return t;
}

template <typename S>
std::vector<S> Values(const Tensor& t) {
  const S* p = t.as<S>();
  return std::vector<S>(p, p + t.num_elements());
}

Tensor Like(const Tensor& t, ElementType type) { return Tensor(type, t.dims()); }

template <typename S>
std::vector<S> Unary(UnaryOpKind op, ElementType type, const Tensor& x) {
  UnaryKernel k = GetUnaryKernel(op, type);
  EXPECT_NE(k, nullptr);
  Tensor out = Like(x, UnaryResultType(op, type));
  if (k) k(x, out);
  return Values<S>(out);
}

template <typename S>
std::vector<S> Binary(BinaryOpKind op, ElementType type, const Tensor& x, const Tensor& y,
                      ElementType out_type) {
  BinaryKernel k = GetBinaryKernel(op, type);
  EXPECT_NE(k, nullptr);
  Tensor out = Like(x, out_type);
  if (k) k(x, y, out);
  return Values<S>(out);
}

std::vector<uint8_t> Compare(CompareDirection d, CompareType ct, const Tensor& x, const Tensor& y) {
  BinaryKernel k = GetCompareKernel(d, ct, x.type());
  EXPECT_NE(k, nullptr);
  Tensor out = Like(x, ElementType::kI1);
  if (k) k(x, y, out);
  return Values<uint8_t>(out);
}

TEST(TensorTest, ZeroFilledAlignedAndShared) {
  Tensor t(ElementType::kF32, {2, 3});
  EXPECT_EQ(t.num_elements(), 6);
  EXPECT_EQ(t.byte_size(), 24u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data()) % 64, 0u);
  for (float v : Values<float>(t)) EXPECT_EQ(v, 0.0f);
  EXPECT_EQ(t.Strides(), (std::vector<int64_t>{3, 1}));
  Tensor view = t.Reshaped({6});
  t.mutable_as<float>()[5] = 7;
  EXPECT_EQ(view.as<float>()[5], 7);
  Tensor copy = t.Clone();
  t.mutable_as<float>()[5] = 8;
  EXPECT_EQ(copy.as<float>()[5], 7);
  Tensor empty(ElementType::kSI4, {0, 5});
  EXPECT_EQ(empty.num_elements(), 0);
  EXPECT_NE(empty.data(), nullptr);
  Tensor scalar(ElementType::kC128, {});
  EXPECT_EQ(scalar.byte_size(), 16u);
}

TEST(ElementwiseIntTest, DivideAndRemainderEdgeCases) {
  Tensor a = Make<int32_t>(ElementType::kSI32, {17, -17, 5, INT32_MIN, INT32_MIN, 7});
  Tensor b = Make<int32_t>(ElementType::kSI32, {3, 3, 0, -1, 1, -7});
  EXPECT_EQ(Binary<int32_t>(BinaryOpKind::kDivide, ElementType::kSI32, a, b, ElementType::kSI32),
            (std::vector<int32_t>{5, -5, -1, INT32_MIN, INT32_MIN, -1}));
  EXPECT_EQ(Binary<int32_t>(BinaryOpKind::kRemainder, ElementType::kSI32, a, b, ElementType::kSI32),
            (std::vector<int32_t>{2, -2, 5, 0, 0, 0}));
  Tensor ua = Make<uint8_t>(ElementType::kUI8, {17, 9});
  Tensor ub = Make<uint8_t>(ElementType::kUI8, {0, 4});
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kDivide, ElementType::kUI8, ua, ub, ElementType::kUI8),
            (std::vector<uint8_t>{255, 2}));
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kRemainder, ElementType::kUI8, ua, ub, ElementType::kUI8),
            (std::vector<uint8_t>{17, 1}));
}

TEST(ElementwiseIntTest, WrapsWithoutOverflow) {
  Tensor a = Make<int64_t>(ElementType::kSI64, {INT64_MAX, INT64_MIN, INT64_MIN});
  Tensor b = Make<int64_t>(ElementType::kSI64, {1, 1, -1});
  EXPECT_EQ(Binary<int64_t>(BinaryOpKind::kAdd, ElementType::kSI64, a, b, ElementType::kSI64),
            (std::vector<int64_t>{INT64_MIN, INT64_MIN + 1, INT64_MAX}));
  EXPECT_EQ(Binary<int64_t>(BinaryOpKind::kMultiply, ElementType::kSI64, a, b, ElementType::kSI64),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, INT64_MIN}));
  EXPECT_EQ(Unary<int64_t>(UnaryOpKind::kNegate, ElementType::kSI64, a),
            (std::vector<int64_t>{-INT64_MAX, INT64_MIN, INT64_MIN}));
  EXPECT_EQ(Unary<int64_t>(UnaryOpKind::kAbs, ElementType::kSI64, a),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, INT64_MIN}));
  Tensor s16 = Make<uint16_t>(ElementType::kUI16, {65535});
  EXPECT_EQ(Binary<uint16_t>(BinaryOpKind::kMultiply, ElementType::kUI16, s16, s16, ElementType::kUI16),
            (std::vector<uint16_t>{1}));
}

TEST(ElementwiseIntTest, SubByteIntegersWrapToTheirWidth) {
  // i4 holds -8..7, stored sign-extended.
  Tensor a = Make<int8_t>(ElementType::kSI4, {7, -8, 3, -8});
  Tensor b = Make<int8_t>(ElementType::kSI4, {1, -1, 4, -1});
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kAdd, ElementType::kSI4, a, b, ElementType::kSI4),
            (std::vector<int8_t>{-8, 7, 7, 7}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kMultiply, ElementType::kSI4, a, b, ElementType::kSI4),
            (std::vector<int8_t>{7, -8, -4, -8}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kDivide, ElementType::kSI4, a, b, ElementType::kSI4),
            (std::vector<int8_t>{7, -8, 0, -8}));
  Tensor u = Make<uint8_t>(ElementType::kUI4, {15, 0});
  Tensor one = Make<uint8_t>(ElementType::kUI4, {1, 1});
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kAdd, ElementType::kUI4, u, one, ElementType::kUI4),
            (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kSubtract, ElementType::kUI4, one, u, ElementType::kUI4),
            (std::vector<uint8_t>{2, 1}));
  EXPECT_EQ(Unary<uint8_t>(UnaryOpKind::kNot, ElementType::kUI4, u), (std::vector<uint8_t>{0, 15}));
  EXPECT_EQ(Unary<int8_t>(UnaryOpKind::kNegate, ElementType::kSI4, a),
            (std::vector<int8_t>{-7, -8, -3, -8}));
  // popcnt / clz count the element's 4 bits only.
  Tensor m = Make<int8_t>(ElementType::kSI4, {-1, 1, 0, -8});
  EXPECT_EQ(Unary<int8_t>(UnaryOpKind::kPopcnt, ElementType::kSI4, m), (std::vector<int8_t>{4, 1, 0, 1}));
  EXPECT_EQ(Unary<int8_t>(UnaryOpKind::kCountLeadingZeros, ElementType::kSI4, m),
            (std::vector<int8_t>{0, 3, 4, 0}));
}

TEST(ElementwiseIntTest, ShiftsPerSpec) {
  Tensor a = Make<int8_t>(ElementType::kSI8, {-1, -128, 64, 1, -16});
  Tensor s = Make<int8_t>(ElementType::kSI8, {1, 7, 8, -1, 2});
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftLeft, ElementType::kSI8, a, s, ElementType::kSI8),
            (std::vector<int8_t>{-2, 0, 0, 0, -64}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftRightLogical, ElementType::kSI8, a, s, ElementType::kSI8),
            (std::vector<int8_t>{127, 1, 0, 0, 60}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftRightArithmetic, ElementType::kSI8, a, s,
                           ElementType::kSI8),
            (std::vector<int8_t>{-1, -1, 0, 0, -4}));
  // i4: shifting by the width or more.
  Tensor a4 = Make<int8_t>(ElementType::kSI4, {-8, 4, -1});
  Tensor s4 = Make<int8_t>(ElementType::kSI4, {4, 1, 3});
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftRightArithmetic, ElementType::kSI4, a4, s4,
                           ElementType::kSI4),
            (std::vector<int8_t>{-1, 2, -1}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftRightLogical, ElementType::kSI4, a4, s4, ElementType::kSI4),
            (std::vector<int8_t>{0, 2, 1}));
  EXPECT_EQ(Binary<int8_t>(BinaryOpKind::kShiftLeft, ElementType::kSI4, a4, s4, ElementType::kSI4),
            (std::vector<int8_t>{0, -8, -8}));
}

TEST(ElementwiseIntTest, PowerWithNegativeExponents) {
  Tensor a = Make<int64_t>(ElementType::kSI64, {-1, -1, -3, 1, -3, 0, 2});
  Tensor b = Make<int64_t>(ElementType::kSI64, {1, 0, -3, -3, 3, 2, 62});
  EXPECT_EQ(Binary<int64_t>(BinaryOpKind::kPower, ElementType::kSI64, a, b, ElementType::kSI64),
            (std::vector<int64_t>{-1, 1, 0, 1, -27, 0, int64_t{1} << 62}));
  Tensor ua = Make<uint64_t>(ElementType::kUI64, {0, 0, 1, 1, 5});
  Tensor ub = Make<uint64_t>(ElementType::kUI64, {0, 1, 0, 2, 5});
  EXPECT_EQ(Binary<uint64_t>(BinaryOpKind::kPower, ElementType::kUI64, ua, ub, ElementType::kUI64),
            (std::vector<uint64_t>{1, 0, 1, 1, 3125}));
}

TEST(ElementwiseBoolTest, LogicalForms) {
  Tensor a = Make<uint8_t>(ElementType::kI1, {0, 0, 1, 1});
  Tensor b = Make<uint8_t>(ElementType::kI1, {0, 1, 0, 1});
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kAdd, ElementType::kI1, a, b, ElementType::kI1),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kMultiply, ElementType::kI1, a, b, ElementType::kI1),
            (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kXor, ElementType::kI1, a, b, ElementType::kI1),
            (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(Unary<uint8_t>(UnaryOpKind::kNot, ElementType::kI1, a), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(GetBinaryKernel(BinaryOpKind::kSubtract, ElementType::kI1), nullptr);
  EXPECT_EQ(GetUnaryKernel(UnaryOpKind::kSine, ElementType::kSI32), nullptr);
  EXPECT_EQ(GetUnaryKernel(UnaryOpKind::kAbs, ElementType::kUI32), nullptr);
}

TEST(ElementwiseFloatTest, MinMaxPropagateNan) {
  Tensor a = Make<float>(ElementType::kF32, {1, NAN, 2, -0.0f});
  Tensor b = Make<float>(ElementType::kF32, {NAN, 1, 3, 0.0f});
  auto mx = Binary<float>(BinaryOpKind::kMaximum, ElementType::kF32, a, b, ElementType::kF32);
  auto mn = Binary<float>(BinaryOpKind::kMinimum, ElementType::kF32, a, b, ElementType::kF32);
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]) && std::isnan(mn[0]) && std::isnan(mn[1]));
  EXPECT_EQ(mx[2], 3);
  EXPECT_EQ(mn[2], 2);
  EXPECT_FALSE(std::signbit(mx[3]));
  EXPECT_TRUE(std::signbit(mn[3]));
}

TEST(ElementwiseFloatTest, RoundingAndSign) {
  Tensor a = Make<double>(ElementType::kF64, {-2.5, 0.4, 0.5, 2.5, 3.5, -0.0, kNan});
  auto afz = Unary<double>(UnaryOpKind::kRoundNearestAfz, ElementType::kF64, a);
  auto even = Unary<double>(UnaryOpKind::kRoundNearestEven, ElementType::kF64, a);
  EXPECT_EQ(afz[0], -3.0);
  EXPECT_EQ(afz[2], 1.0);
  EXPECT_EQ(afz[3], 3.0);
  EXPECT_EQ(even[0], -2.0);
  EXPECT_EQ(even[1], 0.0);
  EXPECT_EQ(even[2], 0.0);
  EXPECT_EQ(even[3], 2.0);
  EXPECT_EQ(even[4], 4.0);
  auto sign = Unary<double>(UnaryOpKind::kSign, ElementType::kF64, a);
  EXPECT_EQ(sign[0], -1.0);
  EXPECT_EQ(sign[1], 1.0);
  EXPECT_TRUE(sign[5] == 0.0 && std::signbit(sign[5]));
  EXPECT_TRUE(std::isnan(sign[6]));
  auto fin = Unary<uint8_t>(UnaryOpKind::kIsFinite, ElementType::kF64,
                            Make<double>(ElementType::kF64, {1.0, kInf, kNan}));
  EXPECT_EQ(fin, (std::vector<uint8_t>{1, 0, 0}));
}

TEST(ElementwiseFloatTest, Transcendentals) {
  Tensor a = Make<float>(ElementType::kF32, {0.5f, 1.0f});
  auto e = Unary<float>(UnaryOpKind::kExponential, ElementType::kF32, a);
  EXPECT_EQ(e[1], static_cast<float>(std::exp(1.0)));
  auto l = Unary<float>(UnaryOpKind::kLogistic, ElementType::kF32, a);
  EXPECT_EQ(l[0], static_cast<float>(1.0 / (1.0 + std::exp(-0.5))));
  auto r = Unary<float>(UnaryOpKind::kRsqrt, ElementType::kF32, Make<float>(ElementType::kF32, {4.0f}));
  EXPECT_EQ(r[0], 0.5f);
  auto c = Unary<double>(UnaryOpKind::kCbrt, ElementType::kF64, Make<double>(ElementType::kF64, {-27.0}));
  EXPECT_DOUBLE_EQ(c[0], -3.0);
  Tensor y = Make<double>(ElementType::kF64, {0.0, 1.0, -1.0});
  Tensor x = Make<double>(ElementType::kF64, {0.0, 0.0, 0.0});
  auto at = Binary<double>(BinaryOpKind::kAtan2, ElementType::kF64, y, x, ElementType::kF64);
  EXPECT_EQ(at[0], 0.0);
  EXPECT_DOUBLE_EQ(at[1], M_PI / 2);
  EXPECT_DOUBLE_EQ(at[2], -M_PI / 2);
  auto rem = Binary<double>(BinaryOpKind::kRemainder, ElementType::kF64,
                            Make<double>(ElementType::kF64, {17.1, -17.1}),
                            Make<double>(ElementType::kF64, {3.0, 3.0}), ElementType::kF64);
  EXPECT_DOUBLE_EQ(rem[0], 2.1000000000000014);
  EXPECT_DOUBLE_EQ(rem[1], -2.1000000000000014);
}

TEST(ElementwiseFloatTest, NarrowFloatsRoundOncePerOp) {
  // bf16: 1 + 2^-8 (not representable) rounds to 1; 1 + 2^-7 is exact.
  auto bf = [](double v) { return static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kBF16, v)); };
  Tensor a = Make<uint16_t>(ElementType::kBF16, {bf(1.0), bf(1.0), bf(3.0)});
  Tensor b = Make<uint16_t>(ElementType::kBF16, {bf(std::ldexp(1.0, -8)), bf(std::ldexp(1.0, -7)), bf(0.5)});
  EXPECT_EQ(Binary<uint16_t>(BinaryOpKind::kAdd, ElementType::kBF16, a, b, ElementType::kBF16),
            (std::vector<uint16_t>{bf(1.0), bf(1.0 + std::ldexp(1.0, -7)), bf(3.5)}));
  // f8E4M3FN: 448 * 2 overflows to NaN (no infinity).
  auto f8 = [](double v) { return static_cast<uint8_t>(shlo::EncodeFloat(ElementType::kF8E4M3FN, v)); };
  Tensor m = Make<uint8_t>(ElementType::kF8E4M3FN, {f8(448), f8(1.5)});
  Tensor two = Make<uint8_t>(ElementType::kF8E4M3FN, {f8(2), f8(2)});
  EXPECT_EQ(Binary<uint8_t>(BinaryOpKind::kMultiply, ElementType::kF8E4M3FN, m, two, ElementType::kF8E4M3FN),
            (std::vector<uint8_t>{0x7F, f8(3)}));
  // f16 sqrt.
  auto h = [](double v) { return static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kF16, v)); };
  EXPECT_EQ(Unary<uint16_t>(UnaryOpKind::kSqrt, ElementType::kF16, Make<uint16_t>(ElementType::kF16, {h(2.0)})),
            (std::vector<uint16_t>{h(std::sqrt(2.0))}));
}

TEST(ElementwiseComplexTest, ArithmeticAndParts) {
  using C = std::complex<double>;
  Tensor a = Make<C>(ElementType::kC128, {C(1.5, 2.5), C(7.5, 5.5)});
  Tensor b = Make<C>(ElementType::kC128, {C(2.5, 1.5), C(5.5, 7.5)});
  auto q = Binary<C>(BinaryOpKind::kDivide, ElementType::kC128, a, b, ElementType::kC128);
  EXPECT_NEAR(q[0].real(), 0.88235294117647056, 1e-15);
  EXPECT_NEAR(q[0].imag(), 0.4705882352941177, 1e-15);
  auto p = Binary<C>(BinaryOpKind::kPower, ElementType::kC128, a, b, ElementType::kC128);
  EXPECT_NEAR(p[0].real(), -1.5679313814305016, 1e-12);
  EXPECT_NEAR(p[0].imag(), -2.6674775446623613, 1e-12);
  EXPECT_EQ(Unary<double>(UnaryOpKind::kReal, ElementType::kC128, a), (std::vector<double>{1.5, 7.5}));
  EXPECT_EQ(Unary<double>(UnaryOpKind::kImag, ElementType::kC128, a), (std::vector<double>{2.5, 5.5}));
  auto abs = Unary<float>(UnaryOpKind::kAbs, ElementType::kC64,
                          Make<std::complex<float>>(ElementType::kC64, {{3.0f, 4.0f}}));
  EXPECT_EQ(abs[0], 5.0f);
  auto made = Binary<std::complex<float>>(BinaryOpKind::kComplex, ElementType::kF32,
                                          Make<float>(ElementType::kF32, {1, 2}),
                                          Make<float>(ElementType::kF32, {3, 4}), ElementType::kC64);
  EXPECT_EQ(made[1], std::complex<float>(2, 4));
  auto at = Binary<C>(BinaryOpKind::kAtan2, ElementType::kC128, Make<C>(ElementType::kC128, {C(1, 0)}),
                      Make<C>(ElementType::kC128, {C(0, 0)}), ElementType::kC128);
  EXPECT_NEAR(at[0].real(), M_PI / 2, 1e-15);
  EXPECT_NEAR(at[0].imag(), 0.0, 1e-15);
  auto em1 = Unary<C>(UnaryOpKind::kExponentialMinusOne, ElementType::kC128,
                      Make<C>(ElementType::kC128, {C(1e-10, 0)}));
  // expm1(x) = x + x^2/2 + ...: exp(x) - 1 would lose most digits here.
  EXPECT_NEAR(em1[0].real(), 1.00000000005e-10, 1e-24);
}

TEST(CompareTest, DirectionsAndTotalOrder) {
  Tensor a = Make<int32_t>(ElementType::kSI32, {-1, 2, 3});
  Tensor b = Make<int32_t>(ElementType::kSI32, {1, 2, 1});
  EXPECT_EQ(Compare(CompareDirection::kLt, CompareType::kSigned, a, b), (std::vector<uint8_t>{1, 0, 0}));
  EXPECT_EQ(Compare(CompareDirection::kLt, CompareType::kUnsigned, a, b), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(Compare(CompareDirection::kGe, CompareType::kDefault, a, b), (std::vector<uint8_t>{0, 1, 1}));
  EXPECT_EQ(Compare(CompareDirection::kNe, CompareType::kDefault, a, b), (std::vector<uint8_t>{1, 0, 1}));

  const double ordered[] = {-kNan, -kInf, -1.0, -0.0, 0.0, 1.0, kInf, kNan};
  std::vector<double> lhs, rhs;
  for (int i = 0; i + 1 < 8; ++i) {
    lhs.push_back(ordered[i]);
    rhs.push_back(ordered[i + 1]);
  }
  lhs.push_back(-kNan);  // need a true -NaN bit pattern
  rhs.push_back(kNan);
  lhs.back() = std::copysign(kNan, -1.0);
  Tensor x = Make<double>(ElementType::kF64, lhs);
  Tensor y = Make<double>(ElementType::kF64, rhs);
  x.mutable_as<double>()[0] = std::copysign(kNan, -1.0);
  auto lt = Compare(CompareDirection::kLt, CompareType::kTotalOrder, x, y);
  for (uint8_t v : lt) EXPECT_EQ(v, 1);
  // FLOAT ordering: NaN compares false, -0 == +0.
  auto eq = Compare(CompareDirection::kEq, CompareType::kFloat,
                    Make<double>(ElementType::kF64, {kNan, -0.0}),
                    Make<double>(ElementType::kF64, {kNan, 0.0}));
  EXPECT_EQ(eq, (std::vector<uint8_t>{0, 1}));
  // TOTALORDER is for floats only.
  EXPECT_EQ(GetCompareKernel(CompareDirection::kEq, CompareType::kTotalOrder, ElementType::kSI32), nullptr);
  // Unsigned compare of i4 uses its 4 bits: -1 is 15.
  EXPECT_EQ(Compare(CompareDirection::kGt, CompareType::kUnsigned,
                    Make<int8_t>(ElementType::kSI4, {-1}), Make<int8_t>(ElementType::kSI4, {7})),
            (std::vector<uint8_t>{1}));
}

TEST(ConvertTest, FloatToIntTruncatesAndSaturates) {
  Tensor f = Make<double>(ElementType::kF64, {-1.9, 1.9, 1e20, -1e20, kNan, 127.5, -129.0});
  Tensor out(ElementType::kSI8, {7});
  ConvertElements(f, out);
  EXPECT_EQ(Values<int8_t>(out), (std::vector<int8_t>{-1, 1, 127, -128, 0, 127, -128}));
  Tensor u(ElementType::kUI32, {7});
  ConvertElements(f, u);
  EXPECT_EQ(Values<uint32_t>(u), (std::vector<uint32_t>{0, 1, UINT32_MAX, 0, 0, 127, 0}));
  Tensor i4(ElementType::kSI4, {7});
  ConvertElements(f, i4);
  EXPECT_EQ(Values<int8_t>(i4), (std::vector<int8_t>{-1, 1, 7, -8, 0, 7, -8}));
  Tensor i64(ElementType::kSI64, {7});
  ConvertElements(f, i64);
  EXPECT_EQ(Values<int64_t>(i64)[2], INT64_MAX);
  EXPECT_EQ(Values<int64_t>(i64)[3], INT64_MIN);
}

TEST(ConvertTest, IntsBoolsComplexAndNarrowFloats) {
  Tensor i = Make<int32_t>(ElementType::kSI32, {-1, 0, 300, 16777217});
  Tensor b(ElementType::kI1, {4});
  ConvertElements(i, b);
  EXPECT_EQ(Values<uint8_t>(b), (std::vector<uint8_t>{1, 0, 1, 1}));
  Tensor u8(ElementType::kUI8, {4});
  ConvertElements(i, u8);
  EXPECT_EQ(Values<uint8_t>(u8), (std::vector<uint8_t>{255, 0, 44, 1}));
  Tensor f(ElementType::kF32, {4});
  ConvertElements(i, f);
  EXPECT_EQ(Values<float>(f), (std::vector<float>{-1.0f, 0.0f, 300.0f, 16777216.0f}));
  Tensor c(ElementType::kC128, {4});
  ConvertElements(i, c);
  EXPECT_EQ(Values<std::complex<double>>(c)[2], std::complex<double>(300, 0));
  Tensor z = Make<std::complex<double>>(ElementType::kC128, {{0.0, 1.0}, {2.7, 5.0}});
  Tensor zi(ElementType::kUI64, {2});
  ConvertElements(z, zi);
  EXPECT_EQ(Values<uint64_t>(zi), (std::vector<uint64_t>{0, 2}));
  Tensor zb(ElementType::kI1, {2});
  ConvertElements(z, zb);
  EXPECT_EQ(Values<uint8_t>(zb), (std::vector<uint8_t>{0, 1}));  // real part only
  // Float to narrow float rounds once, with each format's overflow rule.
  Tensor big = Make<float>(ElementType::kF32, {1000.0f, 1.0f});
  Tensor e4(ElementType::kF8E4M3FN, {2});
  ConvertElements(big, e4);
  EXPECT_EQ(Values<uint8_t>(e4), (std::vector<uint8_t>{0x7F, 0x38}));
  Tensor e5(ElementType::kF8E5M2, {2});
  ConvertElements(Make<float>(ElementType::kF32, {1e6f, 1.0f}), e5);
  EXPECT_EQ(Values<uint8_t>(e5), (std::vector<uint8_t>{0x7C, 0x3C}));
  // Narrow float back to f32 and unsigned sub-byte wrap from ints.
  Tensor back(ElementType::kF32, {2});
  ConvertElements(e5, back);
  EXPECT_TRUE(std::isinf(Values<float>(back)[0]));
  Tensor u4(ElementType::kUI4, {4});
  ConvertElements(i, u4);
  EXPECT_EQ(Values<uint8_t>(u4), (std::vector<uint8_t>{15, 0, 12, 1}));
}

TEST(BitcastConvertTest, SameAndDifferentWidths) {
  Tensor f = Make<float>(ElementType::kF32, {1.0f});
  Tensor i(ElementType::kSI32, {1});
  ASSERT_TRUE(BitcastConvertElements(f, i).ok());
  EXPECT_EQ(Values<int32_t>(i)[0], 0x3F800000);
  // Wider to narrower: the trailing dimension holds the pieces, lowest first.
  Tensor bytes(ElementType::kUI8, {1, 4});
  ASSERT_TRUE(BitcastConvertElements(f, bytes).ok());
  EXPECT_EQ(Values<uint8_t>(bytes), (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F}));
  Tensor back(ElementType::kF32, {});
  ASSERT_TRUE(BitcastConvertElements(bytes.Reshaped({4}), back).ok());
  EXPECT_EQ(Values<float>(back)[0], 1.0f);
  // i8 -> 2 x i4: low nibble first, each sign-extended.
  Tensor b = Make<int8_t>(ElementType::kSI8, {static_cast<int8_t>(0x9F)});
  Tensor nib(ElementType::kSI4, {1, 2});
  ASSERT_TRUE(BitcastConvertElements(b, nib).ok());
  EXPECT_EQ(Values<int8_t>(nib), (std::vector<int8_t>{-1, -7}));
  Tensor joined(ElementType::kUI8, {1});
  ASSERT_TRUE(BitcastConvertElements(nib, joined).ok());
  EXPECT_EQ(Values<uint8_t>(joined)[0], 0x9F);
  // i4 <-> ui4 reinterprets the 4 bits.
  Tensor u4(ElementType::kUI4, {1, 2});
  ASSERT_TRUE(BitcastConvertElements(nib, u4).ok());
  EXPECT_EQ(Values<uint8_t>(u4), (std::vector<uint8_t>{15, 9}));
  // i1 <-> wider types: one bit per i1 element, lowest first.
  Tensor bits(ElementType::kI1, {8});
  ASSERT_TRUE(BitcastConvertElements(Make<uint8_t>(ElementType::kUI8, {0xA1}, true), bits).ok());
  EXPECT_EQ(Values<uint8_t>(bits), (std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 0, 1}));
  Tensor byte(ElementType::kUI8, {});
  ASSERT_TRUE(BitcastConvertElements(bits, byte).ok());
  EXPECT_EQ(Values<uint8_t>(byte)[0], 0xA1);
  Tensor wrong(ElementType::kSI32, {2});
  EXPECT_FALSE(BitcastConvertElements(f, wrong).ok());
}

TEST(ReducePrecisionTest, MantissaAndExponent) {
  auto k = GetReducePrecisionKernel(ElementType::kF32);
  ASSERT_NE(k, nullptr);
  // To bf16's layout (8, 7): 1 + 2^-8 ties to 1, 1 + 3*2^-8 ties up.
  Tensor x = Make<float>(ElementType::kF32, {1.0f + std::ldexp(1.0f, -8), 1.0f + 3 * std::ldexp(1.0f, -8),
                                             1e30f, 1e-30f, NAN});
  Tensor out(ElementType::kF32, {5});
  k(x, 8, 7, out);
  auto v = Values<float>(out);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 1.0f + std::ldexp(1.0f, -6));
  EXPECT_EQ(v[2], static_cast<float>(shlo::DecodeFloat(
                     ElementType::kBF16, shlo::EncodeFloat(ElementType::kBF16, 1e30f))));
  EXPECT_TRUE(std::isnan(v[4]));
  // To f16's layout (5, 10): 1e30 overflows to inf, 1e-30 underflows to 0.
  k(x, 5, 10, out);
  v = Values<float>(out);
  EXPECT_TRUE(std::isinf(v[2]));
  EXPECT_EQ(v[3], 0.0f);
  EXPECT_EQ(v[0], 1.0f + std::ldexp(1.0f, -8));  // exact with 10 mantissa bits
  // No mantissa bits: NaN becomes infinity of its sign.
  Tensor d = Make<double>(ElementType::kF64, {std::bit_cast<double>(uint64_t{0x7FFFFFFFFFFFFFFF})});
  Tensor dout(ElementType::kF64, {1});
  GetReducePrecisionKernel(ElementType::kF64)(d, 5, 0, dout);
  EXPECT_EQ(std::bit_cast<uint64_t>(Values<double>(dout)[0]), 0x7FF0000000000000u);
  EXPECT_EQ(GetReducePrecisionKernel(ElementType::kSI32), nullptr);
}

TEST(SelectClampIotaTest, Basics) {
  Tensor pred = Make<uint8_t>(ElementType::kI1, {1, 0, 1});
  Tensor t = Make<int16_t>(ElementType::kSI16, {1, 2, 3});
  Tensor f = Make<int16_t>(ElementType::kSI16, {-1, -2, -3});
  Tensor out(ElementType::kSI16, {3});
  SelectElements(pred, t, f, out);
  EXPECT_EQ(Values<int16_t>(out), (std::vector<int16_t>{1, -2, 3}));
  SelectElements(Make<uint8_t>(ElementType::kI1, {0}, /*scalar=*/true), t, f, out);
  EXPECT_EQ(Values<int16_t>(out), (std::vector<int16_t>{-1, -2, -3}));

  ClampKernel clamp = GetClampKernel(ElementType::kF32);
  ASSERT_NE(clamp, nullptr);
  Tensor x = Make<float>(ElementType::kF32, {-5, 0.5f, 5, NAN});
  Tensor cout(ElementType::kF32, {4});
  clamp(Make<float>(ElementType::kF32, {0}, true), x, Make<float>(ElementType::kF32, {1}, true), cout);
  auto cv = Values<float>(cout);
  EXPECT_EQ(cv[0], 0);
  EXPECT_EQ(cv[1], 0.5f);
  EXPECT_EQ(cv[2], 1);
  EXPECT_TRUE(std::isnan(cv[3]));
  clamp(Make<float>(ElementType::kF32, {-10, 1, 1, 0}), x, Make<float>(ElementType::kF32, {-6, 2, 2, 0}), cout);
  cv = Values<float>(cout);
  EXPECT_EQ(cv[0], -6);
  EXPECT_EQ(cv[1], 1);
  EXPECT_EQ(cv[2], 2);

  IotaKernel iota = GetIotaKernel(ElementType::kF16);
  ASSERT_NE(iota, nullptr);
  Tensor io(ElementType::kF16, {2, 3});
  iota(1, io);
  std::vector<double> got;
  for (uint16_t b : Values<uint16_t>(io)) got.push_back(shlo::DecodeFloat(ElementType::kF16, b));
  EXPECT_EQ(got, (std::vector<double>{0, 1, 2, 0, 1, 2}));
  Tensor ii(ElementType::kSI4, {10});
  GetIotaKernel(ElementType::kSI4)(0, ii);
  EXPECT_EQ(Values<int8_t>(ii)[8], -8);  // 8 wraps in 4 bits
  Tensor ic(ElementType::kC64, {2, 2});
  GetIotaKernel(ElementType::kC64)(0, ic);
  EXPECT_EQ(Values<std::complex<float>>(ic)[2], std::complex<float>(1, 0));
  EXPECT_EQ(GetIotaKernel(ElementType::kI1), nullptr);
}

// Iota writes one block and copies it: every dimension of a rank-4 shape,
// with unit and empty dims among them, against (flat / inner) % size.
TEST(SelectClampIotaTest, IotaAlongEveryDimensionMatchesTheIndexMap) {
  const std::vector<std::vector<int64_t>> shapes = {{3, 1, 5, 7}, {2, 4, 1, 3}, {1, 1, 1, 9}, {4, 0, 2, 3}};
  IotaKernel iota = GetIotaKernel(ElementType::kSI32);
  ASSERT_NE(iota, nullptr);
  for (const auto& dims : shapes) {
    for (int64_t d = 0; d < 4; ++d) {
      Tensor out(ElementType::kSI32, dims);
      iota(d, out);
      int64_t inner = 1;
      for (size_t k = static_cast<size_t>(d) + 1; k < dims.size(); ++k) inner *= dims[k];
      const std::vector<int32_t> got = Values<int32_t>(out);
      ASSERT_EQ(static_cast<int64_t>(got.size()), out.num_elements());
      for (int64_t i = 0; i < out.num_elements(); ++i) {
        ASSERT_EQ(got[static_cast<size_t>(i)], (i / inner) % dims[static_cast<size_t>(d)])
            << "dimension " << d << ", element " << i;
      }
    }
  }
}

}  // namespace
}  // namespace plugrt::cpu
