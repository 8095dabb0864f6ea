/* A test optimizer plugin, in C (the ABI's promise), built as one shared
 * library per TEST_OPTIMIZER_KIND (tests/CMakeLists.txt):
 *   0 good: "mul-to-add" (text) turns every stablehlo.multiply into
 *     stablehlo.add, checks the item, and turns constant folding off and
 *     CSE on; "bytecode-echo" (bytecode) checks the magic and hands the
 *     module back; one more optimizer for device type "gpu" (not run on CPU);
 *   1 bad_version: built for major 99;
 *   2 garbage: answers with bytes that are no program;
 *   3 invalid: answers with a program the verifier refuses;
 *   4 error: fails with UNIMPLEMENTED;
 *   5 duplicate: registers one name twice;
 *   6 no_init: exports no init function. */
#include <stdlib.h>
#include <string.h>

#include "plugrt/optimizer_c_api.h"

#ifndef TEST_OPTIMIZER_KIND
#define TEST_OPTIMIZER_KIND 0
#endif

static const PLUGRT_OptimizerApi* g_api;
static int g_created;

static void* Create(void* user_data) {
  ++g_created;
  return user_data;
}

static void Destroy(void* optimizer) { (void)optimizer; }

/* Replaces each `from` in `text` with `to` (same length or shorter). */
static char* Replace(const char* text, size_t size, const char* from, const char* to) {
  char* out = (char*)malloc(size + 1);
  size_t from_len = strlen(from), to_len = strlen(to), n = 0;
  for (size_t i = 0; i < size;) {
    if (i + from_len <= size && memcmp(text + i, from, from_len) == 0) {
      memcpy(out + n, to, to_len);
      n += to_len;
      i += from_len;
    } else {
      out[n++] = text[i++];
    }
  }
  out[n] = '\0';
  return out;
}

static void MulToAdd(void* optimizer, const char* module, size_t size,
                     const PLUGRT_OptimizerItem* item, PLUGRT_OptimizerOutput* output) {
  (void)optimizer;
  if (item->struct_size < PLUGRT_OPTIMIZER_ITEM_STRUCT_SIZE || strcmp(item->device_type, "cpu") != 0 ||
      strcmp(item->entry_function, "main") != 0 || item->num_replicas != 1 ||
      item->num_partitions != 1 || item->num_arguments != 2 || item->num_results != 1 ||
      strcmp(item->argument_types[0], "tensor<4xf32>") != 0) {
    g_api->Output_SetError(output, PLUGRT_OptimizerCode_INVALID_ARGUMENT,
                           "mul-to-add: the item does not describe the test program");
    return;
  }
  if (module[size] != '\0') {
    g_api->Output_SetError(output, PLUGRT_OptimizerCode_INVALID_ARGUMENT,
                           "mul-to-add: text is not NUL-terminated");
    return;
  }
  char* rewritten = Replace(module, size, "stablehlo.multiply", "stablehlo.add");
  g_api->Output_SetModule(output, rewritten, strlen(rewritten));
  free(rewritten);
}

static void BytecodeEcho(void* optimizer, const char* module, size_t size,
                         const PLUGRT_OptimizerItem* item, PLUGRT_OptimizerOutput* output) {
  (void)optimizer;
  (void)item;
  if (size < 4 || memcmp(module, "ML\xefR", 4) != 0) {
    g_api->Output_SetError(output, PLUGRT_OptimizerCode_INVALID_ARGUMENT,
                           "bytecode-echo: not MLIR bytecode");
    return;
  }
  g_api->Output_SetModule(output, module, size);
}

static void Garbage(void* optimizer, const char* module, size_t size,
                    const PLUGRT_OptimizerItem* item, PLUGRT_OptimizerOutput* output) {
  (void)optimizer, (void)module, (void)size, (void)item;
  const char* text = "this is not a program";
  g_api->Output_SetModule(output, text, strlen(text));
}

static void Invalid(void* optimizer, const char* module, size_t size,
                    const PLUGRT_OptimizerItem* item, PLUGRT_OptimizerOutput* output) {
  (void)optimizer, (void)module, (void)size, (void)item;
  const char* text =
      "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n"
      "}\n";
  g_api->Output_SetModule(output, text, strlen(text));
}

static void Refuse(void* optimizer, const char* module, size_t size,
                   const PLUGRT_OptimizerItem* item, PLUGRT_OptimizerOutput* output) {
  (void)optimizer, (void)module, (void)size, (void)item;
  g_api->Output_SetError(output, PLUGRT_OptimizerCode_UNIMPLEMENTED, "refuses every program");
}

static PLUGRT_OptimizerRegistration Registration(const char* name, PLUGRT_OptimizeFn optimize) {
  PLUGRT_OptimizerRegistration r;
  memset(&r, 0, sizeof(r));
  r.struct_size = PLUGRT_OPTIMIZER_REGISTRATION_STRUCT_SIZE;
  r.api_major = PLUGRT_OPTIMIZER_API_MAJOR;
  r.api_minor = PLUGRT_OPTIMIZER_API_MINOR;
  r.api_patch = PLUGRT_OPTIMIZER_API_PATCH;
  r.device_type = "cpu";
  r.name = name;
  r.module_format = PLUGRT_ModuleFormat_TEXT;
  r.optimize = optimize;
  return r;
}

#if TEST_OPTIMIZER_KIND != 6
PLUGRT_OPTIMIZER_EXPORT PLUGRT_OptimizerCode PLUGRT_OptimizerPlugin_Init(
    const PLUGRT_OptimizerApi* api, PLUGRT_OptimizerRegistrar* registrar) {
  g_api = api;
  PLUGRT_OptimizerCode code = PLUGRT_OptimizerCode_OK;
#if TEST_OPTIMIZER_KIND == 0
  PLUGRT_OptimizerConfigs configs;
  memset(&configs, 0, sizeof(configs));
  configs.struct_size = PLUGRT_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  configs.constant_folding = PLUGRT_PassSwitch_OFF;
  configs.common_subexpression_elimination = PLUGRT_PassSwitch_ON;
  PLUGRT_OptimizerRegistration r = Registration("mul-to-add", MulToAdd);
  r.configs = &configs;
  r.create = Create;
  r.user_data = &g_created;
  r.destroy = Destroy;
  code = api->Register(registrar, &r);
  if (code != PLUGRT_OptimizerCode_OK) return code;
  r = Registration("bytecode-echo", BytecodeEcho);
  r.module_format = PLUGRT_ModuleFormat_BYTECODE;
  code = api->Register(registrar, &r);
  if (code != PLUGRT_OptimizerCode_OK) return code;
  r = Registration("gpu-only", Refuse);
  r.device_type = "gpu";
  code = api->Register(registrar, &r);
  if (code != PLUGRT_OptimizerCode_OK || g_created != 1) return PLUGRT_OptimizerCode_INTERNAL;
#elif TEST_OPTIMIZER_KIND == 1
  PLUGRT_OptimizerRegistration r = Registration("from-the-future", Refuse);
  r.api_major = 99;
  code = api->Register(registrar, &r);
#elif TEST_OPTIMIZER_KIND == 2
  PLUGRT_OptimizerRegistration r = Registration("garbage", Garbage);
  code = api->Register(registrar, &r);
#elif TEST_OPTIMIZER_KIND == 3
  PLUGRT_OptimizerRegistration r = Registration("invalid", Invalid);
  code = api->Register(registrar, &r);
#elif TEST_OPTIMIZER_KIND == 4
  PLUGRT_OptimizerRegistration r = Registration("refuser", Refuse);
  code = api->Register(registrar, &r);
#elif TEST_OPTIMIZER_KIND == 5
  PLUGRT_OptimizerRegistration r = Registration("twice", Refuse);
  code = api->Register(registrar, &r);
  if (code == PLUGRT_OptimizerCode_OK) code = api->Register(registrar, &r);
#endif
  return code;
}
#endif
