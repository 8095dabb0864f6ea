/* The autodiff C API (include/plugrt/autodiff_c_api.h) from C11: a tape's
 * gradient and its statistics, one-shot and persistent tapes, stop_gradient,
 * unconnected sources, a forward accumulator, and a VJP and a JVP written
 * here in C for a loaded function. Exits nonzero on the first failed check. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plugrt/autodiff_c_api.h"
#include "plugrt/eager_c_api.h"

static int failures = 0;

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

#define CHECK_CODE(status, code)                                                            \
  do {                                                                                      \
    if (PLUGRT_EagerGetCode(status) != (code)) {                                            \
      fprintf(stderr, "%s:%d: code %d, expected %d: %s\n", __FILE__, __LINE__,              \
              (int)PLUGRT_EagerGetCode(status), (int)(code), PLUGRT_EagerMessage(status)); \
      ++failures;                                                                           \
    }                                                                                       \
  } while (0)
#define CHECK_OK(status) CHECK_CODE(status, PLUGRT_EAGER_OK)

static PLUGRT_EagerTensorHandle* Doubles(PLUGRT_EagerContext* ctx, const double* v, int64_t n,
                                         PLUGRT_EagerStatus* s) {
  PLUGRT_EagerTensorHandle* h = PLUGRT_EagerNewTensorHandle(ctx, v, PJRT_Buffer_Type_F64, &n, 1,
                                                            NULL, s);
  CHECK_OK(s);
  return h;
}

/* `name` on one or two inputs; its single output (NULL on error). */
static PLUGRT_EagerTensorHandle* Run(PLUGRT_EagerContext* ctx, const char* name,
                                     const PLUGRT_EagerTensorHandle* a,
                                     const PLUGRT_EagerTensorHandle* b, PLUGRT_EagerStatus* s) {
  PLUGRT_EagerTensorHandle* out[1] = {NULL};
  int num = 1;
  PLUGRT_EagerOp* op = PLUGRT_EagerNewOp(ctx, name, s);
  if (PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerOpAddInput(op, a, s);
  if (b != NULL && PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerOpAddInput(op, b, s);
  if (PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerExecute(op, out, &num, s);
  PLUGRT_EagerDeleteOp(op);
  CHECK_OK(s);
  return out[0];
}

static int Near(const PLUGRT_EagerTensorHandle* h, const double* expected, int n) {
  double got[8];
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  int ok = h != NULL && n <= 8;
  if (ok) {
    PLUGRT_EagerTensorHandleToHost(h, got, sizeof(double) * (size_t)n, s);
    ok = PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK;
  }
  for (int i = 0; ok && i < n; ++i) ok = fabs(got[i] - expected[i]) < 1e-12;
  PLUGRT_EagerDeleteStatus(s);
  return ok;
}

static void TestTape(PLUGRT_EagerContext* ctx, PLUGRT_EagerStatus* s) {
  const double xv[3] = {1, 2, 3}, uv[2] = {5, 6};
  PLUGRT_EagerTensorHandle* x = Doubles(ctx, xv, 3, s);
  PLUGRT_EagerTensorHandle* u = Doubles(ctx, uv, 2, s);
  PLUGRT_Tape* tape = PLUGRT_NewTape(ctx, 1, s);
  CHECK_OK(s);
  PLUGRT_TapeWatch(tape, x);
  PLUGRT_TapeWatch(tape, u);
  CHECK(PLUGRT_TapeIsWatched(tape, x));
  PLUGRT_EagerTensorHandle* sq = Run(ctx, "stablehlo.multiply", x, x, s);
  PLUGRT_EagerTensorHandle* y = Run(ctx, "stablehlo.multiply", sq, x, s); /* x^3 */
  PLUGRT_EagerTensorHandle* unused = Run(ctx, "stablehlo.sine", x, NULL, s);
  CHECK(PLUGRT_TapeNumRecorded(tape) == 3);

  PLUGRT_EagerTensorHandle* sources[2] = {x, u};
  PLUGRT_EagerTensorHandle* grads[2] = {NULL, NULL};
  PLUGRT_TapeGradient(tape, &y, 1, sources, 2, NULL, PLUGRT_UNCONNECTED_NONE, grads, s);
  CHECK_OK(s);
  const double dy[3] = {3, 12, 27};
  CHECK(Near(grads[0], dy, 3));
  CHECK(grads[1] == NULL);
  PLUGRT_GradientStats stats;
  memset(&stats, 0, sizeof stats);
  stats.struct_size = PLUGRT_GradientStats_STRUCT_SIZE;
  PLUGRT_TapeLastStats(tape, &stats, s);
  CHECK_OK(s);
  CHECK(stats.ops_on_tape == 3 && stats.vjps_run == 2 && stats.ops_pruned == 1);
  PLUGRT_EagerDeleteTensorHandle(grads[0]);

  /* Weighted, and zeros for the unconnected source. */
  const double wv[3] = {1, 0, -1};
  PLUGRT_EagerTensorHandle* w = Doubles(ctx, wv, 3, s);
  PLUGRT_TapeGradient(tape, &y, 1, sources, 2, &w, PLUGRT_UNCONNECTED_ZERO, grads, s);
  CHECK_OK(s);
  const double dyw[3] = {3, 0, -27}, zeros[2] = {0, 0};
  CHECK(Near(grads[0], dyw, 3));
  CHECK(Near(grads[1], zeros, 2));
  PLUGRT_EagerDeleteTensorHandle(grads[0]);
  PLUGRT_EagerDeleteTensorHandle(grads[1]);

  /* Bad arguments. */
  PLUGRT_EagerTensorHandle* none[1] = {NULL};
  PLUGRT_TapeGradient(tape, none, 1, sources, 1, NULL, PLUGRT_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_TapeGradient(NULL, &y, 1, sources, 1, NULL, PLUGRT_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_DeleteTape(tape);

  /* One-shot, with stop_gradient: d/dx (x * stop(x)) = x. */
  PLUGRT_Tape* once = PLUGRT_NewTape(ctx, 0, s);
  PLUGRT_TapeWatch(once, x);
  PLUGRT_EagerTensorHandle* frozen = PLUGRT_StopGradient(ctx, x, s);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandle* z = Run(ctx, "stablehlo.multiply", x, frozen, s);
  PLUGRT_TapeGradient(once, &z, 1, &x, 1, NULL, PLUGRT_UNCONNECTED_NONE, grads, s);
  CHECK_OK(s);
  CHECK(Near(grads[0], xv, 3));
  PLUGRT_EagerDeleteTensorHandle(grads[0]);
  PLUGRT_TapeGradient(once, &z, 1, &x, 1, NULL, PLUGRT_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, PLUGRT_EAGER_FAILED_PRECONDITION);
  PLUGRT_DeleteTape(once);

  PLUGRT_EagerTensorHandle* handles[] = {x, u, sq, y, unused, w, frozen, z};
  for (size_t i = 0; i < sizeof handles / sizeof handles[0]; ++i) {
    PLUGRT_EagerDeleteTensorHandle(handles[i]);
  }
}

static void TestForward(PLUGRT_EagerContext* ctx, PLUGRT_EagerStatus* s) {
  const double xv[2] = {1, 2}, vv[2] = {1, 10};
  PLUGRT_EagerTensorHandle* x = Doubles(ctx, xv, 2, s);
  PLUGRT_EagerTensorHandle* v = Doubles(ctx, vv, 2, s);
  PLUGRT_ForwardAccumulator* acc = PLUGRT_NewForwardAccumulator(ctx, s);
  CHECK_OK(s);
  PLUGRT_ForwardAccumulatorWatch(acc, x, v, s);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandle* y = Run(ctx, "stablehlo.multiply", x, x, s);
  PLUGRT_EagerTensorHandle* jv = PLUGRT_ForwardAccumulatorJvp(acc, y, PLUGRT_UNCONNECTED_NONE, s);
  CHECK_OK(s);
  const double expected[2] = {2, 40};
  CHECK(Near(jv, expected, 2));
  /* v is not connected: no tangent, then zeros. */
  CHECK(PLUGRT_ForwardAccumulatorJvp(acc, v, PLUGRT_UNCONNECTED_NONE, s) == NULL);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandle* zero = PLUGRT_ForwardAccumulatorJvp(acc, v, PLUGRT_UNCONNECTED_ZERO, s);
  const double zeros[2] = {0, 0};
  CHECK(Near(zero, zeros, 2));
  PLUGRT_ForwardAccumulatorWatch(acc, x, NULL, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_DeleteForwardAccumulator(acc);
  PLUGRT_EagerTensorHandle* handles[] = {x, v, y, jv, zero};
  for (size_t i = 0; i < 5; ++i) PLUGRT_EagerDeleteTensorHandle(handles[i]);
}

/* d(cube)/dx = 3 x^2, in eager ops. */
static void CubeVjp(void* user_data, PLUGRT_EagerContext* ctx, const PLUGRT_EagerOp* op,
                    PLUGRT_EagerTensorHandle* const* outputs,
                    PLUGRT_EagerTensorHandle* const* output_gradients, int num_outputs,
                    PLUGRT_EagerTensorHandle** input_gradients, int num_inputs,
                    PLUGRT_EagerStatus* status) {
  (void)outputs;
  ++*(int*)user_data;
  if (num_outputs != 1 || num_inputs != 1) {
    PLUGRT_EagerSetStatus(status, PLUGRT_EAGER_INTERNAL, "cube: unexpected arity");
    return;
  }
  PLUGRT_EagerTensorHandle* x = PLUGRT_EagerOpGetInput(op, 0, 0, status);
  if (x == NULL) return;
  PLUGRT_EagerTensorHandle* xx = Run(ctx, "stablehlo.multiply", x, x, status);
  PLUGRT_EagerTensorHandle* three_xx = Run(ctx, "stablehlo.add", xx, xx, status);
  PLUGRT_EagerTensorHandle* d = Run(ctx, "stablehlo.add", three_xx, xx, status);
  input_gradients[0] = Run(ctx, "stablehlo.multiply", output_gradients[0], d, status);
  PLUGRT_EagerDeleteTensorHandle(x);
  PLUGRT_EagerDeleteTensorHandle(xx);
  PLUGRT_EagerDeleteTensorHandle(three_xx);
  PLUGRT_EagerDeleteTensorHandle(d);
}

/* d(cube) = 3 x^2 dx, in eager ops. */
static void CubeJvp(void* user_data, PLUGRT_EagerContext* ctx, const PLUGRT_EagerOp* op,
                    PLUGRT_EagerTensorHandle* const* outputs, int num_outputs,
                    PLUGRT_EagerTensorHandle* const* input_tangents, int num_inputs,
                    PLUGRT_EagerTensorHandle** output_tangents, PLUGRT_EagerStatus* status) {
  (void)outputs;
  ++*(int*)user_data;
  if (num_outputs != 1 || num_inputs != 1 || input_tangents[0] == NULL) {
    PLUGRT_EagerSetStatus(status, PLUGRT_EAGER_INTERNAL, "cube: unexpected arity");
    return;
  }
  PLUGRT_EagerTensorHandle* x = PLUGRT_EagerOpGetInput(op, 0, 0, status);
  if (x == NULL) return;
  PLUGRT_EagerTensorHandle* xx = Run(ctx, "stablehlo.multiply", x, x, status);
  PLUGRT_EagerTensorHandle* two_xx = Run(ctx, "stablehlo.add", xx, xx, status);
  PLUGRT_EagerTensorHandle* d = Run(ctx, "stablehlo.add", two_xx, xx, status);
  output_tangents[0] = Run(ctx, "stablehlo.multiply", input_tangents[0], d, status);
  PLUGRT_EagerDeleteTensorHandle(x);
  PLUGRT_EagerDeleteTensorHandle(xx);
  PLUGRT_EagerDeleteTensorHandle(two_xx);
  PLUGRT_EagerDeleteTensorHandle(d);
}

static void TestCVjp(PLUGRT_EagerContext* ctx, PLUGRT_EagerStatus* s) {
  PLUGRT_EagerContextLoadFunctions(
      ctx,
      "func.func @c_cube(%x: tensor<2xf64>) -> tensor<2xf64> {\n"
      "  %s = stablehlo.multiply %x, %x : tensor<2xf64>\n"
      "  %c = stablehlo.multiply %s, %x : tensor<2xf64>\n"
      "  return %c : tensor<2xf64>\n}\n",
      s);
  CHECK_OK(s);
  int calls = 0;
  PLUGRT_RegisterVjp(ctx, "c_cube", CubeVjp, &calls, 0, s);
  CHECK_OK(s);
  PLUGRT_RegisterVjp(ctx, "c_cube", CubeVjp, &calls, 0, s);
  CHECK_CODE(s, PLUGRT_EAGER_ALREADY_EXISTS);
  const double xv[2] = {2, -1};
  PLUGRT_EagerTensorHandle* x = Doubles(ctx, xv, 2, s);
  PLUGRT_Tape* tape = PLUGRT_NewTape(ctx, 0, s);
  PLUGRT_TapeWatch(tape, x);
  PLUGRT_EagerTensorHandle* y = Run(ctx, "c_cube", x, NULL, s);
  PLUGRT_EagerTensorHandle* g = NULL;
  PLUGRT_TapeGradient(tape, &y, 1, &x, 1, NULL, PLUGRT_UNCONNECTED_NONE, &g, s);
  CHECK_OK(s);
  const double expected[2] = {12, 3};
  CHECK(Near(g, expected, 2));
  CHECK(calls == 1);
  PLUGRT_DeleteTape(tape);

  /* Forward mode through the C JVP. */
  int jvp_calls = 0;
  PLUGRT_RegisterJvp(ctx, "c_cube", CubeJvp, &jvp_calls, 0, s);
  CHECK_OK(s);
  const double vv[2] = {1, 2};
  PLUGRT_EagerTensorHandle* v = Doubles(ctx, vv, 2, s);
  PLUGRT_ForwardAccumulator* acc = PLUGRT_NewForwardAccumulator(ctx, s);
  PLUGRT_ForwardAccumulatorWatch(acc, x, v, s);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandle* y2 = Run(ctx, "c_cube", x, NULL, s);
  PLUGRT_EagerTensorHandle* jv = PLUGRT_ForwardAccumulatorJvp(acc, y2, PLUGRT_UNCONNECTED_NONE, s);
  CHECK_OK(s);
  const double tangent[2] = {12, 6};
  CHECK(Near(jv, tangent, 2));
  CHECK(jvp_calls == 1);
  PLUGRT_DeleteForwardAccumulator(acc);
  PLUGRT_EagerDeleteTensorHandle(v);
  PLUGRT_EagerDeleteTensorHandle(y2);
  PLUGRT_EagerDeleteTensorHandle(jv);
  PLUGRT_EagerDeleteTensorHandle(x);
  PLUGRT_EagerDeleteTensorHandle(y);
  PLUGRT_EagerDeleteTensorHandle(g);
}

/* A trainable variable's reads are watched by the thread's tapes. */
static void TestVariables(PLUGRT_EagerContext* ctx, PLUGRT_EagerStatus* s) {
  const double wv[3] = {1, 2, 3};
  PLUGRT_EagerTensorHandle* init = Doubles(ctx, wv, 3, s);
  PLUGRT_EagerVariable* w = PLUGRT_EagerNewVariable("w", init, 1, s);
  CHECK_OK(s);
  PLUGRT_Tape* tape = PLUGRT_NewTape(ctx, 0, s);
  PLUGRT_EagerTensorHandle* value = PLUGRT_EagerVariableValue(w);
  CHECK(PLUGRT_TapeIsWatched(tape, value));
  PLUGRT_EagerTensorHandle* y = Run(ctx, "stablehlo.multiply", value, value, s);
  PLUGRT_EagerTensorHandle* g = NULL;
  PLUGRT_TapeGradient(tape, &y, 1, &value, 1, NULL, PLUGRT_UNCONNECTED_NONE, &g, s);
  CHECK_OK(s);
  const double twice[3] = {2, 4, 6};
  CHECK(Near(g, twice, 3));
  PLUGRT_DeleteTape(tape);

  const double short_v[2] = {1, 2};
  PLUGRT_EagerTensorHandle* wrong = Doubles(ctx, short_v, 2, s);
  PLUGRT_EagerVariableAssign(w, wrong, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerVariableAssign(w, g, s);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandle* now = PLUGRT_EagerVariableValue(w);
  CHECK(Near(now, twice, 3));
  CHECK(PLUGRT_EagerNewVariable(NULL, init, 1, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerDeleteVariable(w);
  PLUGRT_EagerDeleteTensorHandle(init);
  PLUGRT_EagerDeleteTensorHandle(value);
  PLUGRT_EagerDeleteTensorHandle(y);
  PLUGRT_EagerDeleteTensorHandle(g);
  PLUGRT_EagerDeleteTensorHandle(wrong);
  PLUGRT_EagerDeleteTensorHandle(now);
}

int main(void) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContextOptions options;
  memset(&options, 0, sizeof options);
  options.struct_size = PLUGRT_EagerContextOptions_STRUCT_SIZE;
  options.plugin_path = PLUGRT_CPU_PLUGIN_PATH;
  PLUGRT_EagerContext* ctx = PLUGRT_EagerNewContext(&options, s);
  CHECK_OK(s);
  if (ctx != NULL) {
    TestTape(ctx, s);
    TestForward(ctx, s);
    TestCVjp(ctx, s);
    TestVariables(ctx, s);
    CHECK(PLUGRT_NewTape(NULL, 0, s) == NULL);
    CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
    PLUGRT_EagerDeleteContext(ctx);
  }
  PLUGRT_EagerDeleteStatus(s);
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("autodiff C API: all checks passed\n");
  return 0;
}
