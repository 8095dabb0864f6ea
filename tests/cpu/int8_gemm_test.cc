// The int8 matrix products (s8/u8 x s8 -> s32) are exact: plugrt's own AVX2
// kernel (int8_gemm.h) called directly, over shapes that leave partial
// register and cache blocks, both signednesses of the lhs, row- and
// column-major operands, batches and thread counts; and dot_general's fast
// path (whichever kernel this CPU gets) against the reference kernel.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/int8_gemm.h"
#include "cpu/kernels/tensor.h"

namespace plugrt {
namespace {

using cpu::Int8Matrices;
using shlo::ElementType;

// Random bytes over the full range, plus whole rows or columns at the
// extremes (-128 / 255 against -128), where saturating kernels go wrong.
std::vector<uint8_t> RandomBytes(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> out(count);
  for (uint8_t& b : out) b = static_cast<uint8_t>(byte(generator));
  return out;
}

struct Shape {
  int64_t batch, m, n, k;
};

// An operand stack [batch, rows, cols] stored row-major or column-major per
// matrix, as the kernel reads it.
Int8Matrices View(const std::vector<uint8_t>& bytes, bool is_unsigned, int64_t rows,
                  int64_t cols, bool column_major) {
  Int8Matrices v;
  v.data = bytes.data();
  v.is_unsigned = is_unsigned;
  v.batch_stride = rows * cols;
  v.row_stride = column_major ? 1 : cols;
  v.col_stride = column_major ? rows : 1;
  return v;
}

int32_t Element(const Int8Matrices& v, int64_t b, int64_t r, int64_t c) {
  const uint8_t byte = static_cast<const uint8_t*>(
      v.data)[b * v.batch_stride + r * v.row_stride + c * v.col_stride];
  return v.is_unsigned ? byte : static_cast<int8_t>(byte);
}

TEST(Int8GemmTest, EqualsTheExactProduct) {
  if (!cpu::Int8GemmAvailable()) GTEST_SKIP() << "no AVX2 on this CPU (or not an x86-64 build)";
  // Sizes around the register block (6 x 16), k odd and past the k block
  // (2048), rows past the row block (144), columns past the column block
  // (1024), single rows and columns.
  const Shape shapes[] = {{1, 1, 1, 1},     {1, 5, 7, 3},     {2, 6, 16, 2},   {3, 7, 17, 33},
                          {1, 13, 40, 2049}, {1, 150, 1030, 5}, {1, 1, 300, 4099}, {2, 31, 1, 64},
                          {1, 1, 1, 20000}};
  int case_index = 0;
  for (const Shape& s : shapes) {
    for (int variant = 0; variant < 8; ++variant) {
      const bool lhs_unsigned = variant & 1, lhs_cm = variant & 2, rhs_cm = variant & 4;
      const int threads = 1 + case_index++ % 3;
      SCOPED_TRACE(testing::Message() << "batch " << s.batch << " m " << s.m << " n " << s.n
                                      << " k " << s.k << " lhs " << (lhs_unsigned ? "u8" : "s8")
                                      << (lhs_cm ? " column-major" : " row-major") << ", rhs "
                                      << (rhs_cm ? "column-major" : "row-major") << ", threads "
                                      << threads);
      std::vector<uint8_t> a = RandomBytes(s.batch * s.m * s.k, 11 + case_index);
      std::vector<uint8_t> w = RandomBytes(s.batch * s.k * s.n, 23 + case_index);
      const Int8Matrices lhs = View(a, lhs_unsigned, s.m, s.k, lhs_cm);
      const Int8Matrices rhs = View(w, false, s.k, s.n, rhs_cm);
      // Row 0 of the lhs at its most negative (or largest unsigned) value,
      // column 0 of the rhs at -128: their product is the largest sum.
      for (int64_t b = 0; b < s.batch; ++b) {
        for (int64_t x = 0; x < s.k; ++x) {
          a[b * lhs.batch_stride + x * lhs.col_stride] = lhs_unsigned ? 255 : 0x80;
          w[b * rhs.batch_stride + x * rhs.row_stride] = 0x80;
        }
      }
      std::vector<int32_t> got(s.batch * s.m * s.n, -1);
      cpu::Int8Gemm(lhs, rhs, s.batch, s.m, s.n, s.k, got.data(), threads);
      int mismatches = 0;
      for (int64_t b = 0; b < s.batch; ++b) {
        for (int64_t i = 0; i < s.m; ++i) {
          for (int64_t j = 0; j < s.n; ++j) {
            int64_t want = 0;
            for (int64_t x = 0; x < s.k; ++x) {
              want += Element(lhs, b, i, x) * Element(rhs, b, x, j);
            }
            const int32_t at = got[(b * s.m + i) * s.n + j];
            if (at != want && mismatches++ < 3) {
              ADD_FAILURE() << "[" << b << ", " << i << ", " << j << "]: " << at << " vs " << want;
            }
          }
        }
      }
      EXPECT_EQ(mismatches, 0);
      EXPECT_EQ(got[0], s.k * (lhs_unsigned ? -255 * 128 : 128 * 128));
    }
  }
}

// dot_general's fast path on int8 operands in the layouts FastDot::Plan
// takes (batch dims, either operand transposed, split contracting dims that
// need a transpose first), s8 and u8 lhs: the same integers as the reference.
TEST(Int8GemmTest, FastDotEqualsTheReference) {
  struct Case {
    const char* name;
    std::vector<int64_t> lhs_dims, rhs_dims;
    cpu::DotDimensions dims;
  };
  const Case cases[] = {
      {"plain", {37, 301}, {301, 45}, {{}, {}, {1}, {0}}},
      {"rhs transposed", {50, 129}, {70, 129}, {{}, {}, {1}, {1}}},
      {"lhs transposed", {131, 23}, {131, 60}, {{}, {}, {0}, {0}}},
      {"batched", {3, 19, 77}, {3, 77, 33}, {{0}, {0}, {2}, {1}}},
      {"batch in the middle", {25, 2, 64}, {64, 2, 18}, {{1}, {1}, {2}, {0}}},
      {"split contraction", {4, 29, 50}, {4, 50, 21}, {{}, {}, {0, 2}, {0, 1}}},
  };
  for (const Case& c : cases) {
    for (ElementType lhs_type : {ElementType::kSI8, ElementType::kUI8}) {
      SCOPED_TRACE(testing::Message() << c.name << (lhs_type == ElementType::kUI8 ? " u8" : " s8"));
      cpu::Tensor lhs(lhs_type, c.lhs_dims), rhs(ElementType::kSI8, c.rhs_dims);
      const std::vector<uint8_t> a = RandomBytes(lhs.num_elements(), 5);
      const std::vector<uint8_t> w = RandomBytes(rhs.num_elements(), 6);
      std::copy(a.begin(), a.end(), lhs.mutable_as<uint8_t>());
      std::copy(w.begin(), w.end(), rhs.mutable_as<uint8_t>());
      auto fast = cpu::FastDot::Plan(lhs.dims(), lhs_type, rhs.dims(), ElementType::kSI8, c.dims,
                                     ElementType::kSI32, /*kernel_threads=*/2);
      ASSERT_NE(fast, nullptr);
      StatusOr<cpu::Tensor> got = fast->Run(lhs, rhs, /*kernel_threads=*/2);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      const cpu::Tensor want = cpu::DotGeneral(lhs, rhs, c.dims, ElementType::kSI32);
      ASSERT_EQ(got->dims(), want.dims());
      int mismatches = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        if (got->as<int32_t>()[i] != want.as<int32_t>()[i] && mismatches++ < 3) {
          ADD_FAILURE() << "element " << i << ": " << got->as<int32_t>()[i] << " vs "
                        << want.as<int32_t>()[i];
        }
      }
      EXPECT_EQ(mismatches, 0);
    }
  }
}

}  // namespace
}  // namespace plugrt
