/* plugrt optimizer plugin ABI: program optimizers for a device type, loaded
 * from shared libraries at client creation.
 *
 * An optimizer plugin is a shared library that exports one function,
 * PLUGRT_OptimizerPlugin_Init (PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL). The
 * runtime calls it once for each client that loads the library, with the
 * runtime's function table (PLUGRT_OptimizerApi) and a registrar; the plugin
 * registers optimizers, each for one device type ("cpu", or a PJRT plugin's
 * platform name; "host" is the same as "cpu"). A client runs the optimizers
 * registered for its device type, in registration order, on every program it
 * compiles:
 *
 *   read -> verify -> shape refinement (polymorphic programs: at the first
 *   call with concrete shapes) -> OPTIMIZER PLUGINS -> verify -> lowering
 *   (quantized types, CHLO) -> built-in passes -> execution plan
 *
 * so an optimizer sees the program as the framework wrote it, with static
 * shapes, and its output is verified like any program: an optimizer that
 * returns an invalid module fails the compile with the optimizer's name and
 * the verifier's message.
 *
 * The module crosses the boundary serialized, in the format the registration
 * asks for (StableHLO text, or MLIR bytecode in the VHLO dialect as
 * jax.export writes it); the optimizer answers with a new module in either
 * format (told apart by the bytecode magic) through
 * api->Output_SetModule, which copies the bytes: no memory changes hands.
 * An optimizer that sets neither a module nor an error leaves the program as
 * it was.
 *
 * Configs. A registration may carry a PLUGRT_OptimizerConfigs: a tri-state
 * switch (default / on / off) for each of the runtime's built-in passes
 * (PLUGRT_OPTIMIZER_BUILTIN_PASSES below names them). The switches of every
 * optimizer of a device type and the user's own (compile option
 * env_option_overrides["plugrt_passes"], environment PLUGRT_PASSES, both as
 * "name=on|off|default,...") merge: any explicit off wins over on; a plugin's
 * on against a user's off, or the other way round, is reported as a warning
 * naming both in the compile's pass report.
 *
 * Versions. PLUGRT_OPTIMIZER_API_MAJOR changes when a layout or meaning
 * changes incompatibly, PLUGRT_OPTIMIZER_API_MINOR when fields are appended,
 * PLUGRT_OPTIMIZER_API_PATCH for fixes. Each registration carries the version
 * the plugin was built against; the runtime refuses a registration whose major
 * differs from its own or whose minor is newer, naming both versions. Every
 * struct begins with struct_size so either side can tell which fields the
 * other has.
 *
 * The plugin links against nothing of plugrt. Usable from C (C11) and C++.
 * C++ exceptions must not leave a callback (the runtime catches those that
 * do and fails the compile, but a plugin built with another C++ runtime
 * cannot be caught). Optimize may run concurrently for several compiles.
 */
#ifndef PLUGRT_OPTIMIZER_C_API_H_
#define PLUGRT_OPTIMIZER_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLUGRT_OPTIMIZER_API_MAJOR 1
#define PLUGRT_OPTIMIZER_API_MINOR 0
#define PLUGRT_OPTIMIZER_API_PATCH 0

/* The init function every optimizer plugin exports, by this name. */
#define PLUGRT_OPTIMIZER_PLUGIN_INIT_SYMBOL "PLUGRT_OptimizerPlugin_Init"

#if defined(_WIN32)
#define PLUGRT_OPTIMIZER_EXPORT __declspec(dllexport)
#else
#define PLUGRT_OPTIMIZER_EXPORT __attribute__((visibility("default")))
#endif

/* The size of a struct up to and including `last_field`, for struct_size. */
#define PLUGRT_OPTIMIZER_STRUCT_SIZE(type, last_field) \
  (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

/* The runtime's built-in passes a config can switch, in pipeline order:
 * X(config field, pass name as `plugrt compile --passes` shows it). Rows
 * are only ever appended (new fields at the end of PLUGRT_OptimizerConfigs).
 *   algebraic-simplification: exact identities (x+(-0.0), x*1, x-0, x/1,
 *     -(-x), reshape/transpose/convert/broadcast/slice that change nothing);
 *   cse: pure ops with equal operands and attributes computed once;
 *   dead-code-elimination: pure ops nothing reads removed;
 *   constant-folding: small pure ops over constants evaluated at compile
 *     time (while the execution plan is built);
 *   elementwise-fusion: elementwise chains run as one loop;
 *   in-place-reuse: results written into the memory of operands that die at
 *     that op (donated inputs, intermediates at their last use);
 *   transpose-folding: a dot_general reads a transposed operand through
 *     its dimension numbers instead of a transposed copy;
 *   inlining: func.call and stablehlo.composite replaced by the body they
 *     call (the first module pass), so fusion and folding see across them;
 *   while-loop-hoisting: work a while loop repeats on values that do not
 *     change between iterations done once before it (invariant ops; a scan's
 *     per-step product of an invariant operand's row t as one product);
 *   convolution-epilogue: the fused elementwise chain after a convolution
 *     (batch norm, bias, residual add, relu, clamp) done by the convolution:
 *     batch norm folded into its weights and a bias (rounding differs from
 *     the unfused ops), the rest applied as it stores its result (a NaN
 *     reaching a fused max/min comes out as the other operand, as in
 *     oneDNN). */
#define PLUGRT_OPTIMIZER_BUILTIN_PASSES(X)                        \
  X(algebraic_simplification, "algebraic-simplification")         \
  X(common_subexpression_elimination, "cse")                      \
  X(dead_code_elimination, "dead-code-elimination")               \
  X(constant_folding, "constant-folding")                         \
  X(elementwise_fusion, "elementwise-fusion")                     \
  X(in_place_reuse, "in-place-reuse")                             \
  X(transpose_folding, "transpose-folding")                       \
  X(inlining, "inlining")                                         \
  X(while_loop_hoisting, "while-loop-hoisting")                   \
  X(convolution_epilogue, "convolution-epilogue")

typedef enum PLUGRT_PassSwitch {
  PLUGRT_PassSwitch_DEFAULT = 0, /* the runtime decides (every built-in pass is on) */
  PLUGRT_PassSwitch_ON = 1,
  PLUGRT_PassSwitch_OFF = 2
} PLUGRT_PassSwitch;

/* One switch per built-in pass; fields follow PLUGRT_OPTIMIZER_BUILTIN_PASSES
 * (the first is algebraic_simplification). Zero-initialized: all default. */
typedef struct PLUGRT_OptimizerConfigs {
  size_t struct_size; /* PLUGRT_OPTIMIZER_CONFIGS_STRUCT_SIZE */
#define PLUGRT_OPTIMIZER_CONFIG_FIELD_(field, name) PLUGRT_PassSwitch field;
  PLUGRT_OPTIMIZER_BUILTIN_PASSES(PLUGRT_OPTIMIZER_CONFIG_FIELD_)
#undef PLUGRT_OPTIMIZER_CONFIG_FIELD_
} PLUGRT_OptimizerConfigs;
#define PLUGRT_OPTIMIZER_CONFIGS_STRUCT_SIZE \
  PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerConfigs, convolution_epilogue)

typedef enum PLUGRT_ModuleFormat {
  PLUGRT_ModuleFormat_TEXT = 0,     /* StableHLO MLIR text */
  PLUGRT_ModuleFormat_BYTECODE = 1  /* MLIR bytecode, VHLO (a portable artifact) */
} PLUGRT_ModuleFormat;

/* What is being compiled, besides the module itself. Types are spelled as in
 * StableHLO text ("tensor<2x3xf32>"). Valid during the optimize call only. */
typedef struct PLUGRT_OptimizerItem {
  size_t struct_size; /* PLUGRT_OPTIMIZER_ITEM_STRUCT_SIZE */
  const char* device_type;
  const char* entry_function; /* the function the executable runs, e.g. "main" */
  size_t num_arguments;
  const char* const* argument_types;
  size_t num_results;
  const char* const* result_types;
  size_t num_donated_arguments; /* arguments whose buffers the caller donates */
  const int64_t* donated_arguments;
  int64_t num_replicas;
  int64_t num_partitions;
} PLUGRT_OptimizerItem;
#define PLUGRT_OPTIMIZER_ITEM_STRUCT_SIZE \
  PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerItem, num_partitions)

/* Status codes: the same numbers as PJRT_Error_Code. */
typedef enum PLUGRT_OptimizerCode {
  PLUGRT_OptimizerCode_OK = 0,
  PLUGRT_OptimizerCode_CANCELLED = 1,
  PLUGRT_OptimizerCode_UNKNOWN = 2,
  PLUGRT_OptimizerCode_INVALID_ARGUMENT = 3,
  PLUGRT_OptimizerCode_NOT_FOUND = 5,
  PLUGRT_OptimizerCode_ALREADY_EXISTS = 6,
  PLUGRT_OptimizerCode_RESOURCE_EXHAUSTED = 8,
  PLUGRT_OptimizerCode_FAILED_PRECONDITION = 9,
  PLUGRT_OptimizerCode_UNIMPLEMENTED = 12,
  PLUGRT_OptimizerCode_INTERNAL = 13
} PLUGRT_OptimizerCode;

/* Opaque to the plugin. */
typedef struct PLUGRT_OptimizerRegistrar PLUGRT_OptimizerRegistrar;
typedef struct PLUGRT_OptimizerOutput PLUGRT_OptimizerOutput;

/* Rewrites `module` (module_size bytes in the registration's format; text is
 * NUL-terminated after module_size) for `item`. `optimizer` is what create
 * returned (or the registration's user_data when there is no create). */
typedef void (*PLUGRT_OptimizeFn)(void* optimizer, const char* module, size_t module_size,
                                  const PLUGRT_OptimizerItem* item,
                                  PLUGRT_OptimizerOutput* output);

typedef struct PLUGRT_OptimizerRegistration {
  size_t struct_size; /* PLUGRT_OPTIMIZER_REGISTRATION_STRUCT_SIZE */
  /* PLUGRT_OPTIMIZER_API_MAJOR / _MINOR / _PATCH as the plugin saw them. */
  int32_t api_major;
  int32_t api_minor;
  int32_t api_patch;
  const char* device_type;         /* copied by the runtime */
  const char* name;                /* the optimizer's name, in errors and reports; copied */
  PLUGRT_ModuleFormat module_format;
  const PLUGRT_OptimizerConfigs* configs; /* NULL: every switch default; copied */
  /* Optional: called once at registration; its result is passed to optimize
   * and destroy. NULL result with create present: the registration fails. */
  void* (*create)(void* user_data);
  /* Optional: called once when the client that loaded the plugin goes away. */
  void (*destroy)(void* optimizer);
  PLUGRT_OptimizeFn optimize; /* required */
  void* user_data;
} PLUGRT_OptimizerRegistration;
#define PLUGRT_OPTIMIZER_REGISTRATION_STRUCT_SIZE \
  PLUGRT_OPTIMIZER_STRUCT_SIZE(PLUGRT_OptimizerRegistration, user_data)

/* The runtime's functions. */
typedef struct PLUGRT_OptimizerApi {
  size_t struct_size;
  int32_t api_major;
  int32_t api_minor;
  int32_t api_patch;
  /* During PLUGRT_OptimizerPlugin_Init only. Returns OK, or the code of the
   * refusal (the message reaches the user through the init's failure). */
  PLUGRT_OptimizerCode (*Register)(PLUGRT_OptimizerRegistrar* registrar,
                                   const PLUGRT_OptimizerRegistration* registration);
  /* During optimize only. The new module (text or bytecode, copied). */
  void (*Output_SetModule)(PLUGRT_OptimizerOutput* output, const void* data, size_t size);
  /* During optimize only. Fails the compile with `code` and `message`
   * (copied), naming the optimizer. */
  void (*Output_SetError)(PLUGRT_OptimizerOutput* output, PLUGRT_OptimizerCode code,
                          const char* message);
} PLUGRT_OptimizerApi;

/* Exported by the plugin. Returns OK, or a code that fails the plugin's load
 * (with the first refused registration's message, if any). */
typedef PLUGRT_OptimizerCode (*PLUGRT_OptimizerPluginInitFn)(const PLUGRT_OptimizerApi* api,
                                                              PLUGRT_OptimizerRegistrar* registrar);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_OPTIMIZER_C_API_H_ */
