#include "cpu/kernels/linalg.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {
namespace {

template <typename D>
D Conj(D v) {
  if constexpr (std::is_same_v<D, Complex>) {
    return std::conj(v);
  } else {
    return v;
  }
}

Status CheckFloatOrComplex(ElementType type, const char* what) {
  if (!shlo::IsFloat(type) && !shlo::IsComplex(type)) {
    return InvalidArgument(what, " needs a floating-point or complex element type, got ",
                           shlo::ElementTypeName(type));
  }
  return OkStatus();
}

// Solves one system. `a` is m x m; `b` (row-major, rows x cols) is solved in
// place. Left side: op(A) X = B with B m x cols. Right side: X op(A) = B
// with B rows x m.
template <typename D>
void SolveOne(const D* a, D* b, int64_t m, int64_t rows, int64_t cols, bool left_side, bool lower,
              bool unit_diagonal, TransposeKind transpose) {
  // Materialise M = op(tri(A)); note op flips the triangle for transposes.
  std::vector<D> mat(static_cast<size_t>(m * m), D{});
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      bool in_triangle = lower ? j <= i : j >= i;
      if (!in_triangle) continue;
      D v = (i == j && unit_diagonal) ? D(1) : a[i * m + j];
      switch (transpose) {
        case TransposeKind::kNoTranspose: mat[i * m + j] = v; break;
        case TransposeKind::kTranspose: mat[j * m + i] = v; break;
        case TransposeKind::kAdjoint: mat[j * m + i] = Conj(v); break;
      }
    }
  }
  bool mat_lower = lower == (transpose == TransposeKind::kNoTranspose);
  if (!left_side) {
    // X M = B  <=>  M^T X^T = B^T: solve with the transposed matrix on the
    // left, treating B's columns as the systems.
    std::vector<D> t(mat.size());
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < m; ++j) t[j * m + i] = mat[i * m + j];
    }
    mat.swap(t);
    mat_lower = !mat_lower;
  }
  // Each system: the vector x with M x = rhs; for the left side the systems
  // are B's columns (element stride cols), for the right side B's rows.
  const int64_t systems = left_side ? cols : rows;
  const int64_t elem_stride = left_side ? cols : 1;
  const int64_t sys_stride = left_side ? 1 : cols;
  for (int64_t s = 0; s < systems; ++s) {
    D* x = b + s * sys_stride;
    auto at = [&](int64_t i) -> D& { return x[i * elem_stride]; };
    if (mat_lower) {
      for (int64_t i = 0; i < m; ++i) {
        D sum = at(i);
        for (int64_t j = 0; j < i; ++j) sum -= mat[i * m + j] * at(j);
        at(i) = unit_diagonal ? sum : sum / mat[i * m + i];
      }
    } else {
      for (int64_t i = m - 1; i >= 0; --i) {
        D sum = at(i);
        for (int64_t j = i + 1; j < m; ++j) sum -= mat[i * m + j] * at(j);
        at(i) = unit_diagonal ? sum : sum / mat[i * m + i];
      }
    }
  }
}

template <typename D>
Tensor TriangularSolveIn(const Tensor& a, const Tensor& b, bool left_side, bool lower,
                         bool unit_diagonal, TransposeKind transpose) {
  std::vector<D> av = ToDomain<D>(a);
  std::vector<D> bv = ToDomain<D>(b);
  const int64_t m = a.dims().back();
  const int64_t rows = b.dims()[b.rank() - 2], cols = b.dims().back();
  const int64_t batch = m == 0 ? 0 : a.num_elements() / (m * m);
  for (int64_t p = 0; p < batch && rows * cols > 0; ++p) {
    SolveOne(av.data() + p * m * m, bv.data() + p * rows * cols, m, rows, cols, left_side, lower,
             unit_diagonal, transpose);
  }
  return FromDomain<D>(b.type(), b.dims(), bv);
}

template <typename D>
Tensor CholeskyIn(const Tensor& a, bool lower) {
  std::vector<D> av = ToDomain<D>(a);
  const int64_t n = a.dims().back();
  const int64_t batch = n == 0 ? 0 : a.num_elements() / (n * n);
  std::vector<D> out(av.size(), D{});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int64_t p = 0; p < batch; ++p) {
    const D* m = av.data() + p * n * n;
    // Work on the lower factor L; for `upper`, read A's upper triangle as
    // the conjugate transpose of a lower one, and write back U = L^H.
    auto in = [&](int64_t i, int64_t j) { return lower ? m[i * n + j] : Conj(m[j * n + i]); };
    std::vector<D> l(static_cast<size_t>(n * n), D{});
    bool failed = false;
    for (int64_t j = 0; j < n; ++j) {
      double diag = std::real(in(j, j));
      for (int64_t k = 0; k < j; ++k) diag -= std::norm(l[j * n + k]);
      double root = (failed || !(diag > 0)) ? nan : std::sqrt(diag);
      if (std::isnan(root)) failed = true;
      l[j * n + j] = D(root);
      for (int64_t i = j + 1; i < n; ++i) {
        D sum = in(i, j);
        for (int64_t k = 0; k < j; ++k) sum -= l[i * n + k] * Conj(l[j * n + k]);
        l[i * n + j] = sum / D(root);
      }
    }
    D* o = out.data() + p * n * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j <= i; ++j) {
        if (lower) {
          o[i * n + j] = l[i * n + j];
        } else {
          o[j * n + i] = Conj(l[i * n + j]);
        }
      }
    }
  }
  return FromDomain<D>(a.type(), a.dims(), out);
}

}  // namespace

StatusOr<Tensor> TriangularSolve(const Tensor& a, const Tensor& b, bool left_side, bool lower,
                                 bool unit_diagonal, TransposeKind transpose) {
  PLUGRT_RETURN_IF_ERROR(CheckFloatOrComplex(a.type(), "triangular_solve"));
  if (a.type() != b.type()) return InvalidArgument("a and b must have the same element type");
  if (a.rank() < 2 || b.rank() != a.rank()) {
    return InvalidArgument("a and b must have the same rank, at least 2");
  }
  const int64_t m = a.dims().back();
  if (a.dims()[a.rank() - 2] != m) return InvalidArgument("a must be square in its last 2 dims");
  for (int64_t d = 0; d + 2 < a.rank(); ++d) {
    if (a.dims()[d] != b.dims()[d]) return InvalidArgument("a and b batch dims differ");
  }
  const int64_t b_dim = left_side ? b.dims()[b.rank() - 2] : b.dims().back();
  if (b_dim != m) {
    return InvalidArgument("b's ", left_side ? "rows" : "columns", " (", b_dim,
                           ") must match a's size ", m);
  }
  if (shlo::IsComplex(a.type())) {
    return TriangularSolveIn<Complex>(a, b, left_side, lower, unit_diagonal, transpose);
  }
  return TriangularSolveIn<double>(a, b, left_side, lower, unit_diagonal, transpose);
}

StatusOr<Tensor> Cholesky(const Tensor& a, bool lower) {
  PLUGRT_RETURN_IF_ERROR(CheckFloatOrComplex(a.type(), "cholesky"));
  if (a.rank() < 2 || a.dims()[a.rank() - 2] != a.dims().back()) {
    return InvalidArgument("cholesky needs square matrices in the last 2 dims");
  }
  if (shlo::IsComplex(a.type())) return CholeskyIn<Complex>(a, lower);
  return CholeskyIn<double>(a, lower);
}

}  // namespace plugrt::cpu
