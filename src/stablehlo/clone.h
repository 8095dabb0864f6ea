// plugrt StableHLO: deep copies of IR.
//
// A copy shares nothing mutable with its original: every function, block,
// value and op is new, operands point into the copy, and attributes are
// copied (dense literal data, which is immutable, is shared). What the
// compiler uses to specialise a shape-polymorphic program per call shapes
// without printing and parsing it again.
#ifndef PLUGRT_STABLEHLO_CLONE_H_
#define PLUGRT_STABLEHLO_CLONE_H_

#include <memory>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// INTERNAL when an operand names a value the module does not define (broken
// IR: the verifier refuses such modules).
StatusOr<std::unique_ptr<Module>> CloneModule(const Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_CLONE_H_
