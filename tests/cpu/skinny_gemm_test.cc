// The skinny f32 product (skinny_gemm.h): plugrt's kernel called directly
// over every row count it takes, column and depth counts that leave partial
// vectors and bands, both rhs layouts ([n, k] and [k, n]), row- and
// column-major lhs, batches and thread counts, against a double-precision
// product; and dot_general's fast path on such shapes (PyTorch's transposed
// weights, JAX's kernels, a decode step's attention) against the reference
// kernel.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/skinny_gemm.h"
#include "cpu/kernels/tensor.h"

namespace plugrt {
namespace {

using cpu::F32Matrices;
using shlo::ElementType;

std::vector<float> RandomFloats(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> out(count);
  for (float& x : out) x = uniform(generator);
  return out;
}

F32Matrices View(const std::vector<float>& data, int64_t rows, int64_t cols, bool column_major) {
  return F32Matrices{data.data(), rows * cols, column_major ? 1 : cols, column_major ? rows : 1};
}

float At(const F32Matrices& v, int64_t b, int64_t r, int64_t c) {
  return v.data[b * v.batch_stride + r * v.row_stride + c * v.col_stride];
}

TEST(SkinnyGemmTest, EqualsTheProductWithinF32Rounding) {
  if (!cpu::SkinnyGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA on this CPU (or not x86-64)";
  struct Shape {
    int64_t batch, n, k;
  };
  const Shape shapes[] = {{1, 1, 1},   {1, 7, 8},    {2, 17, 9},   {1, 33, 15},
                          {3, 64, 64}, {1, 300, 771}, {1, 1000, 3}, {5, 24, 130},
                          {1, 200, 40}, {96, 64, 100}};
  int case_index = 0;
  for (int64_t m = 1; m <= cpu::skinny_gemm::kMaxRows; ++m) {
    for (const Shape& s : shapes) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool lhs_cm = variant & 1, rhs_cm = variant & 2;
        const int threads = 1 + case_index++ % 3;
        SCOPED_TRACE(testing::Message() << "batch " << s.batch << " m " << m << " n " << s.n
                                        << " k " << s.k << (lhs_cm ? " lhs column-major" : "")
                                        << (rhs_cm ? " rhs [n, k]" : " rhs [k, n]") << ", threads "
                                        << threads);
        const std::vector<float> a = RandomFloats(s.batch * m * s.k, 3 + case_index);
        const std::vector<float> w = RandomFloats(s.batch * s.k * s.n, 7 + case_index);
        const F32Matrices lhs = View(a, m, s.k, lhs_cm);
        const F32Matrices rhs = View(w, s.k, s.n, rhs_cm);
        ASSERT_TRUE(cpu::SkinnyGemmFits(m, rhs));
        std::vector<float> got(s.batch * m * s.n, NAN);
        cpu::SkinnyGemm(lhs, rhs, s.batch, m, s.n, s.k, got.data(), threads);
        int mismatches = 0;
        for (int64_t b = 0; b < s.batch; ++b) {
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < s.n; ++j) {
              double want = 0, magnitude = 0;
              for (int64_t x = 0; x < s.k; ++x) {
                const double p = static_cast<double>(At(lhs, b, i, x)) * At(rhs, b, x, j);
                want += p;
                magnitude += std::fabs(p);
              }
              const float at = got[(b * m + i) * s.n + j];
              // f32 sums of k terms: within k ulps of the magnitude.
              const double tolerance = 1e-6 * (static_cast<double>(s.k) + 1) * (magnitude + 1e-30);
              if (!(std::fabs(at - want) <= tolerance) && mismatches++ < 3) {
                ADD_FAILURE() << "[" << b << ", " << i << ", " << j << "]: " << at << " vs " << want;
              }
            }
          }
        }
        EXPECT_EQ(mismatches, 0);
      }
    }
  }
}

// Both instruction-set variants of the kernels, called directly where the
// CPU has their set (the dispatcher takes the wider one, so the AVX2 variant
// would otherwise go untested on AVX-512 machines): the same sums within f32
// rounding, both rhs layouts and packed panels, bands that start and end
// mid-vector.
TEST(SkinnyGemmTest, EachInstructionSetVariantEqualsTheProduct) {
  if (!cpu::SkinnyGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA on this CPU (or not x86-64)";
  using Kernel = void (*)(const float*, int64_t, int64_t, const float*, int64_t, int64_t, int64_t,
                          float*, int64_t);
  using PackedKernel = void (*)(const float*, int64_t, int64_t, const float*, int64_t, int64_t,
                                int64_t, int64_t, float*, int64_t);
  struct Variant {
    const char* name;
    bool available;
    int lanes;
    Kernel columns_of_rows, rows_of_columns;
    PackedKernel packed_panels;
  };
  const Variant variants[] = {
      {"AVX2", true, 8, cpu::skinny_gemm::ColumnsOfRowsAvx2, cpu::skinny_gemm::RowsOfColumnsAvx2,
       cpu::skinny_gemm::PackedPanelsAvx2},
      {"AVX-512", __builtin_cpu_supports("avx512f") != 0, 16,
       cpu::skinny_gemm::ColumnsOfRowsAvx512, cpu::skinny_gemm::RowsOfColumnsAvx512,
       cpu::skinny_gemm::PackedPanelsAvx512},
  };
  const int64_t k = 37, n = 70, n0 = 5, n1 = 61;
  for (const Variant& v : variants) {
    if (!v.available) continue;
    for (int64_t m = 1; m <= cpu::skinny_gemm::kMaxRows; ++m) {
      for (int layout = 0; layout < 3; ++layout) {
        const bool k_contiguous = layout == 0, packed = layout == 2;
        SCOPED_TRACE(testing::Message() << v.name << " m " << m
                                        << (k_contiguous ? " [n, k]" : packed ? " packed [k, n]" : " [k, n]"));
        const std::vector<float> a = RandomFloats(m * k, 31 + m);
        const std::vector<float> w = RandomFloats(k * n, 37 + m);
        std::vector<float> got(m * n, NAN);
        if (packed) {
          // Panels of 2 vectors: the band starts and ends inside one, and the
          // last panel is narrower.
          const int64_t width = 2 * v.lanes;
          std::vector<float> panels;
          for (int64_t first = 0; first < n; first += width) {
            const int64_t columns = std::min(width, n - first);
            for (int64_t x = 0; x < k; ++x) {
              panels.insert(panels.end(), w.begin() + x * n + first,
                            w.begin() + x * n + first + columns);
            }
          }
          v.packed_panels(a.data(), m, k, panels.data(), n, width, n0, n1, got.data(), n);
        } else {
          (k_contiguous ? v.columns_of_rows : v.rows_of_columns)(a.data(), m, k, w.data(),
                                                                  k_contiguous ? k : n, n0, n1,
                                                                  got.data(), n);
        }
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            const float at = got[i * n + j];
            if (j < n0 || j >= n1) {
              EXPECT_TRUE(std::isnan(at)) << "wrote outside its band at [" << i << ", " << j << "]";
              continue;
            }
            double want = 0;
            for (int64_t x = 0; x < k; ++x) {
              want += static_cast<double>(a[i * k + x]) *
                      (k_contiguous ? w[j * k + x] : w[x * n + j]);
            }
            EXPECT_NEAR(at, want, 1e-4) << "[" << i << ", " << j << "]";
          }
        }
      }
    }
  }
}

// The rhs packed into panels (SkinnyPack) and read from them
// (SkinnyGemmPacked): every row count, column counts of one panel and a bit,
// several panels and a narrow last one, bands that split panels, batches and
// thread counts, the rhs as [k, n] (copied into panels) and as [n, k]
// (transposed into them), against a double-precision product of the rhs as
// it lies.
TEST(SkinnyGemmTest, PackedPanelsEqualTheProduct) {
  if (!cpu::SkinnyGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA on this CPU (or not x86-64)";
  int case_index = 0;
  for (const bool n_by_k : {false, true})
  for (int64_t m = 1; m <= cpu::skinny_gemm::kMaxRows; ++m) {
    const int64_t width = cpu::SkinnyPanelColumns(m);
    ASSERT_GT(width, 0);
    struct Shape {
      int64_t batch, n, k;
    };
    const Shape shapes[] = {{1, width + 1, 9},     {1, 3 * width, 33}, {2, 2 * width + 37, 70},
                            {1, 5 * width + 5, 3}, {3, width + 16, 17}};
    for (const Shape& s : shapes) {
      const int threads = 1 + case_index++ % 3;
      SCOPED_TRACE(testing::Message() << "batch " << s.batch << " m " << m << " n " << s.n << " k "
                                      << s.k << ", threads " << threads << ", rhs "
                                      << (n_by_k ? "[n, k]" : "[k, n]"));
      const std::vector<float> a = RandomFloats(s.batch * m * s.k, 41 + case_index);
      const std::vector<float> w = RandomFloats(s.batch * s.k * s.n, 43 + case_index);
      const F32Matrices lhs = View(a, m, s.k, false);
      const F32Matrices rhs = View(w, s.k, s.n, n_by_k);
      ASSERT_TRUE(cpu::SkinnyGemmPacks(rhs, m, s.n));
      std::vector<float> packed(s.batch * s.k * s.n, NAN);
      cpu::SkinnyPack(rhs, s.batch, m, s.k, s.n, packed.data(), threads);
      std::vector<float> got(s.batch * m * s.n, NAN);
      cpu::SkinnyGemmPacked(lhs, packed.data(), s.batch, m, s.n, s.k, got.data(), threads);
      int mismatches = 0;
      for (int64_t b = 0; b < s.batch; ++b) {
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < s.n; ++j) {
            double want = 0;
            for (int64_t x = 0; x < s.k; ++x) {
              want += static_cast<double>(At(lhs, b, i, x)) * At(rhs, b, x, j);
            }
            const float at = got[(b * m + i) * s.n + j];
            if (!(std::fabs(at - want) <= 1e-5 * (s.k + 1)) && mismatches++ < 3) {
              ADD_FAILURE() << "[" << b << ", " << i << ", " << j << "]: " << at << " vs " << want;
            }
          }
        }
      }
      EXPECT_EQ(mismatches, 0);
    }
  }
  // One panel or less, or the rhs contiguous along neither dim: nothing to
  // pack.
  const std::vector<float> w = RandomFloats(8 * 300 * 2, 1);
  EXPECT_FALSE(cpu::SkinnyGemmPacks(View(w, 8, cpu::SkinnyPanelColumns(1), false), 1,
                                    cpu::SkinnyPanelColumns(1)));
  EXPECT_FALSE(cpu::SkinnyGemmPacks(View(w, cpu::SkinnyPanelColumns(1), 8, true), 1,
                                    cpu::SkinnyPanelColumns(1)));
  EXPECT_FALSE(cpu::SkinnyGemmPacks(F32Matrices{w.data(), 0, 600, 2}, 1, 300));
  EXPECT_TRUE(cpu::SkinnyGemmPacks(View(w, 8, 300, true), 1, 300));
}

// Through dot_general's fast path: the shapes serving at batch 1 brings, in
// the layouts exporters write them.
TEST(SkinnyGemmTest, FastDotOfFewRowsEqualsTheReference) {
  struct Case {
    const char* name;
    std::vector<int64_t> lhs_dims, rhs_dims;
    cpu::DotDimensions dims;
  };
  const Case cases[] = {
      {"PyTorch linear, 7 tokens", {1, 7, 96}, {200, 96}, {{}, {}, {2}, {1}}},
      {"JAX dense, batch 3", {3, 1, 80}, {80, 130}, {{}, {}, {2}, {0}}},
      {"decode attention scores", {2, 4, 1, 16}, {2, 4, 40, 16}, {{0, 1}, {0, 1}, {3}, {3}}},
      {"decode attention context", {2, 4, 1, 40}, {2, 4, 40, 16}, {{0, 1}, {0, 1}, {3}, {2}}},
      {"lhs transposed", {300, 5}, {300, 70}, {{}, {}, {0}, {0}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    cpu::Tensor lhs(ElementType::kF32, c.lhs_dims), rhs(ElementType::kF32, c.rhs_dims);
    const std::vector<float> a = RandomFloats(lhs.num_elements(), 5);
    const std::vector<float> w = RandomFloats(rhs.num_elements(), 6);
    std::copy(a.begin(), a.end(), lhs.mutable_as<float>());
    std::copy(w.begin(), w.end(), rhs.mutable_as<float>());
    auto fast = cpu::FastDot::Plan(lhs.dims(), ElementType::kF32, rhs.dims(), ElementType::kF32,
                                   c.dims, ElementType::kF32, /*kernel_threads=*/2);
    if (fast == nullptr) continue;  // too small for a fast path: the reference runs it anyway
    StatusOr<cpu::Tensor> got = fast->Run(lhs, rhs, /*kernel_threads=*/2);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    const cpu::Tensor want = cpu::DotGeneral(lhs, rhs, c.dims, ElementType::kF32);
    ASSERT_EQ(got->dims(), want.dims());
    int mismatches = 0;
    for (int64_t i = 0; i < want.num_elements(); ++i) {
      const float g = got->as<float>()[i], e = want.as<float>()[i];
      if (!(std::fabs(g - e) <= 1e-4f * (1 + std::fabs(e))) && mismatches++ < 3) {
        ADD_FAILURE() << "element " << i << ": " << g << " vs " << e;
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

}  // namespace
}  // namespace plugrt
