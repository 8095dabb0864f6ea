// plugrt CPU executor: a stablehlo.custom_call with api_version 1, 2 or 3
// served by an untyped XLA custom-call function (XLA's CPU calling
// conventions, include/plugrt/xla_custom_call_status.h), registered through
// PJRT's FFI extension (kernels_abi/untyped_custom_calls.h) or by a kernel
// plugin.
#ifndef PLUGRT_CPU_EXEC_UNTYPED_CUSTOM_CALL_H_
#define PLUGRT_CPU_EXEC_UNTYPED_CUSTOM_CALL_H_

#include <memory>
#include <string_view>

#include "cpu/exec/compiled_op.h"

namespace plugrt::cpu {

// The op's api_version: its integer or enum value, 1 (ORIGINAL, StableHLO's
// default) when absent, -1 when unreadable.
int CustomCallApiVersion(const shlo::Operation& op);

// Checks the call's operand and result types (tensors of static shape, dense
// and row-major as the function sees them) and `api_version` (1, 2 or 3;
// any other is INVALID_ARGUMENT naming the target). Each execution passes
// the function one pointer per operand, the result buffer (one result) or an
// array of result pointers (any other count), with api_version 3 the
// backend_config string, and with 2 and 3 a status: a failure it sets fails
// the execution with INTERNAL and its message. The op holds `keep_alive` (a
// kernel plugin set, which keeps the function's library loaded).
StatusOr<std::unique_ptr<CompiledOp>> CompileUntypedCustomCall(
    const shlo::Operation& op, std::string_view target, void* fn, int api_version,
    std::shared_ptr<const void> keep_alive = nullptr);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_UNTYPED_CUSTOM_CALL_H_
