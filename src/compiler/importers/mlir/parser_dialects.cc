// Ops of dialects other than StableHLO that exporters mix into programs:
// mhlo (parser_mhlo.cc has its mapping), arith's constants, casts and
// arithmetic (parser_arith.cc), tensor.cast between equal static shapes and
// tensor.extract of a 0-d tensor (the operand itself), tensor.extract at an
// index, tensor.from_elements and tensor.dim (kept, for
// passes/lower_tensor_ops.cc),
// func.call and func.return. Ops of the other dialects exporters
// use (arith, tensor, math, scf, shape, ...) are refused by name, with the
// position of the op.
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

// Dialects whose ops plugrt cannot run unless translated here.
bool IsRefusedDialect(std::string_view dialect) {
  static constexpr std::string_view kDialects[] = {
      "arith",  "tensor", "func",   "builtin", "math", "scf",         "cf",    "shape",
      "linalg", "memref", "tosa",   "tf",      "tfl",  "tf_executor", "affine", "vector",
      "index",  "complex", "bufferization", "ml_program", "mhlo"};
  for (std::string_view d : kDialects) {
    if (d == dialect) return true;
  }
  return false;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

Status Parser::TranslateOpName(Operation* op, size_t pos) {
  const std::string written = op->name;
  if (StartsWith(written, "mhlo.")) {
    std::optional<std::string> counterpart = MhloOpCounterpart(written);
    if (!counterpart) {
      return lex_.ErrorAt(pos, "'", written,
                          "' has no StableHLO counterpart; this mhlo op is not supported");
    }
    op->name = std::move(*counterpart);
    return OkStatus();
  }
  if (IsTranslatedArithOp(written) || written == "tensor.cast" || written == "tensor.extract" ||
      written == "tensor.from_elements" || written == "tensor.dim" || written == "func.call" ||
      written == "func.return") {
    return OkStatus();
  }
  if (written == "ml_program.global_load_const" || written == "ml_program.global_load") {
    op->name = "stablehlo.constant";
    return OkStatus();
  }
  size_t dot = written.find('.');
  std::string_view dialect =
      dot == std::string::npos ? std::string_view() : std::string_view(written).substr(0, dot);
  if (IsRefusedDialect(dialect)) {
    return lex_.ErrorAt(pos, "'", written, "' is not supported (", dialect,
                        " ops other than arith's constants, casts, arithmetic, comparisons and "
                        "selects, tensor.cast, tensor.extract, tensor.from_elements, tensor.dim, "
                        "func.call, func.return and loads "
                        "of ml_program globals have no StableHLO counterpart here)");
  }
  return OkStatus();
}

Status Parser::FinishTranslatedOp(Operation* op, std::string_view written,
                                  const std::vector<Type>& result_types, size_t pos,
                                  Value** alias) {
  *alias = nullptr;
  auto identity = [&](std::string_view what) -> Status {
    if (op->operands.empty() || result_types.size() != 1) {
      return lex_.ErrorAt(pos, written, " takes ", what, " and has one result; found ",
                          op->operands.size(), " operands and ", result_types.size(),
                          " results");
    }
    *alias = op->operands[0];
    return OkStatus();
  };
  if (StartsWith(written, "mhlo.")) {
    if (Status s = NormalizeMhloAttributes(op); !s.ok()) return lex_.ErrorAt(pos, s.message());
    if (written == "mhlo.copy" || written == "mhlo.add_dependency") {
      PLUGRT_RETURN_IF_ERROR(identity(written == "mhlo.copy" ? "one operand" : "a value and a token"));
      if ((written == "mhlo.copy" && op->operands.size() != 1) ||
          (written == "mhlo.add_dependency" && op->operands.size() != 2)) {
        return lex_.ErrorAt(pos, written, " has ", op->operands.size(), " operands");
      }
      if ((*alias)->type != result_types[0]) {
        return lex_.ErrorAt(pos, written, " changes the type ", (*alias)->type.ToString(),
                            " to ", result_types[0].ToString());
      }
    }
    return OkStatus();
  }
  if (written == "tensor.cast") {
    PLUGRT_RETURN_IF_ERROR(identity("one operand"));
    const Type& from = (*alias)->type;
    const Type& to = result_types[0];
    if (op->operands.size() != 1 || from != to || !from.is_tensor() || !from.has_static_shape()) {
      *alias = nullptr;
      return lex_.ErrorAt(pos, "tensor.cast from ", from.ToString(), " to ", to.ToString(),
                          " is not supported: only casts between equal static shapes are");
    }
    return OkStatus();
  }
  if (written == "ml_program.global_load_const" || written == "ml_program.global_load") {
    // The generic form names the global in its `global` attribute.
    if (op->attribute("value") != nullptr) return OkStatus();
    const Attribute* global = op->attribute("global");
    if (global == nullptr || global->kind != Attribute::Kind::kSymbolRef ||
        result_types.size() != 1) {
      return lex_.ErrorAt(pos, written, " needs a `global` symbol and one result");
    }
    StatusOr<Attribute> value = GlobalValue(global->str, result_types[0]);
    if (!value.ok()) return lex_.ErrorAt(pos, value.status().message());
    op->attributes.clear();
    op->attributes.emplace_back("value", *std::move(value));
    return OkStatus();
  }
  if (written == "tensor.extract") {
    // Of a 0-d tensor, the value itself (a scalar is a 0-d tensor here);
    // at an index, passes/lower_tensor_ops.cc lowers it.
    if (op->operands.empty() || result_types.size() != 1) {
      return lex_.ErrorAt(pos, "tensor.extract takes a tensor and its indices, and has one result");
    }
    const Type& from = op->operands[0]->type;
    if (!from.is_tensor() || !from.has_static_shape() ||
        static_cast<int64_t>(op->operands.size()) != 1 + from.rank() ||
        result_types[0] != Type::Scalar(from.element_type())) {
      return lex_.ErrorAt(pos, "tensor.extract from ", from.ToString(), " with ",
                          op->operands.size() - 1, " indices is not supported: only elements of "
                          "tensors of static shape, one index per dimension");
    }
    if (from.rank() == 0) *alias = op->operands[0];
    return OkStatus();
  }
  return OkStatus();
}

Status Parser::ParsePrettyTensorExtract(Operation* op, std::vector<Type>* result_types) {
  // %t[%i, ...] : tensor<...>; the result is the element type.
  PLUGRT_ASSIGN_OR_RETURN(Value * operand, ParseOperand());
  op->operands.push_back(operand);
  if (!lex_.ConsumeIf("[")) return lex_.Expected("'[' and the indices of tensor.extract");
  if (!lex_.ConsumeIf("]")) {
    PLUGRT_RETURN_IF_ERROR(ParseOperandList(&op->operands));
    if (!lex_.ConsumeIf("]")) return lex_.Expected("']' after the indices of tensor.extract");
  }
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of tensor.extract's operand");
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  result_types->push_back(Type::Scalar(type.element_type()));
  return OkStatus();
}

Status Parser::ParsePrettyTensorDim(Operation* op, std::vector<Type>* result_types) {
  // %t, %index [attrs] : tensor<...>; the result is an index (i64 here).
  PLUGRT_ASSIGN_OR_RETURN(Value * operand, ParseOperand());
  op->operands.push_back(operand);
  if (!lex_.ConsumeIf(",")) return lex_.Expected("',' and the dimension index of tensor.dim");
  PLUGRT_ASSIGN_OR_RETURN(Value * index, ParseOperand());
  op->operands.push_back(index);
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  lex_.Peek();
  const size_t pos = lex_.pos();
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of tensor.dim's operand");
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (type != operand->type) {
    return lex_.ErrorAt(pos, "tensor.dim's operand has type ", operand->type.ToString(),
                        " but the op's type says ", type.ToString());
  }
  result_types->push_back(Type::Scalar(ElementType::kSI64));
  return OkStatus();
}

Status Parser::ParsePrettyFromElements(Operation* op, std::vector<Type>* result_types) {
  // %a, %b, ... : tensor<...>
  if (lex_.Peek() == '%') PLUGRT_RETURN_IF_ERROR(ParseOperandList(&op->operands));
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of tensor.from_elements");
  lex_.Peek();
  const size_t pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (!type.is_tensor() || !type.has_static_shape() ||
      type.num_elements() != static_cast<int64_t>(op->operands.size())) {
    return lex_.ErrorAt(pos, "tensor.from_elements of ", op->operands.size(),
                        " elements cannot make ", type.ToString());
  }
  for (Value* element : op->operands) {
    if (element->type != Type::Scalar(type.element_type())) {
      return lex_.ErrorAt(pos, "tensor.from_elements: an element of type ",
                          element->type.ToString(), " for ", type.ToString());
    }
  }
  result_types->push_back(std::move(type));
  return OkStatus();
}

Status Parser::ParsePrettyTensorCast(Operation* op, std::vector<Type>* result_types) {
  // %x : tensor<...> to tensor<...>
  PLUGRT_ASSIGN_OR_RETURN(Value * operand, ParseOperand());
  op->operands.push_back(operand);
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  lex_.Peek();
  size_t type_pos = lex_.pos();
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the operand type of tensor.cast");
  PLUGRT_ASSIGN_OR_RETURN(Type from, ParseType());
  if (from != operand->type) {
    return lex_.ErrorAt(type_pos, "operand of tensor.cast has type ", operand->type.ToString(),
                        " but the op's type says ", from.ToString());
  }
  if (!lex_.ConsumeKeyword("to")) return lex_.Expected("'to' and the result type of tensor.cast");
  PLUGRT_ASSIGN_OR_RETURN(Type to, ParseType());
  result_types->push_back(std::move(to));
  return OkStatus();
}

}  // namespace plugrt::shlo::internal
