#include "autodiff/forward_accumulator.h"

#include "autodiff/builtin_rules.h"
#include "autodiff/function_runner.h"
#include "autodiff/jvp_registry.h"
#include "autodiff/vjp_registry.h"

namespace plugrt::autodiff {

ForwardAccumulator::ForwardAccumulator(Context& ctx) : ctx_(ctx) {
  eager::AddThreadOpObserver(this);
}

ForwardAccumulator::~ForwardAccumulator() { eager::RemoveThreadOpObserver(this); }

Status ForwardAccumulator::Watch(const Tensor& primal, const Tensor& tangent) {
  if (!primal || !tangent) return InvalidArgument("ForwardAccumulator::Watch: an empty handle");
  PLUGRT_ASSIGN_OR_RETURN(eager::TensorType p, primal.type());
  PLUGRT_ASSIGN_OR_RETURN(eager::TensorType t, tangent.type());
  if (!IsDifferentiable(p.type)) {
    return InvalidArgument("ForwardAccumulator::Watch: a ", eager::ShortTypeText(p),
                           " tensor carries no tangent (only floating-point ones do)");
  }
  if (p != t) {
    return InvalidArgument("ForwardAccumulator::Watch: the tangent (", eager::ShortTypeText(t),
                           ") must have the primal's type (", eager::ShortTypeText(p), ")");
  }
  if (tangents_.insert_or_assign(Id(primal), tangent).second) primals_.push_back(primal);
  return OkStatus();
}

StatusOr<Tensor> ForwardAccumulator::Jvp(const Tensor& t, UnconnectedGradients unconnected) const {
  if (!t) return InvalidArgument("ForwardAccumulator::Jvp: the tensor handle is empty");
  auto it = tangents_.find(Id(t));
  if (it != tangents_.end()) return it->second;
  PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(t));
  if (unconnected == UnconnectedGradients::kZero && differentiable) {
    return TensorMath(ctx_).ZerosLike(t);
  }
  return Tensor();
}

Status ForwardAccumulator::OnExecuted(const eager::Op& op, std::span<const Tensor> outputs) {
  std::vector<Tensor> in_tangents;
  bool any = false;
  for (const Tensor& t : op.inputs()) {
    auto it = tangents_.find(Id(t));
    in_tangents.push_back(it == tangents_.end() ? Tensor() : it->second);
    any = any || it != tangents_.end();
  }
  if (!any) return OkStatus();
  JvpCall call{op, outputs, in_tangents};
  StatusOr<std::vector<Tensor>> out_tangents = [&]() -> StatusOr<std::vector<Tensor>> {
    if (const JvpFunction* jvp = FindJvp(op.name())) return (*jvp)(call);
    if (internal::ResolveVjp(op)) return internal::JvpByTransposedVjp(call);
    return Unimplemented("no JVP (nor VJP) is defined for ", op.name(),
                         ", which a tangent flows through (register one with RegisterJvp, "
                         "autodiff/jvp_registry.h)");
  }();
  if (!out_tangents.ok()) {
    return Status(out_tangents.status().code(),
                  "the tangent of " + op.name() + ": " + out_tangents.status().message());
  }
  if (out_tangents->size() != outputs.size()) {
    return InvalidArgument("the JVP of ", op.name(), " gave ", out_tangents->size(),
                           " tangents for ", outputs.size(), " outputs");
  }
  ++num_jvps_;
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (!(*out_tangents)[o]) continue;
    PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(outputs[o]));
    if (!differentiable) continue;
    PLUGRT_RETURN_IF_ERROR(CheckSameType(
        outputs[o], (*out_tangents)[o],
        StrCat("the tangent the JVP of ", op.name(), " gave output ", o)));
    tangents_.insert_or_assign(Id(outputs[o]), (*out_tangents)[o]);
    primals_.push_back(outputs[o]);
  }
  return OkStatus();
}

}  // namespace plugrt::autodiff
