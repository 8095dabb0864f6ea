#include "cpu/kernels/quantized_dot.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <type_traits>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/vector_math.h"

namespace plugrt::cpu {
namespace {

// round_nearest_even(x) clamped to [lo, hi] (integers), x an f32; NaN goes
// to lo. Clamping first and rounding after give the same integer.
inline int64_t RoundClamp(float x, float lo_f, float hi_f, int64_t lo, int64_t hi) {
  if (!(x > lo_f)) return lo;
  if (x >= hi_f) return hi;
  return static_cast<int64_t>(vmath::RoundEven(x));
}

}  // namespace

StatusOr<std::shared_ptr<const QuantizedDot>> QuantizedDot::Plan(
    const std::vector<int64_t>& lhs_dims, ElementType lhs_type,
    const std::vector<int64_t>& rhs_dims, ElementType rhs_type, const DotDimensions& dims,
    QuantizedDotParams params, bool fast_paths, int kernel_threads) {
  if ((lhs_type != ElementType::kSI8 && lhs_type != ElementType::kUI8) ||
      rhs_type != ElementType::kSI8) {
    return InvalidArgument("quantized dot: operands must be s8 or u8 (lhs) and s8 (rhs), got ",
                           shlo::ElementTypeName(lhs_type), " and ",
                           shlo::ElementTypeName(rhs_type));
  }
  if (!shlo::IsInteger(params.storage) || shlo::BitWidth(params.storage) > 32) {
    return InvalidArgument("quantized dot: the result must hold integers of at most 32 bits, got ",
                           shlo::ElementTypeName(params.storage));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> result_dims,
                          DotResultDims(lhs_dims, rhs_dims, dims));
  if (params.scales.empty() || params.scales.size() != params.zero_points.size()) {
    return InvalidArgument("quantized dot: ", params.scales.size(), " scales and ",
                           params.zero_points.size(), " zero points");
  }
  const int64_t rank = static_cast<int64_t>(result_dims.size());
  if (params.scale_dimension < 0) {
    if (params.scales.size() != 1) {
      return InvalidArgument("quantized dot: ", params.scales.size(),
                             " scales but no scale dimension");
    }
  } else if (params.scale_dimension >= rank ||
             result_dims[params.scale_dimension] !=
                 static_cast<int64_t>(params.scales.size())) {
    return InvalidArgument("quantized dot: ", params.scales.size(),
                           " scales do not match result dimension ", params.scale_dimension,
                           " of a rank-", rank, " result");
  }
  if (params.storage_min > params.storage_max) {
    return InvalidArgument("quantized dot: empty storage range [", params.storage_min, ", ",
                           params.storage_max, "]");
  }
  std::shared_ptr<QuantizedDot> plan(new QuantizedDot());
  plan->dims_ = dims;
  plan->result_dims_ = result_dims;
  // The rhs as [batch, contracted, free] for its column sums.
  const std::vector<int64_t> rhs_free =
      FreeDims(static_cast<int64_t>(rhs_dims.size()), dims.rhs_batching, dims.rhs_contracting);
  std::vector<int64_t> order = dims.rhs_batching;
  order.insert(order.end(), dims.rhs_contracting.begin(), dims.rhs_contracting.end());
  order.insert(order.end(), rhs_free.begin(), rhs_free.end());
  std::vector<int64_t> identity(order.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (order != identity) plan->rhs_order_ = std::move(order);
  if (fast_paths) {
    // oneDNN saturates to the whole range of its s8/u8/s32 output and adds
    // one zero point; per-column scales need the channel to be the column.
    const bool per_column = params.scale_dimension < 0 ||
                            (params.scale_dimension == rank - 1 && rhs_free.size() == 1);
    const bool one_zero_point =
        std::all_of(params.zero_points.begin(), params.zero_points.end(),
                    [&](int64_t zp) { return zp == params.zero_points[0]; });
    const bool fits_i32 = [&] {
      const int64_t lo = std::numeric_limits<int32_t>::min(),
                    hi = std::numeric_limits<int32_t>::max();
      return params.lhs_zero_point >= lo && params.lhs_zero_point <= hi &&
             params.zero_points[0] >= lo && params.zero_points[0] <= hi;
    }();
    if (per_column && one_zero_point && params.full_range && fits_i32) {
      Int8Rescale rescale;
      rescale.lhs_zero_point = static_cast<int32_t>(params.lhs_zero_point);
      rescale.scales = params.scales;
      rescale.zero_point = static_cast<int32_t>(params.zero_points[0]);
      plan->fused_ = FastDot::Plan(lhs_dims, lhs_type, rhs_dims, rhs_type, dims, params.storage,
                                   kernel_threads, &rescale);
    }
    if (plan->fused_ == nullptr) {
      plan->product_ = FastDot::Plan(lhs_dims, lhs_type, rhs_dims, rhs_type, dims,
                                     ElementType::kSI32, kernel_threads);
    }
  }
  plan->params_ = std::move(params);
  return std::shared_ptr<const QuantizedDot>(std::move(plan));
}

StatusOr<Tensor> QuantizedDot::Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads) const {
  if (fused_ != nullptr) return fused_->Run(lhs, rhs, kernel_threads);
  Tensor product;
  if (product_ != nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(product, product_->Run(lhs, rhs, kernel_threads));
  } else {
    product = DotGeneral(lhs, rhs, dims_, ElementType::kSI32);
  }
  Tensor ordered = rhs;
  if (!rhs_order_.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(ordered, Transpose(rhs, rhs_order_));
  }
  return Rescale(product, ordered, ThreadBudget(kernel_threads));
}

Tensor QuantizedDot::Rescale(const Tensor& product, const Tensor& rhs, int threads) const {
  const QuantizedDotParams& q = params_;
  const std::vector<int64_t>& rd = rhs.dims();
  const int64_t nb = static_cast<int64_t>(dims_.rhs_batching.size());
  const int64_t nc = static_cast<int64_t>(dims_.rhs_contracting.size());
  int64_t batch = 1, depth = 1, columns = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(rd.size()); ++d) {
    (d < nb ? batch : d < nb + nc ? depth : columns) *= rd[d];
  }
  // sums[b * columns + r]: the rhs column sums, times the lhs zero point.
  std::vector<int64_t> offsets(static_cast<size_t>(batch * columns), 0);
  if (q.lhs_zero_point != 0) {
    const auto* r = rhs.as<int8_t>();
    for (int64_t b = 0; b < batch; ++b) {
      int64_t* row = offsets.data() + b * columns;
      for (int64_t k = 0; k < depth; ++k) {
        const int8_t* in = r + (b * depth + k) * columns;
        for (int64_t c = 0; c < columns; ++c) row[c] += in[c];
      }
      for (int64_t c = 0; c < columns; ++c) row[c] *= q.lhs_zero_point;
    }
  }
  Tensor out = Tensor::Uninitialized(q.storage, result_dims_);
  // The result as rows of `columns` (the rhs free dims, innermost); a row's
  // batch index picks its offsets. The scale dimension is either among the
  // rhs free dims (the channel depends on the column) or before them (on
  // the row).
  const int64_t count = out.num_elements();
  const int64_t rows = columns > 0 ? count / columns : 0;
  const int64_t rows_per_batch = batch > 0 ? rows / batch : 0;
  const int64_t rank = static_cast<int64_t>(result_dims_.size());
  const int64_t first_column_dim = rank - (static_cast<int64_t>(rd.size()) - nb - nc);
  int64_t inner = 1, channels = 1;  // the scale dimension's stride and size
  if (q.scale_dimension >= 0) {
    channels = result_dims_[q.scale_dimension];
    for (int64_t d = q.scale_dimension + 1; d < rank; ++d) inner *= result_dims_[d];
  }
  const bool by_column = q.scale_dimension >= first_column_dim;
  std::vector<float> column_scale, column_zp;
  if (by_column) {
    for (int64_t j = 0; j < columns; ++j) {
      const size_t c = static_cast<size_t>((j / inner) % channels);
      column_scale.push_back(q.scales[c]);
      column_zp.push_back(static_cast<float>(q.zero_points[c]));
    }
  }
  const float lo_f = static_cast<float>(q.storage_min), hi_f = static_cast<float>(q.storage_max);
  const int32_t* p = product.as<int32_t>();
  // One row loop per storage width, so the store is not decided per element.
  auto rescale = [&](auto* o) {
    using T = std::remove_pointer_t<decltype(o)>;
    ParallelFor(rows, ThreadsFor(count, int64_t{1} << 16, threads), [&](int64_t begin,
                                                                           int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t* offset = offsets.data() + (row / rows_per_batch) * columns;
        const size_t c = static_cast<size_t>((row * columns / inner) % channels);
        const float row_scale = q.scales[by_column ? 0 : c];
        const float row_zp = static_cast<float>(q.zero_points[by_column ? 0 : c]);
        const int32_t* in = p + row * columns;
        T* out_row = o + row * columns;
        for (int64_t j = 0; j < columns; ++j) {
          const int64_t exact = int64_t{in[j]} - offset[j];
          // Two f32 operations, each rounded: plugrt's baseline x86-64
          // target has no FMA instruction to contract them into.
          const float scaled =
              static_cast<float>(exact) * (by_column ? column_scale[j] : row_scale);
          const float x = scaled + (by_column ? column_zp[j] : row_zp);
          out_row[j] = static_cast<T>(RoundClamp(x, lo_f, hi_f, q.storage_min, q.storage_max));
        }
      }
    });
  };
  switch (shlo::StorageBytes(q.storage)) {
    case 1: rescale(out.mutable_as<int8_t>()); break;
    case 2: rescale(out.mutable_as<int16_t>()); break;
    default: rescale(out.mutable_as<int32_t>()); break;
  }
  return out;
}

}  // namespace plugrt::cpu
