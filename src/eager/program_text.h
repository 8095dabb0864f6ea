// plugrt eager: the StableHLO program text for one eager op: a @main taking
// the op's inputs and returning its results, plus the private definitions of
// the loaded functions it uses. Built on a cache miss (program_key.h).
#ifndef PLUGRT_EAGER_PROGRAM_TEXT_H_
#define PLUGRT_EAGER_PROGRAM_TEXT_H_

#include <string>
#include <string_view>
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

// One op as a line of a function body: `<result> = "name"(operands)
// (regions) {attributes} : (argument types) -> (result types)`, binding
// `result` (or `result:n` for n results, element i read as `result#i`).
// `operands` name the inputs, flat, in `call.inputs` order; `results` are
// the op's result types (def.result_types). The loaded functions the op
// refers to are added to `functions`.
StatusOr<std::string> BuildOpLine(const OpDef& def, const OpCall& call,
                                  const std::vector<std::string>& operands,
                                  std::string_view result, const std::vector<TensorType>& results,
                                  std::vector<std::string>& functions);

// `call.inputs` holds one group per `def.inputs` entry.
StatusOr<ProgramText> BuildOpProgram(const OpDef& def, const OpCall& call,
                                     const FunctionLibrary& library);
// A call of the loaded function `signature.name` on `inputs`.
StatusOr<ProgramText> BuildFunctionProgram(const FunctionSignature& signature,
                                           const std::vector<TensorType>& inputs,
                                           const FunctionLibrary& library);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PROGRAM_TEXT_H_
