#include "cpu/kernels/reduce.h"

#include <cmath>
#include <type_traits>

namespace plugrt::cpu {
namespace {

template <typename D>
bool IsNan(const D& v) {
  if constexpr (std::is_floating_point_v<D>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// One binary op in domain D. Signed integers add and multiply through
// uint64_t so overflow wraps instead of being undefined.
template <typename D, ReduceKind K>
D Apply(D a, D b) {
  if constexpr (K == ReduceKind::kAdd) {
    if constexpr (std::is_same_v<D, int64_t>) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    } else {
      return a + b;
    }
  } else if constexpr (K == ReduceKind::kMultiply) {
    if constexpr (std::is_same_v<D, int64_t>) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    } else {
      return a * b;
    }
  } else if constexpr (K == ReduceKind::kMaximum || K == ReduceKind::kMinimum) {
    if constexpr (std::is_same_v<D, Complex>) {
      return a;  // excluded by ReduceKindSupports
    } else {
      // NaN propagates; +0 is larger than -0, as the spec's IEEE maximum.
      if (IsNan(a)) return a;
      if (IsNan(b)) return b;
      if constexpr (std::is_floating_point_v<D>) {
        if (a == b) {
          bool a_neg = std::signbit(a);
          if constexpr (K == ReduceKind::kMaximum) return a_neg ? b : a;
          return a_neg ? a : b;
        }
      }
      if constexpr (K == ReduceKind::kMaximum) return a < b ? b : a;
      return b < a ? b : a;
    }
  } else {
    if constexpr (std::is_integral_v<D>) {
      if constexpr (K == ReduceKind::kAnd) return a & b;
      if constexpr (K == ReduceKind::kOr) return a | b;
      return a ^ b;
    } else {
      return a;  // excluded by ReduceKindSupports
    }
  }
}

// Walks the input in row-major order keeping the matching output offset.
template <typename D, ReduceKind K>
void ReduceLoop(const std::vector<D>& in, const std::vector<int64_t>& dims,
                const std::vector<int64_t>& out_strides, std::vector<D>& out) {
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (in.empty()) return;
  if (rank == 0) {
    out[0] = Apply<D, K>(out[0], in[0]);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = dims[rank - 1];
  const int64_t inner_stride = out_strides[rank - 1];
  int64_t base = 0;  // output offset of index with the last coordinate zero
  size_t pos = 0;
  while (true) {
    int64_t o = base;
    for (int64_t i = 0; i < inner; ++i, o += inner_stride) {
      out[o] = Apply<D, K>(out[o], in[pos++]);
    }
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      base += out_strides[d];
      if (++index[d] < dims[d]) break;
      base -= out_strides[d] * dims[d];
      index[d] = 0;
    }
    if (d < 0) break;
  }
}

template <typename D>
Tensor ReduceFastIn(const Tensor& input, const Tensor& init, const std::vector<int64_t>& dimensions,
                    ReduceKind kind) {
  const std::vector<int64_t>& dims = input.dims();
  std::vector<bool> reduced(dims.size(), false);
  for (int64_t d : dimensions) reduced[d] = true;
  std::vector<int64_t> out_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out_dims.push_back(dims[d]);
  }
  std::vector<int64_t> compact = RowMajorStrides(out_dims);
  std::vector<int64_t> out_strides(dims.size(), 0);
  for (size_t d = 0, k = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out_strides[d] = compact[k++];
  }
  std::vector<D> in = ToDomain<D>(input);
  D init_value = ToDomain<D>(init)[0];
  std::vector<D> out(static_cast<size_t>(NumElements(out_dims)), init_value);
  switch (kind) {
    case ReduceKind::kAdd: ReduceLoop<D, ReduceKind::kAdd>(in, dims, out_strides, out); break;
    case ReduceKind::kMultiply:
      ReduceLoop<D, ReduceKind::kMultiply>(in, dims, out_strides, out);
      break;
    case ReduceKind::kMaximum:
      ReduceLoop<D, ReduceKind::kMaximum>(in, dims, out_strides, out);
      break;
    case ReduceKind::kMinimum:
      ReduceLoop<D, ReduceKind::kMinimum>(in, dims, out_strides, out);
      break;
    case ReduceKind::kAnd: ReduceLoop<D, ReduceKind::kAnd>(in, dims, out_strides, out); break;
    case ReduceKind::kOr: ReduceLoop<D, ReduceKind::kOr>(in, dims, out_strides, out); break;
    case ReduceKind::kXor: ReduceLoop<D, ReduceKind::kXor>(in, dims, out_strides, out); break;
  }
  return FromDomain<D>(init.type(), out_dims, out);
}

// Per dimension d: table[d][o * W_d + w] is the operand coordinate window
// position w of output position o reads, or -1 where it falls on padding or
// on a base-dilation hole.
std::vector<std::vector<int64_t>> WindowTables(const std::vector<int64_t>& operand_dims,
                                               const WindowGeometry& window,
                                               const std::vector<int64_t>& result_dims) {
  std::vector<std::vector<int64_t>> tables(operand_dims.size());
  for (size_t d = 0; d < operand_dims.size(); ++d) {
    const int64_t w_size = window.window_dimensions[d];
    std::vector<int64_t>& table = tables[d];
    table.assign(static_cast<size_t>(result_dims[d] * w_size), -1);
    for (int64_t o = 0; o < result_dims[d]; ++o) {
      for (int64_t w = 0; w < w_size; ++w) {
        int64_t pos = o * window.window_strides[d] + w * window.window_dilations[d] -
                      window.padding_low[d];
        if (pos < 0 || pos % window.base_dilations[d] != 0) continue;
        int64_t i = pos / window.base_dilations[d];
        if (i < operand_dims[d]) table[o * w_size + w] = i;
      }
    }
  }
  return tables;
}

// Calls fn(result_offset, operand_offset or -1) for every (output, window
// position) pair: outputs in row-major order, each output's window positions
// in row-major order.
template <typename Fn>
Status ForEachWindowElement(const std::vector<int64_t>& operand_dims, const WindowGeometry& window,
                            const std::vector<int64_t>& result_dims, Fn&& fn) {
  const size_t rank = operand_dims.size();
  std::vector<std::vector<int64_t>> tables = WindowTables(operand_dims, window, result_dims);
  std::vector<int64_t> strides = RowMajorStrides(operand_dims);
  const int64_t num_out = NumElements(result_dims);
  const int64_t num_window = NumElements(window.window_dimensions);
  if (num_out == 0) return OkStatus();
  std::vector<int64_t> o(rank, 0);
  for (int64_t out = 0; out < num_out; ++out) {
    std::vector<int64_t> w(rank, 0);
    for (int64_t k = 0; k < num_window; ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        int64_t c = tables[d][o[d] * window.window_dimensions[d] + w[d]];
        if (c < 0) {
          offset = -1;
          break;
        }
        offset += c * strides[d];
      }
      PLUGRT_RETURN_IF_ERROR(fn(out, offset));
      NextIndex(w, window.window_dimensions);
    }
    NextIndex(o, result_dims);
  }
  return OkStatus();
}

// Each step rounds to the element type, as the body's op on that type
// would: windows are small and their order is fixed, so this reproduces the
// spec's results bit for bit for narrow floats too.
template <typename D, ReduceKind K, StepRounding R>
std::vector<D> ReduceWindowLoopRounded(const Tensor& input, const Tensor& init,
                                       const WindowGeometry& window,
                                       const std::vector<int64_t>& result_dims) {
  const ElementType type = init.type();
  std::vector<D> in = ToDomain<D>(input);
  const D init_value = ToDomain<D>(init)[0];
  std::vector<D> out(static_cast<size_t>(NumElements(result_dims)), init_value);
  Status ignored = ForEachWindowElement(input.dims(), window, result_dims,
                                        [&](int64_t o, int64_t i) {
                                          out[o] = RoundStep<R>(Apply<D, K>(out[o], i < 0 ? init_value : in[i]), type);
                                          return OkStatus();
                                        });
  ignored.IgnoreError();  // the callback never fails
  return out;
}

template <typename D, ReduceKind K>
std::vector<D> ReduceWindowLoop(const Tensor& input, const Tensor& init,
                                const WindowGeometry& window,
                                const std::vector<int64_t>& result_dims) {
  switch (ElementStepRounding(init.type())) {
    case StepRounding::kNone:
      return ReduceWindowLoopRounded<D, K, StepRounding::kNone>(input, init, window, result_dims);
    case StepRounding::kFloat:
      return ReduceWindowLoopRounded<D, K, StepRounding::kFloat>(input, init, window, result_dims);
    case StepRounding::kElement: break;
  }
  return ReduceWindowLoopRounded<D, K, StepRounding::kElement>(input, init, window, result_dims);
}

template <typename D>
Tensor ReduceWindowFastIn(const Tensor& input, const Tensor& init, const WindowGeometry& window,
                          const std::vector<int64_t>& result_dims, ReduceKind kind) {
  std::vector<D> out;
  switch (kind) {
    case ReduceKind::kAdd:
      out = ReduceWindowLoop<D, ReduceKind::kAdd>(input, init, window, result_dims);
      break;
    case ReduceKind::kMultiply:
      out = ReduceWindowLoop<D, ReduceKind::kMultiply>(input, init, window, result_dims);
      break;
    case ReduceKind::kMaximum:
      out = ReduceWindowLoop<D, ReduceKind::kMaximum>(input, init, window, result_dims);
      break;
    case ReduceKind::kMinimum:
      out = ReduceWindowLoop<D, ReduceKind::kMinimum>(input, init, window, result_dims);
      break;
    case ReduceKind::kAnd:
      out = ReduceWindowLoop<D, ReduceKind::kAnd>(input, init, window, result_dims);
      break;
    case ReduceKind::kOr:
      out = ReduceWindowLoop<D, ReduceKind::kOr>(input, init, window, result_dims);
      break;
    case ReduceKind::kXor:
      out = ReduceWindowLoop<D, ReduceKind::kXor>(input, init, window, result_dims);
      break;
  }
  return FromDomain<D>(init.type(), result_dims, out);
}

Status CheckBodyResults(const std::vector<Tensor>& results, size_t expected) {
  if (results.size() != expected) {
    return InvalidArgument("body returned ", results.size(), " values, expected ", expected);
  }
  for (const Tensor& t : results) {
    if (t.num_elements() != 1) return InvalidArgument("body returned a non-scalar value");
  }
  return OkStatus();
}

}  // namespace

bool ReduceKindSupports(ReduceKind kind, ElementType type) {
  switch (kind) {
    case ReduceKind::kAdd:
    case ReduceKind::kMultiply: return true;
    case ReduceKind::kMaximum:
    case ReduceKind::kMinimum: return !shlo::IsComplex(type);
    default: return shlo::IsInteger(type) || shlo::IsBoolean(type);
  }
}

Tensor ReduceFast(const Tensor& input, const Tensor& init, const std::vector<int64_t>& dimensions,
                  ReduceKind kind) {
  switch (DomainOf(init.type())) {
    case Domain::kReal: return ReduceFastIn<double>(input, init, dimensions, kind);
    case Domain::kComplex: return ReduceFastIn<Complex>(input, init, dimensions, kind);
    case Domain::kSigned: return ReduceFastIn<int64_t>(input, init, dimensions, kind);
    case Domain::kUnsigned: break;
  }
  return ReduceFastIn<uint64_t>(input, init, dimensions, kind);
}

StatusOr<std::vector<Tensor>> ReduceWithBody(const std::vector<Tensor>& inputs,
                                             const std::vector<Tensor>& inits,
                                             const std::vector<int64_t>& dimensions,
                                             const ScalarBody& body) {
  const size_t n = inputs.size();
  if (n == 0 || inits.size() != n) return InvalidArgument("reduce needs N inputs and N inits");
  const std::vector<int64_t>& dims = inputs[0].dims();
  std::vector<bool> reduced(dims.size(), false);
  for (int64_t d : dimensions) reduced[d] = true;
  std::vector<int64_t> out_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out_dims.push_back(dims[d]);
  }
  std::vector<int64_t> compact = RowMajorStrides(out_dims);
  std::vector<int64_t> out_strides(dims.size(), 0);
  for (size_t d = 0, k = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out_strides[d] = compact[k++];
  }
  const int64_t num_out = NumElements(out_dims);
  // Accumulators per output element, as rank-0 tensors for the body.
  std::vector<std::vector<Tensor>> acc(static_cast<size_t>(num_out), inits);
  const int64_t num_in = inputs[0].num_elements();
  std::vector<int64_t> index(dims.size(), 0);
  std::vector<Tensor> args(2 * n);
  for (int64_t i = 0; i < num_in; ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < dims.size(); ++d) o += index[d] * out_strides[d];
    for (size_t k = 0; k < n; ++k) {
      args[k] = acc[o][k];
      args[n + k] = ScalarAt(inputs[k], i);
    }
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> next, body(args));
    PLUGRT_RETURN_IF_ERROR(CheckBodyResults(next, n));
    acc[o] = std::move(next);
    NextIndex(index, dims);
  }
  std::vector<Tensor> results;
  for (size_t k = 0; k < n; ++k) {
    Tensor r(inits[k].type(), out_dims);
    for (int64_t o = 0; o < num_out; ++o) {
      if (acc[o][k].type() != r.type()) {
        return InvalidArgument("body returned ", shlo::ElementTypeName(acc[o][k].type()),
                               ", expected ", shlo::ElementTypeName(r.type()));
      }
      StoreScalar(acc[o][k], r, o);
    }
    results.push_back(std::move(r));
  }
  return results;
}

StatusOr<std::vector<int64_t>> WindowResultDims(const std::vector<int64_t>& operand_dims,
                                                const WindowGeometry& w) {
  const size_t rank = operand_dims.size();
  if (w.window_dimensions.size() != rank || w.window_strides.size() != rank ||
      w.base_dilations.size() != rank || w.window_dilations.size() != rank ||
      w.padding_low.size() != rank || w.padding_high.size() != rank) {
    return InvalidArgument("window attributes must have one entry per dimension (", rank, ")");
  }
  std::vector<int64_t> dims(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (w.window_dimensions[d] <= 0 || w.window_strides[d] <= 0 || w.base_dilations[d] <= 0 ||
        w.window_dilations[d] <= 0) {
      return InvalidArgument("window sizes, strides and dilations must be positive (dimension ",
                             d, ")");
    }
    int64_t dilated = operand_dims[d] == 0 ? 0 : (operand_dims[d] - 1) * w.base_dilations[d] + 1;
    int64_t padded = dilated + w.padding_low[d] + w.padding_high[d];
    int64_t window = (w.window_dimensions[d] - 1) * w.window_dilations[d] + 1;
    dims[d] = padded < window ? 0 : (padded - window) / w.window_strides[d] + 1;
  }
  return dims;
}

Tensor ReduceWindowFast(const Tensor& input, const Tensor& init, const WindowGeometry& window,
                        const std::vector<int64_t>& result_dims, ReduceKind kind) {
  switch (DomainOf(init.type())) {
    case Domain::kReal: return ReduceWindowFastIn<double>(input, init, window, result_dims, kind);
    case Domain::kComplex:
      return ReduceWindowFastIn<Complex>(input, init, window, result_dims, kind);
    case Domain::kSigned: return ReduceWindowFastIn<int64_t>(input, init, window, result_dims, kind);
    case Domain::kUnsigned: break;
  }
  return ReduceWindowFastIn<uint64_t>(input, init, window, result_dims, kind);
}

StatusOr<std::vector<Tensor>> ReduceWindowWithBody(const std::vector<Tensor>& inputs,
                                                   const std::vector<Tensor>& inits,
                                                   const WindowGeometry& window,
                                                   const std::vector<int64_t>& result_dims,
                                                   const ScalarBody& body) {
  const size_t n = inputs.size();
  if (n == 0 || inits.size() != n) {
    return InvalidArgument("reduce_window needs N inputs and N inits");
  }
  const int64_t num_out = NumElements(result_dims);
  std::vector<std::vector<Tensor>> acc(static_cast<size_t>(num_out), inits);
  std::vector<Tensor> args(2 * n);
  PLUGRT_RETURN_IF_ERROR(ForEachWindowElement(
      inputs[0].dims(), window, result_dims, [&](int64_t o, int64_t i) -> Status {
        for (size_t k = 0; k < n; ++k) {
          args[k] = acc[o][k];
          args[n + k] = i < 0 ? inits[k] : ScalarAt(inputs[k], i);
        }
        PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> next, body(args));
        PLUGRT_RETURN_IF_ERROR(CheckBodyResults(next, n));
        acc[o] = std::move(next);
        return OkStatus();
      }));
  std::vector<Tensor> results;
  for (size_t k = 0; k < n; ++k) {
    Tensor r(inits[k].type(), result_dims);
    for (int64_t o = 0; o < num_out; ++o) {
      if (acc[o][k].type() != r.type()) return InvalidArgument("body returned a wrong type");
      StoreScalar(acc[o][k], r, o);
    }
    results.push_back(std::move(r));
  }
  return results;
}

StatusOr<Tensor> SelectAndScatter(const Tensor& operand, const Tensor& source, const Tensor& init,
                                  const WindowGeometry& window, const ScalarBody& select,
                                  const ScalarBody& scatter) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> windows, WindowResultDims(operand.dims(), window));
  if (windows != source.dims()) {
    return InvalidArgument("source shape does not match the number of windows");
  }
  const int64_t num_out = source.num_elements();
  // The selected operand offset of each window (-1: nothing selectable).
  std::vector<int64_t> selected(static_cast<size_t>(num_out), -1);
  std::vector<Tensor> args(2);
  PLUGRT_RETURN_IF_ERROR(ForEachWindowElement(
      operand.dims(), window, windows, [&](int64_t o, int64_t i) -> Status {
        if (i < 0) return OkStatus();
        if (selected[o] < 0) {
          selected[o] = i;
          return OkStatus();
        }
        args[0] = ScalarAt(operand, selected[o]);
        args[1] = ScalarAt(operand, i);
        PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> keep, select(args));
        PLUGRT_RETURN_IF_ERROR(CheckBodyResults(keep, 1));
        if (keep[0].type() != ElementType::kI1) return InvalidArgument("select must return i1");
        if (keep[0].as<uint8_t>()[0] == 0) selected[o] = i;
        return OkStatus();
      }));
  Tensor result(init.type(), operand.dims());
  for (int64_t i = 0; i < result.num_elements(); ++i) StoreScalar(init, result, i);
  for (int64_t o = 0; o < num_out; ++o) {
    if (selected[o] < 0) continue;
    args[0] = ScalarAt(result, selected[o]);
    args[1] = ScalarAt(source, o);
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> value, scatter(args));
    PLUGRT_RETURN_IF_ERROR(CheckBodyResults(value, 1));
    if (value[0].type() != result.type()) return InvalidArgument("scatter returned a wrong type");
    StoreScalar(value[0], result, selected[o]);
  }
  return result;
}

StatusOr<Tensor> Map(const std::vector<Tensor>& inputs, ElementType result_type,
                     const ScalarBody& body) {
  if (inputs.empty()) return InvalidArgument("map needs at least one input");
  Tensor result(result_type, inputs[0].dims());
  std::vector<Tensor> args(inputs.size());
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) args[k] = ScalarAt(inputs[k], i);
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> value, body(args));
    PLUGRT_RETURN_IF_ERROR(CheckBodyResults(value, 1));
    if (value[0].type() != result_type) return InvalidArgument("body returned a wrong type");
    StoreScalar(value[0], result, i);
  }
  return result;
}

}  // namespace plugrt::cpu
