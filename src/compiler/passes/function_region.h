// plugrt passes: a function's body copied into an op's region, for ops
// whose static form carries as a region what their custom-call form names
// as a called computation (reduce_window, sort).
#ifndef PLUGRT_COMPILER_PASSES_FUNCTION_REGION_H_
#define PLUGRT_COMPILER_PASSES_FUNCTION_REGION_H_

#include <memory>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// A copy of `function`'s body as a region of `parent`: same block
// arguments, its func.return turned into stablehlo.return.
StatusOr<std::unique_ptr<shlo::Region>> RegionFromFunction(const shlo::Function& function,
                                                           shlo::Operation* parent);

// The one function `op`'s called_computations names, looked up in `module`.
StatusOr<const shlo::Function*> CalledFunction(const shlo::Module& module,
                                               const shlo::Operation& op);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_FUNCTION_REGION_H_
