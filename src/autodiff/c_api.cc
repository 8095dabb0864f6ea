// The autodiff C API (include/plugrt/autodiff_c_api.h): each call forwards to
// the C++ tape, accumulator or registry; only the C shape is here.
#include "plugrt/autodiff_c_api.h"

#include <memory>
#include <span>

#include "autodiff/forward_accumulator.h"
#include "autodiff/jvp_registry.h"
#include "autodiff/tape.h"
#include "autodiff/vjp_registry.h"
#include "eager/c_api_internal.h"

using plugrt::Status;
using plugrt::StatusOr;
using plugrt::autodiff::ForwardAccumulator;
using plugrt::autodiff::Tape;
using plugrt::autodiff::UnconnectedGradients;
using plugrt::eager::Tensor;

struct PLUGRT_Tape {
  std::unique_ptr<Tape> tape;
};

struct PLUGRT_ForwardAccumulator {
  std::unique_ptr<ForwardAccumulator> acc;
};

namespace {

void Set(PLUGRT_EagerStatus* out, Status status) {
  if (out != nullptr) out->status = std::move(status);
}

Status Null(const char* call) {
  return plugrt::InvalidArgument(call, ": a required argument is NULL or negative");
}

UnconnectedGradients Unconnected(PLUGRT_UnconnectedGradients u) {
  return u == PLUGRT_UNCONNECTED_ZERO ? UnconnectedGradients::kZero : UnconnectedGradients::kNone;
}

// Handles to tensors; an error naming the first NULL one.
StatusOr<std::vector<Tensor>> Tensors(PLUGRT_EagerTensorHandle* const* handles, int n,
                                      const char* what, bool null_ok) {
  std::vector<Tensor> tensors;
  for (int i = 0; i < n; ++i) {
    if (handles[i] == nullptr) {
      if (!null_ok) return plugrt::InvalidArgument("PLUGRT_TapeGradient: ", what, " ", i, " is NULL");
      tensors.emplace_back();
      continue;
    }
    tensors.push_back(handles[i]->tensor);
  }
  return tensors;
}

// Handles lent to a C callback for `tensors` (kept alive by `storage`);
// absent tensors are lent as NULL when `null_for_absent`.
std::vector<PLUGRT_EagerTensorHandle*> Lend(std::span<const Tensor> tensors,
                                            std::vector<PLUGRT_EagerTensorHandle>& storage,
                                            bool null_for_absent) {
  storage.clear();
  for (const Tensor& t : tensors) storage.push_back({t});
  std::vector<PLUGRT_EagerTensorHandle*> lent;
  for (PLUGRT_EagerTensorHandle& h : storage) {
    lent.push_back(null_for_absent && !h.tensor ? nullptr : &h);
  }
  return lent;
}

// The tensors of the handles a C callback returned, which it hands over
// (each deleted here; NULL gives an absent tensor).
std::vector<Tensor> TakeOver(const std::vector<PLUGRT_EagerTensorHandle*>& results) {
  std::vector<Tensor> taken;
  for (PLUGRT_EagerTensorHandle* h : results) {
    std::unique_ptr<PLUGRT_EagerTensorHandle> owned(h);
    taken.push_back(owned ? owned->tensor : Tensor());
  }
  return taken;
}

}  // namespace

PLUGRT_Tape* PLUGRT_NewTape(PLUGRT_EagerContext* ctx, int persistent, PLUGRT_EagerStatus* status) {
  if (ctx == nullptr) {
    Set(status, Null("PLUGRT_NewTape"));
    return nullptr;
  }
  Set(status, Status());
  return new PLUGRT_Tape{std::make_unique<Tape>(*ctx->ctx, persistent != 0)};
}

void PLUGRT_DeleteTape(PLUGRT_Tape* tape) { delete tape; }

void PLUGRT_TapeWatch(PLUGRT_Tape* tape, const PLUGRT_EagerTensorHandle* tensor) {
  if (tape != nullptr && tensor != nullptr) tape->tape->Watch(tensor->tensor);
}

int PLUGRT_TapeIsWatched(const PLUGRT_Tape* tape, const PLUGRT_EagerTensorHandle* tensor) {
  return tape != nullptr && tensor != nullptr && tape->tape->IsWatched(tensor->tensor);
}

int64_t PLUGRT_TapeNumRecorded(const PLUGRT_Tape* tape) {
  return tape == nullptr ? 0 : tape->tape->num_recorded();
}

void PLUGRT_TapeGradient(PLUGRT_Tape* tape, PLUGRT_EagerTensorHandle* const* targets,
                         int num_targets, PLUGRT_EagerTensorHandle* const* sources,
                         int num_sources, PLUGRT_EagerTensorHandle* const* output_gradients,
                         PLUGRT_UnconnectedGradients unconnected,
                         PLUGRT_EagerTensorHandle** gradients, PLUGRT_EagerStatus* status) {
  if (tape == nullptr || num_targets < 0 || num_sources < 0 ||
      (num_targets > 0 && targets == nullptr) ||
      (num_sources > 0 && (sources == nullptr || gradients == nullptr))) {
    return Set(status, Null("PLUGRT_TapeGradient"));
  }
  for (int i = 0; i < num_sources; ++i) gradients[i] = nullptr;
  StatusOr<std::vector<Tensor>> t = Tensors(targets, num_targets, "target", false);
  StatusOr<std::vector<Tensor>> s = Tensors(sources, num_sources, "source", false);
  StatusOr<std::vector<Tensor>> w = output_gradients == nullptr
                                        ? std::vector<Tensor>()
                                        : Tensors(output_gradients, num_targets, "", true);
  if (!t.ok()) return Set(status, t.status());
  if (!s.ok()) return Set(status, s.status());
  if (!w.ok()) return Set(status, w.status());
  StatusOr<std::vector<Tensor>> grads = tape->tape->Gradient(*t, *s, *w, Unconnected(unconnected));
  Set(status, grads.status());
  if (!grads.ok()) return;
  for (int i = 0; i < num_sources; ++i) {
    if ((*grads)[i]) gradients[i] = new PLUGRT_EagerTensorHandle{(*grads)[i]};
  }
}

void PLUGRT_TapeLastStats(const PLUGRT_Tape* tape, PLUGRT_GradientStats* stats,
                          PLUGRT_EagerStatus* status) {
  if (tape == nullptr || stats == nullptr) return Set(status, Null("PLUGRT_TapeLastStats"));
  if (stats->struct_size < PLUGRT_GradientStats_STRUCT_SIZE) {
    return Set(status, plugrt::InvalidArgument("PLUGRT_TapeLastStats: struct_size ",
                                               stats->struct_size, " is less than ",
                                               PLUGRT_GradientStats_STRUCT_SIZE));
  }
  const plugrt::autodiff::GradientStats& s = tape->tape->last_stats();
  stats->ops_on_tape = s.ops_on_tape;
  stats->vjps_run = s.vjps_run;
  stats->ops_pruned = s.ops_pruned;
  Set(status, Status());
}

PLUGRT_EagerTensorHandle* PLUGRT_StopGradient(PLUGRT_EagerContext* ctx,
                                              const PLUGRT_EagerTensorHandle* tensor,
                                              PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || tensor == nullptr) {
    Set(status, Null("PLUGRT_StopGradient"));
    return nullptr;
  }
  StatusOr<Tensor> stopped = plugrt::autodiff::StopGradient(*ctx->ctx, tensor->tensor);
  Set(status, stopped.status());
  return stopped.ok() ? new PLUGRT_EagerTensorHandle{*stopped} : nullptr;
}

PLUGRT_ForwardAccumulator* PLUGRT_NewForwardAccumulator(PLUGRT_EagerContext* ctx,
                                                        PLUGRT_EagerStatus* status) {
  if (ctx == nullptr) {
    Set(status, Null("PLUGRT_NewForwardAccumulator"));
    return nullptr;
  }
  Set(status, Status());
  return new PLUGRT_ForwardAccumulator{std::make_unique<ForwardAccumulator>(*ctx->ctx)};
}

void PLUGRT_DeleteForwardAccumulator(PLUGRT_ForwardAccumulator* acc) { delete acc; }

void PLUGRT_ForwardAccumulatorWatch(PLUGRT_ForwardAccumulator* acc,
                                    const PLUGRT_EagerTensorHandle* primal,
                                    const PLUGRT_EagerTensorHandle* tangent,
                                    PLUGRT_EagerStatus* status) {
  if (acc == nullptr || primal == nullptr || tangent == nullptr) {
    return Set(status, Null("PLUGRT_ForwardAccumulatorWatch"));
  }
  Set(status, acc->acc->Watch(primal->tensor, tangent->tensor));
}

PLUGRT_EagerTensorHandle* PLUGRT_ForwardAccumulatorJvp(const PLUGRT_ForwardAccumulator* acc,
                                                       const PLUGRT_EagerTensorHandle* tensor,
                                                       PLUGRT_UnconnectedGradients unconnected,
                                                       PLUGRT_EagerStatus* status) {
  if (acc == nullptr || tensor == nullptr) {
    Set(status, Null("PLUGRT_ForwardAccumulatorJvp"));
    return nullptr;
  }
  StatusOr<Tensor> jvp = acc->acc->Jvp(tensor->tensor, Unconnected(unconnected));
  Set(status, jvp.status());
  return jvp.ok() && *jvp ? new PLUGRT_EagerTensorHandle{*jvp} : nullptr;
}

void PLUGRT_RegisterVjp(PLUGRT_EagerContext* ctx, const char* op, PLUGRT_VjpFunction vjp,
                        void* user_data, int replace, PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || op == nullptr || vjp == nullptr) {
    return Set(status, Null("PLUGRT_RegisterVjp"));
  }
  plugrt::eager::Context* owner = ctx->ctx.get();
  auto call = [ctx, owner, vjp, user_data](const plugrt::autodiff::VjpCall& c)
      -> StatusOr<std::vector<Tensor>> {
    if (&c.context() != owner) {
      return plugrt::FailedPrecondition("the C VJP for ", c.op.name(),
                                        " was registered for another context");
    }
    PLUGRT_EagerOp lent;
    lent.op = &c.op;
    lent.ctx = ctx;
    // Borrowed handles for the callback; its results taken over.
    std::vector<PLUGRT_EagerTensorHandle> outs, grads;
    std::vector<PLUGRT_EagerTensorHandle*> out_ptrs = Lend(c.outputs, outs, false);
    std::vector<PLUGRT_EagerTensorHandle*> grad_ptrs = Lend(c.output_grads, grads, true);
    const size_t num_inputs = c.op.inputs().size();
    std::vector<PLUGRT_EagerTensorHandle*> results(num_inputs, nullptr);
    PLUGRT_EagerStatus s;
    vjp(user_data, ctx, &lent, out_ptrs.data(), grad_ptrs.data(), static_cast<int>(outs.size()),
        results.data(), static_cast<int>(num_inputs), &s);
    std::vector<Tensor> taken = TakeOver(results);
    if (!s.status.ok()) return s.status;
    return taken;
  };
  Set(status, plugrt::autodiff::RegisterVjp(op, std::move(call), replace != 0));
}

void PLUGRT_RegisterJvp(PLUGRT_EagerContext* ctx, const char* op, PLUGRT_JvpFunction jvp,
                        void* user_data, int replace, PLUGRT_EagerStatus* status) {
  if (ctx == nullptr || op == nullptr || jvp == nullptr) {
    return Set(status, Null("PLUGRT_RegisterJvp"));
  }
  plugrt::eager::Context* owner = ctx->ctx.get();
  auto call = [ctx, owner, jvp, user_data](const plugrt::autodiff::JvpCall& c)
      -> StatusOr<std::vector<Tensor>> {
    if (&c.context() != owner) {
      return plugrt::FailedPrecondition("the C JVP for ", c.op.name(),
                                        " was registered for another context");
    }
    PLUGRT_EagerOp lent;
    lent.op = &c.op;
    lent.ctx = ctx;
    std::vector<PLUGRT_EagerTensorHandle> outs, tangents;
    std::vector<PLUGRT_EagerTensorHandle*> out_ptrs = Lend(c.outputs, outs, false);
    std::vector<PLUGRT_EagerTensorHandle*> tangent_ptrs = Lend(c.input_tangents, tangents, true);
    std::vector<PLUGRT_EagerTensorHandle*> results(outs.size(), nullptr);
    PLUGRT_EagerStatus s;
    jvp(user_data, ctx, &lent, out_ptrs.data(), static_cast<int>(outs.size()),
        tangent_ptrs.data(), static_cast<int>(tangents.size()), results.data(), &s);
    std::vector<Tensor> taken = TakeOver(results);
    if (!s.status.ok()) return s.status;
    return taken;
  };
  Set(status, plugrt::autodiff::RegisterJvp(op, std::move(call), replace != 0));
}
