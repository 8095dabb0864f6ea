// plugrt autodiff: TensorMath, the eager ops gradient rules are written in
// (add, multiply, broadcast, sums, constants shaped like a tensor, ...). Each
// call runs one eager op (or a few), so that a tape active while gradients
// are computed records them: second derivatives come from differentiating
// these ops like any others.
#ifndef PLUGRT_AUTODIFF_TENSOR_MATH_H_
#define PLUGRT_AUTODIFF_TENSOR_MATH_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eager/attribute.h"
#include "eager/context.h"
#include "eager/tensor.h"

namespace plugrt::autodiff {

using eager::Context;
using eager::Tensor;

// A tensor's identity in the tape's and the accumulator's maps: its state,
// which every handle to the tensor shares.
inline const void* Id(const Tensor& t) { return t.state().get(); }

// Whether gradients flow through tensors of this element type (the real
// floating-point ones; integers and booleans carry none).
bool IsDifferentiable(PJRT_Buffer_Type type);
// Whether `t` is of such a type (waits until it is resolved).
StatusOr<bool> IsDifferentiable(const Tensor& t);
// OK when `t` has the element type and dimensions of `like`; otherwise
// INVALID_ARGUMENT naming both, prefixed by `what` (a rule's gradient or
// tangent for a given slot: rules, users' among them, must answer in kind).
Status CheckSameType(const Tensor& like, const Tensor& t, std::string_view what);

class TensorMath {
 public:
  explicit TensorMath(Context& ctx) : ctx_(ctx) {}
  Context& context() const { return ctx_; }

  // Op `name` on single inputs `inputs` with `attrs`; its results.
  StatusOr<std::vector<Tensor>> Run(std::string_view name, const std::vector<Tensor>& inputs,
                                    const eager::AttrMap& attrs = {}) const;
  // The same, for an op of one result.
  StatusOr<Tensor> Run1(std::string_view name, const std::vector<Tensor>& inputs,
                        const eager::AttrMap& attrs = {}) const;

  StatusOr<Tensor> Add(const Tensor& a, const Tensor& b) const;
  StatusOr<Tensor> Sub(const Tensor& a, const Tensor& b) const;
  StatusOr<Tensor> Mul(const Tensor& a, const Tensor& b) const;
  StatusOr<Tensor> Div(const Tensor& a, const Tensor& b) const;
  StatusOr<Tensor> Neg(const Tensor& a) const;
  // `a` times the constant `c`.
  StatusOr<Tensor> Scale(const Tensor& a, double c) const;
  // `direction`: "EQ", "NE", "LT", "LE", "GT", "GE" (a pred tensor).
  StatusOr<Tensor> Compare(const Tensor& a, const Tensor& b, std::string_view direction) const;
  StatusOr<Tensor> Select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false) const;
  StatusOr<Tensor> Convert(const Tensor& a, PJRT_Buffer_Type type) const;

  // A tensor of `like`'s element type, dimensions and device holding `value`
  // everywhere.
  StatusOr<Tensor> Fill(const Tensor& like, double value) const;
  StatusOr<Tensor> ZerosLike(const Tensor& like) const { return Fill(like, 0.0); }
  StatusOr<Tensor> OnesLike(const Tensor& like) const { return Fill(like, 1.0); }
  // A tensor of `type` and `dims` on `device` holding `value` everywhere.
  StatusOr<Tensor> Filled(PJRT_Buffer_Type type, const std::vector<int64_t>& dims, double value,
                          const std::string& device) const;

  StatusOr<Tensor> Reshape(const Tensor& a, const std::vector<int64_t>& dims) const;
  StatusOr<Tensor> Transpose(const Tensor& a, const std::vector<int64_t>& permutation) const;
  StatusOr<Tensor> Broadcast(const Tensor& a, const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& broadcast_dimensions) const;
  // The sum over `dims` (the others kept, in order).
  StatusOr<Tensor> ReduceSum(const Tensor& a, const std::vector<int64_t>& dims) const;
  // The sum of every element (a scalar).
  StatusOr<Tensor> SumAll(const Tensor& a) const;
  StatusOr<Tensor> Slice(const Tensor& a, const std::vector<int64_t>& start,
                         const std::vector<int64_t>& limit,
                         const std::vector<int64_t>& strides) const;
  StatusOr<Tensor> Pad(const Tensor& a, const Tensor& value, const std::vector<int64_t>& low,
                       const std::vector<int64_t>& high,
                       const std::vector<int64_t>& interior) const;
  StatusOr<Tensor> DotGeneral(const Tensor& lhs, const Tensor& rhs,
                              const std::vector<int64_t>& lhs_batch,
                              const std::vector<int64_t>& rhs_batch,
                              const std::vector<int64_t>& lhs_contract,
                              const std::vector<int64_t>& rhs_contract) const;

 private:
  Context& ctx_;
};

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_TENSOR_MATH_H_
