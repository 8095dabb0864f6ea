// plugrt StableHLO parser: the pretty forms of Shardy's `sdy` dialect, which
// JAX wraps around the computation when it exports with Shardy:
//   sdy.mesh @mesh = <["x"=2, "y"=4]>                       (module level)
//   %r = sdy.sharding_constraint %x <@mesh, [{"x"}, {}]> : T
//   %r = sdy.reshard %x <@mesh, [{}, {}]> : T
//   %r = sdy.propagation_barrier %x allowed_direction=NONE : T
//   sdy.sharding_group %x group_id=0 : T
//   %r = sdy.data_flow_edge %x [sharding=<...>] : T
//   %r = sdy.constant dense<...> : T
//   %r:n = sdy.manual_computation(%a, ...) in_shardings=[<...>, ...]
//          out_shardings=[...] manual_axes={"x"} (%arg: T, ...) { ... } : (Ts) -> Ts
//   %r:n = sdy.named_computation<"name">(%a, ...) [in_shardings=[...]]
//          [out_shardings=[...]] (%arg: T, ...) { ... } : (Ts) -> Ts
//   sdy.return %a, ... : Ts
// Shardings are kept as their text in "sdy.sharding" attributes (what
// `#sdy.sharding<...>` in an attribute dictionary parses to), so one reader
// (sharding_ops.cc) interprets both spellings.
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
StatusOr<Attribute> Parser::ParseSdySharding() {
  if (lex_.Peek() == '#') return ParseAttribute();
  if (lex_.Peek() != '<') return lex_.Expected("a sharding '<@mesh, [...]>'");
  PLUGRT_ASSIGN_OR_RETURN(std::string_view group, lex_.SkipAngleGroup());
  return Attribute::Enum("sdy.sharding", std::string(group.substr(1, group.size() - 2)));
}

Status Parser::ParseSdyMesh(Module* module) {
  // After `sdy.mesh`: @name = <...> or = #sdy.mesh<...>, then attributes.
  PLUGRT_ASSIGN_OR_RETURN(std::string name, ParseSymbolName("mesh"));
  if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' and the mesh");
  std::string text;
  if (lex_.Peek() == '#') {
    PLUGRT_ASSIGN_OR_RETURN(Attribute mesh, ParseAttribute());
    text = mesh.enum_value;
  } else {
    if (lex_.Peek() != '<') return lex_.Expected("the mesh '<[\"axis\"=size, ...]>'");
    PLUGRT_ASSIGN_OR_RETURN(std::string_view group, lex_.SkipAngleGroup());
    text = std::string(group.substr(1, group.size() - 2));
  }
  std::vector<NamedAttribute> ignored;
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&ignored));
  PLUGRT_RETURN_IF_ERROR(ParseOptionalLoc().status());
  for (const NamedAttribute& mesh : module->meshes) {
    if (mesh.first == name) return lex_.ErrorAt(lex_.pos(), "redefinition of mesh @", name);
  }
  module->meshes.emplace_back(name, Attribute::Enum("sdy.mesh", std::move(text)));
  return OkStatus();
}

Status Parser::ParsePrettySdy(Operation* op, std::vector<Type>* result_types) {
  const std::string& name = op->name;
  auto attr_dict = [&]() -> Status {
    if (lex_.Peek() == '{') return ParseAttrDict(&op->attributes);
    return OkStatus();
  };
  // `: T`, the type of the one operand and (when `has_result`) the result.
  auto same_type = [&](bool has_result) -> Status {
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of " + name);
    size_t pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
    if (op->operands.size() == 1 && op->operands[0]->type != type) {
      return lex_.ErrorAt(pos, name, ": the operand has type ", op->operands[0]->type.ToString(),
                          " but the op's type says ", type.ToString());
    }
    if (has_result) result_types->push_back(std::move(type));
    return OkStatus();
  };
  auto one_operand = [&]() -> Status {
    PLUGRT_ASSIGN_OR_RETURN(Value * v, ParseOperand());
    op->operands.push_back(v);
    return OkStatus();
  };

  if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
    PLUGRT_RETURN_IF_ERROR(one_operand());
    PLUGRT_ASSIGN_OR_RETURN(Attribute sharding, ParseSdySharding());
    SetAttr(op, "sharding", std::move(sharding));
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    return same_type(true);
  }
  if (name == "sdy.propagation_barrier") {
    PLUGRT_RETURN_IF_ERROR(one_operand());
    if (!lex_.ConsumeKeyword("allowed_direction") || !lex_.ConsumeIf("=")) {
      return lex_.Expected("'allowed_direction='");
    }
    std::string_view direction = lex_.LexBareId();
    if (direction.empty()) return lex_.Expected("a direction (FORWARD, BACKWARD, NONE)");
    SetAttr(op, "allowed_direction",
                 Attribute::Enum("sdy.propagation_direction", std::string(direction)));
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    return same_type(true);
  }
  if (name == "sdy.sharding_group") {
    PLUGRT_RETURN_IF_ERROR(one_operand());
    if (!lex_.ConsumeKeyword("group_id") || !lex_.ConsumeIf("=")) {
      return lex_.Expected("'group_id='");
    }
    PLUGRT_ASSIGN_OR_RETURN(int64_t id, ParseInt64());
    SetAttr(op, "group_id", Attribute::Integer(id));
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    return same_type(false);
  }
  if (name == "sdy.data_flow_edge") {
    PLUGRT_RETURN_IF_ERROR(one_operand());
    if (lex_.ConsumeKeyword("sharding")) {
      if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' after 'sharding'");
      PLUGRT_ASSIGN_OR_RETURN(Attribute sharding, ParseSdySharding());
      SetAttr(op, "sharding", std::move(sharding));
    }
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    return same_type(true);
  }
  if (name == "sdy.constant") {
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    size_t pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    if (value.kind != Attribute::Kind::kDenseElements) {
      return lex_.ErrorAt(pos, "sdy.constant expects a dense<...> : tensor<...> literal");
    }
    result_types->push_back(value.type);
    SetAttr(op, "value", std::move(value));
    return OkStatus();
  }
  if (name == "sdy.return") {
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    if (lex_.Peek() != '%') return OkStatus();
    PLUGRT_RETURN_IF_ERROR(ParseOperandList(&op->operands));
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the returned types");
    for (size_t i = 0; i < op->operands.size(); ++i) {
      if (i > 0 && !lex_.ConsumeIf(",")) return lex_.Expected("',' in the returned types");
      PLUGRT_RETURN_IF_ERROR(ParseType().status());
    }
    return OkStatus();
  }
  if (name == "sdy.manual_computation" || name == "sdy.named_computation") {
    const bool named = name == "sdy.named_computation";
    if (named) {
      if (!lex_.ConsumeIf("<")) return lex_.Expected("'<' and the computation's name");
      PLUGRT_ASSIGN_OR_RETURN(std::string computation, lex_.LexString());
      if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' after the computation's name");
      SetAttr(op, "name", Attribute::String(std::move(computation)));
    }
    if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' and the operands");
    PLUGRT_RETURN_IF_ERROR(ParseOperandList(&op->operands));
    if (!lex_.ConsumeIf(")")) return lex_.Expected("')' after the operands");
    auto sharding_list = [&](const char* keyword) -> Status {
      if (!lex_.ConsumeKeyword(keyword)) {
        if (named) return OkStatus();
        return lex_.Expected(std::string("'") + keyword + "='");
      }
      if (!lex_.ConsumeIf("=") || !lex_.ConsumeIf("[")) return lex_.Expected("'=['");
      std::vector<Attribute> list;
      if (!lex_.ConsumeIf("]")) {
        while (true) {
          PLUGRT_ASSIGN_OR_RETURN(Attribute sharding, ParseSdySharding());
          list.push_back(std::move(sharding));
          if (lex_.ConsumeIf("]")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the shardings");
        }
      }
      SetAttr(op, keyword, Attribute::Array(std::move(list)));
      return OkStatus();
    };
    PLUGRT_RETURN_IF_ERROR(sharding_list("in_shardings"));
    PLUGRT_RETURN_IF_ERROR(sharding_list("out_shardings"));
    if (!named) {
      if (!lex_.ConsumeKeyword("manual_axes") || !lex_.ConsumeIf("=") || !lex_.ConsumeIf("{")) {
        return lex_.Expected("'manual_axes={...}'");
      }
      std::vector<Attribute> axes;
      if (!lex_.ConsumeIf("}")) {
        while (true) {
          PLUGRT_ASSIGN_OR_RETURN(std::string axis, lex_.LexString());
          axes.push_back(Attribute::String(std::move(axis)));
          if (lex_.ConsumeIf("}")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the manual axes");
        }
      }
      SetAttr(op, "manual_axes", Attribute::Array(std::move(axes)));
    }
    std::vector<ArgDecl> args;
    PLUGRT_RETURN_IF_ERROR(ParseArgDecls(&args));
    auto region = std::make_unique<Region>();
    region->parent_op = op;
    // The body sees only its arguments (IsolatedFromAbove).
    auto saved_scopes = std::move(scopes_);
    scopes_.clear();
    Status status = ParseRegion(region.get(), &args);
    scopes_ = std::move(saved_scopes);
    PLUGRT_RETURN_IF_ERROR(status);
    op->regions.push_back(std::move(region));
    PLUGRT_RETURN_IF_ERROR(attr_dict());
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of " + name);
    size_t pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Type> inputs, ParseParenTypeList());
    if (!lex_.ConsumeIf("->")) return lex_.Expected("'->' in the function type");
    if (lex_.Peek() == '(') {
      PLUGRT_ASSIGN_OR_RETURN(*result_types, ParseParenTypeList());
    } else {
      PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
      result_types->push_back(std::move(type));
    }
    if (inputs.size() != op->operands.size()) {
      return lex_.ErrorAt(pos, name, " has ", op->operands.size(), " operands but its type lists ",
                          inputs.size());
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i] != op->operands[i]->type) {
        return lex_.ErrorAt(pos, "operand #", i, " of ", name, " has type ",
                            op->operands[i]->type.ToString(), " but the op's type says ",
                            inputs[i].ToString());
      }
    }
    return OkStatus();
  }
  return lex_.ErrorAt(lex_.pos(), "the pretty form of ", name,
                      " is not supported; write it in the generic form");
}

}  // namespace plugrt::shlo::internal
