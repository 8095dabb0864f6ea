// plugrt passes: the `tensor` dialect ops exporters mix into StableHLO that
// take more than one StableHLO op (the parser keeps them as read, on 0-d
// tensors for scalars: parser_arith.cc):
//   tensor.extract %t[%i, %j] : tensor<AxBxT>  -> dynamic_slice (1x1), reshape to tensor<T>
//   tensor.from_elements %a, %b : tensor<2xT>  -> reshape each to tensor<1xT>, concatenate,
//                                                reshape to the result's shape
// Runs right after reading, before anything that knows only StableHLO.
#ifndef PLUGRT_COMPILER_PASSES_LOWER_TENSOR_OPS_H_
#define PLUGRT_COMPILER_PASSES_LOWER_TENSOR_OPS_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// True when it rewrote anything. INVALID_ARGUMENT naming the op when its
// operands do not fit it.
StatusOr<bool> LowerTensorOps(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_LOWER_TENSOR_OPS_H_
