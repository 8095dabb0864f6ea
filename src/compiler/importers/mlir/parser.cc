#include "compiler/importers/mlir/parser.h"

#include <charconv>
#include <limits>

#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo {
namespace internal {

Parser::Parser(std::string_view text, std::string_view file_name, int first_line)
    : lex_(text, file_name, first_line) {}

// ---------------------------------------------------------------- module

StatusOr<std::unique_ptr<Module>> Parser::Run() {
  auto module = std::make_unique<Module>();
  // Location aliases may stand before and after the module (and between
  // functions when there is no module); the resource section of
  // dense_resource data comes last.
  auto at_resources = [&]() { return lex_.Peek() == '{' && lex_.text().substr(lex_.pos(), 3) == "{-#"; };
  auto trailers = [&]() -> Status {
    while (true) {
      if (lex_.Peek() == '#') {
        PLUGRT_RETURN_IF_ERROR(ParseLocationAliasDefinition());
      } else if (at_resources()) {
        PLUGRT_RETURN_IF_ERROR(ParseResourceSection());
      } else {
        return OkStatus();
      }
    }
  };
  PLUGRT_RETURN_IF_ERROR(trailers());
  module->location = lex_.CurrentLocation();
  if (lex_.ConsumeKeyword("module")) {
    if (lex_.Peek() == '@') {
      lex_.set_pos(lex_.pos() + 1);
      if (lex_.PeekRaw() == '"') {
        PLUGRT_ASSIGN_OR_RETURN(module->name, lex_.LexString());
      } else {
        module->name = std::string(lex_.LexSuffixId());
      }
      if (module->name.empty()) return lex_.Expected("a module name");
    }
    if (lex_.ConsumeKeyword("attributes")) {
      PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&module->attributes));
    }
    if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open the module body");
    while (!lex_.ConsumeIf("}")) {
      if (lex_.AtEnd()) return lex_.Expected("'}' to close the module");
      PLUGRT_RETURN_IF_ERROR(ParseModuleItem(module.get()));
    }
    PLUGRT_ASSIGN_OR_RETURN(module->location.source, ParseOptionalLoc());
    PLUGRT_RETURN_IF_ERROR(trailers());
  } else if (lex_.text().substr(lex_.pos(), 16) == "\"builtin.module\"") {
    PLUGRT_RETURN_IF_ERROR(lex_.LexString().status());
    PLUGRT_RETURN_IF_ERROR(ParseGenericModuleBody(module.get()));
    PLUGRT_ASSIGN_OR_RETURN(module->location.source, ParseOptionalLoc());
    PLUGRT_RETURN_IF_ERROR(trailers());
  } else {
    while (!lex_.AtEnd()) {
      PLUGRT_RETURN_IF_ERROR(ParseModuleItem(module.get()));
      PLUGRT_RETURN_IF_ERROR(trailers());
    }
  }
  if (!lex_.AtEnd()) return lex_.Expected("end of input");
  PLUGRT_RETURN_IF_ERROR(ResolveLocationAliases());
  PLUGRT_RETURN_IF_ERROR(ResolveResources());
  return module;
}

StatusOr<std::string> Parser::ParseSymbolName(std::string_view what) {
  if (lex_.Peek() != '@') return lex_.Expected(StrCat("a ", what, " name '@name'"));
  lex_.set_pos(lex_.pos() + 1);
  std::string name;
  if (lex_.PeekRaw() == '"') {
    PLUGRT_ASSIGN_OR_RETURN(name, lex_.LexString());
  } else {
    name = std::string(lex_.LexSuffixId());
  }
  if (name.empty()) return lex_.Expected(StrCat("a ", what, " name"));
  return name;
}

Status Parser::ParseFunction(Module* module) {
  auto func = std::make_unique<Function>();
  func->location = lex_.CurrentLocation();
  if (!lex_.ConsumeKeyword("func.func")) return lex_.Expected("'func.func'");
  if (lex_.ConsumeKeyword("private")) {
    func->is_public = false;
  } else if (!lex_.ConsumeKeyword("public")) {
    lex_.ConsumeKeyword("nested");
  }
  PLUGRT_ASSIGN_OR_RETURN(func->name, ParseSymbolName("function"));
  if (module->FindFunction(func->name) != nullptr) {
    return lex_.ErrorAt(lex_.pos(), "redefinition of function @", func->name);
  }

  // Arguments.
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open the argument list");
  std::vector<ArgDecl> args;
  if (!lex_.ConsumeIf(")")) {
    while (true) {
      ArgDecl arg;
      arg.pos = lex_.pos();
      if (lex_.Peek() != '%') return lex_.Expected("an argument '%name'");
      lex_.set_pos(lex_.pos() + 1);
      arg.name = std::string(lex_.LexSuffixId());
      if (arg.name.empty()) return lex_.Expected("an argument name");
      if (!lex_.ConsumeIf(":")) return lex_.Expected("':' after the argument name");
      PLUGRT_ASSIGN_OR_RETURN(arg.type, ParseType());
      std::vector<NamedAttribute> attrs;
      if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&attrs));
      PLUGRT_ASSIGN_OR_RETURN(arg.source, ParseOptionalLoc());
      func->input_types.push_back(arg.type);
      func->arg_attributes.push_back(std::move(attrs));
      args.push_back(std::move(arg));
      if (lex_.ConsumeIf(")")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the argument list");
    }
  }
  // Results.
  if (lex_.ConsumeIf("->")) {
    // Result attributes only exist in the parenthesized form; a '{' after a
    // bare result type opens the body.
    auto parse_result = [&](bool with_attrs) -> Status {
      PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
      std::vector<NamedAttribute> attrs;
      if (with_attrs && lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&attrs));
      SourceLocationRef loc;
      if (with_attrs) {
        PLUGRT_ASSIGN_OR_RETURN(loc, ParseOptionalLoc());
      }
      func->result_types.push_back(std::move(type));
      func->result_attributes.push_back(std::move(attrs));
      func->result_locations.push_back(std::move(loc));
      return OkStatus();
    };
    if (lex_.ConsumeIf("(")) {
      if (!lex_.ConsumeIf(")")) {
        while (true) {
          PLUGRT_RETURN_IF_ERROR(parse_result(true));
          if (lex_.ConsumeIf(")")) break;
          if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the result list");
        }
      }
    } else {
      PLUGRT_RETURN_IF_ERROR(parse_result(false));
    }
  }
  if (lex_.ConsumeKeyword("attributes")) {
    PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&func->attributes));
  }
  if (lex_.Peek() != '{' && !func->is_public) {
    // A private declaration (`func.func private @mesh()`): no body; the
    // verifier refuses to run one.
    PLUGRT_ASSIGN_OR_RETURN(func->location.source, ParseOptionalLoc());
    module->functions.push_back(std::move(func));
    return OkStatus();
  }
  if (lex_.Peek() != '{') return lex_.Expected("'{' to open the body of @" + func->name);
  // A function sees no values of other functions.
  auto saved_scopes = std::move(scopes_);
  scopes_.clear();
  func->body = std::make_unique<Region>();
  Status status = ParseRegion(func->body.get(), &args);
  scopes_ = std::move(saved_scopes);
  PLUGRT_RETURN_IF_ERROR(status);
  PLUGRT_ASSIGN_OR_RETURN(func->location.source, ParseOptionalLoc());
  module->functions.push_back(std::move(func));
  return OkStatus();
}

// ---------------------------------------------------------------- regions

Status Parser::ParseArgDecls(std::vector<ArgDecl>* args) {
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open the argument list");
  if (lex_.ConsumeIf(")")) return OkStatus();
  while (true) {
    ArgDecl arg;
    arg.pos = lex_.pos();
    if (lex_.Peek() != '%') return lex_.Expected("an argument '%name'");
    arg.pos = lex_.pos();
    lex_.set_pos(lex_.pos() + 1);
    arg.name = std::string(lex_.LexSuffixId());
    if (arg.name.empty()) return lex_.Expected("an argument name");
    if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the argument type");
    PLUGRT_ASSIGN_OR_RETURN(arg.type, ParseType());
    PLUGRT_ASSIGN_OR_RETURN(arg.source, ParseOptionalLoc());
    args->push_back(std::move(arg));
    if (lex_.ConsumeIf(")")) return OkStatus();
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the argument list");
  }
}

Status Parser::ParseRegion(Region* region, const std::vector<ArgDecl>* entry_args) {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open a region");
  PushScope();
  struct ScopeExit {
    Parser* p;
    ~ScopeExit() { p->PopScope(); }
  } scope_exit{this};
  bool first = true;
  while (true) {
    std::vector<ArgDecl> label_args;
    const std::vector<ArgDecl>* args = first ? entry_args : nullptr;
    if (lex_.Peek() == '^') {
      lex_.set_pos(lex_.pos() + 1);
      if (lex_.LexSuffixId().empty()) return lex_.Expected("a block label");
      if (lex_.Peek() == '(') PLUGRT_RETURN_IF_ERROR(ParseArgDecls(&label_args));
      if (!lex_.ConsumeIf(":")) return lex_.Expected("':' after the block label");
      if (first && entry_args != nullptr && !entry_args->empty()) {
        return lex_.ErrorAt(lex_.pos(), "the entry block's arguments are declared twice");
      }
      args = &label_args;
    } else if (!first) {
      break;
    }
    auto block = std::make_unique<Block>();
    block->parent = region;
    if (args != nullptr) {
      for (const ArgDecl& decl : *args) {
        auto value = std::make_unique<Value>();
        value->type = decl.type;
        value->owner_block = block.get();
        value->index = static_cast<int>(block->arguments.size());
        value->name = decl.name;
        value->source = decl.source;
        PLUGRT_RETURN_IF_ERROR(DefineValues(decl.name, decl.pos, {value.get()}));
        block->arguments.push_back(std::move(value));
      }
    }
    Block* raw = block.get();
    region->blocks.push_back(std::move(block));
    PLUGRT_RETURN_IF_ERROR(ParseBlockOps(raw));
    first = false;
    if (lex_.Peek() != '^') break;
  }
  if (!lex_.ConsumeIf("}")) return lex_.Expected("'}' to close the region");
  return OkStatus();
}

Status Parser::ParseBlockOps(Block* block) {
  while (true) {
    char c = lex_.Peek();
    if (c == '}' || c == '^') return OkStatus();
    if (c == '\0') return lex_.Expected("an operation or '}'");
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Operation> op, ParseOperation(block));
    // Null: an identity op folded into its operand (mhlo.copy, tensor.cast).
    if (op != nullptr) block->operations.push_back(std::move(op));
  }
}

// ---------------------------------------------------------------- values

Status Parser::DefineValues(std::string_view name, size_t pos, std::vector<Value*> values) {
  auto& scope = scopes_.back();
  auto [it, inserted] = scope.emplace(std::string(name), std::move(values));
  if (!inserted) return lex_.ErrorAt(pos, "redefinition of value %", name);
  return OkStatus();
}

StatusOr<Value*> Parser::ParseOperand() {
  size_t pos = lex_.pos();
  if (lex_.Peek() != '%') return lex_.Expected("an operand '%name'");
  pos = lex_.pos();
  lex_.set_pos(pos + 1);
  std::string_view name = lex_.LexSuffixId();
  if (name.empty()) return lex_.Expected("a value name");
  size_t index = 0;
  bool has_index = false;
  if (lex_.PeekRaw() == '#') {
    lex_.set_pos(lex_.pos() + 1);
    std::string_view digits = lex_.LexInteger();
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (digits.empty() || digits[0] == '-' || ec != std::errc() ||
        ptr != digits.data() + digits.size()) {
      return lex_.Expected("a result number after '#'");
    }
    has_index = true;
  }
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->find(std::string(name));
    if (found == it->end()) continue;
    const std::vector<Value*>& group = found->second;
    if (index >= group.size()) {
      return lex_.ErrorAt(pos, "%", name, " has ", group.size(), " results; #", index,
                          " is out of range");
    }
    if (!has_index && group.size() > 1) {
      return lex_.ErrorAt(pos, "%", name, " names ", group.size(),
                          " results; pick one with '#'");
    }
    return group[index];
  }
  return lex_.ErrorAt(pos, "use of undefined value %", name);
}

Status Parser::ParseOperandList(std::vector<Value*>* operands) {
  if (lex_.Peek() != '%') return OkStatus();
  while (true) {
    PLUGRT_ASSIGN_OR_RETURN(Value * value, ParseOperand());
    operands->push_back(value);
    size_t save = lex_.pos();
    if (!lex_.ConsumeIf(",")) return OkStatus();
    if (lex_.Peek() != '%') {
      lex_.set_pos(save);
      return OkStatus();
    }
  }
}

// ---------------------------------------------------------------- operations

StatusOr<std::unique_ptr<Operation>> Parser::ParseOperation(Block* block) {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  auto op = std::make_unique<Operation>();
  op->parent = block;
  size_t start = lex_.pos();
  lex_.Peek();
  start = lex_.pos();
  op->location = lex_.LocationAt(start);

  // Result bindings: `%a`, `%a:2`, `%a, %b:3`.
  struct Binding {
    std::string name;
    size_t count;
    size_t pos;
  };
  std::vector<Binding> bindings;
  size_t num_results = 0;
  if (lex_.Peek() == '%') {
    while (true) {
      Binding binding{"", 1, lex_.pos()};
      if (lex_.Peek() != '%') return lex_.Expected("a result name '%name'");
      binding.pos = lex_.pos();
      lex_.set_pos(lex_.pos() + 1);
      binding.name = std::string(lex_.LexSuffixId());
      if (binding.name.empty()) return lex_.Expected("a result name");
      if (lex_.ConsumeIf(":")) {
        std::string_view digits = lex_.LexInteger();
        size_t count = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
        if (digits.empty() || digits[0] == '-' || ec != std::errc() || count == 0 ||
            count > (1u << 20)) {
          return lex_.Expected("a result count after ':'");
        }
        (void)ptr;
        binding.count = count;
      }
      num_results += binding.count;
      bindings.push_back(std::move(binding));
      if (lex_.ConsumeIf("=")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("'=' or ',' after the result names");
    }
  }

  std::vector<Type> result_types;
  size_t name_pos = lex_.pos();
  lex_.Peek();
  name_pos = lex_.pos();
  const bool generic = lex_.Peek() == '"';
  if (generic) {
    PLUGRT_ASSIGN_OR_RETURN(op->name, lex_.LexString());
  } else {
    op->name = std::string(lex_.LexBareId());
    if (op->name.empty()) return lex_.Expected("an operation");
  }
  if (op->name == "return") op->name = "func.return";
  if (op->name == "call") op->name = "func.call";
  // The name as written: mhlo and other dialects' ops read as StableHLO.
  const std::string written = op->name;
  PLUGRT_RETURN_IF_ERROR(TranslateOpName(op.get(), name_pos));
  op->code = LookupOpCode(op->name);
  if (generic) {
    PLUGRT_RETURN_IF_ERROR(ParseGenericOp(op.get(), &result_types));
  } else {
    PLUGRT_RETURN_IF_ERROR(ParsePrettyOp(op.get(), num_results, &result_types));
  }
  if (!bindings.empty() && result_types.size() != num_results) {
    return lex_.ErrorAt(start, op->name, " has ", result_types.size(), " results but ",
                        num_results, " are named");
  }
  if (bindings.empty() && !result_types.empty()) {
    return lex_.ErrorAt(name_pos, op->name, " has ", result_types.size(),
                        " results but none are named");
  }
  Value* alias = nullptr;
  PLUGRT_RETURN_IF_ERROR(FinishArithOp(op.get(), written, &result_types, name_pos));
  PLUGRT_RETURN_IF_ERROR(FinishTranslatedOp(op.get(), written, result_types, name_pos, &alias));
  if (alias != nullptr) {
    // An identity: its result is its operand, and the op is dropped.
    if (bindings.size() != 1 || bindings[0].count != 1) {
      return lex_.ErrorAt(start, written, " has one result");
    }
    PLUGRT_RETURN_IF_ERROR(DefineValues(bindings[0].name, bindings[0].pos, {alias}));
    PLUGRT_RETURN_IF_ERROR(ParseOptionalLoc().status());
    return std::unique_ptr<Operation>();
  }
  for (size_t i = 0; i < result_types.size(); ++i) {
    auto value = std::make_unique<Value>();
    value->type = result_types[i];
    value->defining_op = op.get();
    value->index = static_cast<int>(i);
    op->results.push_back(std::move(value));
  }
  size_t next = 0;
  for (const Binding& binding : bindings) {
    std::vector<Value*> group;
    for (size_t i = 0; i < binding.count; ++i) {
      Value* value = op->results[next++].get();
      value->name = binding.name;
      group.push_back(value);
    }
    PLUGRT_RETURN_IF_ERROR(DefineValues(binding.name, binding.pos, std::move(group)));
  }
  PLUGRT_ASSIGN_OR_RETURN(op->location.source, ParseOptionalLoc());
  return op;
}

Status Parser::ParseGenericOp(Operation* op, std::vector<Type>* result_types) {
  size_t operands_pos = lex_.pos();
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open the operand list");
  lex_.Peek();
  operands_pos = lex_.pos();
  PLUGRT_RETURN_IF_ERROR(ParseOperandList(&op->operands));
  if (!lex_.ConsumeIf(")")) return lex_.Expected("',' or ')' in the operand list");
  if (lex_.Peek() == '[') {
    return lex_.ErrorAt(lex_.pos(), "successor blocks are not supported");
  }
  if (lex_.ConsumeIf("<")) {
    if (lex_.Peek() != '{') return lex_.Expected("'{' to open the properties");
    PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
    if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the properties");
  }
  if (lex_.ConsumeIf("(")) {
    while (true) {
      auto region = std::make_unique<Region>();
      region->parent_op = op;
      PLUGRT_RETURN_IF_ERROR(ParseRegion(region.get(), nullptr));
      op->regions.push_back(std::move(region));
      if (lex_.ConsumeIf(")")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the region list");
    }
  }
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of " + op->name);
  size_t type_pos = lex_.pos();
  lex_.Peek();
  type_pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Type> inputs, ParseParenTypeList());
  if (!lex_.ConsumeIf("->")) return lex_.Expected("'->' in the function type");
  if (lex_.Peek() == '(') {
    PLUGRT_ASSIGN_OR_RETURN(*result_types, ParseParenTypeList());
  } else {
    PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
    result_types->push_back(std::move(type));
  }
  if (inputs.size() != op->operands.size()) {
    return lex_.ErrorAt(type_pos, op->name, " has ", op->operands.size(),
                        " operands but its type lists ", inputs.size());
  }
  // arith's scalars are 0-d tensors here (parser_arith.cc).
  const bool scalars_as_tensors = IsTranslatedArithOp(op->name);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (scalars_as_tensors && !inputs[i].is_tensor()) inputs[i] = Type::Scalar(inputs[i].element_type());
    if (inputs[i] != op->operands[i]->type) {
      return lex_.ErrorAt(operands_pos, "operand #", i, " of ", op->name, " has type ",
                          op->operands[i]->type.ToString(), " but the op's type says ",
                          inputs[i].ToString());
    }
  }
  return OkStatus();
}

// ---------------------------------------------------------------- types

StatusOr<std::vector<Type>> Parser::ParseParenTypeList() {
  std::vector<Type> types;
  if (!lex_.ConsumeIf("(")) return lex_.Expected("'(' to open a type list");
  if (lex_.ConsumeIf(")")) return types;
  while (true) {
    PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
    types.push_back(std::move(type));
    if (lex_.ConsumeIf(")")) return types;
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ')' in the type list");
  }
}

Status Parser::ParseSignature(std::vector<Type>* inputs, std::vector<Type>* results,
                              bool* has_arrow) {
  *has_arrow = false;
  if (lex_.Peek() == '(') {
    PLUGRT_ASSIGN_OR_RETURN(*inputs, ParseParenTypeList());
  } else {
    while (true) {
      PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
      inputs->push_back(std::move(type));
      size_t save = lex_.pos();
      if (!lex_.ConsumeIf(",")) break;
      // A following keyword item (`, k = v`) is not a type.
      char c = lex_.Peek();
      if (c == '%' || c == '\0') {
        lex_.set_pos(save);
        break;
      }
    }
  }
  if (lex_.ConsumeIf("->")) {
    *has_arrow = true;
    if (lex_.Peek() == '(') {
      PLUGRT_ASSIGN_OR_RETURN(*results, ParseParenTypeList());
    } else {
      PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
      results->push_back(std::move(type));
    }
  }
  return OkStatus();
}

StatusOr<Type> Parser::ParseType() {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  char c = lex_.Peek();
  size_t start = lex_.pos();
  if (c == '!') {
    lex_.set_pos(start + 1);
    std::string_view name = lex_.LexSuffixId();
    if (name == "stablehlo.token") return Type::Token();
    if (name.empty()) return lex_.Expected("a dialect type name after '!'");
    if (name == "quant.uniform") {
      if (lex_.PeekRaw() != '<') return lex_.Expected("'<' after '!quant.uniform'");
      size_t body_start = lex_.pos() + 1;
      PLUGRT_ASSIGN_OR_RETURN(std::string_view group, lex_.SkipAngleGroup());
      size_t offset = 0;
      StatusOr<UniformQuantParams> params =
          ParseQuantParamsBody(group.substr(1, group.size() - 2), &offset);
      if (!params.ok()) return lex_.ErrorAt(body_start + offset, params.status().message());
      return Type::QuantizedElement(std::move(*params));
    }
    if (lex_.PeekRaw() == '<') PLUGRT_RETURN_IF_ERROR(lex_.SkipAngleGroup().status());
    return Type::Unsupported(std::string(lex_.text().substr(start, lex_.pos() - start)));
  }
  std::string_view id = lex_.LexBareId();
  if (id.empty()) return lex_.Expected("a type");
  if (id == "tensor") {
    if (lex_.PeekRaw() != '<') return lex_.Expected("'<' after 'tensor'");
    lex_.set_pos(lex_.pos() + 1);
    std::vector<int64_t> dims;
    while (true) {
      char d = lex_.Peek();
      if (d == '?') {
        lex_.set_pos(lex_.pos() + 1);
        dims.push_back(kDynamicSize);
      } else if (d >= '0' && d <= '9') {
        std::string_view digits = lex_.LexInteger();
        int64_t dim = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), dim);
        if (ec != std::errc() || ptr != digits.data() + digits.size() ||
            dim > (int64_t{1} << 48)) {
          return lex_.ErrorAt(lex_.pos() - digits.size(), "dimension size ", digits,
                              " is too large");
        }
        dims.push_back(dim);
      } else {
        break;
      }
      if (lex_.PeekRaw() != 'x') return lex_.Expected("'x' after a dimension size");
      lex_.set_pos(lex_.pos() + 1);
      if (dims.size() > 64) return lex_.ErrorAt(lex_.pos(), "tensor rank above 64");
    }
    size_t elem_pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(Type element, ParseType());
    bool supported = element.kind() == Type::Kind::kElement;
    if (!supported && element.kind() != Type::Kind::kUnsupported) {
      return lex_.ErrorAt(elem_pos, "a tensor's element type must be a scalar type, not ",
                          element.ToString());
    }
    if (lex_.ConsumeIf(",")) {
      // An encoding (e.g. bounds of dynamic dimensions): read and dropped.
      PLUGRT_RETURN_IF_ERROR(ParseAttribute().status());
    }
    if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the tensor type");
    if (!supported) {
      return Type::Unsupported(std::string(lex_.text().substr(start, lex_.pos() - start)));
    }
    if (element.is_quantized()) {
      const UniformQuantParams& q = *element.quant();
      // Per-axis types name a dimension of the tensor and hold one scale per
      // index of it (spec C12, C13).
      if (q.per_axis() && (q.quantized_dimension >= static_cast<int64_t>(dims.size()) ||
                           (dims[q.quantized_dimension] != kDynamicSize &&
                            dims[q.quantized_dimension] !=
                                static_cast<int64_t>(q.scales.size())))) {
        return lex_.ErrorAt(elem_pos, "per-axis quantized type with quantization dimension ",
                            q.quantized_dimension, " and ", q.scales.size(),
                            " scales does not fit a tensor of rank ", dims.size(),
                            q.quantized_dimension < static_cast<int64_t>(dims.size())
                                ? StrCat(" whose dimension ", q.quantized_dimension, " has size ",
                                         dims[q.quantized_dimension])
                                : std::string());
      }
    }
    return Type::TensorOf(element, std::move(dims));
  }
  if (id == "tuple") {
    if (lex_.PeekRaw() != '<') return lex_.Expected("'<' after 'tuple'");
    lex_.set_pos(lex_.pos() + 1);
    std::vector<Type> elements;
    if (!lex_.ConsumeIf(">")) {
      while (true) {
        PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
        elements.push_back(std::move(type));
        if (lex_.ConsumeIf(">")) break;
        if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '>' in the tuple type");
      }
    }
    return Type::Tuple(std::move(elements));
  }
  if (id == "complex") {
    if (lex_.PeekRaw() != '<') return lex_.Expected("'<' after 'complex'");
    lex_.set_pos(lex_.pos() + 1);
    std::string_view part = lex_.LexBareId();
    if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the complex type");
    if (part == "f32") return Type::Element(ElementType::kC64);
    if (part == "f64") return Type::Element(ElementType::kC128);
    return Type::Unsupported(std::string(lex_.text().substr(start, lex_.pos() - start)));
  }
  if (auto element = ParseElementTypeName(id)) return Type::Element(*element);
  // Other builtin types (tf32, index, vector<...>): kept as text.
  if (lex_.PeekRaw() == '<') PLUGRT_RETURN_IF_ERROR(lex_.SkipAngleGroup().status());
  return Type::Unsupported(std::string(lex_.text().substr(start, lex_.pos() - start)));
}

}  // namespace internal

StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name) {
  return ParseModule(text, file_name, 1);
}

StatusOr<Type> ParseTypeText(std::string_view text) {
  internal::Parser parser(text, "<type>", 1);
  PLUGRT_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  if (parser.lex().Peek() != '\0') {
    return parser.lex().ErrorAt(parser.lex().pos(), "unexpected text after the type");
  }
  return type;
}

StatusOr<Attribute> ParseAttributeText(std::string_view text) {
  internal::Parser parser(text, "<attribute>", 1);
  PLUGRT_ASSIGN_OR_RETURN(Attribute attr, parser.ParseAttribute());
  if (parser.lex().Peek() != '\0') {
    return parser.lex().ErrorAt(parser.lex().pos(), "unexpected text after the attribute");
  }
  // A dense_resource alone has no resource section to take its data from.
  PLUGRT_RETURN_IF_ERROR(parser.ResolveResources());
  return attr;
}

StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name,
                                              int first_line) {
  internal::Parser parser(text, file_name, first_line);
  return parser.Run();
}

StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name,
                                              const ReadOptions& options) {
  internal::Parser parser(text, file_name, 1);
  parser.set_elided_fill(options.elided);
  return parser.Run();
}

std::vector<SourceSection> SplitSections(std::string_view text) {
  std::vector<SourceSection> sections;
  size_t section_start = 0;
  int section_line = 1;
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    if (text.substr(pos, 8) == "// -----") {
      sections.push_back({text.substr(section_start, pos - section_start), section_line});
      section_start = next;
      section_line = line + 1;
    }
    pos = next;
    ++line;
  }
  sections.push_back({text.substr(section_start), section_line});
  return sections;
}

}  // namespace plugrt::shlo
