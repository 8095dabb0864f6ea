// Special-function kernels: values against known constants and identities.
#include "cpu/kernels/special_functions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

constexpr double kPi = 3.141592653589793;
constexpr double kEulerGamma = 0.5772156649015329;
constexpr double kInf = std::numeric_limits<double>::infinity();

// |actual - expected| within `ulps` units in the last place of `expected`.
void ExpectUlp(long double actual, double expected, double ulps = 2) {
  const double a = static_cast<double>(actual);
  const double ulp = std::nextafter(std::fabs(expected), kInf) - std::fabs(expected);
  EXPECT_NEAR(a, expected, ulps * ulp) << "expected " << expected;
}

TEST(SpecialFunctionsTest, Lgamma) {
  ExpectUlp(Lgamma(0.5L), std::log(std::sqrt(kPi)));
  ExpectUlp(Lgamma(-0.5L), std::log(2 * std::sqrt(kPi)));
  EXPECT_EQ(Lgamma(1.0L), 0.0L);
  EXPECT_EQ(Lgamma(2.0L), 0.0L);
  ExpectUlp(Lgamma(10.0L), std::log(362880.0));
  EXPECT_EQ(Lgamma(0.0L), std::numeric_limits<long double>::infinity());
  EXPECT_EQ(Lgamma(-3.0L), std::numeric_limits<long double>::infinity());
  EXPECT_TRUE(std::isnan(Lgamma(std::numeric_limits<long double>::quiet_NaN())));
}

TEST(SpecialFunctionsTest, Digamma) {
  ExpectUlp(Digamma(1.0L), -kEulerGamma);
  ExpectUlp(Digamma(0.5L), -kEulerGamma - 2 * std::log(2.0));
  ExpectUlp(Digamma(-1.5L), 0.7031566406452432);
  // psi(n) = H(n-1) - gamma
  long double harmonic = 0;
  for (int k = 1; k < 30; ++k) harmonic += 1.0L / k;
  ExpectUlp(Digamma(30.0L), static_cast<double>(harmonic - 0.57721566490153286061L));
  EXPECT_TRUE(std::isnan(Digamma(0.0L)));
  EXPECT_TRUE(std::isnan(Digamma(-2.0L)));
}

TEST(SpecialFunctionsTest, ErfInv) {
  ExpectUlp(ErfInv(0.5L), 0.4769362762044699);
  for (double y : {-0.999999, -0.9, -0.3, 1e-10, 0.01, 0.5, 0.75, 0.99, 0.9999999999}) {
    ExpectUlp(std::erf(ErfInv(y)), y, 4);
  }
  EXPECT_EQ(ErfInv(1.0L), std::numeric_limits<long double>::infinity());
  EXPECT_EQ(ErfInv(-1.0L), -std::numeric_limits<long double>::infinity());
  EXPECT_TRUE(std::isnan(ErfInv(1.5L)));
  EXPECT_TRUE(std::signbit(ErfInv(-0.0L)));
}

TEST(SpecialFunctionsTest, BesselI1e) {
  ExpectUlp(BesselI1e(1.0L), 0.5651591039924851 * std::exp(-1.0));
  ExpectUlp(BesselI1e(-1.0L), -0.5651591039924851 * std::exp(-1.0));
  ExpectUlp(BesselI1e(10.0L), 2670.988303701255 * std::exp(-10.0), 4);
  EXPECT_EQ(BesselI1e(0.0L), 0.0L);
  // The series and the large-argument expansion meet smoothly.
  const double below = static_cast<double>(BesselI1e(40.0L - 1e-12L));
  const double above = static_cast<double>(BesselI1e(40.0L + 1e-12L));
  EXPECT_NEAR(below, above, 1e-14);
  // exp(-x) I1(x) -> 1/sqrt(2 pi x) for large x.
  EXPECT_NEAR(static_cast<double>(BesselI1e(1e6L)) * std::sqrt(2 * kPi * 1e6), 1.0, 1e-6);
}

TEST(SpecialFunctionsTest, ZetaAndPolygamma) {
  ExpectUlp(Zeta(2.0L, 1.0L), kPi * kPi / 6);
  ExpectUlp(Zeta(3.0L, 1.0L), 1.2020569031595942);
  ExpectUlp(Zeta(2.0L, 2.0L), kPi * kPi / 6 - 1);
  EXPECT_EQ(Zeta(1.0L, 1.0L), std::numeric_limits<long double>::infinity());
  EXPECT_TRUE(std::isnan(Zeta(0.5L, 1.0L)));
  ExpectUlp(Polygamma(1.0L, 1.0L), kPi * kPi / 6);
  ExpectUlp(Polygamma(2.0L, 1.0L), -2 * 1.2020569031595942);
  ExpectUlp(Polygamma(0.0L, 1.0L), -kEulerGamma);
  EXPECT_TRUE(std::isnan(Polygamma(0.5L, 1.0L)));
  EXPECT_TRUE(std::isnan(Polygamma(-1.0L, 1.0L)));
}

TEST(SpecialFunctionsTest, TensorKernelsRoundToTheElementType) {
  MathKernel kernel = GetMathKernel(MathFn::kLgamma, ElementType::kF16);
  ASSERT_NE(kernel, nullptr);
  Tensor in(ElementType::kF16, {3});
  const double xs[3] = {0.5, 3.0, -1.0};
  for (int i = 0; i < 3; ++i) {
    in.mutable_as<uint16_t>()[i] = static_cast<uint16_t>(shlo::EncodeFloat(ElementType::kF16, xs[i]));
  }
  Tensor out(ElementType::kF16, {3});
  const Tensor* operands[1] = {&in};
  kernel(operands, out);
  auto at = [&](int i) { return shlo::DecodeFloat(ElementType::kF16, out.as<uint16_t>()[i]); };
  EXPECT_EQ(at(0), shlo::DecodeFloat(ElementType::kF16,
                                     shlo::EncodeFloat(ElementType::kF16, std::log(std::sqrt(kPi)))));
  EXPECT_EQ(at(1), shlo::DecodeFloat(ElementType::kF16,
                                     shlo::EncodeFloat(ElementType::kF16, std::log(2.0))));
  EXPECT_EQ(at(2), kInf);
}

TEST(SpecialFunctionsTest, ComplexKernels) {
  MathKernel kernel = GetMathKernel(MathFn::kAsin, ElementType::kC128);
  ASSERT_NE(kernel, nullptr);
  Tensor in(ElementType::kC128, {2});
  in.mutable_as<std::complex<double>>()[0] = {0.5, 0.0};
  in.mutable_as<std::complex<double>>()[1] = {2.0, 0.0};  // on the branch cut
  Tensor out(ElementType::kC128, {2});
  const Tensor* operands[1] = {&in};
  kernel(operands, out);
  const auto* r = out.as<std::complex<double>>();
  ExpectUlp(r[0].real(), std::asin(0.5));
  EXPECT_EQ(r[0].imag(), 0.0);
  ExpectUlp(r[1].real(), kPi / 2);
  ExpectUlp(r[1].imag(), std::acosh(2.0));  // +0 imaginary part: upper side
  EXPECT_EQ(GetMathKernel(MathFn::kLgamma, ElementType::kC64), nullptr);
  EXPECT_EQ(GetMathKernel(MathFn::kErf, ElementType::kSI32), nullptr);
}

TEST(SpecialFunctionsTest, Mulhi) {
  MathKernel kernel = GetMathKernel(MathFn::kMulhi, ElementType::kUI64);
  ASSERT_NE(kernel, nullptr);
  Tensor a(ElementType::kUI64, {2}), b(ElementType::kUI64, {2}), out(ElementType::kUI64, {2});
  a.mutable_as<uint64_t>()[0] = 17293822569102704640ull;
  a.mutable_as<uint64_t>()[1] = 9223372036854775808ull;
  b.mutable_as<uint64_t>()[0] = 16;
  b.mutable_as<uint64_t>()[1] = 2;
  const Tensor* operands[2] = {&a, &b};
  kernel(operands, out);
  EXPECT_EQ(out.as<uint64_t>()[0], 15u);
  EXPECT_EQ(out.as<uint64_t>()[1], 1u);
}

TEST(SpecialFunctionsTest, NamesRoundTrip) {
  for (MathFn fn : {MathFn::kLgamma, MathFn::kErfInv, MathFn::kBesselI1e, MathFn::kZeta}) {
    EXPECT_EQ(MathFnFromName(MathFnName(fn)), fn);
  }
  EXPECT_FALSE(MathFnFromName("no_such_function").has_value());
  EXPECT_EQ(MathFnArity(MathFn::kPolygamma), 2);
  EXPECT_EQ(MathFnArity(MathFn::kTan), 1);
}

}  // namespace
}  // namespace plugrt::cpu
