// plugrt CPU executor: custom calls served outside the backend, by a kernel
// plugin, an XLA FFI handler or an untyped XLA custom call.
//
// One compiled op serves all three: at each execution it checks the
// operands, allocates the results, fills the shared call frame
// (kernels_abi/custom_call_frame.h) and hands it to the handler bound at
// compile time, which translates it into its ABI. Errors name the op.
#ifndef PLUGRT_CPU_EXEC_EXTERNAL_CUSTOM_CALL_H_
#define PLUGRT_CPU_EXEC_EXTERNAL_CUSTOM_CALL_H_

#include <memory>
#include <string_view>

#include "cpu/exec/compiled_op.h"
#include "kernels_abi/custom_call_frame.h"

namespace plugrt::cpu {

// `bound` is the handler the ABI's binder returned for `op`, or its error
// (which gets the op's location and name). The op's operand and result
// types are what the binder checked.
StatusOr<std::unique_ptr<CompiledOp>> CompileExternalCustomCall(
    const shlo::Operation& op, std::string_view target,
    StatusOr<std::unique_ptr<const kernels_abi::CustomCallHandler>> bound);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_EXTERNAL_CUSTOM_CALL_H_
