// plugrt custom calls: one call as every handler ABI receives it.
//
// A `stablehlo.custom_call` that no built-in kernel serves goes to a
// handler of one of three ABIs: a kernel plugin (include/plugrt/kernel_c_api.h),
// an XLA FFI handler (api_version = 4) or an untyped XLA custom call
// (api_version 1 to 3). Whatever the ABI, the call is decoded the same way,
// once:
//   - at compile time, its attributes (CustomCallAttributes: backend_config
//     as a string, or the fields of backend_config and mhlo.backend_config
//     merged, no name twice) and its operand and result types, which the
//     handler's ABI checks (CheckTypes);
//   - at each execution, its buffers (CustomCallFrame: typed argument and
//     result buffers, the device and run).
// Each ABI then only translates the frame into its own C structures
// (kernel_plugins.cc, xla_ffi_call.cc, untyped_custom_calls.cc): the
// backend has one compiled op for all three (cpu/exec/external_custom_call.h).
#ifndef PLUGRT_KERNELS_ABI_CUSTOM_CALL_FRAME_H_
#define PLUGRT_KERNELS_ABI_CUSTOM_CALL_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/typed_user_data.h"
#include "stablehlo/ir.h"

namespace plugrt::kernels_abi {

// The attributes of one call, read from its op once.
struct CustomCallAttributes {
  // backend_config when the op gives it as a string (empty otherwise).
  std::string backend_config;
  // Whether backend_config is a non-empty string (what the XLA FFI refuses).
  bool has_string_config = false;
  // The fields of backend_config when it is a dictionary (api_version = 4),
  // then those of mhlo.backend_config (how JAX attaches attributes to the
  // older API versions), in that order.
  std::vector<shlo::NamedAttribute> fields;

  // INVALID_ARGUMENT when a name is given twice.
  static StatusOr<CustomCallAttributes> FromOperation(const shlo::Operation& op);
};

// One argument or result of a call: a dense row-major buffer.
struct CustomCallBuffer {
  shlo::ElementType type = shlo::ElementType::kF32;
  std::span<const int64_t> dims;
  void* data = nullptr;  // null when the buffer has no elements
  size_t size_in_bytes = 0;
};

struct CustomCallFrame {
  std::string_view target;
  // Arguments are read-only for the handler; results are written by it. The
  // buffers belong to the caller for the duration of the call.
  std::span<const CustomCallBuffer> args;
  std::span<const CustomCallBuffer> rets;
  int64_t device_ordinal = 0;
  int64_t replica_id = 0;
  int64_t partition_id = 0;
  int64_t run_id = 0;
  const TypedUserData* user_data = nullptr;  // the execution's; may be null
};

// A handler of one ABI, bound to one call site at compile time.
class CustomCallHandler {
 public:
  virtual ~CustomCallHandler() = default;
  // Runs the call. Errors name the target (not the op: the caller adds it).
  virtual Status Call(const CustomCallFrame& frame) const = 0;
};

// The ABI's rule for one operand or result type (`index` its position
// among the operands or the results). UNIMPLEMENTED naming the target, the
// ABI and what it takes.
using CustomCallTypeRule = Status (*)(std::string_view target, bool is_result, size_t index,
                                      const shlo::Type& type);

// "operand" or "result", for the rules' messages.
inline const char* OperandOrResult(bool is_result) { return is_result ? "result" : "operand"; }

// Every operand and result type of `op` through `rule`.
Status CheckCustomCallTypes(const shlo::Operation& op, std::string_view target,
                            CustomCallTypeRule rule);

// The op's api_version: 1 when absent, -1 when not one XLA defines (the
// integer or the enum spelling).
int CustomCallApiVersion(const shlo::Operation& op);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_CUSTOM_CALL_FRAME_H_
