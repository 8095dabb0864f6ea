#include "autodiff/tape.h"

#include <unordered_map>

#include "autodiff/function_runner.h"
#include "autodiff/vjp_registry.h"

namespace plugrt::autodiff {

namespace {

// Adds `g` into `slot` (a sum for tensors used more than once).
Status Accumulate(const TensorMath& m, Tensor& slot, const Tensor& g) {
  if (!slot) {
    slot = g;
    return OkStatus();
  }
  PLUGRT_ASSIGN_OR_RETURN(slot, m.Add(slot, g));
  return OkStatus();
}

}  // namespace

Tape::Tape(Context& ctx, bool persistent, bool watch_accessed_variables)
    : ctx_(ctx), persistent_(persistent), watch_accessed_variables_(watch_accessed_variables) {
  eager::AddThreadOpObserver(this);
  eager::AddThreadVariableObserver(this);
}

Tape::~Tape() {
  eager::RemoveThreadVariableObserver(this);
  eager::RemoveThreadOpObserver(this);
}

void Tape::OnVariableRead(const eager::Variable&, const Tensor& value) {
  if (watch_accessed_variables_) Watch(value);
}

void Tape::Watch(const Tensor& t) {
  if (!t || spent_) return;
  if (watched_.insert(Id(t)).second) watched_tensors_.push_back(t);
}

bool Tape::IsWatched(const Tensor& t) const { return t && watched_.count(Id(t)) != 0; }

bool Tape::Tracks(const void* id) const { return watched_.count(id) != 0 || produced_.count(id) != 0; }

Status Tape::OnExecuted(const eager::Op& op, std::span<const Tensor> outputs) {
  if (spent_ || computing_) return OkStatus();
  bool connected = false;
  for (const Tensor& t : op.inputs()) connected = connected || Tracks(Id(t));
  if (!connected) return OkStatus();
  Entry entry{op, std::vector<Tensor>(outputs.begin(), outputs.end())};
  for (const Tensor& t : outputs) produced_.insert(Id(t));
  entries_.push_back(std::move(entry));
  return OkStatus();
}

StatusOr<std::vector<Tensor>> Tape::Gradient(const std::vector<Tensor>& targets,
                                             const std::vector<Tensor>& sources,
                                             const std::vector<Tensor>& output_gradients,
                                             UnconnectedGradients unconnected) {
  if (spent_) {
    return FailedPrecondition("this tape is not persistent and has computed its gradient; make "
                              "it persistent to compute more than one");
  }
  if (!output_gradients.empty() && output_gradients.size() != targets.size()) {
    return InvalidArgument("Gradient: ", output_gradients.size(), " output gradients for ",
                           targets.size(), " targets");
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (!targets[i]) return InvalidArgument("Gradient: target ", i, " is an empty handle");
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i]) return InvalidArgument("Gradient: source ", i, " is an empty handle");
  }
  computing_ = true;
  struct Done {
    Tape* tape;
    ~Done() {
      tape->computing_ = false;
      if (!tape->persistent_) {
        // One gradient only: what was recorded goes now.
        tape->spent_ = true;
        tape->entries_.clear();
        tape->watched_.clear();
        tape->produced_.clear();
        tape->watched_tensors_.clear();
      }
    }
  } done{this};
  stats_ = GradientStats{};
  stats_.ops_on_tape = static_cast<int64_t>(entries_.size());

  // Pruning: an op is differentiated only if it depends on a source and a
  // target depends on it.
  std::unordered_set<const void*> from_sources;
  for (const Tensor& s : sources) from_sources.insert(Id(s));
  std::vector<bool> relevant(entries_.size(), false);
  for (size_t i = 0; i < entries_.size(); ++i) {
    for (const Tensor& t : entries_[i].op.inputs()) relevant[i] = relevant[i] || from_sources.count(Id(t));
    if (relevant[i]) {
      for (const Tensor& t : entries_[i].outputs) from_sources.insert(Id(t));
    }
  }
  std::unordered_set<const void*> to_targets;
  for (const Tensor& t : targets) to_targets.insert(Id(t));
  for (size_t i = entries_.size(); i-- > 0;) {
    bool needed = false;
    for (const Tensor& t : entries_[i].outputs) needed = needed || to_targets.count(Id(t));
    relevant[i] = relevant[i] && needed;
    if (relevant[i]) {
      for (const Tensor& t : entries_[i].op.inputs()) to_targets.insert(Id(t));
    } else {
      ++stats_.ops_pruned;
    }
  }

  TensorMath m(ctx_);
  std::unordered_map<const void*, Tensor> grads;
  for (size_t i = 0; i < targets.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(targets[i]));
    if (!differentiable) continue;
    Tensor seed = output_gradients.empty() ? Tensor() : output_gradients[i];
    if (!seed) {
      PLUGRT_ASSIGN_OR_RETURN(seed, m.OnesLike(targets[i]));
    }
    PLUGRT_RETURN_IF_ERROR(Accumulate(m, grads[Id(targets[i])], seed));
  }

  for (size_t i = entries_.size(); i-- > 0;) {
    if (!relevant[i]) continue;
    const Entry& entry = entries_[i];
    std::vector<Tensor> out_grads(entry.outputs.size());
    bool any = false;
    for (size_t o = 0; o < entry.outputs.size(); ++o) {
      auto it = grads.find(Id(entry.outputs[o]));
      if (it != grads.end()) {
        out_grads[o] = it->second;
        any = true;
      }
    }
    if (!any) continue;
    // Outputs no gradient reached get zeros; those of integer types none.
    for (size_t o = 0; o < entry.outputs.size(); ++o) {
      if (out_grads[o]) continue;
      PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(entry.outputs[o]));
      if (differentiable) {
        PLUGRT_ASSIGN_OR_RETURN(out_grads[o], m.ZerosLike(entry.outputs[o]));
      }
    }
    const VjpFunction vjp = internal::ResolveVjp(entry.op);
    if (!vjp) {
      return Unimplemented("no gradient is defined for ", entry.op.name(),
                           ", which a gradient flows through (register one with RegisterVjp, "
                           "autodiff/vjp_registry.h)");
    }
    VjpCall call{entry.op, entry.outputs, out_grads};
    StatusOr<std::vector<Tensor>> in_grads = vjp(call);
    if (!in_grads.ok()) {
      return Status(in_grads.status().code(), "the gradient of " + entry.op.name() + ": " +
                                                  in_grads.status().message());
    }
    ++stats_.vjps_run;
    const std::span<const Tensor> inputs = entry.op.inputs();
    if (in_grads->size() != inputs.size()) {
      return InvalidArgument("the VJP of ", entry.op.name(), " gave ", in_grads->size(),
                             " gradients for ", inputs.size(), " inputs");
    }
    for (size_t j = 0; j < inputs.size(); ++j) {
      if (!(*in_grads)[j]) continue;
      PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(inputs[j]));
      if (!differentiable) continue;
      PLUGRT_RETURN_IF_ERROR(CheckSameType(
          inputs[j], (*in_grads)[j],
          StrCat("the gradient the VJP of ", entry.op.name(), " gave input ", j)));
      PLUGRT_RETURN_IF_ERROR(Accumulate(m, grads[Id(inputs[j])], (*in_grads)[j]));
    }
  }

  std::vector<Tensor> result;
  for (const Tensor& s : sources) {
    PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(s));
    auto it = grads.find(Id(s));
    if (!differentiable) {
      result.emplace_back();
    } else if (it != grads.end()) {
      result.push_back(it->second);
    } else if (unconnected == UnconnectedGradients::kZero) {
      PLUGRT_ASSIGN_OR_RETURN(Tensor z, m.ZerosLike(s));
      result.push_back(z);
    } else {
      result.emplace_back();
    }
  }
  return result;
}

StatusOr<Tensor> StopGradient(Context& ctx, const Tensor& t) {
  if (!t) return InvalidArgument("StopGradient: the tensor handle is empty");
  // An identity op no tape hears of: a new tensor, unconnected.
  StopRecording pause;
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, t.dtype());
  return TensorMath(ctx).Run1("stablehlo.convert", {t}, {{"element_type", type}});
}

}  // namespace plugrt::autodiff
