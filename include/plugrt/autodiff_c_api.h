/* plugrt autodiff C API: gradient tapes, forward accumulators and VJPs
 * registered from C, over the eager C API (eager_c_api.h), whose contexts,
 * tensor handles, ops and statuses it takes. A C wrapper of src/autodiff/
 * (tape.h, forward_accumulator.h, vjp_registry.h), which define what every
 * call does; the conventions are eager_c_api.h's (handles owned by the
 * caller and freed with the matching Delete call; a status last).
 *
 *   PLUGRT_Tape* tape = PLUGRT_NewTape(ctx, 0, s);
 *   PLUGRT_TapeWatch(tape, x);
 *   ... PLUGRT_EagerExecute ops on x, giving y ...
 *   PLUGRT_EagerTensorHandle* dx;
 *   PLUGRT_TapeGradient(tape, &y, 1, &x, 1, NULL, PLUGRT_UNCONNECTED_NONE, &dx, s);
 *   PLUGRT_DeleteTape(tape);
 *
 * Tapes and accumulators record the ops run on the thread that made them,
 * and are used on that thread.
 */
#ifndef PLUGRT_AUTODIFF_C_API_H_
#define PLUGRT_AUTODIFF_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "plugrt/eager_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PLUGRT_Tape PLUGRT_Tape;
typedef struct PLUGRT_ForwardAccumulator PLUGRT_ForwardAccumulator;

/* What a source no target depends on gets: NULL, or zeros shaped like it. */
typedef enum {
  PLUGRT_UNCONNECTED_NONE = 0,
  PLUGRT_UNCONNECTED_ZERO = 1
} PLUGRT_UnconnectedGradients;

/* ---- tapes ---------------------------------------------------------------- */

/* Starts recording on this thread. Nonzero `persistent`: many gradients. */
PLUGRT_Tape* PLUGRT_NewTape(PLUGRT_EagerContext* ctx, int persistent,
                            PLUGRT_EagerStatus* status);
void PLUGRT_DeleteTape(PLUGRT_Tape* tape);
void PLUGRT_TapeWatch(PLUGRT_Tape* tape, const PLUGRT_EagerTensorHandle* tensor);
int PLUGRT_TapeIsWatched(const PLUGRT_Tape* tape, const PLUGRT_EagerTensorHandle* tensor);
int64_t PLUGRT_TapeNumRecorded(const PLUGRT_Tape* tape);

/* d(targets)/d(sources): gradients[i] gets a new handle for source i, or
 * NULL where it has none (an integer source, or an unconnected one under
 * PLUGRT_UNCONNECTED_NONE). `output_gradients`: NULL (ones), or one per
 * target, each NULL (ones) or of the target's type and shape. */
void PLUGRT_TapeGradient(PLUGRT_Tape* tape, PLUGRT_EagerTensorHandle* const* targets,
                         int num_targets, PLUGRT_EagerTensorHandle* const* sources,
                         int num_sources, PLUGRT_EagerTensorHandle* const* output_gradients,
                         PLUGRT_UnconnectedGradients unconnected,
                         PLUGRT_EagerTensorHandle** gradients, PLUGRT_EagerStatus* status);

/* Counts of the tape's last gradient. */
typedef struct {
  size_t struct_size;
  int64_t ops_on_tape; /* recorded ops when it began */
  int64_t vjps_run;    /* ops whose VJP ran */
  int64_t ops_pruned;  /* ops on no path from a source to a target */
} PLUGRT_GradientStats;
#define PLUGRT_GradientStats_STRUCT_SIZE PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_GradientStats, ops_pruned)
void PLUGRT_TapeLastStats(const PLUGRT_Tape* tape, PLUGRT_GradientStats* stats,
                          PLUGRT_EagerStatus* status);

/* A tensor equal to `tensor` that gradients do not flow through. */
PLUGRT_EagerTensorHandle* PLUGRT_StopGradient(PLUGRT_EagerContext* ctx,
                                              const PLUGRT_EagerTensorHandle* tensor,
                                              PLUGRT_EagerStatus* status);

/* ---- forward accumulators -------------------------------------------------- */

PLUGRT_ForwardAccumulator* PLUGRT_NewForwardAccumulator(PLUGRT_EagerContext* ctx,
                                                        PLUGRT_EagerStatus* status);
void PLUGRT_DeleteForwardAccumulator(PLUGRT_ForwardAccumulator* acc);
/* `primal` gets `tangent` (its type and shape, floating point). */
void PLUGRT_ForwardAccumulatorWatch(PLUGRT_ForwardAccumulator* acc,
                                    const PLUGRT_EagerTensorHandle* primal,
                                    const PLUGRT_EagerTensorHandle* tangent,
                                    PLUGRT_EagerStatus* status);
/* The tangent of `tensor` (a new handle); NULL with OK status where it has
 * none under PLUGRT_UNCONNECTED_NONE. */
PLUGRT_EagerTensorHandle* PLUGRT_ForwardAccumulatorJvp(const PLUGRT_ForwardAccumulator* acc,
                                                       const PLUGRT_EagerTensorHandle* tensor,
                                                       PLUGRT_UnconnectedGradients unconnected,
                                                       PLUGRT_EagerStatus* status);

/* ---- VJPs and JVPs from C ---------------------------------------------------- */

/* A VJP: `op` (borrowed: read its inputs with PLUGRT_EagerOpGetInput, its
 * attributes with the ...GetAttr calls), its outputs and their gradients
 * (borrowed; a gradient is NULL for an integer output); fills
 * input_gradients[0..num_inputs) with new handles (NULL: none), flat in
 * input order, by running eager ops on `ctx` (so that an outer tape records
 * them). Errors go in `status`. */
typedef void (*PLUGRT_VjpFunction)(void* user_data, PLUGRT_EagerContext* ctx,
                                   const PLUGRT_EagerOp* op,
                                   PLUGRT_EagerTensorHandle* const* outputs,
                                   PLUGRT_EagerTensorHandle* const* output_gradients,
                                   int num_outputs, PLUGRT_EagerTensorHandle** input_gradients,
                                   int num_inputs, PLUGRT_EagerStatus* status);

/* Registers `vjp` for ops named `op` run on `ctx` (on another context it is
 * an error), process-wide. Nonzero `replace` overrides an earlier one;
 * otherwise that is ALREADY_EXISTS. The registration holds `ctx` and
 * `user_data`: it is for as long as both live (after the context is
 * deleted, register again, with `replace`, for another one before
 * differentiating that op). */
void PLUGRT_RegisterVjp(PLUGRT_EagerContext* ctx, const char* op, PLUGRT_VjpFunction vjp,
                        void* user_data, int replace, PLUGRT_EagerStatus* status);

/* A JVP: `op` (borrowed), its outputs, and the tangents of its inputs
 * (borrowed; NULL for none, flat in input order); fills
 * output_tangents[0..num_outputs) with new handles (NULL: none) by running
 * eager ops on `ctx`. Errors go in `status`. */
typedef void (*PLUGRT_JvpFunction)(void* user_data, PLUGRT_EagerContext* ctx,
                                   const PLUGRT_EagerOp* op,
                                   PLUGRT_EagerTensorHandle* const* outputs, int num_outputs,
                                   PLUGRT_EagerTensorHandle* const* input_tangents,
                                   int num_inputs, PLUGRT_EagerTensorHandle** output_tangents,
                                   PLUGRT_EagerStatus* status);

/* As PLUGRT_RegisterVjp, for forward mode. */
void PLUGRT_RegisterJvp(PLUGRT_EagerContext* ctx, const char* op, PLUGRT_JvpFunction jvp,
                        void* user_data, int replace, PLUGRT_EagerStatus* status);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_AUTODIFF_C_API_H_ */
