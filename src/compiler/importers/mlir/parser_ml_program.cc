// ml_program's globals as exporters (TensorFlow's, torch-mlir's, IREE's)
// write weights: a module-level
//   ml_program.global private @w(dense<...> : tensor<4xf32>) : tensor<4xf32>
// and, in functions, `%0 = ml_program.global_load_const @w : tensor<4xf32>`
// (or `ml_program.global_load` of a mutable global) reads as a
// stablehlo.constant of the initial value. A global without an initial
// value (#ml_program.extern), and ml_program.global_store, are refused.
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {

Status Parser::ParseMlProgramGlobal() {
  // [visibility] [mutable] @name(initial value) : type [attributes]
  lex_.Peek();
  const size_t start = lex_.pos();
  if (!lex_.ConsumeKeyword("private") && !lex_.ConsumeKeyword("public")) {
    lex_.ConsumeKeyword("nested");
  }
  lex_.ConsumeKeyword("mutable");
  PLUGRT_ASSIGN_OR_RETURN(std::string name, ParseSymbolName("global"));
  if (!lex_.ConsumeIf("(")) {
    return lex_.ErrorAt(start, "ml_program.global @", name,
                        " has no initial value; plugrt reads globals as constants");
  }
  lex_.Peek();
  const size_t value_pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
  if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the global's initial value");
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the global's type");
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (value.kind != Attribute::Kind::kDenseElements) {
    return lex_.ErrorAt(value_pos, "ml_program.global @", name, " is initialized with ",
                        value.ToString(), "; only dense<...> and dense_resource<...> values are "
                        "read (an external value is not in the file)");
  }
  if (value.type != type) {
    return lex_.ErrorAt(value_pos, "ml_program.global @", name, " holds ", value.type.ToString(),
                        " but is declared ", type.ToString());
  }
  std::vector<NamedAttribute> ignored;
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&ignored));
  PLUGRT_RETURN_IF_ERROR(ParseOptionalLoc().status());
  if (!ml_program_globals_.emplace(name, std::move(value)).second) {
    return lex_.ErrorAt(start, "redefinition of ml_program.global @", name);
  }
  return OkStatus();
}

Status Parser::ParsePrettyGlobalLoad(Operation* op, std::vector<Type>* result_types) {
  // @name : type
  const size_t pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(std::string name, ParseSymbolName("global"));
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the loaded type");
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  StatusOr<Attribute> value = GlobalValue(name, type);
  if (!value.ok()) return lex_.ErrorAt(pos, value.status().message());
  op->attributes.clear();
  op->attributes.emplace_back("value", *std::move(value));
  result_types->push_back(std::move(type));
  return OkStatus();
}

StatusOr<Attribute> Parser::GlobalValue(const std::string& name, const Type& type) const {
  auto global = ml_program_globals_.find(name);
  if (global == ml_program_globals_.end()) {
    return InvalidArgument("no ml_program.global @", name,
                           " is defined before this load (globals come first in the module)");
  }
  if (global->second.type != type) {
    return InvalidArgument("ml_program.global @", name, " holds ", global->second.type.ToString(),
                           ", not ", type.ToString());
  }
  return global->second;
}

}  // namespace plugrt::shlo::internal
