/* The eager C API (include/plugrt/eager_c_api.h) from C11: ops with typed
 * attributes and list inputs, tensors and the zero-copy deallocator, the
 * async executor, a custom device written here with C callbacks (and bad
 * registrations of it), the logging and parallel devices, errors, and the
 * example plugin. Exits nonzero on the first failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugrt/eager_c_api.h"

static int failures = 0;

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

#define CHECK_OK(status)                                                                 \
  do {                                                                                   \
    if (PLUGRT_EagerGetCode(status) != PLUGRT_EAGER_OK) {                                \
      fprintf(stderr, "%s:%d: not OK: %s\n", __FILE__, __LINE__, PLUGRT_EagerMessage(status)); \
      ++failures;                                                                        \
    }                                                                                    \
  } while (0)

#define CHECK_CODE(status, code)                                                   \
  do {                                                                             \
    if (PLUGRT_EagerGetCode(status) != (code)) {                                   \
      fprintf(stderr, "%s:%d: code %d, expected %d: %s\n", __FILE__, __LINE__,     \
              (int)PLUGRT_EagerGetCode(status), (int)(code), PLUGRT_EagerMessage(status)); \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

static PLUGRT_EagerContext* NewContext(const char* plugin, int64_t devices, int async,
                                       PLUGRT_EagerStatus* s) {
  const char* names[1] = {"cpu_device_count"};
  int64_t values[1];
  PLUGRT_EagerContextOptions options;
  memset(&options, 0, sizeof(options));
  values[0] = devices;
  options.struct_size = PLUGRT_EagerContextOptions_STRUCT_SIZE;
  options.plugin_path = plugin;
  options.int_option_names = names;
  options.int_option_values = values;
  options.num_int_options = devices > 0 ? 1 : 0;
  options.async = async;
  return PLUGRT_EagerNewContext(&options, s);
}

static PLUGRT_EagerTensorHandle* Floats(PLUGRT_EagerContext* ctx, const float* values, int64_t n,
                                        const char* device, PLUGRT_EagerStatus* s) {
  PLUGRT_EagerTensorHandle* h =
      PLUGRT_EagerNewTensorHandle(ctx, values, PJRT_Buffer_Type_F32, &n, 1, device, s);
  CHECK_OK(s);
  return h;
}

/* Runs a binary op; its single output (NULL on error, status set). */
static PLUGRT_EagerTensorHandle* Binary(PLUGRT_EagerContext* ctx, const char* name,
                                        const PLUGRT_EagerTensorHandle* a,
                                        const PLUGRT_EagerTensorHandle* b, const char* device,
                                        PLUGRT_EagerStatus* s) {
  PLUGRT_EagerTensorHandle* out[1] = {NULL};
  int num = 1;
  PLUGRT_EagerOp* op = PLUGRT_EagerNewOp(ctx, name, s);
  if (device != NULL) PLUGRT_EagerOpSetDevice(op, device);
  PLUGRT_EagerOpAddInput(op, a, s);
  if (PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerOpAddInput(op, b, s);
  if (PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerExecute(op, out, &num, s);
  PLUGRT_EagerDeleteOp(op);
  return PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK ? out[0] : NULL;
}

static int SameFloats(const PLUGRT_EagerTensorHandle* h, const float* expected, size_t n) {
  float got[16];
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  int same;
  PLUGRT_EagerTensorHandleToHost(h, got, n * sizeof(float), s);
  same = PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK && memcmp(got, expected, n * sizeof(float)) == 0;
  if (PLUGRT_EagerGetCode(s) != PLUGRT_EAGER_OK) fprintf(stderr, "%s\n", PLUGRT_EagerMessage(s));
  PLUGRT_EagerDeleteStatus(s);
  return same;
}

/* ---- ops, attributes, lists, errors ------------------------------------- */

static void TestOps(void) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContext* ctx = NewContext(PLUGRT_CPU_PLUGIN_PATH, 2, 0, s);
  const float av[4] = {1, 2, 3, 4}, bv[4] = {10, 20, 30, 40};
  const float sum[4] = {11, 22, 33, 44};
  PLUGRT_EagerTensorHandle *a, *b, *c, *out[2];
  PLUGRT_EagerOp* op;
  int num;
  char text[128];
  CHECK_OK(s);
  CHECK(PLUGRT_EagerContextNumDevices(ctx) == 2);
  CHECK(strcmp(PLUGRT_EagerContextDeviceName(ctx, 1), "cpu:1") == 0);
  CHECK(strcmp(PLUGRT_EagerContextDefaultDevice(ctx), "cpu:0") == 0);
  a = Floats(ctx, av, 4, NULL, s);
  b = Floats(ctx, bv, 4, "cpu:1", s);
  CHECK(strcmp(PLUGRT_EagerTensorHandleDeviceName(b), "cpu:1") == 0);
  c = Binary(ctx, "stablehlo.add", a, b, "cpu:1", s);
  CHECK_OK(s);
  CHECK(c != NULL && SameFloats(c, sum, 4));
  CHECK(PLUGRT_EagerTensorHandleDataType(c, s) == PJRT_Buffer_Type_F32);
  CHECK(PLUGRT_EagerTensorHandleNumDims(c, s) == 1 && PLUGRT_EagerTensorHandleDim(c, 0, s) == 4);
  PLUGRT_EagerTensorHandleDim(c, 3, s);
  CHECK_CODE(s, PLUGRT_EAGER_OUT_OF_RANGE);
  CHECK(PLUGRT_EagerTensorHandleOnDeviceSize(c, s) == 16);
  CHECK(PLUGRT_EagerTensorHandleSummary(c, text, sizeof(text)) == strlen(text));
  CHECK(strcmp(text, "f32[4] on cpu:1 [11, 22, 33, 44]") == 0);
  CHECK(PLUGRT_EagerTensorHandleSummary(c, text, 4) > 3 && strcmp(text, "f32") == 0);

  /* The placement policy: refuse names both devices. */
  PLUGRT_EagerContextSetPlacementPolicy(ctx, (PLUGRT_EagerPlacementPolicy)7, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerContextSetPlacementPolicy(ctx, PLUGRT_EAGER_PLACEMENT_REFUSE, s);
  CHECK_OK(s);
  CHECK(Binary(ctx, "stablehlo.add", a, b, NULL, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  CHECK(strstr(PLUGRT_EagerMessage(s), "cpu:1") != NULL);
  PLUGRT_EagerContextSetPlacementPolicy(ctx, PLUGRT_EAGER_PLACEMENT_COPY, s);

  /* A string attribute. */
  op = PLUGRT_EagerNewOp(ctx, "stablehlo.compare", s);
  PLUGRT_EagerOpSetAttrString(op, "comparison_direction", "LT", 2, s);
  CHECK_OK(s);
  PLUGRT_EagerOpAddInput(op, a, s);
  PLUGRT_EagerOpAddInput(op, c, s);
  num = 2;
  PLUGRT_EagerExecute(op, out, &num, s);
  CHECK_OK(s);
  CHECK(num == 1 && PLUGRT_EagerTensorHandleDataType(out[0], s) == PJRT_Buffer_Type_PRED);
  PLUGRT_EagerDeleteTensorHandle(out[0]);
  PLUGRT_EagerDeleteOp(op);

  /* A list input, its length, a built-in reducer and int lists. */
  {
    const PLUGRT_EagerTensorHandle* list[2];
    const int64_t dims0[1] = {0};
    const float zero = 0;
    PLUGRT_EagerTensorHandle* init;
    const float total[1] = {110};
    list[0] = a;
    list[1] = b;
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.concatenate", s);
    PLUGRT_EagerOpGetInputLength(op, "inputs", s);
    CHECK_CODE(s, PLUGRT_EAGER_FAILED_PRECONDITION);
    PLUGRT_EagerOpSetAttrInt(op, "dimension", 0, s);
    PLUGRT_EagerOpAddInputList(op, list, 2, s);
    CHECK_OK(s);
    CHECK(PLUGRT_EagerOpGetInputLength(op, "inputs", s) == 2);
    CHECK(PLUGRT_EagerOpGetOutputLength(op, "result", s) == 1);
    PLUGRT_EagerOpGetInputLength(op, "nope", s);
    CHECK_CODE(s, PLUGRT_EAGER_NOT_FOUND);
    num = 1;
    PLUGRT_EagerExecute(op, out, &num, s);
    CHECK_OK(s);
    CHECK(PLUGRT_EagerTensorHandleDim(out[0], 0, s) == 8);
    PLUGRT_EagerDeleteOp(op);

    init = PLUGRT_EagerNewTensorHandle(ctx, &zero, PJRT_Buffer_Type_F32, NULL, 0, NULL, s);
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.reduce", s);
    PLUGRT_EagerOpSetAttrIntList(op, "dimensions", dims0, 1, s);
    PLUGRT_EagerOpSetAttrReducer(op, "body", PLUGRT_EAGER_REDUCER_ADD, s);
    CHECK_OK(s);
    PLUGRT_EagerOpAddInputList(op, (const PLUGRT_EagerTensorHandle* const*)&out[0], 1, s);
    PLUGRT_EagerOpAddInputList(op, (const PLUGRT_EagerTensorHandle* const*)&init, 1, s);
    CHECK_OK(s);
    CHECK(PLUGRT_EagerOpNumOutputs(op, s) == 1);
    PLUGRT_EagerDeleteTensorHandle(out[0]);
    num = 1;
    PLUGRT_EagerExecute(op, out, &num, s);
    CHECK_OK(s);
    CHECK(num == 1 && SameFloats(out[0], total, 1));
    PLUGRT_EagerDeleteTensorHandle(out[0]);
    PLUGRT_EagerDeleteTensorHandle(init);
    PLUGRT_EagerDeleteOp(op);
  }

  /* Dense tensor, shape and element type attributes. */
  {
    const int32_t values[6] = {1, 2, 3, 4, 5, 6};
    const int64_t dims[2] = {2, 3}, reshaped[2] = {3, 2};
    PLUGRT_EagerTensorHandle* k;
    int64_t back[6];
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.constant", s);
    PLUGRT_EagerOpSetAttrTensor(op, "value", PJRT_Buffer_Type_S32, dims, 2, values, sizeof(values),
                                s);
    CHECK_OK(s);
    num = 1;
    PLUGRT_EagerExecute(op, out, &num, s);
    CHECK_OK(s);
    k = out[0];
    PLUGRT_EagerDeleteOp(op);
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.reshape", s);
    PLUGRT_EagerOpSetAttrShape(op, "shape", reshaped, 2, s);
    PLUGRT_EagerOpAddInput(op, k, s);
    num = 1;
    PLUGRT_EagerExecute(op, out, &num, s);
    CHECK_OK(s);
    PLUGRT_EagerDeleteOp(op);
    PLUGRT_EagerDeleteTensorHandle(k);
    k = out[0];
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.convert", s);
    PLUGRT_EagerOpSetAttrType(op, "element_type", PJRT_Buffer_Type_S64, s);
    PLUGRT_EagerOpAddInput(op, k, s);
    num = 1;
    PLUGRT_EagerExecute(op, out, &num, s);
    CHECK_OK(s);
    CHECK(PLUGRT_EagerTensorHandleDim(out[0], 0, s) == 3);
    PLUGRT_EagerTensorHandleToHost(out[0], back, sizeof(back), s);
    CHECK_OK(s);
    CHECK(back[0] == 1 && back[5] == 6);
    PLUGRT_EagerDeleteTensorHandle(out[0]);
    PLUGRT_EagerDeleteTensorHandle(k);
    PLUGRT_EagerDeleteOp(op);
  }

  /* Reading attributes back: names in order, kinds, typed reads, text. */
  {
    const int64_t list[3] = {1, 2, 3};
    int64_t got[2] = {0, 0};
    char buffer[32];
    op = PLUGRT_EagerNewOp(ctx, "stablehlo.add", s);
    PLUGRT_EagerOpSetAttrInt(op, "i", 7, s);
    PLUGRT_EagerOpSetAttrFloat(op, "f", 2.5, s);
    PLUGRT_EagerOpSetAttrBool(op, "b", 1, s);
    PLUGRT_EagerOpSetAttrString(op, "s", "hello", 5, s);
    PLUGRT_EagerOpSetAttrType(op, "t", PJRT_Buffer_Type_BF16, s);
    PLUGRT_EagerOpSetAttrIntList(op, "l", list, 3, s);
    CHECK_OK(s);
    CHECK(PLUGRT_EagerOpNumAttrs(op) == 6);
    CHECK(strcmp(PLUGRT_EagerOpAttrName(op, 0), "b") == 0);
    CHECK(PLUGRT_EagerOpAttrName(op, 6) == NULL);
    CHECK(strcmp(PLUGRT_EagerOpAttrKind(op, "l", s), "list(int)") == 0);
    CHECK(PLUGRT_EagerOpGetAttrInt(op, "i", s) == 7);
    CHECK(PLUGRT_EagerOpGetAttrFloat(op, "f", s) == 2.5);
    CHECK(PLUGRT_EagerOpGetAttrBool(op, "b", s) == 1);
    CHECK(PLUGRT_EagerOpGetAttrType(op, "t", s) == PJRT_Buffer_Type_BF16);
    CHECK(PLUGRT_EagerOpGetAttrString(op, "s", buffer, 4, s) == 5 && strcmp(buffer, "hel") == 0);
    CHECK(PLUGRT_EagerOpGetAttrIntList(op, "l", got, 2, s) == 3 && got[0] == 1 && got[1] == 2);
    CHECK_OK(s);
    PLUGRT_EagerOpAttrSummary(op, "l", buffer, sizeof(buffer), s);
    CHECK_OK(s);
    CHECK(strcmp(buffer, "[1, 2, 3]") == 0);
    PLUGRT_EagerOpGetAttrInt(op, "f", s);
    CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
    CHECK(strstr(PLUGRT_EagerMessage(s), "'f' must be int") != NULL);
    PLUGRT_EagerOpAttrKind(op, "nope", s);
    CHECK_CODE(s, PLUGRT_EAGER_NOT_FOUND);
    PLUGRT_EagerOpSetAttrReducer(op, "body", (PLUGRT_EagerReducer)9, s);
    CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
    PLUGRT_EagerDeleteOp(op);
  }

  /* Errors: an unknown op, an attribute of the wrong kind, no room for the
   * outputs, a verifier error naming the op. */
  op = PLUGRT_EagerNewOp(ctx, "stablehlo.no_such_op", s);
  CHECK_OK(s);
  PLUGRT_EagerOpAddInput(op, a, s);
  CHECK_CODE(s, PLUGRT_EAGER_UNIMPLEMENTED);
  CHECK(strstr(PLUGRT_EagerMessage(s), "stablehlo.no_such_op") != NULL);
  PLUGRT_EagerDeleteOp(op);
  op = PLUGRT_EagerNewOp(ctx, "stablehlo.concatenate", s);
  PLUGRT_EagerOpSetAttrFloat(op, "N", 2.5, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerDeleteOp(op);
  op = PLUGRT_EagerNewOp(ctx, "stablehlo.add", s);
  PLUGRT_EagerOpAddInput(op, a, s);
  PLUGRT_EagerOpAddInput(op, a, s);
  num = 0;
  PLUGRT_EagerExecute(op, out, &num, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  CHECK(num == 0);
  PLUGRT_EagerDeleteOp(op);
  {
    const float three[3] = {1, 2, 3};
    PLUGRT_EagerTensorHandle* odd = Floats(ctx, three, 3, NULL, s);
    CHECK(Binary(ctx, "stablehlo.add", a, odd, NULL, s) == NULL);
    CHECK(PLUGRT_EagerGetCode(s) != PLUGRT_EAGER_OK);
    CHECK(strstr(PLUGRT_EagerMessage(s), "stablehlo.add") != NULL);
    PLUGRT_EagerDeleteTensorHandle(odd);
  }
  {
    PLUGRT_EagerCacheStats stats;
    memset(&stats, 0, sizeof(stats));
    stats.struct_size = PLUGRT_EagerCacheStats_STRUCT_SIZE;
    PLUGRT_EagerContextGetCacheStats(ctx, &stats);
    CHECK(stats.misses >= 6 && stats.entries > 0 && stats.capacity == 512);
  }

  PLUGRT_EagerDeleteTensorHandle(a);
  PLUGRT_EagerDeleteTensorHandle(b);
  PLUGRT_EagerDeleteTensorHandle(c);
  PLUGRT_EagerDeleteContext(ctx);
  PLUGRT_EagerDeleteStatus(s);
}

/* ---- tensors: zero copy, npy, async ----------------------------------- */

static void CountCall(void* data, void* arg) {
  (void)data;
  ++*(int*)arg;
}

static void CopiedBack(const PLUGRT_EagerStatus* status, void* arg) {
  *(int*)arg = PLUGRT_EagerGetCode(status) == PLUGRT_EAGER_OK ? 1 : -1;
}

static void TestTensorsAndAsync(const char* plugin) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContext* ctx = NewContext(plugin, 0, 0, s);
  static float data[4] = {1, 2, 3, 4};
  const int64_t n = 4;
  int calls = 0, copied = 0;
  float back[4];
  PLUGRT_EagerTensorHandle *t, *loaded, *twice;
  PLUGRT_EagerExecutor* executor = PLUGRT_EagerContextGetExecutor(ctx);
  CHECK_OK(s);
  t = PLUGRT_EagerNewTensorHandleZeroCopy(ctx, data, PJRT_Buffer_Type_F32, &n, 1, CountCall,
                                          &calls, NULL, s);
  CHECK_OK(s);
  CHECK(SameFloats(t, data, 4));
  PLUGRT_EagerTensorHandleToHostAsync(t, back, sizeof(back), CopiedBack, &copied);
  PLUGRT_EagerTensorHandleAwait(t, s);
  CHECK_OK(s);
  /* A failed zero-copy creation calls the deallocator too. */
  CHECK(PLUGRT_EagerNewTensorHandleZeroCopy(ctx, data, PJRT_Buffer_Type_F32, &n, 1, CountCall,
                                            &calls, "nowhere:7", s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_NOT_FOUND);

  PLUGRT_EagerSaveNpy(ctx, t, "eager_c_api_test.npy", s);
  CHECK_OK(s);
  loaded = PLUGRT_EagerLoadNpy(ctx, "eager_c_api_test.npy", NULL, s);
  CHECK_OK(s);
  CHECK(loaded != NULL && SameFloats(loaded, data, 4));
  remove("eager_c_api_test.npy");

  /* The async executor: the op is queued; its handle resolves. */
  PLUGRT_EagerExecutorSetAsync(executor, 1, s);
  CHECK_OK(s);
  CHECK(PLUGRT_EagerExecutorIsAsync(executor) == 1);
  twice = Binary(ctx, "stablehlo.add", t, loaded, NULL, s);
  if (strcmp(plugin, PLUGRT_CPU_PLUGIN_PATH) == 0) {
    const float expected[4] = {2, 4, 6, 8};
    CHECK_OK(s);
    CHECK(twice != NULL && SameFloats(twice, expected, 4));
    PLUGRT_EagerExecutorWait(executor, s);
    CHECK_OK(s);
  } else {
    /* The example plugin compiles nothing: the queued op fails, clearly. */
    CHECK_OK(s);
    PLUGRT_EagerTensorHandleAwait(twice, s);
    CHECK_CODE(s, PLUGRT_EAGER_UNIMPLEMENTED);
    CHECK(strstr(PLUGRT_EagerMessage(s), "stablehlo.add") != NULL);
    PLUGRT_EagerExecutorWait(executor, s);
    CHECK_CODE(s, PLUGRT_EAGER_UNIMPLEMENTED);
  }
  PLUGRT_EagerDeleteTensorHandle(twice);
  PLUGRT_EagerDeleteTensorHandle(loaded);
  PLUGRT_EagerDeleteTensorHandle(t);
  PLUGRT_EagerDeleteContext(ctx);
  CHECK(calls == 2); /* exactly once per zero-copy tensor */
  CHECK(copied == 1);
  PLUGRT_EagerDeleteStatus(s);
}

/* ---- a custom device in C ------------------------------------------------ */

/* Its tensors wrap a handle of the physical device `target`. */
typedef struct {
  const char* name;
  const char* target;
  char last_direction[8]; /* a compare op's direction, read in execute */
  int ops;
  int tensors_freed;
  int deleted;
} Device;

typedef struct {
  PLUGRT_EagerTensorHandle* physical;
  Device* device;
} Wrapped;

static int WrappedNumDims(void* data, PLUGRT_EagerStatus* s) {
  return PLUGRT_EagerTensorHandleNumDims(((Wrapped*)data)->physical, s);
}
static int64_t WrappedDim(void* data, int index, PLUGRT_EagerStatus* s) {
  return PLUGRT_EagerTensorHandleDim(((Wrapped*)data)->physical, index, s);
}
static size_t WrappedSummary(void* data, char* buffer, size_t size) {
  (void)data;
  return (size_t)snprintf(buffer, size, "<wrapped>");
}
static void WrappedFree(void* data) {
  Wrapped* w = (Wrapped*)data;
  ++w->device->tensors_freed;
  PLUGRT_EagerDeleteTensorHandle(w->physical);
  free(w);
}

static PLUGRT_EagerTensorHandle* Wrap(PLUGRT_EagerContext* ctx, Device* device,
                                      PLUGRT_EagerTensorHandle* physical, PLUGRT_EagerStatus* s) {
  PLUGRT_EagerCustomTensorMethods methods;
  Wrapped* w = (Wrapped*)malloc(sizeof(Wrapped));
  PJRT_Buffer_Type type = PLUGRT_EagerTensorHandleDataType(physical, s);
  w->physical = physical;
  w->device = device;
  memset(&methods, 0, sizeof(methods));
  methods.struct_size = PLUGRT_EagerCustomTensorMethods_STRUCT_SIZE;
  methods.num_dims = WrappedNumDims;
  methods.dim = WrappedDim;
  methods.summarize = WrappedSummary;
  methods.deallocator = WrappedFree;
  return PLUGRT_EagerNewCustomTensorHandle(ctx, device->name, type, w, &methods, s);
}

static PLUGRT_EagerTensorHandle* CopyTo(PLUGRT_EagerContext* ctx,
                                        const PLUGRT_EagerTensorHandle* tensor,
                                        PLUGRT_EagerStatus* s, void* info) {
  Device* device = (Device*)info;
  PLUGRT_EagerTensorHandle* physical =
      PLUGRT_EagerTensorHandleCopyToDevice(tensor, ctx, device->target, s);
  return physical == NULL ? NULL : Wrap(ctx, device, physical, s);
}

static PLUGRT_EagerTensorHandle* CopyFrom(PLUGRT_EagerContext* ctx,
                                          const PLUGRT_EagerTensorHandle* tensor,
                                          const char* target, PLUGRT_EagerStatus* s, void* info) {
  Wrapped* w = (Wrapped*)PLUGRT_EagerTensorHandleCustomData(tensor);
  (void)info;
  return PLUGRT_EagerTensorHandleCopyToDevice(w->physical, ctx, target, s);
}

/* Counts the op and runs it on the target with the wrapped inputs. */
static void Execute(PLUGRT_EagerContext* ctx, const PLUGRT_EagerOp* op,
                    PLUGRT_EagerTensorHandle** outputs, int* num_outputs, PLUGRT_EagerStatus* s,
                    void* info) {
  Device* device = (Device*)info;
  PLUGRT_EagerOp* forwarded = PLUGRT_EagerNewOpLike(op, s);
  PLUGRT_EagerTensorHandle* physical[8];
  int g, i, num = *num_outputs;
  ++device->ops;
  if (PLUGRT_EagerOpNumAttrs(op) > 0 &&
      strcmp(PLUGRT_EagerOpAttrName(op, 0), "comparison_direction") == 0) {
    PLUGRT_EagerOpGetAttrString(op, "comparison_direction", device->last_direction,
                                sizeof(device->last_direction), s);
  }
  PLUGRT_EagerOpSetDevice(forwarded, device->target);
  for (g = 0; g < PLUGRT_EagerOpNumInputGroups(op); ++g) {
    const int size = PLUGRT_EagerOpInputGroupSize(op, g);
    for (i = 0; i < size && i < 8; ++i) {
      PLUGRT_EagerTensorHandle* input = PLUGRT_EagerOpGetInput(op, g, i, s);
      Wrapped* w = (Wrapped*)PLUGRT_EagerTensorHandleCustomData(input);
      physical[i] = w != NULL ? PLUGRT_EagerTensorHandleCopySharing(w->physical)
                              : PLUGRT_EagerTensorHandleCopySharing(input);
      PLUGRT_EagerDeleteTensorHandle(input);
    }
    if (PLUGRT_EagerOpInputGroupIsList(op, g)) {
      PLUGRT_EagerOpAddInputList(forwarded, (const PLUGRT_EagerTensorHandle* const*)physical, size,
                                 s);
    } else {
      PLUGRT_EagerOpAddInput(forwarded, physical[0], s);
    }
    for (i = 0; i < size && i < 8; ++i) PLUGRT_EagerDeleteTensorHandle(physical[i]);
    if (PLUGRT_EagerGetCode(s) != PLUGRT_EAGER_OK) break;
  }
  if (PLUGRT_EagerGetCode(s) == PLUGRT_EAGER_OK) PLUGRT_EagerExecute(forwarded, outputs, &num, s);
  PLUGRT_EagerDeleteOp(forwarded);
  if (PLUGRT_EagerGetCode(s) != PLUGRT_EAGER_OK) {
    *num_outputs = 0;
    return;
  }
  for (i = 0; i < num; ++i) outputs[i] = Wrap(ctx, device, outputs[i], s);
  *num_outputs = num;
}

static void DeleteDevice(void* info) { ++((Device*)info)->deleted; }

static int AlwaysPin(const PLUGRT_EagerOp* op, PLUGRT_EagerStatus* s, void* info) {
  (void)op;
  (void)s;
  (void)info;
  return 1;
}

static PLUGRT_EagerCustomDeviceCallbacks Callbacks(Device* device) {
  PLUGRT_EagerCustomDeviceCallbacks callbacks;
  memset(&callbacks, 0, sizeof(callbacks));
  callbacks.struct_size = PLUGRT_EagerCustomDeviceCallbacks_STRUCT_SIZE;
  callbacks.device_info = device;
  callbacks.copy_tensor_to_device = CopyTo;
  callbacks.copy_tensor_from_device = CopyFrom;
  callbacks.execute = Execute;
  callbacks.delete_device = DeleteDevice;
  return callbacks;
}

static void TestCustomDevice(void) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContext* ctx = NewContext(PLUGRT_CPU_PLUGIN_PATH, 2, 0, s);
  Device mine = {"mine", "cpu:1", "", 0, 0, 0}, bad = {"bad", "cpu:0", "", 0, 0, 0};
  Device pinning = {"pinning", "cpu:0", "", 0, 0, 0};
  Device unpinning = {"unpinning", "cpu:0", "", 0, 0, 0};
  PLUGRT_EagerCustomDeviceCallbacks callbacks = Callbacks(&mine);
  PLUGRT_EagerCustomDevice* registered;
  const float v[3] = {1, 2, 3}, twice[3] = {2, 4, 6}, thrice[3] = {3, 6, 9};
  PLUGRT_EagerTensorHandle *a, *on_mine, *sum, *product, *on_pin, *pinned;
  char text[64];
  CHECK_OK(s);
  registered = PLUGRT_EagerRegisterCustomDevice(ctx, "mine", &callbacks, s);
  CHECK_OK(s);
  CHECK(registered != NULL && strcmp(PLUGRT_EagerCustomDeviceName(registered), "mine") == 0);

  /* Bad registrations: each a clear error, each releasing its device. */
  callbacks = Callbacks(&bad);
  callbacks.execute = NULL;
  CHECK(PLUGRT_EagerRegisterCustomDevice(ctx, "bad", &callbacks, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  CHECK(strstr(PLUGRT_EagerMessage(s), "execute is NULL") != NULL);
  callbacks = Callbacks(&bad);
  callbacks.struct_size = sizeof(size_t) + sizeof(void*);
  CHECK(PLUGRT_EagerRegisterCustomDevice(ctx, "bad", &callbacks, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  CHECK(strstr(PLUGRT_EagerMessage(s), "struct_size") != NULL);
  callbacks = Callbacks(&bad);
  CHECK(PLUGRT_EagerRegisterCustomDevice(ctx, "mine", &callbacks, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_ALREADY_EXISTS);
  CHECK(bad.deleted == 2); /* the NULL-callback and the duplicate registrations */
  /* The older, smaller layout (without the optional callbacks) is accepted. */
  callbacks = Callbacks(&unpinning);
  callbacks.struct_size = PLUGRT_EagerCustomDeviceCallbacks_MIN_STRUCT_SIZE;
  callbacks.shall_pin_to_this_device = AlwaysPin; /* past struct_size: not read */
  CHECK(PLUGRT_EagerRegisterCustomDevice(ctx, "unpinning", &callbacks, s) != NULL);
  CHECK_OK(s);

  /* Routing: placed there, then following its input there. */
  a = Floats(ctx, v, 3, NULL, s);
  sum = Binary(ctx, "stablehlo.add", a, a, "mine", s);
  CHECK_OK(s);
  CHECK(sum != NULL && strcmp(PLUGRT_EagerTensorHandleDeviceName(sum), "mine") == 0);
  CHECK(SameFloats(sum, twice, 3));
  product = Binary(ctx, "stablehlo.add", sum, a, NULL, s);
  CHECK_OK(s);
  CHECK(product != NULL && SameFloats(product, thrice, 3));
  CHECK(mine.ops == 2);
  {
    /* The device reads the op's attributes. */
    PLUGRT_EagerOp* compare = PLUGRT_EagerNewOp(ctx, "stablehlo.compare", s);
    PLUGRT_EagerTensorHandle* out[1];
    int num = 1;
    unsigned char greater[3];
    PLUGRT_EagerOpSetAttrString(compare, "comparison_direction", "GT", 2, s);
    PLUGRT_EagerOpAddInput(compare, product, s);
    PLUGRT_EagerOpAddInput(compare, a, s);
    PLUGRT_EagerExecute(compare, out, &num, s);
    CHECK_OK(s);
    CHECK(strcmp(mine.last_direction, "GT") == 0);
    PLUGRT_EagerTensorHandleToHost(out[0], greater, sizeof(greater), s);
    CHECK_OK(s);
    CHECK(greater[0] == 1 && greater[2] == 1);
    PLUGRT_EagerDeleteTensorHandle(out[0]);
    PLUGRT_EagerDeleteOp(compare);
    CHECK(mine.ops == 3);
  }
  CHECK(PLUGRT_EagerTensorHandleNumDims(product, s) == 1 &&
        PLUGRT_EagerTensorHandleDim(product, 0, s) == 3);
  PLUGRT_EagerTensorHandleSummary(product, text, sizeof(text));
  CHECK(strcmp(text, "f32[3] on mine <wrapped>") == 0);
  on_mine = PLUGRT_EagerTensorHandleCopyToDevice(a, ctx, "mine", s);
  CHECK_OK(s);
  CHECK(on_mine != NULL && SameFloats(on_mine, v, 3));

  /* Inputs on two custom devices: an error naming both, unless one pins. */
  {
    PLUGRT_EagerTensorHandle* on_other =
        PLUGRT_EagerTensorHandleCopyToDevice(a, ctx, "unpinning", s);
    CHECK(Binary(ctx, "stablehlo.add", on_mine, on_other, NULL, s) == NULL);
    CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
    CHECK(strstr(PLUGRT_EagerMessage(s), "mine and unpinning") != NULL);
    PLUGRT_EagerDeleteTensorHandle(on_other);
  }
  callbacks = Callbacks(&pinning);
  callbacks.shall_pin_to_this_device = AlwaysPin;
  CHECK(PLUGRT_EagerRegisterCustomDevice(ctx, "pinning", &callbacks, s) != NULL);
  on_pin = PLUGRT_EagerTensorHandleCopyToDevice(a, ctx, "pinning", s);
  pinned = Binary(ctx, "stablehlo.add", on_mine, on_pin, NULL, s);
  CHECK_OK(s);
  CHECK(pinned != NULL && strcmp(PLUGRT_EagerTensorHandleDeviceName(pinned), "pinning") == 0);
  CHECK(pinned != NULL && SameFloats(pinned, twice, 3));
  CHECK(pinning.ops == 1);

  /* A custom tensor handle's deallocation: exactly once, with its handle. */
  {
    const int freed = mine.tensors_freed;
    PLUGRT_EagerTensorHandle* copy = PLUGRT_EagerTensorHandleCopySharing(sum);
    PLUGRT_EagerDeleteTensorHandle(sum);
    CHECK(mine.tensors_freed == freed);
    PLUGRT_EagerDeleteTensorHandle(copy);
    CHECK(mine.tensors_freed == freed + 1);
  }
  PLUGRT_EagerDeleteTensorHandle(product);
  PLUGRT_EagerDeleteTensorHandle(on_mine);
  PLUGRT_EagerDeleteTensorHandle(on_pin);
  PLUGRT_EagerDeleteTensorHandle(pinned);
  PLUGRT_EagerDeleteTensorHandle(a);
  CHECK(mine.deleted == 0);
  PLUGRT_EagerDeleteContext(ctx);
  CHECK(mine.deleted == 1 && pinning.deleted == 1 && unpinning.deleted == 1 && bad.deleted == 2);
  CHECK(mine.tensors_freed == 4); /* sum, product, on_mine, the compare's output */
  PLUGRT_EagerDeleteStatus(s);
}

/* ---- the logging and parallel devices -------------------------------------- */

static void TestLoggingAndParallel(void) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContext* ctx = NewContext(PLUGRT_CPU_PLUGIN_PATH, 2, 0, s);
  const char* components[2] = {"cpu:0", "cpu:1"};
  const float v0[2] = {1, 2}, v1[2] = {3, 4}, s0[2] = {2, 4}, s1[2] = {6, 8};
  PLUGRT_EagerCustomDevice *log, *par;
  PLUGRT_EagerTensorHandle *a, *b, *logged, *packed, *sum, *parts[2], *ids_out[1];
  const PLUGRT_EagerTensorHandle* both[2];
  PLUGRT_EagerOp* ids;
  int num;
  int64_t id;
  CHECK_OK(s);
  log = PLUGRT_EagerRegisterLoggingDevice(ctx, "log", "cpu:0", s);
  CHECK_OK(s);
  a = Floats(ctx, v0, 2, "cpu:0", s);
  b = Floats(ctx, v1, 2, "cpu:1", s);
  logged = Binary(ctx, "stablehlo.multiply", a, a, "log", s);
  CHECK_OK(s);
  CHECK(PLUGRT_EagerLoggingDeviceNumOps(log) == 1);
  CHECK(strcmp(PLUGRT_EagerLoggingDeviceOpName(log, 0), "stablehlo.multiply") == 0);
  CHECK(PLUGRT_EagerLoggingDeviceOpName(log, 1) == NULL);

  par = PLUGRT_EagerRegisterParallelDevice(ctx, "par", components, 2, s);
  CHECK_OK(s);
  CHECK(PLUGRT_EagerLoggingDeviceNumOps(par) == -1);
  both[0] = a;
  both[1] = b;
  packed = PLUGRT_EagerPack(ctx, both, 2, "par", s);
  CHECK_OK(s);
  sum = Binary(ctx, "stablehlo.add", packed, packed, NULL, s);
  CHECK_OK(s);
  num = 1;
  PLUGRT_EagerUnpack(sum, parts, &num, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT); /* no room for two */
  num = 2;
  PLUGRT_EagerUnpack(sum, parts, &num, s);
  CHECK_OK(s);
  CHECK(num == 2 && SameFloats(parts[0], s0, 2) && SameFloats(parts[1], s1, 2));
  CHECK(strcmp(PLUGRT_EagerTensorHandleDeviceName(parts[1]), "cpu:1") == 0);
  PLUGRT_EagerDeleteTensorHandle(parts[0]);
  PLUGRT_EagerDeleteTensorHandle(parts[1]);

  ids = PLUGRT_EagerNewOp(ctx, "plugrt.device_id", s);
  PLUGRT_EagerOpSetDevice(ids, "par");
  num = 1;
  PLUGRT_EagerExecute(ids, ids_out, &num, s);
  CHECK_OK(s);
  num = 2;
  PLUGRT_EagerUnpack(ids_out[0], parts, &num, s);
  CHECK_OK(s);
  PLUGRT_EagerTensorHandleToHost(parts[1], &id, sizeof(id), s);
  CHECK_OK(s);
  CHECK(id == 1);
  PLUGRT_EagerDeleteTensorHandle(parts[0]);
  PLUGRT_EagerDeleteTensorHandle(parts[1]);
  PLUGRT_EagerDeleteTensorHandle(ids_out[0]);
  PLUGRT_EagerDeleteOp(ids);
  /* A physical tensor is not a parallel one. */
  num = 2;
  PLUGRT_EagerUnpack(a, parts, &num, s);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);

  PLUGRT_EagerDeleteTensorHandle(sum);
  PLUGRT_EagerDeleteTensorHandle(packed);
  PLUGRT_EagerDeleteTensorHandle(logged);
  PLUGRT_EagerDeleteTensorHandle(a);
  PLUGRT_EagerDeleteTensorHandle(b);
  PLUGRT_EagerDeleteContext(ctx);
  PLUGRT_EagerDeleteStatus(s);
}

static void TestBadContext(void) {
  PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
  PLUGRT_EagerContextOptions options;
  memset(&options, 0, sizeof(options));
  options.struct_size = PLUGRT_EagerContextOptions_STRUCT_SIZE;
  options.plugin_path = "/no/such/plugin.so";
  CHECK(PLUGRT_EagerNewContext(&options, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_NOT_FOUND);
  options.struct_size = 4;
  CHECK(PLUGRT_EagerNewContext(&options, s) == NULL);
  CHECK_CODE(s, PLUGRT_EAGER_INVALID_ARGUMENT);
  PLUGRT_EagerSetStatus(s, PLUGRT_EAGER_ABORTED, "set by hand");
  CHECK_CODE(s, PLUGRT_EAGER_ABORTED);
  CHECK(strcmp(PLUGRT_EagerMessage(s), "set by hand") == 0);
  PLUGRT_EagerDeleteStatus(s);
}

int main(void) {
  TestOps();
  TestTensorsAndAsync(PLUGRT_CPU_PLUGIN_PATH);
  TestTensorsAndAsync(PLUGRT_EXAMPLE_PLUGIN_PATH);
  TestCustomDevice();
  TestLoggingAndParallel();
  TestBadContext();
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("eager C API: all checks passed\n");
  return 0;
}
