// plugrt eager: the StableHLO program text for one eager op: a @main taking
// the op's inputs and returning its results, plus the private definitions of
// the loaded functions it uses. Built on a cache miss (program_key.h).
#ifndef PLUGRT_EAGER_PROGRAM_TEXT_H_
#define PLUGRT_EAGER_PROGRAM_TEXT_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "eager/function_library.h"
#include "eager/op_def.h"
#include "eager/tensor_type.h"

namespace plugrt::eager {

struct ProgramText {
  std::string text;
  size_t num_results = 0;
};

// The SSA names of an op's `n` results in generic op syntax: the binding
// ("%r" for one result, "%r:n" for several) and result i of it ("%r" or
// "%r#i").
std::string ResultBinding(size_t n);
std::string ResultName(size_t i, size_t n);

// `call.inputs` holds one group per `def.inputs` entry.
StatusOr<ProgramText> BuildOpProgram(const OpDef& def, const OpCall& call,
                                     const FunctionLibrary& library);
// A call of the loaded function `signature.name` on `inputs`.
StatusOr<ProgramText> BuildFunctionProgram(const FunctionSignature& signature,
                                           const std::vector<TensorType>& inputs,
                                           const FunctionLibrary& library);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PROGRAM_TEXT_H_
