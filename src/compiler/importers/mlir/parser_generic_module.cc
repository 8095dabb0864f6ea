// The generic form of the module and its functions, as `mlir-opt
// --mlir-print-op-generic` and other tools print them:
//   "builtin.module"() <{sym_name = "m"}> ({ ... }) {attrs} : () -> ()
//   "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>,
//                   sym_name = "main", sym_visibility = "private",
//                   arg_attrs = [{...}], res_attrs = [{...}]}>
//       ({ ^bb0(%arg0: tensor<2xf32>): ... "func.return"(%x) : (...) -> () })
//       {other attributes} : () -> ()
// Either form of a function may stand in either form of a module; the result
// is the Function the pretty form gives.
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

// `: () -> ()`, the type of builtin.module and func.func.
Status ExpectUnitOpType(Lexer& lex, std::string_view op) {
  if (!lex.ConsumeIf(":") || !lex.ConsumeIf("(") || !lex.ConsumeIf(")") ||
      !lex.ConsumeIf("->") || !lex.ConsumeIf("(") || !lex.ConsumeIf(")")) {
    return lex.Expected(StrCat("': () -> ()', the type of ", op));
  }
  return OkStatus();
}

// `{a = 1, b}` of one per-argument (or per-result) dictionary array.
Status PerValueDictionaries(Lexer& lex, size_t pos, const Attribute& attr, size_t count,
                            std::string_view what,
                            std::vector<std::vector<NamedAttribute>>* out) {
  if (attr.kind != Attribute::Kind::kArray || attr.elements.size() != count) {
    return lex.ErrorAt(pos, what, " must be an array of ", count, " dictionaries");
  }
  out->clear();
  for (const Attribute& element : attr.elements) {
    if (element.kind != Attribute::Kind::kDictionary) {
      return lex.ErrorAt(pos, what, " must be an array of ", count, " dictionaries");
    }
    out->push_back(element.fields);
  }
  return OkStatus();
}

}  // namespace

Status Parser::ParseModuleItem(Module* module) {
  if (lex_.ConsumeKeyword("sdy.mesh")) return ParseSdyMesh(module);
  if (lex_.ConsumeKeyword("ml_program.global")) return ParseMlProgramGlobal();
  if (lex_.Peek() == '"') return ParseGenericFunction(module);
  return ParseFunction(module);
}

Status Parser::ParseGenericModuleBody(Module* module) {
  std::vector<NamedAttribute> attrs;
  if (!lex_.ConsumeIf("(") || !lex_.ConsumeIf(")")) {
    return lex_.Expected("'()': builtin.module takes no operands");
  }
  if (lex_.ConsumeIf("<")) {
    if (lex_.Peek() != '{') return lex_.Expected("'{' to open the properties");
    PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&attrs));
    if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the properties");
  }
  if (!lex_.ConsumeIf("(") || !lex_.ConsumeIf("{")) {
    return lex_.Expected("'({' to open the module's region");
  }
  if (lex_.Peek() == '^') {
    lex_.set_pos(lex_.pos() + 1);
    if (lex_.LexSuffixId().empty()) return lex_.Expected("a block label");
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' after the block label");
  }
  while (!lex_.ConsumeIf("}")) {
    if (lex_.AtEnd()) return lex_.Expected("'}' to close the module");
    PLUGRT_RETURN_IF_ERROR(ParseModuleItem(module));
  }
  if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the module's region");
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&attrs));
  PLUGRT_RETURN_IF_ERROR(ExpectUnitOpType(lex_, "builtin.module"));
  for (NamedAttribute& attr : attrs) {
    if (attr.first == "sym_name" && attr.second.kind == Attribute::Kind::kString) {
      module->name = attr.second.str;
    } else if (attr.first != "sym_visibility") {
      module->attributes.push_back(std::move(attr));
    }
  }
  return OkStatus();
}

Status Parser::ParseGenericFunction(Module* module) {
  auto func = std::make_unique<Function>();
  func->location = lex_.CurrentLocation();
  const size_t start = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(std::string op_name, lex_.LexString());
  if (op_name != "func.func") {
    return lex_.ErrorAt(start, "expected a function (func.func) in the module, found \"",
                        op_name, "\"");
  }
  if (!lex_.ConsumeIf("(") || !lex_.ConsumeIf(")")) {
    return lex_.Expected("'()': func.func takes no operands");
  }
  // The properties and the attribute dictionary hold the same kinds of
  // entries; function_type's value is a function type, not an attribute.
  std::vector<NamedAttribute> attrs;
  bool has_type = false;
  size_t type_pos = start;
  auto parse_dict = [&]() -> Status {
    if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open the function's attributes");
    if (lex_.ConsumeIf("}")) return OkStatus();
    while (true) {
      lex_.Peek();
      size_t pos = lex_.pos();
      std::string name;
      if (lex_.Peek() == '"') {
        PLUGRT_ASSIGN_OR_RETURN(name, lex_.LexString());
      } else {
        name = std::string(lex_.LexBareId());
      }
      if (name.empty()) return lex_.Expected("an attribute name");
      if (FindAttribute(attrs, name) != nullptr || (name == "function_type" && has_type)) {
        return lex_.ErrorAt(pos, "duplicate attribute '", name, "'");
      }
      if (!lex_.ConsumeIf("=")) {
        attrs.emplace_back(std::move(name), Attribute::Unit());
      } else if (name == "function_type") {
        has_type = true;
        lex_.Peek();
        type_pos = lex_.pos();
        PLUGRT_ASSIGN_OR_RETURN(func->input_types, ParseParenTypeList());
        if (!lex_.ConsumeIf("->")) return lex_.Expected("'->' in the function type");
        if (lex_.Peek() == '(') {
          PLUGRT_ASSIGN_OR_RETURN(func->result_types, ParseParenTypeList());
        } else {
          PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
          func->result_types.push_back(std::move(type));
        }
      } else {
        PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
        attrs.emplace_back(std::move(name), std::move(value));
      }
      if (lex_.ConsumeIf("}")) return OkStatus();
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the function's attributes");
    }
  };
  if (lex_.ConsumeIf("<")) {
    PLUGRT_RETURN_IF_ERROR(parse_dict());
    if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the properties");
  }
  lex_.Peek();
  const size_t region_pos = lex_.pos();
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' and the function's region");
  // A function sees no values of other functions.
  auto saved_scopes = std::move(scopes_);
  scopes_.clear();
  auto body = std::make_unique<Region>();
  Status status = ParseRegion(body.get(), nullptr);
  scopes_ = std::move(saved_scopes);
  PLUGRT_RETURN_IF_ERROR(status);
  if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the function's region");
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(parse_dict());
  PLUGRT_RETURN_IF_ERROR(ExpectUnitOpType(lex_, "func.func"));
  PLUGRT_ASSIGN_OR_RETURN(func->location.source, ParseOptionalLoc());

  if (!has_type) return lex_.ErrorAt(start, "func.func needs a function_type");
  const size_t num_inputs = func->input_types.size();
  const size_t num_results = func->result_types.size();
  func->arg_attributes.assign(num_inputs, {});
  func->result_attributes.assign(num_results, {});
  func->result_locations.assign(num_results, nullptr);
  bool has_name = false;
  for (NamedAttribute& attr : attrs) {
    const std::string& key = attr.first;
    if (key == "sym_name") {
      if (attr.second.kind != Attribute::Kind::kString || attr.second.str.empty()) {
        return lex_.ErrorAt(start, "func.func's sym_name must be a non-empty string");
      }
      func->name = attr.second.str;
      has_name = true;
    } else if (key == "sym_visibility") {
      if (attr.second.kind != Attribute::Kind::kString) {
        return lex_.ErrorAt(start, "func.func's sym_visibility must be a string");
      }
      func->is_public = attr.second.str != "private";
    } else if (key == "arg_attrs") {
      PLUGRT_RETURN_IF_ERROR(PerValueDictionaries(lex_, start, attr.second, num_inputs,
                                                  "arg_attrs", &func->arg_attributes));
    } else if (key == "res_attrs") {
      PLUGRT_RETURN_IF_ERROR(PerValueDictionaries(lex_, start, attr.second, num_results,
                                                  "res_attrs", &func->result_attributes));
    } else {
      func->attributes.push_back(std::move(attr));
    }
  }
  if (!has_name) return lex_.ErrorAt(start, "func.func needs a sym_name");
  if (module->FindFunction(func->name) != nullptr) {
    return lex_.ErrorAt(start, "redefinition of function @", func->name);
  }
  Block& entry = body->front();
  if (body->blocks.size() == 1 && entry.operations.empty() && entry.arguments.empty()) {
    // An empty region: a declaration.
    if (func->is_public) {
      return lex_.ErrorAt(region_pos, "public function @", func->name, " has no body");
    }
    module->functions.push_back(std::move(func));
    return OkStatus();
  }
  if (entry.arguments.size() != num_inputs) {
    return lex_.ErrorAt(region_pos, "@", func->name, "'s entry block has ",
                        entry.arguments.size(), " arguments but its function_type ",
                        num_inputs);
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    if (entry.arguments[i]->type != func->input_types[i]) {
      return lex_.ErrorAt(type_pos, "argument #", i, " of @", func->name, " has type ",
                          entry.arguments[i]->type.ToString(), " but its function_type says ",
                          func->input_types[i].ToString());
    }
  }
  func->body = std::move(body);
  module->functions.push_back(std::move(func));
  return OkStatus();
}

}  // namespace plugrt::shlo::internal
