#include "eager/program_text.h"

namespace plugrt::eager {

namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : ", ") + parts[i];
  return text;
}

// `@main(%a0: T0, ...) -> (R...)` around one line binding %r, then the
// return of %r's elements.
std::string MainFunction(const std::vector<std::string>& arg_types,
                         const std::vector<std::string>& result_types, const std::string& line) {
  std::vector<std::string> params;
  for (size_t i = 0; i < arg_types.size(); ++i) {
    params.push_back("%a" + std::to_string(i) + ": " + arg_types[i]);
  }
  std::vector<std::string> returned;
  const size_t n = result_types.size();
  for (size_t i = 0; i < n; ++i) returned.push_back(ResultName(i, n));
  const std::string results = Join(result_types);
  return "func.func @main(" + Join(params) + ") -> (" + results + ") {\n  " + line + "\n" +
         "  \"func.return\"(" + Join(returned) + ") : (" + results + ") -> ()\n}\n";
}

}  // namespace

std::string ResultBinding(size_t n) { return n == 1 ? "%r" : "%r:" + std::to_string(n); }
std::string ResultName(size_t i, size_t n) { return n == 1 ? "%r" : "%r#" + std::to_string(i); }

StatusOr<std::string> BuildOpLine(const OpDef& def, const OpCall& call,
                                  const std::vector<std::string>& operands,
                                  std::string_view result, const std::vector<TensorType>& results,
                                  std::vector<std::string>& functions) {
  std::vector<std::string> arg_types, result_types;
  for (const std::vector<TensorType>& group : call.inputs) {
    for (const TensorType& t : group) {
      PLUGRT_ASSIGN_OR_RETURN(std::string text, StablehloTypeText(t));
      arg_types.push_back(std::move(text));
    }
  }
  if (arg_types.size() != operands.size()) {
    return Internal(call.op, ": ", operands.size(), " operand names for ", arg_types.size(),
                    " inputs");
  }
  for (const TensorType& t : results) {
    PLUGRT_ASSIGN_OR_RETURN(std::string text, StablehloTypeText(t));
    result_types.push_back(std::move(text));
  }
  std::string binding(result);
  if (results.size() != 1) binding += ":" + std::to_string(results.size());
  std::string line = binding + " = \"" + std::string(SpelledName(def)) + "\"(" +
                     Join(operands) + ")";
  if (def.regions) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> regions, def.regions(call));
    line += " (" + Join(regions) + ")";
  }
  if (def.attributes) {
    PLUGRT_ASSIGN_OR_RETURN(std::string attributes, def.attributes(call));
    if (!attributes.empty()) line += " {" + attributes + "}";
  }
  line += " : (" + Join(arg_types) + ") -> (" + Join(result_types) + ")";
  for (const auto& [name, value] : call.attrs) {
    if (const FunctionRef* f = std::get_if<FunctionRef>(&value)) functions.push_back(f->name);
  }
  return line;
}

StatusOr<ProgramText> BuildOpProgram(const OpDef& def, const OpCall& call,
                                     const FunctionLibrary& library) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<TensorType> results, def.result_types(call));
  if (results.empty()) return InvalidArgument(call.op, ": the op has no results");
  std::vector<std::string> arg_types, operands, result_types;
  for (const std::vector<TensorType>& group : call.inputs) {
    for (const TensorType& t : group) {
      PLUGRT_ASSIGN_OR_RETURN(std::string text, StablehloTypeText(t));
      operands.push_back("%a" + std::to_string(arg_types.size()));
      arg_types.push_back(std::move(text));
    }
  }
  for (const TensorType& t : results) {
    PLUGRT_ASSIGN_OR_RETURN(std::string text, StablehloTypeText(t));
    result_types.push_back(std::move(text));
  }
  std::vector<std::string> functions;
  PLUGRT_ASSIGN_OR_RETURN(std::string line,
                          BuildOpLine(def, call, operands, "%r", results, functions));
  std::string definitions;
  if (!functions.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(definitions, library.DefinitionsFor(functions));
  }
  return ProgramText{definitions + MainFunction(arg_types, result_types, line), results.size()};
}

StatusOr<ProgramText> BuildFunctionProgram(const FunctionSignature& signature,
                                           const std::vector<TensorType>& inputs,
                                           const FunctionLibrary& library) {
  if (signature.result_types.empty()) {
    return InvalidArgument("@", signature.name, " returns nothing; an eager call needs a result");
  }
  std::vector<std::string> arg_types, operands;
  for (const TensorType& t : inputs) {
    PLUGRT_ASSIGN_OR_RETURN(std::string text, StablehloTypeText(t));
    operands.push_back("%a" + std::to_string(arg_types.size()));
    arg_types.push_back(std::move(text));
  }
  const std::string results = Join(signature.result_types);
  std::string line = ResultBinding(signature.result_types.size()) + " = func.call @" + signature.name +
                     "(" + Join(operands) + ") : (" + Join(arg_types) + ") -> (" + results + ")";
  PLUGRT_ASSIGN_OR_RETURN(std::string definitions, library.DefinitionsFor({signature.name}));
  return ProgramText{definitions + MainFunction(arg_types, signature.result_types, line),
                     signature.result_types.size()};
}

}  // namespace plugrt::eager
