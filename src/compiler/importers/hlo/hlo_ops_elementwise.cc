// HLO importer: elementwise instructions (math, logic, compare, select,
// clamp, conversions) and iota.
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/importers/hlo/hlo_converter.h"

namespace plugrt::shlo::hlo {
namespace {

// HLO opcode -> StableHLO op, for ops that need no attributes.
const std::unordered_map<std::string_view, std::string_view>& PlainElementwiseOps() {
  static const auto* ops = [] {
    auto* map = new std::unordered_map<std::string_view, std::string_view>;
    for (const auto& [opcode, name] : HloElementwiseOpcodes()) map->emplace(opcode, name);
    return map;
  }();
  return *ops;
}

// Operands each elementwise op takes (select and clamp take three).
size_t ArityOf(std::string_view opcode, std::string_view name) {
  if (opcode == "select" || opcode == "clamp") return 3;
  const OpCode code = LookupOpCode(name);
  if (code != OpCode::kUnknown) return static_cast<size_t>(TraitsOf(code).operands);
  return 1;  // chlo.erf
}

// XLA's default comparison type for operands of `element`.
std::string_view DefaultCompareType(ElementType element) {
  if (IsFloat(element) || IsComplex(element)) return "FLOAT";
  if (IsSignedInteger(element)) return "SIGNED";
  return "UNSIGNED";
}

bool IsDirection(std::string_view d) {
  return d == "EQ" || d == "NE" || d == "GE" || d == "GT" || d == "LE" || d == "LT";
}

bool IsCompareType(std::string_view t) {
  return t == "FLOAT" || t == "TOTALORDER" || t == "SIGNED" || t == "UNSIGNED";
}

}  // namespace

const std::vector<std::pair<std::string_view, std::string_view>>& HloElementwiseOpcodes() {
  static const auto* pairs = new std::vector<std::pair<std::string_view, std::string_view>>{
      {"abs", "stablehlo.abs"},
      {"cbrt", "stablehlo.cbrt"},
      {"ceil", "stablehlo.ceil"},
      {"clz", "stablehlo.count_leading_zeros"},
      {"cosine", "stablehlo.cosine"},
      {"exponential", "stablehlo.exponential"},
      {"exponential-minus-one", "stablehlo.exponential_minus_one"},
      {"floor", "stablehlo.floor"},
      {"imag", "stablehlo.imag"},
      {"is-finite", "stablehlo.is_finite"},
      {"log", "stablehlo.log"},
      {"log-plus-one", "stablehlo.log_plus_one"},
      {"logistic", "stablehlo.logistic"},
      {"negate", "stablehlo.negate"},
      {"not", "stablehlo.not"},
      {"popcnt", "stablehlo.popcnt"},
      {"real", "stablehlo.real"},
      {"round-nearest-afz", "stablehlo.round_nearest_afz"},
      {"round-nearest-even", "stablehlo.round_nearest_even"},
      {"rsqrt", "stablehlo.rsqrt"},
      {"sign", "stablehlo.sign"},
      {"sine", "stablehlo.sine"},
      {"sqrt", "stablehlo.sqrt"},
      {"tan", "stablehlo.tan"},
      {"tanh", "stablehlo.tanh"},
      {"erf", "chlo.erf"},
      {"add", "stablehlo.add"},
      {"and", "stablehlo.and"},
      {"atan2", "stablehlo.atan2"},
      {"complex", "stablehlo.complex"},
      {"divide", "stablehlo.divide"},
      {"maximum", "stablehlo.maximum"},
      {"minimum", "stablehlo.minimum"},
      {"multiply", "stablehlo.multiply"},
      {"or", "stablehlo.or"},
      {"power", "stablehlo.power"},
      {"remainder", "stablehlo.remainder"},
      {"shift-left", "stablehlo.shift_left"},
      {"shift-right-arithmetic", "stablehlo.shift_right_arithmetic"},
      {"shift-right-logical", "stablehlo.shift_right_logical"},
      {"subtract", "stablehlo.subtract"},
      {"xor", "stablehlo.xor"},
      {"select", "stablehlo.select"},
      {"clamp", "stablehlo.clamp"},
      {"convert", "stablehlo.convert"},
      {"bitcast-convert", "stablehlo.bitcast_convert"},
  };
  return *pairs;
}

FamilyResult ConvertElementwise(const InstructionContext& ctx) {
  const std::string& op = ctx.inst.opcode();
  auto yes = [](ValueTree t) { return std::make_pair(Handled::kYes, std::move(t)); };
  const auto& plain = PlainElementwiseOps();
  if (auto it = plain.find(op); it != plain.end()) {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(ArityOf(op, it->second)));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple(std::string(it->second)));
    return yes(std::move(t));
  }
  if (op == "compare") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    PLUGRT_ASSIGN_OR_RETURN(Value * lhs, ctx.Operand(0));
    const std::string& direction = ctx.inst.comparison_direction();
    if (!IsDirection(direction)) {
      return InvalidArgument("comparison direction '", direction, "' is not one of EQ, NE, GE, "
                             "GT, LE, LT");
    }
    std::string type = ctx.inst.comparison_type();
    if (type.empty()) type = std::string(DefaultCompareType(lhs->type.element_type()));
    if (!IsCompareType(type)) {
      return InvalidArgument("comparison type '", type, "' is not one of FLOAT, TOTALORDER, "
                             "SIGNED, UNSIGNED");
    }
    PLUGRT_ASSIGN_OR_RETURN(
        ValueTree t,
        ctx.Simple("stablehlo.compare",
                   {{"comparison_direction", Attribute::Enum("stablehlo.comparison_direction", direction)},
                    {"compare_type", Attribute::Enum("stablehlo.comparison_type", type)}}));
    return yes(std::move(t));
  }
  if (op == "reduce-precision") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    const Type i32 = Type::Element(ElementType::kSI32);
    PLUGRT_ASSIGN_OR_RETURN(
        ValueTree t,
        ctx.Simple("stablehlo.reduce_precision",
                   {{"exponent_bits", Attribute::Integer(ctx.inst.exponent_bits(), i32)},
                    {"mantissa_bits", Attribute::Integer(ctx.inst.mantissa_bits(), i32)}}));
    return yes(std::move(t));
  }
  if (op == "iota") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(0));
    if (ctx.inst.dimensions_size() != 1) return InvalidArgument("iota needs one dimension");
    PLUGRT_ASSIGN_OR_RETURN(
        ValueTree t,
        ctx.Simple("stablehlo.iota",
                   {{"iota_dimension", Attribute::Integer(ctx.inst.dimensions(0))}}));
    return yes(std::move(t));
  }
  return std::make_pair(Handled::kNotMine, ValueTree());
}

}  // namespace plugrt::shlo::hlo
