// NumPy-style printing of host arrays (tools/array_format.cc); expectations
// are what NumPy's repr prints for the same arrays.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

// The CLI's pieces, from the plugrt_tools library.
#include "tools/array_format.h"
#include "client/element_decode.h"

namespace plugrt::tools {
namespace {

template <typename T>
std::string Format(PJRT_Buffer_Type type, std::vector<int64_t> dims, std::vector<T> values) {
  StatusOr<std::string> text =
      FormatArray(type, dims, reinterpret_cast<const std::byte*>(values.data()),
                  values.size() * sizeof(T));
  return text.ok() ? *text : "ERROR " + text.status().ToString();
}

TEST(ArrayFormatTest, Floats) {
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {2, 2}, {1, 2, 3, 4}),
            "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {3}, {1.5f, 2.25f, 3}),
            "array([1.5 , 2.25, 3.  ], dtype=float32)");
  // float64 is NumPy's default: no dtype; shortest digits of the type.
  EXPECT_EQ(Format<double>(PJRT_Buffer_Type_F64, {2}, {0.1, -0.2}), "array([ 0.1, -0.2])");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {1}, {1.0f / 3}),
            "array([0.33333334], dtype=float32)");
  EXPECT_EQ(Format<double>(PJRT_Buffer_Type_F64, {1}, {1.0 / 3}), "array([0.33333333])");
  EXPECT_EQ(Format<double>(PJRT_Buffer_Type_F64, {2}, {1e-5, 1.0}), "array([1.e-05, 1.e+00])");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {3}, {nan, inf, -1.5f}),
            "array([ nan,  inf, -1.5], dtype=float32)");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {}, {3.5f}), "array(3.5, dtype=float32)");
}

TEST(ArrayFormatTest, IntegersAndBools) {
  EXPECT_EQ(Format<int32_t>(PJRT_Buffer_Type_S32, {3}, {1, 10, 100}),
            "array([  1,  10, 100], dtype=int32)");
  EXPECT_EQ(Format<int64_t>(PJRT_Buffer_Type_S64, {2}, {-5, 7}), "array([-5,  7])");
  EXPECT_EQ(Format<uint64_t>(PJRT_Buffer_Type_U64, {1}, {18446744073709551615ull}),
            "array([18446744073709551615], dtype=uint64)");
  EXPECT_EQ(Format<uint8_t>(PJRT_Buffer_Type_PRED, {2}, {1, 0}), "array([ True, False])");
  // Sub-byte integers: one sign-extended byte each on the host.
  EXPECT_EQ(Format<int8_t>(PJRT_Buffer_Type_S4, {2}, {-8, 7}), "array([-8,  7], dtype=int4)");
}

TEST(ArrayFormatTest, NarrowFloatsAndComplex) {
  EXPECT_EQ(Format<uint16_t>(PJRT_Buffer_Type_BF16, {2}, {0x3F80, 0xC000}),
            "array([ 1., -2.], dtype=bfloat16)");
  EXPECT_EQ(Format<uint16_t>(PJRT_Buffer_Type_F16, {2}, {0x3C00, 0x7C00}),
            "array([ 1., inf], dtype=float16)");
  EXPECT_EQ(Format<uint8_t>(PJRT_Buffer_Type_F8E4M3FN, {3}, {0x38, 0x7E, 0x7F}),
            "array([  1., 448.,  nan], dtype=float8_e4m3fn)");
  EXPECT_EQ(Format<uint8_t>(PJRT_Buffer_Type_F8E5M2FNUZ, {1}, {0x80}),
            "array([nan], dtype=float8_e5m2fnuz)");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_C64, {2}, {1, 2, 3, -4}),
            "array([1.+2.j, 3.-4.j], dtype=complex64)");
}

TEST(ArrayFormatTest, ShapesWrapAndSummarise) {
  EXPECT_EQ(Format<int64_t>(PJRT_Buffer_Type_S64, {2, 1, 2}, {0, 1, 2, 3}),
            "array([[[0, 1]],\n\n       [[2, 3]]])");
  std::vector<int64_t> thirty(30);
  std::iota(thirty.begin(), thirty.end(), 0);
  EXPECT_EQ(Format<int64_t>(PJRT_Buffer_Type_S64, {30}, thirty),
            "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
            "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])");
  std::vector<int64_t> many(2000);
  std::iota(many.begin(), many.end(), 0);
  EXPECT_EQ(Format<int64_t>(PJRT_Buffer_Type_S64, {2000}, many),
            "array([   0,    1,    2, ..., 1997, 1998, 1999])");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {0}, {}), "array([], dtype=float32)");
  EXPECT_EQ(Format<float>(PJRT_Buffer_Type_F32, {2, 0}, {}),
            "array([], shape=(2, 0), dtype=float32)");
}

TEST(ArrayFormatTest, RefusesDataThatDoesNotFit) {
  EXPECT_NE(Format<float>(PJRT_Buffer_Type_F32, {3}, {1, 2}).find("ERROR INVALID_ARGUMENT"),
            std::string::npos);
  EXPECT_NE(Format<float>(PJRT_Buffer_Type_TOKEN, {}, {}).find("ERROR"), std::string::npos);
  EXPECT_EQ(ShapeString(PJRT_Buffer_Type_F32, {2, 3}), "f32[2,3]");
}

}  // namespace
}  // namespace plugrt::tools
