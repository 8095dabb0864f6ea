#include "compiler/importers/hlo/hlo_text_values.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "compiler/importers/hlo/hlo_types.h"
#include "stablehlo/element_type.h"
#include "stablehlo/float_format.h"

namespace plugrt::shlo::hlo {
namespace {

struct HloTypeName {
  std::string_view name;
  xla::PrimitiveType type;
};
// XLA's spelling of each element type in text (the enum's name in lower
// case).
constexpr HloTypeName kHloTypeNames[] = {
    {"pred", xla::PRED},       {"s1", xla::S1},
    {"s2", xla::S2},           {"s4", xla::S4},
    {"s8", xla::S8},           {"s16", xla::S16},
    {"s32", xla::S32},         {"s64", xla::S64},
    {"u1", xla::U1},           {"u2", xla::U2},
    {"u4", xla::U4},           {"u8", xla::U8},
    {"u16", xla::U16},         {"u32", xla::U32},
    {"u64", xla::U64},         {"f16", xla::F16},
    {"f32", xla::F32},         {"bf16", xla::BF16},
    {"f64", xla::F64},         {"f8e5m2", xla::F8E5M2},
    {"f8e4m3", xla::F8E4M3},   {"f8e4m3fn", xla::F8E4M3FN},
    {"f8e4m3b11fnuz", xla::F8E4M3B11FNUZ},
    {"f8e3m4", xla::F8E3M4},   {"f8e5m2fnuz", xla::F8E5M2FNUZ},
    {"f8e4m3fnuz", xla::F8E4M3FNUZ},
    {"f4e2m1fn", xla::F4E2M1FN},
    {"f8e8m0fnu", xla::F8E8M0FNU},
    {"c64", xla::C64},         {"c128", xla::C128},
    {"token", xla::TOKEN},     {"opaque", xla::OPAQUE_TYPE},
};

bool IsTypeChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The element-type name at the cursor (not consumed) and where it ends.
const HloTypeName* TypeNameAt(HloTextCursor& cur, size_t* end) {
  cur.Peek();
  std::string_view rest = cur.text().substr(cur.pos());
  size_t n = 0;
  while (n < rest.size() && IsTypeChar(rest[n])) ++n;
  for (const HloTypeName& t : kHloTypeNames) {
    if (rest.substr(0, n) == t.name) {
      *end = cur.pos() + n;
      return &t;
    }
  }
  return nullptr;
}

// "3x3" -> {3, 3}; "0_1x1_1" -> {"0_1", "1_1"} is split by the caller.
std::vector<std::string_view> SplitText(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool ParseInt64Text(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  bool negative = false;
  size_t i = 0;
  if (s[0] == '-') {
    negative = true;
    i = 1;
  }
  if (i == s.size()) return false;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (v > (INT64_MAX - 9) / 10) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = negative ? -v : v;
  return true;
}

// A run of non-blank characters that belongs to one window/padding field.
StatusOr<std::string_view> FieldText(HloTextCursor& cur, std::string_view what) {
  return cur.Until(" \t\n,}", what);
}

StatusOr<std::vector<int64_t>> XSeparatedInts(HloTextCursor& cur, size_t at, std::string_view field,
                                              std::string_view what) {
  std::vector<int64_t> out;
  for (std::string_view part : SplitText(field, 'x')) {
    int64_t v = 0;
    if (!ParseInt64Text(part, &v)) return cur.ErrorAt(at, what, " '", field, "' is not NxN... integers");
    out.push_back(v);
  }
  return out;
}

// ----------------------------------------------------------------- literals

// The values of one literal, in row-major order, before they are stored in
// the proto field of their type.
struct LiteralValues {
  std::vector<double> reals;      // floats; the real parts of complex values
  std::vector<double> imags;      // complex only
  std::vector<int64_t> ints;      // signed ints, preds
  std::vector<uint64_t> uints;    // unsigned ints
};

enum class LiteralKind { kPred, kSigned, kUnsigned, kFloat, kComplex };

StatusOr<LiteralKind> LiteralKindOf(xla::PrimitiveType type) {
  switch (type) {
    case xla::PRED: return LiteralKind::kPred;
    case xla::S1: case xla::S2: case xla::S4: case xla::S8: case xla::S16: case xla::S32:
    case xla::S64: return LiteralKind::kSigned;
    case xla::U1: case xla::U2: case xla::U4: case xla::U8: case xla::U16: case xla::U32:
    case xla::U64: return LiteralKind::kUnsigned;
    case xla::C64: case xla::C128: return LiteralKind::kComplex;
    case xla::TUPLE: case xla::TOKEN: case xla::OPAQUE_TYPE: case xla::BUFFER:
    case xla::PRIMITIVE_TYPE_INVALID:
      return InvalidArgument("no literal of element type ", static_cast<int>(type));
    default: return LiteralKind::kFloat;
  }
}

Status ReadLiteralElement(HloTextCursor& cur, LiteralKind kind, LiteralValues* v) {
  switch (kind) {
    case LiteralKind::kPred:
      if (cur.EatWord("true")) {
        v->ints.push_back(1);
      } else if (cur.EatWord("false")) {
        v->ints.push_back(0);
      } else {
        PLUGRT_ASSIGN_OR_RETURN(int64_t i, cur.Int("a pred literal"));
        v->ints.push_back(i != 0);
      }
      return OkStatus();
    case LiteralKind::kSigned: {
      PLUGRT_ASSIGN_OR_RETURN(int64_t i, cur.Int("an integer literal"));
      v->ints.push_back(i);
      return OkStatus();
    }
    case LiteralKind::kUnsigned: {
      if (cur.Peek() == '-') return cur.Error("an unsigned literal cannot be negative");
      PLUGRT_ASSIGN_OR_RETURN(uint64_t u, cur.UInt64("an unsigned literal"));
      v->uints.push_back(u);
      return OkStatus();
    }
    case LiteralKind::kFloat: {
      PLUGRT_ASSIGN_OR_RETURN(double d, cur.Float("a float literal"));
      v->reals.push_back(d);
      return OkStatus();
    }
    case LiteralKind::kComplex: {
      PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open a complex literal"));
      PLUGRT_ASSIGN_OR_RETURN(double re, cur.Float("a complex literal's real part"));
      PLUGRT_RETURN_IF_ERROR(cur.Expect(',', "in a complex literal"));
      PLUGRT_ASSIGN_OR_RETURN(double im, cur.Float("a complex literal's imaginary part"));
      PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close a complex literal"));
      v->reals.push_back(re);
      v->imags.push_back(im);
      return OkStatus();
    }
  }
  return OkStatus();
}

// Nested braces, one level per dimension from dimension `d` on.
Status ReadNestedLiteral(HloTextCursor& cur, const xla::ShapeProto& shape, int d, LiteralKind kind,
                  LiteralValues* v) {
  if (d == shape.dimensions_size()) return ReadLiteralElement(cur, kind, v);
  const size_t open = cur.Here();
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open a literal's dimension"));
  int64_t count = 0;
  if (!cur.Eat('}')) {
    do {
      PLUGRT_RETURN_IF_ERROR(ReadNestedLiteral(cur, shape, d + 1, kind, v));
      ++count;
    } while (cur.Eat(','));
    PLUGRT_RETURN_IF_ERROR(cur.Expect('}', "to close a literal's dimension"));
  }
  if (count != shape.dimensions(d)) {
    return cur.ErrorAt(open, "literal dimension ", d, " has ", count, " elements; the shape says ",
                       shape.dimensions(d));
  }
  return OkStatus();
}

// Zeros or seeded values (read_options.h) for an elided literal.
void FillElided(ElidedValues& fill, LiteralKind kind, int64_t n, LiteralValues* v) {
  for (int64_t i = 0; i < n; ++i) {
    switch (kind) {
      case LiteralKind::kPred: v->ints.push_back(fill.NextBool() ? 1 : 0); break;
      case LiteralKind::kSigned: v->ints.push_back(fill.NextInt()); break;
      case LiteralKind::kUnsigned: v->uints.push_back(static_cast<uint64_t>(fill.NextInt())); break;
      case LiteralKind::kFloat: v->reals.push_back(fill.NextFloat()); break;
      case LiteralKind::kComplex:
        v->reals.push_back(fill.NextFloat());
        v->imags.push_back(fill.NextFloat());
        break;
    }
  }
}

void PutLittleEndian(std::string* out, uint64_t bits, int bytes) {
  for (int b = 0; b < bytes; ++b) out->push_back(static_cast<char>((bits >> (8 * b)) & 0xff));
}

// The values into the proto field LiteralProto keeps for the type.
Status StoreLiteralValues(const xla::ShapeProto& shape, const LiteralValues& v, xla::LiteralProto* lit) {
  *lit->mutable_shape() = shape;
  const xla::PrimitiveType t = shape.element_type();
  switch (t) {
    case xla::PRED: for (int64_t i : v.ints) lit->add_preds(i != 0); return OkStatus();
    case xla::S32: for (int64_t i : v.ints) lit->add_s32s(static_cast<int32_t>(i)); return OkStatus();
    case xla::S64: for (int64_t i : v.ints) lit->add_s64s(i); return OkStatus();
    case xla::U32: for (uint64_t u : v.uints) lit->add_u32s(static_cast<uint32_t>(u)); return OkStatus();
    case xla::U64: for (uint64_t u : v.uints) lit->add_u64s(u); return OkStatus();
    case xla::F32: for (double d : v.reals) lit->add_f32s(static_cast<float>(d)); return OkStatus();
    case xla::F64: for (double d : v.reals) lit->add_f64s(d); return OkStatus();
    case xla::C64:
      for (size_t i = 0; i < v.reals.size(); ++i) {
        lit->add_c64s(static_cast<float>(v.reals[i]));
        lit->add_c64s(static_cast<float>(v.imags[i]));
      }
      return OkStatus();
    case xla::C128:
      for (size_t i = 0; i < v.reals.size(); ++i) {
        lit->add_c128s(v.reals[i]);
        lit->add_c128s(v.imags[i]);
      }
      return OkStatus();
    case xla::S1: case xla::S2: case xla::S4: case xla::S8: {
      std::string* out = t == xla::S8 ? lit->mutable_s8s()
                         : t == xla::S4 ? lit->mutable_s4s()
                         : t == xla::S2 ? lit->mutable_s2s() : lit->mutable_s1s();
      for (int64_t i : v.ints) out->push_back(static_cast<char>(i));
      return OkStatus();
    }
    case xla::U1: case xla::U2: case xla::U4: case xla::U8: {
      std::string* out = t == xla::U8 ? lit->mutable_u8s()
                         : t == xla::U4 ? lit->mutable_u4s()
                         : t == xla::U2 ? lit->mutable_u2s() : lit->mutable_u1s();
      for (uint64_t u : v.uints) out->push_back(static_cast<char>(u));
      return OkStatus();
    }
    case xla::S16: for (int64_t i : v.ints) PutLittleEndian(lit->mutable_s16s(), static_cast<uint64_t>(i), 2); return OkStatus();
    case xla::U16: for (uint64_t u : v.uints) PutLittleEndian(lit->mutable_u16s(), u, 2); return OkStatus();
    default: break;
  }
  // The narrow float types: the bit pattern of each value, little-endian.
  PLUGRT_ASSIGN_OR_RETURN(ElementType et, ElementTypeOf(t));
  std::string* out = nullptr;
  int bytes = 1;
  switch (t) {
    case xla::F16: out = lit->mutable_f16s(); bytes = 2; break;
    case xla::BF16: out = lit->mutable_bf16s(); bytes = 2; break;
    case xla::F8E5M2: out = lit->mutable_f8e5m2s(); break;
    case xla::F8E4M3: out = lit->mutable_f8e4m3s(); break;
    case xla::F8E4M3FN: out = lit->mutable_f8e4m3fns(); break;
    case xla::F8E4M3B11FNUZ: out = lit->mutable_f8e4m3b11fnuzs(); break;
    case xla::F8E3M4: out = lit->mutable_f8e3m4s(); break;
    case xla::F8E5M2FNUZ: out = lit->mutable_f8e5m2fnuzs(); break;
    case xla::F8E4M3FNUZ: out = lit->mutable_f8e4m3fnuzs(); break;
    case xla::F4E2M1FN: out = lit->mutable_f4e2m1fns(); break;
    case xla::F8E8M0FNU: out = lit->mutable_f8e8m0fnus(); break;
    default:
      return Unimplemented("literals of element type ", static_cast<int>(t), " in HLO text");
  }
  for (double d : v.reals) PutLittleEndian(out, EncodeFloat(et, d), bytes);
  return OkStatus();
}

Status ReadLiteralOfShape(HloTextCursor& cur, const xla::ShapeProto& shape,
                          const ElidedConstantFill& elided, std::string_view instruction,
                          ElidedValues& fill, xla::LiteralProto* literal) {
  if (shape.element_type() == xla::TUPLE) {
    *literal->mutable_shape() = shape;
    PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open a tuple literal"));
    for (int i = 0; i < shape.tuple_shapes_size(); ++i) {
      if (i > 0) PLUGRT_RETURN_IF_ERROR(cur.Expect(',', "between a tuple literal's elements"));
      PLUGRT_RETURN_IF_ERROR(ReadLiteralOfShape(cur, shape.tuple_shapes(i), elided, instruction,
                                                fill, literal->add_tuple_literals()));
    }
    return cur.Expect(')', "to close a tuple literal");
  }
  const size_t at = cur.Here();
  PLUGRT_ASSIGN_OR_RETURN(LiteralKind kind, LiteralKindOf(shape.element_type()));
  for (int64_t d : shape.dimensions()) {
    if (d < 0) return cur.ErrorAt(at, "a constant cannot have a dynamic shape");
  }
  // Overflow-safe element count, capped well below what would exhaust memory
  // (each value is held as a double while read).
  constexpr int64_t kMaxLiteralElements = int64_t{1} << 28;
  int64_t n = 1;
  for (int64_t d : shape.dimensions()) {
    if (d != 0 && n > kMaxLiteralElements / d) {
      return cur.ErrorAt(at, "constant of more than ", kMaxLiteralElements,
                         " elements is too large for HLO text");
    }
    n *= d;
  }
  LiteralValues values;
  if (cur.EatText("{...}")) {
    if (elided.mode == ElidedConstantFill::Mode::kRefuse) {
      return cur.ErrorAt(at, "the values of constant '", instruction,
                         "' were left out of the file (constant({...})): the program's weights "
                         "are missing; to time it anyway, fill them with zeros or random values "
                         "(plugrt run/bench --fill-elided=zeros|random[:SEED])");
    }
    FillElided(fill, kind, n, &values);
  } else {
    PLUGRT_RETURN_IF_ERROR(ReadNestedLiteral(cur, shape, 0, kind, &values));
  }
  return StoreLiteralValues(shape, values, literal);
}

// Whether the '{' at the cursor opens a layout: its first token is a
// dimension number, ':' or '}'.
bool LayoutFollows(HloTextCursor& cur) {
  const size_t open = cur.pos();
  cur.Eat('{');
  const char next = cur.Peek();
  cur.set_pos(open);
  return (next >= '0' && next <= '9') || next == ':' || next == '}';
}

}  // namespace

// -------------------------------------------------------------------- shapes

bool AtShape(HloTextCursor& cur) {
  if (cur.Peek() == '(') return true;
  size_t end = 0;
  if (TypeNameAt(cur, &end) == nullptr) return false;
  return end < cur.text().size() && cur.text()[end] == '[';
}

Status ReadShape(HloTextCursor& cur, xla::ShapeProto* shape) {
  if (cur.Eat('(')) {
    shape->set_element_type(xla::TUPLE);
    if (cur.Eat(')')) return OkStatus();
    do {
      PLUGRT_RETURN_IF_ERROR(ReadShape(cur, shape->add_tuple_shapes()));
    } while (cur.Eat(','));
    return cur.Expect(')', "to close a tuple shape");
  }
  size_t end = 0;
  const HloTypeName* type = TypeNameAt(cur, &end);
  if (type == nullptr) return cur.Error("expected a shape (an element type such as f32)");
  const size_t at = cur.Here();
  cur.set_pos(end);
  shape->set_element_type(type->type);
  PLUGRT_RETURN_IF_ERROR(cur.Expect('[', "after the element type"));
  bool dynamic = false;
  std::vector<bool> is_dynamic;
  if (!cur.Eat(']')) {
    do {
      if (cur.Eat('?')) {
        return cur.UnimplementedAt(at, "unbounded dynamic dimensions ('?') in HLO text");
      }
      const bool bounded = cur.EatText("<=");
      PLUGRT_ASSIGN_OR_RETURN(int64_t d, cur.Int("a dimension size"));
      if (d < 0) return cur.ErrorAt(at, "negative dimension size ", d);
      shape->add_dimensions(d);
      is_dynamic.push_back(bounded);
      dynamic |= bounded;
    } while (cur.Eat(','));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(']', "to close the dimensions"));
  }
  if (dynamic) {
    for (bool b : is_dynamic) shape->add_is_dynamic_dimension(b);
  }
  // A layout: {minor_to_major[:tiling, element size, memory space]}.
  // (A '{' followed by anything else opens what comes after the shape: a
  // computation's body after its signature.)
  if (cur.Peek() == '{' && type->type != xla::TOKEN && LayoutFollows(cur)) {
    const size_t open = cur.pos();
    cur.Eat('{');
    xla::LayoutProto* layout = shape->mutable_layout();
    if (cur.Peek() != '}' && cur.Peek() != ':') {
      do {
        PLUGRT_ASSIGN_OR_RETURN(int64_t d, cur.Int("a layout dimension"));
        layout->add_minor_to_major(d);
      } while (cur.Eat(','));
    }
    if (cur.Eat(':')) {
      // Tiling T(...), element size E(...), memory space S(...): they say
      // how bytes are placed, never what the values are; skip them.
      int depth = 1;
      size_t p = cur.pos();
      const std::string_view text = cur.text();
      while (p < text.size() && depth > 0) {
        if (text[p] == '{') ++depth;
        if (text[p] == '}') --depth;
        ++p;
      }
      if (depth != 0) return cur.ErrorAt(open, "unterminated layout");
      cur.set_pos(p);
      return OkStatus();
    }
    PLUGRT_RETURN_IF_ERROR(cur.Expect('}', "to close the layout"));
    if (layout->minor_to_major_size() != 0 &&
        layout->minor_to_major_size() != shape->dimensions_size()) {
      return cur.ErrorAt(open, "layout names ", layout->minor_to_major_size(),
                         " dimensions for a shape of rank ", shape->dimensions_size());
    }
  }
  return OkStatus();
}

Status ReadLiteral(HloTextCursor& cur, const xla::ShapeProto& shape,
                   const ElidedConstantFill& elided, std::string_view instruction,
                   xla::LiteralProto* literal) {
  // Each elided constant gets its own stream of values, picked by the
  // instruction's name, so reordering the file keeps every constant's values.
  ElidedValues fill(elided, instruction);
  return ReadLiteralOfShape(cur, shape, elided, instruction, fill, literal);
}

// ---------------------------------------------------------------- int lists

StatusOr<std::vector<int64_t>> ReadIntList(HloTextCursor& cur, std::string_view what) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', StrCat("to open ", what)));
  std::vector<int64_t> out;
  if (cur.Eat('}')) return out;
  do {
    PLUGRT_ASSIGN_OR_RETURN(int64_t v, cur.Int(what));
    out.push_back(v);
  } while (cur.Eat(','));
  PLUGRT_RETURN_IF_ERROR(cur.Expect('}', StrCat("to close ", what)));
  return out;
}

StatusOr<std::vector<std::vector<int64_t>>> ReadIntListList(HloTextCursor& cur,
                                                            std::string_view what) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', StrCat("to open ", what)));
  std::vector<std::vector<int64_t>> out;
  if (cur.Eat('}')) return out;
  do {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> inner, ReadIntList(cur, what));
    out.push_back(std::move(inner));
  } while (cur.Eat(','));
  PLUGRT_RETURN_IF_ERROR(cur.Expect('}', StrCat("to close ", what)));
  return out;
}

// ------------------------------------------------------------------- windows

Status ReadWindow(HloTextCursor& cur, xla::Window* window) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open a window"));
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, reversal;
  std::vector<std::pair<int64_t, int64_t>> pad;
  while (!cur.Eat('}')) {
    if (cur.AtEnd()) return cur.Error("unterminated window");
    const size_t at = cur.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string key, cur.Word("a window field"));
    PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after a window field's name"));
    PLUGRT_ASSIGN_OR_RETURN(std::string_view value, FieldText(cur, "a window field's value"));
    if (key == "pad") {
      for (std::string_view part : SplitText(value, 'x')) {
        std::vector<std::string_view> lh = SplitText(part, '_');
        int64_t lo = 0, hi = 0;
        if (lh.size() != 2 || !ParseInt64Text(lh[0], &lo) || !ParseInt64Text(lh[1], &hi)) {
          return cur.ErrorAt(at, "window pad '", value, "' is not LO_HIxLO_HI...");
        }
        pad.emplace_back(lo, hi);
      }
      continue;
    }
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ints, XSeparatedInts(cur, at, value, key));
    if (key == "size") size = ints;
    else if (key == "stride") stride = ints;
    else if (key == "lhs_dilate") lhs_dilate = ints;
    else if (key == "rhs_dilate") rhs_dilate = ints;
    else if (key == "rhs_reversal") reversal = ints;
    else return cur.ErrorAt(at, "unknown window field '", key, "'");
  }
  const size_t rank = size.size();
  auto check = [&](const auto& v, const char* name) -> Status {
    if (!v.empty() && v.size() != rank) {
      return cur.Error("window ", name, " has ", v.size(), " dimensions but size has ", rank);
    }
    return OkStatus();
  };
  PLUGRT_RETURN_IF_ERROR(check(stride, "stride"));
  PLUGRT_RETURN_IF_ERROR(check(pad, "pad"));
  PLUGRT_RETURN_IF_ERROR(check(lhs_dilate, "lhs_dilate"));
  PLUGRT_RETURN_IF_ERROR(check(rhs_dilate, "rhs_dilate"));
  PLUGRT_RETURN_IF_ERROR(check(reversal, "rhs_reversal"));
  for (size_t i = 0; i < rank; ++i) {
    xla::WindowDimension* d = window->add_dimensions();
    d->set_size(size[i]);
    d->set_stride(stride.empty() ? 1 : stride[i]);
    d->set_padding_low(pad.empty() ? 0 : pad[i].first);
    d->set_padding_high(pad.empty() ? 0 : pad[i].second);
    d->set_base_dilation(lhs_dilate.empty() ? 1 : lhs_dilate[i]);
    d->set_window_dilation(rhs_dilate.empty() ? 1 : rhs_dilate[i]);
    d->set_window_reversal(!reversal.empty() && reversal[i] != 0);
  }
  return OkStatus();
}

Status ReadConvolutionLabels(HloTextCursor& cur, xla::ConvolutionDimensionNumbers* dnums) {
  const size_t at = cur.Here();
  PLUGRT_ASSIGN_OR_RETURN(std::string_view labels, FieldText(cur, "convolution dimension labels"));
  const size_t us = labels.find('_');
  const size_t arrow = labels.find("->");
  if (us == std::string_view::npos || arrow == std::string_view::npos || arrow < us) {
    return cur.ErrorAt(at, "dim_labels '", labels, "' is not INPUT_KERNEL->OUTPUT (b01f_01io->b01f)");
  }
  const std::string_view in = labels.substr(0, us);
  const std::string_view kernel = labels.substr(us + 1, arrow - us - 1);
  const std::string_view out = labels.substr(arrow + 2);
  const size_t spatial = in.size() >= 2 ? in.size() - 2 : 0;
  if (in.size() < 2 || kernel.size() != in.size() || out.size() != in.size()) {
    return cur.ErrorAt(at, "dim_labels '", labels, "': the three parts must have the same rank");
  }
  // For each part: where each label sits; spatial dimension k is digit k.
  auto place = [&](std::string_view part, char a, char b, int64_t* pa, int64_t* pb,
                   std::vector<int64_t>* sp) -> Status {
    sp->assign(spatial, -1);
    *pa = *pb = -1;
    for (size_t i = 0; i < part.size(); ++i) {
      const char c = part[i];
      if (c == a && *pa < 0) {
        *pa = static_cast<int64_t>(i);
      } else if (c == b && *pb < 0) {
        *pb = static_cast<int64_t>(i);
      } else if (c >= '0' && c <= '9' && static_cast<size_t>(c - '0') < spatial &&
                 (*sp)[c - '0'] < 0) {
        (*sp)[c - '0'] = static_cast<int64_t>(i);
      } else {
        return cur.ErrorAt(at, "dim_labels '", labels, "': unexpected or repeated label '",
                           std::string(1, c), "' in '", part, "'");
      }
    }
    if (*pa < 0 || *pb < 0) {
      return cur.ErrorAt(at, "dim_labels '", labels, "': '", part, "' lacks '", std::string(1, a),
                         "' or '", std::string(1, b), "'");
    }
    return OkStatus();
  };
  int64_t a = 0, b = 0;
  std::vector<int64_t> sp;
  PLUGRT_RETURN_IF_ERROR(place(in, 'b', 'f', &a, &b, &sp));
  dnums->set_input_batch_dimension(a);
  dnums->set_input_feature_dimension(b);
  for (int64_t s : sp) dnums->add_input_spatial_dimensions(s);
  PLUGRT_RETURN_IF_ERROR(place(kernel, 'i', 'o', &a, &b, &sp));
  dnums->set_kernel_input_feature_dimension(a);
  dnums->set_kernel_output_feature_dimension(b);
  for (int64_t s : sp) dnums->add_kernel_spatial_dimensions(s);
  PLUGRT_RETURN_IF_ERROR(place(out, 'b', 'f', &a, &b, &sp));
  dnums->set_output_batch_dimension(a);
  dnums->set_output_feature_dimension(b);
  for (int64_t s : sp) dnums->add_output_spatial_dimensions(s);
  return OkStatus();
}

Status ReadPaddingConfig(HloTextCursor& cur, xla::PaddingConfig* padding) {
  const size_t at = cur.Here();
  PLUGRT_ASSIGN_OR_RETURN(std::string_view value, FieldText(cur, "a padding config"));
  for (std::string_view part : SplitText(value, 'x')) {
    std::vector<std::string_view> f = SplitText(part, '_');
    int64_t lo = 0, hi = 0, interior = 0;
    if ((f.size() != 2 && f.size() != 3) || !ParseInt64Text(f[0], &lo) || !ParseInt64Text(f[1], &hi) ||
        (f.size() == 3 && !ParseInt64Text(f[2], &interior))) {
      return cur.ErrorAt(at, "padding '", value, "' is not LO_HI[_INTERIOR]x...");
    }
    auto* d = padding->add_dimensions();
    d->set_edge_padding_low(lo);
    d->set_edge_padding_high(hi);
    d->set_interior_padding(interior);
  }
  return OkStatus();
}

Status ReadSlice(HloTextCursor& cur, xla::HloInstructionProto* inst) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open a slice"));
  if (cur.Eat('}')) return OkStatus();
  do {
    PLUGRT_RETURN_IF_ERROR(cur.Expect('[', "to open a slice dimension"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t start, cur.Int("a slice start"));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(':', "after a slice start"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t limit, cur.Int("a slice limit"));
    int64_t stride = 1;
    if (cur.Eat(':')) {
      PLUGRT_ASSIGN_OR_RETURN(stride, cur.Int("a slice stride"));
    }
    PLUGRT_RETURN_IF_ERROR(cur.Expect(']', "to close a slice dimension"));
    auto* d = inst->add_slice_dimensions();
    d->set_start(start);
    d->set_limit(limit);
    d->set_stride(stride);
  } while (cur.Eat(','));
  return cur.Expect('}', "to close a slice");
}

// ---------------------------------------------------------------- collectives

namespace {
// `[a,b]<=[c,d]` with an optional `T(p,q)`: an iota device list.
Status ReadIotaList(HloTextCursor& cur, std::vector<int64_t>* dims, std::vector<int64_t>* reshape,
                    std::vector<int32_t>* perm) {
  auto bracket = [&](std::vector<int64_t>* out, const char* what) -> Status {
    PLUGRT_RETURN_IF_ERROR(cur.Expect('[', StrCat("to open ", what)));
    if (cur.Eat(']')) return OkStatus();
    do {
      PLUGRT_ASSIGN_OR_RETURN(int64_t v, cur.Int(what));
      out->push_back(v);
    } while (cur.Eat(','));
    return cur.Expect(']', StrCat("to close ", what));
  };
  PLUGRT_RETURN_IF_ERROR(bracket(dims, "the device array's dimensions"));
  if (!cur.EatText("<=")) return OkStatus();
  PLUGRT_RETURN_IF_ERROR(bracket(reshape, "the iota's reshape dimensions"));
  if (cur.Eat('T')) {
    PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open the iota's transpose"));
    do {
      PLUGRT_ASSIGN_OR_RETURN(int64_t v, cur.Int("a transpose dimension"));
      perm->push_back(static_cast<int32_t>(v));
    } while (cur.Eat(','));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close the iota's transpose"));
  }
  return OkStatus();
}
}  // namespace

Status ReadReplicaGroups(HloTextCursor& cur, xla::HloInstructionProto* inst) {
  if (cur.Peek() == '[') {
    const size_t at = cur.Here();
    std::vector<int64_t> dims, reshape;
    std::vector<int32_t> perm;
    PLUGRT_RETURN_IF_ERROR(ReadIotaList(cur, &dims, &reshape, &perm));
    if (dims.size() != 2 || reshape.empty()) {
      return cur.ErrorAt(at, "iota replica groups must read [GROUPS,SIZE]<=[DIMS...]");
    }
    auto* iota = inst->mutable_collective_device_list()->mutable_iota_replica_group_list();
    iota->set_num_replica_groups(dims[0]);
    iota->set_num_devices_per_group(dims[1]);
    for (int64_t d : reshape) iota->add_iota_reshape_dims(d);
    for (int32_t p : perm) iota->add_iota_transpose_perm(p);
    return OkStatus();
  }
  PLUGRT_ASSIGN_OR_RETURN(auto groups, ReadIntListList(cur, "replica groups"));
  for (const auto& g : groups) {
    auto* group = inst->add_replica_groups();
    for (int64_t id : g) group->add_replica_ids(id);
  }
  return OkStatus();
}

Status ReadSharding(HloTextCursor& cur, xla::OpSharding* sharding) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open a sharding"));
  if (cur.Peek() == '{') {  // a tuple's shardings
    sharding->set_type(xla::OpSharding::TUPLE);
    do {
      PLUGRT_RETURN_IF_ERROR(ReadSharding(cur, sharding->add_tuple_shardings()));
    } while (cur.Eat(','));
    return cur.Expect('}', "to close a tuple sharding");
  }
  if (cur.Eat('}')) {  // {} : a tuple of no elements
    sharding->set_type(xla::OpSharding::TUPLE);
    return OkStatus();
  }
  while (!cur.Eat('}')) {
    if (cur.AtEnd()) return cur.Error("unterminated sharding");
    const size_t at = cur.Here();
    PLUGRT_ASSIGN_OR_RETURN(std::string word, cur.Word("a sharding field"));
    if (word == "replicated") {
      sharding->set_type(xla::OpSharding::REPLICATED);
    } else if (word == "manual") {
      sharding->set_type(xla::OpSharding::MANUAL);
    } else if (word == "unknown") {
      sharding->set_type(xla::OpSharding::UNKNOWN);
    } else if (word == "unreduced") {
      sharding->set_type(xla::OpSharding::UNREDUCED);
    } else if (word == "maximal") {
      sharding->set_type(xla::OpSharding::MAXIMAL);
    } else if (word == "device") {
      PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after 'device'"));
      PLUGRT_ASSIGN_OR_RETURN(int64_t d, cur.Int("a device id"));
      sharding->add_tile_assignment_dimensions(1);
      sharding->add_tile_assignment_devices(d);
    } else if (word == "devices") {
      PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after 'devices'"));
      sharding->set_type(xla::OpSharding::OTHER);
      std::vector<int64_t> dims, reshape;
      std::vector<int32_t> perm;
      PLUGRT_RETURN_IF_ERROR(ReadIotaList(cur, &dims, &reshape, &perm));
      for (int64_t d : dims) sharding->add_tile_assignment_dimensions(d);
      if (!reshape.empty()) {
        for (int64_t d : reshape) sharding->add_iota_reshape_dims(d);
        for (int32_t p : perm) sharding->add_iota_transpose_perm(p);
      } else {
        do {
          PLUGRT_ASSIGN_OR_RETURN(int64_t d, cur.Int("a device id"));
          sharding->add_tile_assignment_devices(d);
        } while (cur.Eat(','));
      }
    } else if (word == "last_tile_dim_replicate") {
      sharding->set_replicate_on_last_tile_dim(true);
    } else if (word == "last_tile_dims") {
      PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after 'last_tile_dims'"));
      PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open last_tile_dims"));
      do {
        PLUGRT_ASSIGN_OR_RETURN(std::string t, cur.Word("a sharding type"));
        if (t == "manual") sharding->add_last_tile_dims(xla::OpSharding::MANUAL);
        else if (t == "replicated") sharding->add_last_tile_dims(xla::OpSharding::REPLICATED);
        else if (t == "unreduced") sharding->add_last_tile_dims(xla::OpSharding::UNREDUCED);
        else return cur.ErrorAt(at, "unknown last_tile_dims type '", t, "'");
      } while (cur.Eat(','));
      PLUGRT_RETURN_IF_ERROR(cur.Expect('}', "to close last_tile_dims"));
    } else if (word == "metadata") {
      PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after 'metadata'"));
      PLUGRT_RETURN_IF_ERROR(cur.BalancedBraces("sharding metadata").status());
    } else if (word == "shard_as" || word == "shard_like") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t group, cur.Int("a sharding group"));
      (void)group;  // a propagation hint
    } else {
      return cur.ErrorAt(at, "unknown sharding field '", word, "'");
    }
  }
  return OkStatus();
}

// ------------------------------------------------------------ annotations

Status ReadMetadata(HloTextCursor& cur, xla::OpMetadata* metadata) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open metadata"));
  while (!cur.Eat('}')) {
    if (cur.AtEnd()) return cur.Error("unterminated metadata");
    PLUGRT_ASSIGN_OR_RETURN(std::string key, cur.Word("a metadata field"));
    PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after a metadata field's name"));
    if (cur.Peek() == '"') {
      PLUGRT_ASSIGN_OR_RETURN(std::string value, cur.Quoted("a metadata value"));
      if (key == "op_type") metadata->set_op_type(value);
      else if (key == "op_name") metadata->set_op_name(value);
      else if (key == "source_file") metadata->set_source_file(value);
    } else if (cur.Peek() == '{') {
      PLUGRT_RETURN_IF_ERROR(cur.BalancedBraces("a metadata value").status());
    } else if (cur.Peek() == '-' || (cur.Peek() >= '0' && cur.Peek() <= '9')) {
      PLUGRT_ASSIGN_OR_RETURN(int64_t value, cur.Int("a metadata value"));
      const auto v = static_cast<int32_t>(value);
      if (key == "source_line") metadata->set_source_line(v);
      else if (key == "source_end_line") metadata->set_source_end_line(v);
      else if (key == "source_column") metadata->set_source_column(v);
      else if (key == "source_end_column") metadata->set_source_end_column(v);
    } else {
      // Other fields (profile types, scheduling names, stack frame ids, ...)
      // say nothing about the computation.
      PLUGRT_RETURN_IF_ERROR(cur.Word("a metadata value").status());
    }
  }
  return OkStatus();
}

Status ReadFrontendAttributes(HloTextCursor& cur, xla::FrontendAttributes* attributes) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open frontend attributes"));
  if (cur.Eat('}')) return OkStatus();
  do {
    std::string key;
    if (cur.Peek() == '"') {
      PLUGRT_ASSIGN_OR_RETURN(key, cur.Quoted("a frontend attribute's name"));
    } else {
      PLUGRT_ASSIGN_OR_RETURN(key, cur.Name("a frontend attribute's name"));
    }
    PLUGRT_RETURN_IF_ERROR(cur.Expect('=', "after a frontend attribute's name"));
    std::string value;
    if (cur.Peek() == '{') {
      PLUGRT_ASSIGN_OR_RETURN(std::string_view raw, cur.BalancedBraces("a frontend attribute"));
      value = std::string(raw);
    } else {
      PLUGRT_ASSIGN_OR_RETURN(value, cur.Quoted("a frontend attribute's value"));
    }
    (*attributes->mutable_map())[key] = value;
  } while (cur.Eat(','));
  return cur.Expect('}', "to close frontend attributes");
}

namespace {
// `{0,1}` as a shape index.
template <typename Add>
Status ReadShapeIndex(HloTextCursor& cur, Add add) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> index, ReadIntList(cur, "a shape index"));
  for (int64_t i : index) add(i);
  return OkStatus();
}
}  // namespace

Status ReadOutputOperandAliasing(HloTextCursor& cur, xla::HloInstructionProto* inst) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open output_to_operand_aliasing"));
  if (cur.Eat('}')) return OkStatus();
  do {
    auto* a = inst->add_output_operand_aliasing();
    PLUGRT_RETURN_IF_ERROR(ReadShapeIndex(cur, [&](int64_t i) { a->add_output_shape_index(i); }));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(':', "after an output shape index"));
    PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open an operand alias"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t operand, cur.Int("an operand number"));
    a->set_operand_index(operand);
    PLUGRT_RETURN_IF_ERROR(cur.Expect(',', "after the operand number"));
    PLUGRT_RETURN_IF_ERROR(ReadShapeIndex(cur, [&](int64_t i) { a->add_operand_shape_index(i); }));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close an operand alias"));
  } while (cur.Eat(','));
  return cur.Expect('}', "to close output_to_operand_aliasing");
}

Status ReadInputOutputAlias(HloTextCursor& cur, xla::HloInputOutputAliasProto* alias) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open input_output_alias"));
  if (cur.Eat('}')) return OkStatus();
  do {
    auto* e = alias->add_entries();
    PLUGRT_RETURN_IF_ERROR(ReadShapeIndex(cur, [&](int64_t i) { e->add_output_shape_index(i); }));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(':', "after an output shape index"));
    PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open a parameter alias"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t param, cur.Int("a parameter number"));
    e->set_parameter_number(param);
    PLUGRT_RETURN_IF_ERROR(cur.Expect(',', "after the parameter number"));
    PLUGRT_RETURN_IF_ERROR(ReadShapeIndex(cur, [&](int64_t i) { e->add_parameter_shape_index(i); }));
    e->set_kind(xla::MAY_ALIAS);
    if (cur.Eat(',')) {
      const size_t at = cur.Here();
      PLUGRT_ASSIGN_OR_RETURN(std::string kind, cur.Word("an alias kind"));
      if (kind == "must-alias") e->set_kind(xla::MUST_ALIAS);
      else if (kind != "may-alias") return cur.ErrorAt(at, "alias kind '", kind, "' is not may-alias or must-alias");
    }
    PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close a parameter alias"));
  } while (cur.Eat(','));
  return cur.Expect('}', "to close input_output_alias");
}

Status ReadBufferDonors(HloTextCursor& cur, xla::HloBufferDonorProto* donors) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open buffer_donor"));
  if (cur.Eat('}')) return OkStatus();
  do {
    auto* e = donors->add_entries();
    PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open a buffer donor"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t param, cur.Int("a parameter number"));
    e->set_parameter_number(param);
    PLUGRT_RETURN_IF_ERROR(cur.Expect(',', "after the parameter number"));
    PLUGRT_RETURN_IF_ERROR(ReadShapeIndex(cur, [&](int64_t i) { e->add_parameter_shape_index(i); }));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close a buffer donor"));
  } while (cur.Eat(','));
  return cur.Expect('}', "to close buffer_donor");
}

Status ReadProgramShape(HloTextCursor& cur, xla::ProgramShapeProto* shape) {
  PLUGRT_RETURN_IF_ERROR(cur.Expect('{', "to open a computation layout"));
  PLUGRT_RETURN_IF_ERROR(cur.Expect('(', "to open the parameter layouts"));
  if (!cur.Eat(')')) {
    do {
      PLUGRT_RETURN_IF_ERROR(ReadShape(cur, shape->add_parameters()));
    } while (cur.Eat(','));
    PLUGRT_RETURN_IF_ERROR(cur.Expect(')', "to close the parameter layouts"));
  }
  if (!cur.EatText("->")) return cur.Error("expected '->' before the result layout");
  PLUGRT_RETURN_IF_ERROR(ReadShape(cur, shape->mutable_result()));
  return cur.Expect('}', "to close a computation layout");
}

}  // namespace plugrt::shlo::hlo
