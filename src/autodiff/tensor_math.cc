#include "autodiff/tensor_math.h"

#include <cstring>

#include "common/element_type.h"
#include "eager/op.h"

namespace plugrt::autodiff {

bool IsDifferentiable(PJRT_Buffer_Type type) { return KindOf(type) == ElementKind::kFloat; }

StatusOr<bool> IsDifferentiable(const Tensor& t) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, t.dtype());
  return IsDifferentiable(type);
}

Status CheckSameType(const Tensor& like, const Tensor& t, std::string_view what) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type want_type, like.dtype());
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type got_type, t.dtype());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> want_dims, like.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> got_dims, t.dims());
  if (want_type == got_type && want_dims == got_dims) return OkStatus();
  auto spell = [](PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
    std::string out(ElementTypeName(type));
    out += "[";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "]";
  };
  return InvalidArgument(what, " is ", spell(got_type, got_dims), ", expected ",
                         spell(want_type, want_dims));
}

StatusOr<std::vector<Tensor>> TensorMath::Run(std::string_view name,
                                              const std::vector<Tensor>& inputs,
                                              const eager::AttrMap& attrs) const {
  eager::Op op(ctx_, std::string(name));
  for (const auto& [key, value] : attrs) PLUGRT_RETURN_IF_ERROR(op.SetAttr(key, value));
  for (const Tensor& t : inputs) PLUGRT_RETURN_IF_ERROR(op.AddInput(t));
  return op.Execute();
}

StatusOr<Tensor> TensorMath::Run1(std::string_view name, const std::vector<Tensor>& inputs,
                                  const eager::AttrMap& attrs) const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out, Run(name, inputs, attrs));
  if (out.size() != 1) return Internal(name, " made ", out.size(), " results; expected one");
  return out[0];
}

StatusOr<Tensor> TensorMath::Add(const Tensor& a, const Tensor& b) const {
  return Run1("stablehlo.add", {a, b});
}
StatusOr<Tensor> TensorMath::Sub(const Tensor& a, const Tensor& b) const {
  return Run1("stablehlo.subtract", {a, b});
}
StatusOr<Tensor> TensorMath::Mul(const Tensor& a, const Tensor& b) const {
  return Run1("stablehlo.multiply", {a, b});
}
StatusOr<Tensor> TensorMath::Div(const Tensor& a, const Tensor& b) const {
  return Run1("stablehlo.divide", {a, b});
}
StatusOr<Tensor> TensorMath::Neg(const Tensor& a) const { return Run1("stablehlo.negate", {a}); }

StatusOr<Tensor> TensorMath::Scale(const Tensor& a, double c) const {
  PLUGRT_ASSIGN_OR_RETURN(Tensor k, Fill(a, c));
  return Mul(a, k);
}

StatusOr<Tensor> TensorMath::Compare(const Tensor& a, const Tensor& b,
                                     std::string_view direction) const {
  return Run1("stablehlo.compare", {a, b},
              {{"comparison_direction", std::string(direction)}});
}

StatusOr<Tensor> TensorMath::Select(const Tensor& pred, const Tensor& on_true,
                                    const Tensor& on_false) const {
  return Run1("stablehlo.select", {pred, on_true, on_false});
}

StatusOr<Tensor> TensorMath::Convert(const Tensor& a, PJRT_Buffer_Type type) const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type from, a.dtype());
  if (from == type) return a;
  return Run1("stablehlo.convert", {a}, {{"element_type", type}});
}

StatusOr<Tensor> TensorMath::Filled(PJRT_Buffer_Type type, const std::vector<int64_t>& dims,
                                    double value, const std::string& device) const {
  // A scalar constant (f32 or f64 bytes; other types converted from f64),
  // then broadcast: the broadcast's program depends on type and shape only,
  // so the per-op cache shares it across values.
  eager::DenseTensor dense;
  const PJRT_Buffer_Type spelled = type == PJRT_Buffer_Type_F32 ? type : PJRT_Buffer_Type_F64;
  dense.type = eager::TensorType{spelled, {}};
  if (spelled == PJRT_Buffer_Type_F32) {
    const float f = static_cast<float>(value);
    dense.data.resize(sizeof f);
    std::memcpy(dense.data.data(), &f, sizeof f);
  } else {
    dense.data.resize(sizeof value);
    std::memcpy(dense.data.data(), &value, sizeof value);
  }
  eager::Op constant(ctx_, "stablehlo.constant");
  PLUGRT_RETURN_IF_ERROR(constant.SetAttr("value", std::move(dense)));
  constant.SetDevice(device);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> scalar, constant.Execute());
  PLUGRT_ASSIGN_OR_RETURN(Tensor typed, Convert(scalar[0], type));
  if (dims.empty()) return typed;
  return Broadcast(typed, dims, {});
}

StatusOr<Tensor> TensorMath::Fill(const Tensor& like, double value) const {
  PLUGRT_ASSIGN_OR_RETURN(eager::TensorType type, like.type());
  for (int64_t d : type.dims) {
    if (d < 0) {
      return Unimplemented("a tensor shaped like ", like.device_name(),
                           "'s tensor of unknown dimensions (", eager::ShortTypeText(type),
                           ") cannot be made; gradients need static shapes");
    }
  }
  return Filled(type.type, type.dims, value, like.device_name());
}

StatusOr<Tensor> TensorMath::Reshape(const Tensor& a, const std::vector<int64_t>& dims) const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> have, a.dims());
  if (have == dims) return a;
  return Run1("stablehlo.reshape", {a}, {{"shape", eager::Shape{dims}}});
}

StatusOr<Tensor> TensorMath::Transpose(const Tensor& a,
                                       const std::vector<int64_t>& permutation) const {
  bool identity = true;
  for (size_t i = 0; i < permutation.size(); ++i) identity &= permutation[i] == int64_t(i);
  if (identity) return a;
  return Run1("stablehlo.transpose", {a}, {{"permutation", permutation}});
}

StatusOr<Tensor> TensorMath::Broadcast(const Tensor& a, const std::vector<int64_t>& dims,
                                       const std::vector<int64_t>& broadcast_dimensions) const {
  return Run1("stablehlo.broadcast_in_dim", {a},
              {{"shape", eager::Shape{dims}}, {"broadcast_dimensions", broadcast_dimensions}});
}

StatusOr<Tensor> TensorMath::ReduceSum(const Tensor& a, const std::vector<int64_t>& dims) const {
  if (dims.empty()) return a;
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, a.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, Filled(type, {}, 0.0, a.device_name()));
  eager::Op reduce(ctx_, "stablehlo.reduce");
  PLUGRT_RETURN_IF_ERROR(reduce.SetAttr("dimensions", dims));
  PLUGRT_RETURN_IF_ERROR(reduce.SetAttr("body", eager::Reducer::kAdd));
  PLUGRT_RETURN_IF_ERROR(reduce.AddInputList({a}));
  PLUGRT_RETURN_IF_ERROR(reduce.AddInputList({zero}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out, reduce.Execute());
  return out[0];
}

StatusOr<Tensor> TensorMath::SumAll(const Tensor& a) const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, a.dims());
  std::vector<int64_t> all;
  for (size_t d = 0; d < dims.size(); ++d) all.push_back(static_cast<int64_t>(d));
  return ReduceSum(a, all);
}

StatusOr<Tensor> TensorMath::Slice(const Tensor& a, const std::vector<int64_t>& start,
                                   const std::vector<int64_t>& limit,
                                   const std::vector<int64_t>& strides) const {
  return Run1("stablehlo.slice", {a},
              {{"start_indices", start}, {"limit_indices", limit}, {"strides", strides}});
}

StatusOr<Tensor> TensorMath::Pad(const Tensor& a, const Tensor& value,
                                 const std::vector<int64_t>& low,
                                 const std::vector<int64_t>& high,
                                 const std::vector<int64_t>& interior) const {
  return Run1("stablehlo.pad", {a, value},
              {{"edge_padding_low", low},
               {"edge_padding_high", high},
               {"interior_padding", interior}});
}

StatusOr<Tensor> TensorMath::DotGeneral(const Tensor& lhs, const Tensor& rhs,
                                        const std::vector<int64_t>& lhs_batch,
                                        const std::vector<int64_t>& rhs_batch,
                                        const std::vector<int64_t>& lhs_contract,
                                        const std::vector<int64_t>& rhs_contract) const {
  eager::AttrMap attrs;
  if (!lhs_batch.empty()) attrs["lhs_batching_dimensions"] = lhs_batch;
  if (!rhs_batch.empty()) attrs["rhs_batching_dimensions"] = rhs_batch;
  if (!lhs_contract.empty()) attrs["lhs_contracting_dimensions"] = lhs_contract;
  if (!rhs_contract.empty()) attrs["rhs_contracting_dimensions"] = rhs_contract;
  return Run1("stablehlo.dot_general", {lhs, rhs}, attrs);
}

}  // namespace plugrt::autodiff
