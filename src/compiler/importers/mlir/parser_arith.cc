// The `arith` ops TensorFlow's and torch-mlir's exporters mix into StableHLO
// (shape arithmetic on scalars and index values, constants, casts), read as
// the StableHLO op that computes the same on 0-d tensors: a scalar of type T
// is a tensor<T>, and `index` is i64 (what StableHLO's shape operands take).
//   %c = arith.constant 4 : index           -> stablehlo.constant dense<4> : tensor<i64>
//   %y = arith.index_cast %x : index to i32 -> stablehlo.convert
//   %z = arith.muli %a, %b : i64            -> stablehlo.multiply
//   %p = arith.cmpi slt, %a, %b : i64       -> stablehlo.compare LT, SIGNED
// The ops also apply elementwise to tensors, as in arith. Ops with unsigned
// semantics (divui, unsigned comparisons, ...) are refused by name, and so
// are extui/uitofp except from i1 (where zero- and sign-extension agree) and
// the float comparisons StableHLO has no direction for (one, ueq, ord, ...).
#include <bit>
#include <cstring>
#include <span>

#include "compiler/importers/mlir/parser_impl.h"
#include "stablehlo/float_format.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::shlo::internal {
namespace {

struct ArithOp {
  std::string_view name;
  std::string_view counterpart;
  enum Form { kConstant, kUnary, kBinary, kCast, kCastFromI1, kCompareInt, kCompareFloat,
              kSelect } form;
};

constexpr ArithOp kArithOps[] = {
    {"arith.constant", "stablehlo.constant", ArithOp::kConstant},
    {"arith.addi", "stablehlo.add", ArithOp::kBinary},
    {"arith.addf", "stablehlo.add", ArithOp::kBinary},
    {"arith.subi", "stablehlo.subtract", ArithOp::kBinary},
    {"arith.subf", "stablehlo.subtract", ArithOp::kBinary},
    {"arith.muli", "stablehlo.multiply", ArithOp::kBinary},
    {"arith.mulf", "stablehlo.multiply", ArithOp::kBinary},
    {"arith.divsi", "stablehlo.divide", ArithOp::kBinary},
    {"arith.divf", "stablehlo.divide", ArithOp::kBinary},
    {"arith.remsi", "stablehlo.remainder", ArithOp::kBinary},
    {"arith.remf", "stablehlo.remainder", ArithOp::kBinary},
    {"arith.maxsi", "stablehlo.maximum", ArithOp::kBinary},
    {"arith.minsi", "stablehlo.minimum", ArithOp::kBinary},
    {"arith.maximumf", "stablehlo.maximum", ArithOp::kBinary},
    {"arith.minimumf", "stablehlo.minimum", ArithOp::kBinary},
    {"arith.andi", "stablehlo.and", ArithOp::kBinary},
    {"arith.ori", "stablehlo.or", ArithOp::kBinary},
    {"arith.xori", "stablehlo.xor", ArithOp::kBinary},
    {"arith.negf", "stablehlo.negate", ArithOp::kUnary},
    {"arith.index_cast", "stablehlo.convert", ArithOp::kCast},
    {"arith.extsi", "stablehlo.convert", ArithOp::kCast},
    {"arith.trunci", "stablehlo.convert", ArithOp::kCast},
    {"arith.sitofp", "stablehlo.convert", ArithOp::kCast},
    {"arith.fptosi", "stablehlo.convert", ArithOp::kCast},
    {"arith.extf", "stablehlo.convert", ArithOp::kCast},
    {"arith.truncf", "stablehlo.convert", ArithOp::kCast},
    {"arith.bitcast", "stablehlo.bitcast_convert", ArithOp::kCast},
    {"arith.extui", "stablehlo.convert", ArithOp::kCastFromI1},
    {"arith.uitofp", "stablehlo.convert", ArithOp::kCastFromI1},
    {"arith.cmpi", "stablehlo.compare", ArithOp::kCompareInt},
    {"arith.cmpf", "stablehlo.compare", ArithOp::kCompareFloat},
    {"arith.select", "stablehlo.select", ArithOp::kSelect},
};

// arith's comparison predicates by number (its enums' order), with the
// StableHLO direction each is; empty where StableHLO has none (unsigned
// integer ones, and float ones that are true on NaN other than une).
constexpr std::string_view kIntPredicates[][2] = {
    {"eq", "EQ"}, {"ne", "NE"},  {"slt", "LT"}, {"sle", "LE"}, {"sgt", "GT"},
    {"sge", "GE"}, {"ult", ""},  {"ule", ""},   {"ugt", ""},   {"uge", ""}};
constexpr std::string_view kFloatPredicates[][2] = {
    {"false", ""}, {"oeq", "EQ"}, {"ogt", "GT"}, {"oge", "GE"}, {"olt", "LT"}, {"ole", "LE"},
    {"one", ""},   {"ord", ""},   {"ueq", ""},   {"ugt", ""},   {"uge", ""},   {"ult", ""},
    {"ule", ""},   {"une", "NE"}, {"uno", ""},   {"true", ""}};

std::span<const std::string_view[2]> PredicatesOf(const ArithOp& op) {
  if (op.form == ArithOp::kCompareInt) return kIntPredicates;
  return kFloatPredicates;
}

const ArithOp* FindArithOp(std::string_view name) {
  for (const ArithOp& op : kArithOps) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

// A scalar as the 0-d tensor StableHLO computes it on; index as i64.
Type AsTensor(const Type& type) {
  if (type.is_tensor()) return type;
  return Type::Scalar(type.element_type());
}

// The 0-d dense constant holding scalar attribute `value` as `type`'s element.
StatusOr<Attribute> ScalarDense(const Attribute& value, const Type& type) {
  const ElementType et = type.element_type();
  const int bytes = StorageBytes(et);
  uint64_t bits = 0;
  if (value.kind == Attribute::Kind::kBool && et == ElementType::kI1) {
    bits = value.bool_value ? 1 : 0;
  } else if (value.kind == Attribute::Kind::kInteger && IsInteger(et)) {
    bits = static_cast<uint64_t>(value.int_value);
    if (et == ElementType::kI1) bits &= 1;
  } else if ((value.kind == Attribute::Kind::kFloat || value.kind == Attribute::Kind::kInteger) &&
             IsFloat(et)) {
    const double v = value.kind == Attribute::Kind::kFloat
                         ? value.float_value
                         : static_cast<double>(value.int_value);
    bits = et == ElementType::kF64   ? std::bit_cast<uint64_t>(v)
           : et == ElementType::kF32 ? std::bit_cast<uint32_t>(static_cast<float>(v))
                                     : EncodeFloat(et, v);
  } else {
    return InvalidArgument("arith.constant ", value.ToString(), " does not fit ", type.ToString());
  }
  auto data = std::make_shared<DenseData>();
  data->bytes.resize(static_cast<size_t>(bytes));
  for (int i = 0; i < bytes; ++i) data->bytes[i] = static_cast<std::byte>((bits >> (8 * i)) & 0xFF);
  return Attribute::Dense(Type::Scalar(et), std::move(data));
}

}  // namespace

bool IsTranslatedArithOp(std::string_view name) { return FindArithOp(name) != nullptr; }

StatusOr<Type> Parser::ParseArithType() {
  if (lex_.ConsumeKeyword("index")) return Type::Scalar(ElementType::kSI64);
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  return AsTensor(type);
}

Status Parser::ParsePrettyArith(Operation* op, std::vector<Type>* result_types) {
  const ArithOp* arith = FindArithOp(op->name);
  if (arith == nullptr) return lex_.ErrorAt(lex_.pos(), "'", op->name, "' is not supported");
  if (arith->form == ArithOp::kConstant) {
    // arith.constant VALUE [: TYPE]; a dense<...> literal carries its type.
    if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
    lex_.Peek();
    const size_t pos = lex_.pos();
    Attribute value;
    if (lex_.ConsumeKeyword("true") || lex_.ConsumeKeyword("false")) {
      value = Attribute::Bool(lex_.text().substr(pos, 4) == "true");
    } else {
      // A number keeps a scalar type it is written with; `: index` is left.
      PLUGRT_ASSIGN_OR_RETURN(value, ParseAttribute());
      if (value.kind == Attribute::Kind::kDenseElements) {
        result_types->push_back(value.type);
        SetAttr(op, "value", std::move(value));
        return OkStatus();
      }
    }
    Type type = Type::Scalar(ElementType::kI1);
    if (lex_.ConsumeIf(":")) {
      PLUGRT_ASSIGN_OR_RETURN(type, ParseArithType());
    } else if (value.kind != Attribute::Kind::kBool && value.type.kind() == Type::Kind::kElement) {
      type = AsTensor(value.type);
    }
    StatusOr<Attribute> dense = ScalarDense(value, type);
    if (!dense.ok()) return lex_.ErrorAt(pos, dense.status().message());
    result_types->push_back(type);
    SetAttr(op, "value", *std::move(dense));
    return OkStatus();
  }
  const bool compare =
      arith->form == ArithOp::kCompareInt || arith->form == ArithOp::kCompareFloat;
  if (compare) {
    // The predicate by name, kept as the generic form's number.
    lex_.Peek();
    const size_t at = lex_.pos();
    std::string_view name = lex_.LexBareId();
    std::span<const std::string_view[2]> predicates = PredicatesOf(*arith);
    size_t number = 0;
    while (number < predicates.size() && predicates[number][0] != name) ++number;
    if (number == predicates.size()) {
      return lex_.ErrorAt(at, "'", name, "' is not a predicate of ", op->name);
    }
    SetAttr(op, "predicate", Attribute::Integer(static_cast<int64_t>(number)));
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' after the predicate of " + op->name);
  }
  PLUGRT_ASSIGN_OR_RETURN(Value * first, ParseOperand());
  op->operands.push_back(first);
  const int more = arith->form == ArithOp::kSelect ? 2
                   : (arith->form == ArithOp::kBinary || compare) ? 1
                                                                  : 0;
  for (int i = 0; i < more; ++i) {
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' and the next operand of " + op->name);
    PLUGRT_ASSIGN_OR_RETURN(Value * next, ParseOperand());
    op->operands.push_back(next);
  }
  // Flags (overflow<nsw>, fastmath<fast>) do not change the values computed.
  while (lex_.ConsumeKeyword("overflow") || lex_.ConsumeKeyword("fastmath")) {
    PLUGRT_RETURN_IF_ERROR(lex_.SkipAngleGroup().status());
  }
  if (lex_.Peek() == '{') PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&op->attributes));
  lex_.Peek();
  const size_t type_pos = lex_.pos();
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of " + op->name);
  PLUGRT_ASSIGN_OR_RETURN(Type from, ParseArithType());
  // A select's type is its values'; its condition is i1 of their shape.
  const size_t first_typed = arith->form == ArithOp::kSelect ? 1 : 0;
  for (size_t i = first_typed; i < op->operands.size(); ++i) {
    Value* operand = op->operands[i];
    if (operand->type != from) {
      return lex_.ErrorAt(type_pos, "operand of ", op->name, " has type ",
                          operand->type.ToString(), " but the op's type says ", from.ToString());
    }
  }
  if (compare) {
    result_types->push_back(WithElementType(from, ElementType::kI1));
  } else if (arith->form == ArithOp::kCast || arith->form == ArithOp::kCastFromI1) {
    if (!lex_.ConsumeKeyword("to")) return lex_.Expected("'to' and the result type of " + op->name);
    PLUGRT_ASSIGN_OR_RETURN(Type to, ParseArithType());
    result_types->push_back(std::move(to));
  } else {
    result_types->push_back(std::move(from));
  }
  return OkStatus();
}

Status Parser::FinishArithOp(Operation* op, std::string_view written,
                             std::vector<Type>* result_types, size_t pos) {
  const ArithOp* arith = FindArithOp(written);
  if (arith == nullptr) return OkStatus();
  // The generic form's types were read as written: scalars become tensors.
  for (Type& type : *result_types) type = AsTensor(type);
  if (arith->form == ArithOp::kConstant) {
    const Attribute* value = op->attribute("value");
    if (value == nullptr || result_types->size() != 1) {
      return lex_.ErrorAt(pos, "arith.constant needs a value and one result");
    }
    if (value->kind != Attribute::Kind::kDenseElements) {
      StatusOr<Attribute> dense = ScalarDense(*value, (*result_types)[0]);
      if (!dense.ok()) return lex_.ErrorAt(pos, dense.status().message());
      SetAttr(op, "value", *std::move(dense));
      value = op->attribute("value");
    }
    if (value->type != (*result_types)[0]) {
      return lex_.ErrorAt(pos, "arith.constant's result type ", (*result_types)[0].ToString(),
                          " does not match its value's type ", value->type.ToString());
    }
    Attribute kept = *value;
    op->attributes.clear();
    op->attributes.emplace_back("value", std::move(kept));
  } else if (arith->form == ArithOp::kCompareInt || arith->form == ArithOp::kCompareFloat) {
    const Attribute* predicate = op->attribute("predicate");
    std::span<const std::string_view[2]> predicates = PredicatesOf(*arith);
    if (predicate == nullptr || predicate->kind != Attribute::Kind::kInteger ||
        predicate->int_value < 0 ||
        predicate->int_value >= static_cast<int64_t>(predicates.size())) {
      return lex_.ErrorAt(pos, written, " needs a predicate");
    }
    const auto& [name, direction] = predicates[static_cast<size_t>(predicate->int_value)];
    if (direction.empty()) {
      return lex_.ErrorAt(pos, written, " ", name,
                          " is not supported: StableHLO's compare has no such direction");
    }
    op->attributes.clear();
    op->attributes.emplace_back("comparison_direction",
                                Attribute::Enum("stablehlo.comparison_direction", std::string(direction)));
    op->attributes.emplace_back(
        "compare_type",
        Attribute::Enum("stablehlo.comparison_type",
                        arith->form == ArithOp::kCompareInt ? "SIGNED" : "FLOAT"));
  } else {
    if (arith->form == ArithOp::kCastFromI1 &&
        (op->operands.size() != 1 || op->operands[0]->type.element_type() != ElementType::kI1)) {
      return lex_.ErrorAt(pos, written, " from ",
                          op->operands.empty() ? std::string("nothing")
                                               : op->operands[0]->type.ToString(),
                          " is not supported (only from i1): StableHLO's convert extends signed "
                          "values");
    }
    // Flags and attributes of arith (overflow, fastmath) say nothing StableHLO keeps.
    op->attributes.clear();
  }
  op->name = std::string(arith->counterpart);
  op->code = LookupOpCode(op->name);
  return OkStatus();
}

}  // namespace plugrt::shlo::internal
