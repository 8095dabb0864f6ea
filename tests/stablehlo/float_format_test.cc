// EncodeFloat / DecodeFloat against bit patterns each format's definition fixes.
#include "stablehlo/float_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace plugrt::shlo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

struct NarrowCase {
  ElementType type;
  int bits;  // storage bits of one pattern
};

const std::vector<NarrowCase>& NarrowTypes() {
  static const std::vector<NarrowCase> cases = {
      {ElementType::kF4E2M1FN, 4},     {ElementType::kF6E2M3FN, 6},
      {ElementType::kF6E3M2FN, 6},     {ElementType::kF8E3M4, 8},
      {ElementType::kF8E4M3, 8},       {ElementType::kF8E4M3FN, 8},
      {ElementType::kF8E4M3FNUZ, 8},   {ElementType::kF8E4M3B11FNUZ, 8},
      {ElementType::kF8E5M2, 8},       {ElementType::kF8E5M2FNUZ, 8},
      {ElementType::kF8E8M0FNU, 8},    {ElementType::kBF16, 16},
      {ElementType::kF16, 16},
  };
  return cases;
}

// Every pattern decodes to a value that encodes back to the same pattern
// (NaNs to some NaN), which covers subnormals and both zeros.
TEST(FloatFormatTest, EveryPatternRoundTrips) {
  for (const NarrowCase& c : NarrowTypes()) {
    for (uint64_t p = 0; p < (uint64_t{1} << c.bits); ++p) {
      double v = DecodeFloat(c.type, p);
      uint64_t back = EncodeFloat(c.type, v);
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(DecodeFloat(c.type, back)))
            << ElementTypeName(c.type) << " pattern " << p;
      } else {
        EXPECT_EQ(back, p) << ElementTypeName(c.type) << " pattern " << p << " value " << v;
      }
    }
  }
}

TEST(FloatFormatTest, KnownPatterns) {
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0), 0x3F80u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 1.0), 0x3C00u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, -2.0), 0xC000u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 65504.0), 0x7BFFu);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, kInf), 0x7C00u);
  EXPECT_EQ(EncodeFloat(ElementType::kF32, 1.0), 0x3F800000u);
  EXPECT_EQ(EncodeFloat(ElementType::kF64, 1.0), 0x3FF0000000000000u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, 448.0), 0x7Eu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, -448.0), 0xFEu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, kInf), 0x7Cu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, -kInf), 0xFCu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, 57344.0), 0x7Bu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, kNan), 0x80u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, 240.0), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3B11FNUZ, 30.0), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2FNUZ, 57344.0), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3, 240.0), 0x77u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3, kInf), 0x78u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E3M4, 15.5), 0x6Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E3M4, kInf), 0x70u);
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, 6.0), 0x7u);
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, -0.5), 0x9u);
  EXPECT_EQ(EncodeFloat(ElementType::kF6E2M3FN, 7.5), 0x1Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF6E3M2FN, 28.0), 0x1Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, 1.0), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, 0.25), 0x7Du);
  EXPECT_EQ(DecodeFloat(ElementType::kF8E8M0FNU, 0x00), std::ldexp(1.0, -127));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E8M0FNU, 0xFF)));
}

TEST(FloatFormatTest, NanConventions) {
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3FN, 0x7F)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3FN, 0xFF)));
  EXPECT_FALSE(std::isnan(DecodeFloat(ElementType::kF8E4M3FN, 0x78)));  // 256, not inf
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3FN, 0x78), 256.0);
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3FNUZ, 0x80)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E5M2FNUZ, 0x80)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E4M3B11FNUZ, 0x80)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF8E5M2, 0x7D)));
  EXPECT_TRUE(std::isinf(DecodeFloat(ElementType::kF8E5M2, 0x7C)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kBF16, 0x7FC0)));
  EXPECT_TRUE(std::isnan(DecodeFloat(ElementType::kF16, EncodeFloat(ElementType::kF16, kNan))));
  // FNUZ formats have no negative zero.
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, -0.0), 0x00u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2FNUZ, -1e-30), 0x00u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, -0.0), 0x8000u);
  // Unsigned E8M0: negatives are NaN.
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, -1.0), 0xFFu);
}

TEST(FloatFormatTest, OverflowPerFormat) {
  // Formats with infinity overflow to it.
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 65520.0), 0x7C00u);  // halfway to 2^16: ties up
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 65519.0), 0x7BFFu);
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1e39), 0x7F80u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, 1e6), 0x7Cu);
  // NaN-only formats overflow to NaN.
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, 464.0), 0x7Eu);  // tie to even (448)
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, 465.0), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, kInf), 0x7Fu);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, 1000.0), 0x80u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FNUZ, -kInf), 0x80u);
  // Finite-only formats saturate.
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, 100.0), 0x7u);
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, -kInf), 0xFu);
  EXPECT_EQ(EncodeFloat(ElementType::kF6E3M2FN, 1e9), 0x1Fu);
}

TEST(FloatFormatTest, RoundsToNearestEven) {
  // bf16 has 8 significant bits: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u);
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 1.0 + std::ldexp(1.0, -8) + 1e-12), 0x3F81u);
  // f16 1 + 2^-11 ties to 1.0; 1 + 3*2^-11 ties up to 1 + 2^-9.
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 1.0 + std::ldexp(1.0, -11)), 0x3C00u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);
  // Rounding up across a binade: f4 1.75 is halfway between 1.5 and 2.
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, 1.75), 0x4u);  // 2.0
  EXPECT_EQ(EncodeFloat(ElementType::kF4E2M1FN, 1.25), 0x2u);  // 1.0 (even)
  // E8M0: ties go to the even exponent.
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, 1.5), 0x80u);  // 2.0 (0x80 even)
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, 3.0), 0x80u);  // between 2 and 4: 0x80 even
  EXPECT_EQ(EncodeFloat(ElementType::kF8E8M0FNU, 1.4), 0x7Fu);
  // f32 from double rounds once.
  EXPECT_EQ(DecodeFloat(ElementType::kF32, EncodeFloat(ElementType::kF32, 0.1)),
            static_cast<double>(0.1f));
}

TEST(FloatFormatTest, Subnormals) {
  // f16 smallest subnormal 2^-24; half of it ties to zero, a bit more rounds up.
  EXPECT_EQ(EncodeFloat(ElementType::kF16, std::ldexp(1.0, -24)), 0x0001u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, std::ldexp(1.0, -25)), 0x0000u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, std::ldexp(1.5, -25)), 0x0001u);
  EXPECT_EQ(EncodeFloat(ElementType::kF16, std::ldexp(3.0, -25)), 0x0002u);  // tie to even
  EXPECT_EQ(EncodeFloat(ElementType::kF16, -std::ldexp(1.0, -30)), 0x8000u);
  EXPECT_EQ(DecodeFloat(ElementType::kF16, 0x03FF), std::ldexp(1023.0, -24));
  // The largest subnormal rounding up becomes the smallest normal.
  EXPECT_EQ(EncodeFloat(ElementType::kF16, std::ldexp(1023.75, -24)), 0x0400u);
  // f8E4M3FN smallest subnormal 2^-9, f8E5M2 2^-16, f4 0.5.
  EXPECT_EQ(EncodeFloat(ElementType::kF8E4M3FN, std::ldexp(1.0, -9)), 0x01u);
  EXPECT_EQ(EncodeFloat(ElementType::kF8E5M2, std::ldexp(1.0, -16)), 0x01u);
  EXPECT_EQ(DecodeFloat(ElementType::kF4E2M1FN, 0x1), 0.5);
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3FNUZ, 0x01), std::ldexp(1.0, -10));
  EXPECT_EQ(DecodeFloat(ElementType::kF8E4M3B11FNUZ, 0x01), std::ldexp(1.0, -13));
  // Double subnormals are far below every narrow format.
  EXPECT_EQ(EncodeFloat(ElementType::kBF16, 5e-324), 0x0000u);
}

TEST(FloatFormatTest, WideFormatsPassThrough) {
  EXPECT_EQ(DecodeFloat(ElementType::kF64, EncodeFloat(ElementType::kF64, 0.1)), 0.1);
  EXPECT_TRUE(std::isinf(DecodeFloat(ElementType::kF32, EncodeFloat(ElementType::kF32, 1e300))));
  EXPECT_EQ(DecodeFloat(ElementType::kF32, EncodeFloat(ElementType::kF32, 1e-45)),
            static_cast<double>(std::numeric_limits<float>::denorm_min()));
}

}  // namespace
}  // namespace plugrt::shlo
