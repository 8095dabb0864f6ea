#include "cpu/kernels/dot.h"

#include <algorithm>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batching,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batching.begin(), batching.end(), d) == batching.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

namespace {

// `values` (row-major over `dims`) permuted so the dims in `order` come out
// row-major: the gather of a transpose.
template <typename D>
std::vector<D> Permute(const std::vector<D>& values, const std::vector<int64_t>& dims,
                       const std::vector<int64_t>& order) {
  std::vector<int64_t> strides = RowMajorStrides(dims);
  std::vector<int64_t> out_dims, out_strides;
  for (int64_t d : order) {
    out_dims.push_back(dims[d]);
    out_strides.push_back(strides[d]);
  }
  std::vector<D> out(values.size());
  if (values.empty()) return out;
  std::vector<int64_t> index(order.size(), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t src = 0;
    for (size_t k = 0; k < index.size(); ++k) src += index[k] * out_strides[k];
    out[i] = values[src];
    NextIndex(index, out_dims);
  }
  return out;
}

// acc + a * b with the product and the sum each rounded as arithmetic in
// the accumulation type would (D is double, Complex or uint64_t, which
// wraps).
template <typename D, StepRounding R>
D MulAdd(D acc, D a, D b, ElementType type) {
  return RoundStep<R>(acc + RoundStep<R>(a * b, type), type);
}

template <typename D, StepRounding R>
Tensor DotIn(const Tensor& lhs, const Tensor& rhs, const DotDimensions& dd,
             ElementType result_type, const std::vector<int64_t>& result_dims) {
  std::vector<int64_t> lhs_free = FreeDims(lhs.rank(), dd.lhs_batching, dd.lhs_contracting);
  std::vector<int64_t> rhs_free = FreeDims(rhs.rank(), dd.rhs_batching, dd.rhs_contracting);
  int64_t batch = 1, m = 1, n = 1, k = 1;
  for (int64_t d : dd.lhs_batching) batch *= lhs.dims()[d];
  for (int64_t d : lhs_free) m *= lhs.dims()[d];
  for (int64_t d : rhs_free) n *= rhs.dims()[d];
  for (int64_t d : dd.lhs_contracting) k *= lhs.dims()[d];
  // lhs as [batch, m, k], rhs as [batch, k, n].
  std::vector<int64_t> lhs_order = dd.lhs_batching;
  lhs_order.insert(lhs_order.end(), lhs_free.begin(), lhs_free.end());
  lhs_order.insert(lhs_order.end(), dd.lhs_contracting.begin(), dd.lhs_contracting.end());
  std::vector<int64_t> rhs_order = dd.rhs_batching;
  rhs_order.insert(rhs_order.end(), dd.rhs_contracting.begin(), dd.rhs_contracting.end());
  rhs_order.insert(rhs_order.end(), rhs_free.begin(), rhs_free.end());
  std::vector<D> a = Permute(ToDomain<D>(lhs), lhs.dims(), lhs_order);
  std::vector<D> b = Permute(ToDomain<D>(rhs), rhs.dims(), rhs_order);
  std::vector<D> c(static_cast<size_t>(batch * m * n), D{});
  for (int64_t p = 0; p < batch; ++p) {
    const D* ap = a.data() + p * m * k;
    const D* bp = b.data() + p * k * n;
    D* cp = c.data() + p * m * n;
    // i-k-j order: the inner loop streams one row of b into one row of c.
    for (int64_t i = 0; i < m; ++i) {
      D* crow = cp + i * n;
      for (int64_t q = 0; q < k; ++q) {
        const D aiq = ap[i * k + q];
        const D* brow = bp + q * n;
        for (int64_t j = 0; j < n; ++j) crow[j] = MulAdd<D, R>(crow[j], aiq, brow[j], result_type);
      }
    }
  }
  return FromDomain<D>(result_type, result_dims, c);
}

}  // namespace

StatusOr<std::vector<int64_t>> DotResultDims(const std::vector<int64_t>& lhs_dims,
                                             const std::vector<int64_t>& rhs_dims,
                                             const DotDimensions& dd) {
  const int64_t lr = static_cast<int64_t>(lhs_dims.size());
  const int64_t rr = static_cast<int64_t>(rhs_dims.size());
  if (dd.lhs_batching.size() != dd.rhs_batching.size()) {
    return InvalidArgument("lhs and rhs must have the same number of batching dimensions");
  }
  if (dd.lhs_contracting.size() != dd.rhs_contracting.size()) {
    return InvalidArgument("lhs and rhs must have the same number of contracting dimensions");
  }
  auto check = [](const std::vector<int64_t>& a, const std::vector<int64_t>& b, int64_t rank,
                  const char* side) -> Status {
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (const std::vector<int64_t>* list : {&a, &b}) {
      for (int64_t d : *list) {
        if (d < 0 || d >= rank) {
          return InvalidArgument(side, " dimension ", d, " is out of range for rank ", rank);
        }
        if (seen[d]) return InvalidArgument(side, " dimension ", d, " is used twice");
        seen[d] = true;
      }
    }
    return OkStatus();
  };
  PLUGRT_RETURN_IF_ERROR(check(dd.lhs_batching, dd.lhs_contracting, lr, "lhs"));
  PLUGRT_RETURN_IF_ERROR(check(dd.rhs_batching, dd.rhs_contracting, rr, "rhs"));
  std::vector<int64_t> result;
  for (size_t i = 0; i < dd.lhs_batching.size(); ++i) {
    if (lhs_dims[dd.lhs_batching[i]] != rhs_dims[dd.rhs_batching[i]]) {
      return InvalidArgument("batching dimension sizes differ: ", lhs_dims[dd.lhs_batching[i]],
                             " vs ", rhs_dims[dd.rhs_batching[i]]);
    }
    result.push_back(lhs_dims[dd.lhs_batching[i]]);
  }
  for (size_t i = 0; i < dd.lhs_contracting.size(); ++i) {
    if (lhs_dims[dd.lhs_contracting[i]] != rhs_dims[dd.rhs_contracting[i]]) {
      return InvalidArgument("contracting dimension sizes differ: ",
                             lhs_dims[dd.lhs_contracting[i]], " vs ",
                             rhs_dims[dd.rhs_contracting[i]]);
    }
  }
  for (int64_t d : FreeDims(lr, dd.lhs_batching, dd.lhs_contracting)) result.push_back(lhs_dims[d]);
  for (int64_t d : FreeDims(rr, dd.rhs_batching, dd.rhs_contracting)) result.push_back(rhs_dims[d]);
  return result;
}

Tensor DotGeneral(const Tensor& lhs, const Tensor& rhs, const DotDimensions& dims,
                  ElementType result_type) {
  std::vector<int64_t> result_dims = DotResultDims(lhs.dims(), rhs.dims(), dims).value();
  // f64 and c128 accumulate in double; every other float type in single
  // precision (narrow types are widened to f32 for the products, as XLA
  // does), rounding each step so results match float arithmetic.
  const bool wide = result_type == ElementType::kF64 || result_type == ElementType::kC128;
  switch (DomainOf(result_type)) {
    case Domain::kReal:
      return wide ? DotIn<double, StepRounding::kNone>(lhs, rhs, dims, result_type, result_dims)
                  : DotIn<double, StepRounding::kFloat>(lhs, rhs, dims, result_type, result_dims);
    case Domain::kComplex:
      return wide ? DotIn<Complex, StepRounding::kNone>(lhs, rhs, dims, result_type, result_dims)
                  : DotIn<Complex, StepRounding::kFloat>(lhs, rhs, dims, result_type, result_dims);
    default: break;
  }
  // Integers and i1: sign-extended operands multiply and add modulo 2^64,
  // whose low bits are the result type's wrapped value (nonzero -> true for i1).
  return DotIn<uint64_t, StepRounding::kNone>(lhs, rhs, dims, result_type, result_dims);
}

}  // namespace plugrt::cpu
