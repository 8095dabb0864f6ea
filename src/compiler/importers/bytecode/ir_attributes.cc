#include "compiler/importers/bytecode/ir_attributes.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "compiler/importers/bytecode/attr_text.h"
#include "compiler/importers/bytecode/vhlo_codes.h"
#include "compiler/importers/dense_resource.h"
#include "compiler/importers/mlir/attribute_text.h"
#include "compiler/importers/mlir/dense_data.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/float_format.h"

namespace plugrt::shlo::bytecode {
namespace {

// The largest dimension size and rank the IR takes (as the text parser).
constexpr int64_t kMaxDimSize = int64_t{1} << 48;
constexpr size_t kMaxTensorRank = 64;
// What one attribute counts against the expansion bound, besides its text
// and integers (dense data counts once: uses share it).
constexpr size_t kAttrNodeCost = 16;

Status BadAttr(std::string_view what) { return InvalidArgument("bytecode: ", what); }

// The value of a float attribute of `type` with bit pattern `bits`, as the
// text parser reads the decimal MLIR prints for it: f32 values are the
// double of the shortest %e form that reads back to the same float.
double IrFloatValue(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) return std::bit_cast<double>(bits);
  if (type == ElementType::kF32) {
    float v = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (!std::isfinite(v)) return v;
    char buf[64];
    for (int p = 6; p <= 9; ++p) {
      std::snprintf(buf, sizeof(buf), "%.*e", p, static_cast<double>(v));
      if (std::strtof(buf, nullptr) == v) return std::strtod(buf, nullptr);
    }
    return v;
  }
  return DecodeFloat(type, bits);
}

// An integer of `type`: sign-extended from its width unless unsigned.
int64_t IrIntegerValue(ElementType type, int64_t value) {
  const int bits = BitWidth(type);
  if (type == ElementType::kI1) return value != 0;
  if (bits >= 64) return value;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t v = static_cast<uint64_t>(value) & mask;
  if (!IsUnsignedInteger(type) && (v >> (bits - 1)) & 1) v |= ~mask;
  return static_cast<int64_t>(v);
}

}  // namespace

Status AddNamedAttribute(std::string name, Attribute value, std::vector<NamedAttribute>* out) {
  for (const auto& existing : *out) {
    if (existing.first == name) return BadAttr(StrCat("duplicate attribute '", name, "'"));
  }
  out->emplace_back(std::move(name), std::move(value));
  return OkStatus();
}

IrAttributes::IrAttributes(size_t input_size, const ElidedConstantFill& fill)
    : budget_(input_size * 64 + (size_t{1} << 24)), fill_(fill) {}

Status IrAttributes::Charge(size_t bytes) {
  if (bytes > budget_) {
    return BadAttr(
        "the program's attributes are too large once shared attributes are expanded "
        "(repeated beyond any real program)");
  }
  budget_ -= bytes;
  return OkStatus();
}

StatusOr<Type> IrAttributes::TypeOf(const BcType* t) {
  if (auto it = types_.find(t); it != types_.end()) return it->second;
  Type type;
  switch (t->kind) {
    case BcType::Kind::kElement:
      if (auto e = ParseElementTypeName(t->text)) {
        type = Type::Element(*e);
      } else {
        type = Type::Unsupported(t->text);  // index, tf32, ...
      }
      break;
    case BcType::Kind::kComplex:
      if (t->element->text == "f32") {
        type = Type::Element(ElementType::kC64);
      } else if (t->element->text == "f64") {
        type = Type::Element(ElementType::kC128);
      } else {
        type = Type::Unsupported(t->text);
      }
      break;
    case BcType::Kind::kTensor: {
      if (t->dims.size() > kMaxTensorRank) return BadAttr(StrCat("tensor rank above 64: ", t->text));
      for (int64_t d : t->dims) {
        if (d != kDynamicSize && (d < 0 || d > kMaxDimSize)) {
          return BadAttr(StrCat("dimension size ", d, " is too large in ", t->text));
        }
      }
      if (t->element->kind == BcType::Kind::kQuantized) {
        // Quantized elements are spelled by the container; the type parser
        // checks them against the shape (per-axis scales).
        StatusOr<Type> q = ParseTypeText(t->text);
        if (!q.ok()) return BadAttr(StrCat("type ", t->text, ": ", q.status().message()));
        type = *q;
        break;
      }
      PLUGRT_ASSIGN_OR_RETURN(Type element, TypeOf(t->element));
      if (element.kind() == Type::Kind::kElement) {
        type = Type::TensorOf(element, t->dims);
      } else {
        type = Type::Unsupported(t->text);  // the text keeps any encoding
      }
      break;
    }
    case BcType::Kind::kTuple: {
      std::vector<Type> elements;
      elements.reserve(t->types.size());
      for (const BcType* e : t->types) {
        PLUGRT_ASSIGN_OR_RETURN(Type et, TypeOf(e));
        elements.push_back(std::move(et));
      }
      type = Type::Tuple(std::move(elements));
      break;
    }
    case BcType::Kind::kToken:
      type = Type::Token();
      break;
    case BcType::Kind::kFuture:
    case BcType::Kind::kNone:
    case BcType::Kind::kBuffer:
      type = Type::Unsupported(t->text);
      break;
    case BcType::Kind::kQuantized:
    case BcType::Kind::kText: {
      // Types the bytecode holds as their spelling.
      StatusOr<Type> parsed = ParseTypeText(t->text);
      if (!parsed.ok()) return BadAttr(StrCat("type ", t->text, ": ", parsed.status().message()));
      type = *parsed;
      break;
    }
    case BcType::Kind::kUnrankedTensor:
      return BadAttr(StrCat("unranked tensor type ", t->text, " is not supported"));
    case BcType::Kind::kFunction:
      return BadAttr(StrCat("function type ", t->text, " where a value type is expected"));
  }
  types_.emplace(t, type);
  return type;
}

StatusOr<Attribute> IrAttributes::Resource(const BcAttr* a) {
  PLUGRT_ASSIGN_OR_RETURN(Type type, TypeOf(a->type));
  if (Status s = CheckDenseLiteralType(type); !s.ok()) return BadAttr(s.message());
  auto it = dense_.find(a);
  if (it == dense_.end()) {
    std::optional<std::string_view> elements;
    if (a->bool_value) elements = a->data;
    StatusOr<std::shared_ptr<const DenseData>> data = DenseResourceData(
        a->str, type, elements, false, fill_, StrCat(a->str, "#", resources_++));
    if (!data.ok()) return BadAttr(data.status().message());
    it = dense_.emplace(a, *std::move(data)).first;
  }
  return Attribute::Dense(std::move(type), it->second);
}

StatusOr<Attribute> IrAttributes::Tensor(const BcAttr* a) {
  PLUGRT_ASSIGN_OR_RETURN(Type type, TypeOf(a->type));
  if (type.kind() == Type::Kind::kUnsupported) {
    // The IR keeps the literal as text.
    Attribute attr = Attribute::Dense(type, nullptr);
    attr.str = DenseLiteralText(a);
    PLUGRT_RETURN_IF_ERROR(Charge(attr.str.size()));
    return attr;
  }
  if (Status s = CheckDenseLiteralType(type); !s.ok()) return BadAttr(s.message());
  auto it = dense_.find(a);
  if (it == dense_.end()) {
    std::shared_ptr<const DenseData> data;
    if (a->data.empty()) {
      if (type.num_elements() != 0) {
        return BadAttr(StrCat("empty dense literal for ", type.ToString(), " which has ",
                              type.num_elements(), " elements"));
      }
      data = std::make_shared<const DenseData>();
    } else {
      PLUGRT_RETURN_IF_ERROR(Charge(a->data.size()));
      StatusOr<std::shared_ptr<const DenseData>> built =
          DenseDataFromBytes(type, a->data, "tensor attribute");
      if (!built.ok()) return BadAttr(built.status().message());
      data = std::move(*built);
    }
    it = dense_.emplace(a, std::move(data)).first;
  }
  return Attribute::Dense(std::move(type), it->second);
}

Status IrAttributes::AppendEntries(
    const std::vector<std::pair<std::string, const BcAttr*>>& entries,
    std::vector<NamedAttribute>* out) {
  for (const auto& [name, value] : entries) {
    PLUGRT_ASSIGN_OR_RETURN(Attribute attr, AttrOf(value));
    PLUGRT_RETURN_IF_ERROR(AddNamedAttribute(name, std::move(attr), out));
  }
  return OkStatus();
}

StatusOr<Attribute> IrAttributes::AttrOf(const BcAttr* a) {
  // About what the attribute's spelling would take: shared attributes
  // expand at each use.
  PLUGRT_RETURN_IF_ERROR(Charge(kAttrNodeCost + a->str.size() + 8 * a->ints.size()));
  switch (a->kind) {
    case BcAttr::Kind::kArray: {
      std::vector<Attribute> elements;
      elements.reserve(a->elements.size());
      for (const BcAttr* e : a->elements) {
        PLUGRT_ASSIGN_OR_RETURN(Attribute attr, AttrOf(e));
        elements.push_back(std::move(attr));
      }
      return Attribute::Array(std::move(elements));
    }
    case BcAttr::Kind::kBool:
      return Attribute::Bool(a->bool_value);
    case BcAttr::Kind::kEnum: {
      if (a->family == "api_version") {
        // StableHLO spells the custom-call API version as its number.
        const VhloEnumInfo* info = FindVhloEnumByFamily("api_version");
        std::optional<uint64_t> n = info ? VhloEnumValueNumber(*info, a->str) : std::nullopt;
        if (!n) return BadAttr(StrCat("unknown custom-call API version ", a->str));
        return Attribute::Integer(static_cast<int64_t>(*n), Type::Element(ElementType::kSI32));
      }
      if (a->family == "result_accuracy_mode") {
        return Attribute::Enum("stablehlo.result_accuracy_mode", a->str);
      }
      return Attribute::Enum("stablehlo." + a->family, a->str);
    }
    case BcAttr::Kind::kDictionary: {
      std::vector<NamedAttribute> fields;
      for (const auto& [k, v] : a->entries) {
        PLUGRT_ASSIGN_OR_RETURN(Attribute attr, AttrOf(v));
        PLUGRT_RETURN_IF_ERROR(AddNamedAttribute(k->str, std::move(attr), &fields));
      }
      return Attribute::Dictionary(std::move(fields));
    }
    case BcAttr::Kind::kFloat: {
      std::optional<ElementType> et = ParseElementTypeName(a->type->text);
      if (!et || !IsFloat(*et)) {
        // A float type the IR lacks: MLIR writes its bits in hex, which
        // reads as an i64.
        return Attribute::Integer(static_cast<int64_t>(a->bits));
      }
      if (BitWidth(*et) < 64 && (a->bits >> BitWidth(*et)) != 0) {
        return BadAttr(StrCat("float attribute bits do not fit ", a->type->text));
      }
      return Attribute::Float(IrFloatValue(*et, a->bits), Type::Element(*et));
    }
    case BcAttr::Kind::kInteger: {
      std::optional<ElementType> et = ParseElementTypeName(a->type->text);
      if (!et || !(IsInteger(*et) || *et == ElementType::kI1)) et = ElementType::kSI64;
      return Attribute::Integer(IrIntegerValue(*et, a->int_value), Type::Element(*et));
    }
    case BcAttr::Kind::kOutputOperandAlias:
      return Attribute::Struct(
          "stablehlo.output_operand_alias",
          {{"output_tuple_indices", Attribute::DenseI64Array(a->ints)},
           {"operand_index", Attribute::Integer(a->int_value)},
           {"operand_tuple_indices", Attribute::DenseI64Array(a->ints2)}});
    case BcAttr::Kind::kString:
      return Attribute::String(a->str);
    case BcAttr::Kind::kTensor:
      return Tensor(a);
    case BcAttr::Kind::kResource:
      return Resource(a);
    case BcAttr::Kind::kType: {
      PLUGRT_ASSIGN_OR_RETURN(Type type, TypeOf(a->type));
      return Attribute::TypeAttr(std::move(type));
    }
    case BcAttr::Kind::kUnit:
      return Attribute::Unit();
    case BcAttr::Kind::kSymbolRef:
      if (a->str.empty()) return BadAttr("a symbol reference without a name");
      return Attribute::SymbolRef(a->str);
    case BcAttr::Kind::kResultAccuracy: {
      // atol and rtol as MLIR prints them: decimals (f64), or hex bits for
      // non-finite values, which read as i64.
      auto tolerance = [](uint64_t bits) {
        double v = std::bit_cast<double>(bits);
        return std::isfinite(v) ? Attribute::Float(v, Type::Element(ElementType::kF64))
                                : Attribute::Integer(static_cast<int64_t>(bits));
      };
      return Attribute::Struct(
          "stablehlo.result_accuracy",
          {{"atol", tolerance(a->atol_bits)},
           {"rtol", tolerance(a->rtol_bits)},
           {"ulps", Attribute::Integer(a->int_value)},
           {"mode", Attribute::Enum("stablehlo.result_accuracy_mode", a->mode->str)}});
    }
    case BcAttr::Kind::kText: {
      // Other dialects' attributes, which the bytecode holds as text.
      StatusOr<Attribute> parsed = ParseAttributeText(a->str);
      if (!parsed.ok()) {
        return BadAttr(StrCat("attribute ", a->str, ": ", parsed.status().message()));
      }
      return *std::move(parsed);
    }
    case BcAttr::Kind::kSdy: {
      if (a->family == "sub_axis_info") return BadAttr("a sub-axis info outside an axis_ref");
      PLUGRT_ASSIGN_OR_RETURN(std::string body, MeshAttrBody(a));
      PLUGRT_RETURN_IF_ERROR(Charge(body.size()));
      return Attribute::Enum("stablehlo." + a->family, NormalizedAttributeText(body));
    }
    default:
      return BadAttr(StrCat("attribute kind ", static_cast<int>(a->kind),
                            " has no StableHLO form plugrt reads"));
  }
}

}  // namespace plugrt::shlo::bytecode
