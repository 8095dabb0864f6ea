// Attribute syntax: scalars, strings, symbols, arrays, dictionaries, dense
// literals (decimal, hex, splat, complex), dense arrays and the #stablehlo
// enum and struct attributes.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/importers/mlir/attribute_text.h"
#include "compiler/importers/mlir/dense_data.h"
#include "stablehlo/float_format.h"
#include "compiler/importers/mlir/parser_impl.h"

namespace plugrt::shlo::internal {
namespace {

// StableHLO attributes written as #stablehlo.name<field = value, ...>.
bool IsKnownStruct(std::string_view name) {
  return name == "stablehlo.dot" || name == "stablehlo.gather" || name == "stablehlo.scatter" ||
         name == "stablehlo.conv" || name == "stablehlo.channel_handle" ||
         name == "stablehlo.dot_algorithm" || name == "stablehlo.output_operand_alias" ||
         name == "stablehlo.result_accuracy" || name == "chlo.ragged_dot";
}

bool IsHexText(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  return text.size() > i + 2 && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X');
}

// Magnitude and sign of an integer literal (decimal or 0x hex); false on
// overflow of 64 bits or malformed text.
bool ParseIntegerText(std::string_view text, bool* negative, uint64_t* magnitude) {
  *negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    *negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *magnitude, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// The bits of integer text for an integer element type of `bits` width,
// sign- or zero-extended to 64 bits; error message in `why` when out of range.
bool IntegerBits(std::string_view text, ElementType type, int64_t* out, std::string* why) {
  bool negative = false;
  uint64_t magnitude = 0;
  if (text == "true" || text == "false") {
    magnitude = text == "true";
  } else if (!ParseIntegerText(text, &negative, &magnitude)) {
    *why = StrCat("'", text, "' is not an integer");
    return false;
  }
  int bits = BitWidth(type);
  bool is_unsigned = IsUnsignedInteger(type);
  uint64_t max_unsigned = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  // Signless iN literals may be written as signed or as their unsigned bits.
  if (negative) {
    uint64_t limit = bits == 64 ? (uint64_t{1} << 63) : (uint64_t{1} << (bits - 1));
    if (is_unsigned || (type == ElementType::kI1 && magnitude > 1) ||
        (type != ElementType::kI1 && magnitude > limit)) {
      *why = StrCat(text, " is out of range for ", ElementTypeName(type));
      return false;
    }
  } else if (magnitude > max_unsigned) {
    *why = StrCat(text, " is out of range for ", ElementTypeName(type));
    return false;
  }
  uint64_t value = negative ? (~magnitude + 1) : magnitude;
  if (bits < 64) value &= max_unsigned;
  if (type == ElementType::kI1) {
    *out = value != 0;
    return true;
  }
  if (!is_unsigned && bits < 64 && (value >> (bits - 1)) & 1) value |= ~max_unsigned;
  *out = static_cast<int64_t>(value);
  return true;
}

// The bit pattern of float text for float type `type`.
bool FloatBits(std::string_view text, ElementType type, uint64_t* out, std::string* why) {
  int bits = BitWidth(type);
  if (IsHexText(text) && text[0] != '-' && text[0] != '+') {
    bool negative = false;
    uint64_t raw = 0;
    if (!ParseIntegerText(text, &negative, &raw) || (bits < 64 && (raw >> bits) != 0)) {
      *why = StrCat(text, " does not fit the ", bits, " bits of ", ElementTypeName(type));
      return false;
    }
    *out = raw;
    return true;
  }
  std::string_view t = text;
  bool negative = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  double value = 0;
  if (t == "inf" || t == "Inf" || t == "INF") {
    value = std::numeric_limits<double>::infinity();
  } else if (t == "nan" || t == "NaN" || t == "NAN") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else {
    if (type == ElementType::kF32) {
      float f = 0;
      auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), f);
      if (ptr != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
        *why = StrCat("'", text, "' is not a number");
        return false;
      }
      if (ec == std::errc::result_out_of_range) {
        // from_chars leaves `f` unset: decide between overflow and underflow.
        double d = 0;
        std::from_chars(t.data(), t.data() + t.size(), d);
        f = static_cast<float>(d);
      }
      if (negative) f = -f;
      *out = std::bit_cast<uint32_t>(f);
      return true;
    }
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ptr != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
      *why = StrCat("'", text, "' is not a number");
      return false;
    }
    if (ec == std::errc::result_out_of_range) {
      // Overflow gives infinity, underflow zero (from_chars leaves value unset).
      bool tiny = false;
      for (size_t i = 0; i < t.size(); ++i) {
        if ((t[i] == 'e' || t[i] == 'E') && i + 1 < t.size() && t[i + 1] == '-') tiny = true;
      }
      value = tiny ? 0.0 : std::numeric_limits<double>::infinity();
    }
  }
  if (negative) value = -value;
  if (type == ElementType::kF64) {
    *out = std::bit_cast<uint64_t>(value);
  } else if (type == ElementType::kF32) {
    *out = std::bit_cast<uint32_t>(static_cast<float>(value));
  } else {
    *out = EncodeFloat(type, value);
  }
  return true;
}

double FloatValueOfBits(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) return std::bit_cast<double>(bits);
  if (type == ElementType::kF32) return std::bit_cast<float>(static_cast<uint32_t>(bits));
  return DecodeFloat(type, bits);
}

void StoreLittleEndian(uint64_t value, int bytes, std::byte* out) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
}

}  // namespace

// One element of a dense literal as written.
struct DenseElement {
  std::string_view real;
  std::string_view imag;  // set for (re, im)
  size_t pos = 0;
};

struct DenseLiteral {
  bool empty = false;     // dense<>
  bool hex = false;       // dense<"0x...">
  std::string hex_bytes;  // decoded bytes
  bool nested = false;    // written with [...]
  std::vector<int64_t> shape;
  int64_t leaf_depth = -1;
  std::vector<DenseElement> elements;
  size_t pos = 0;
  std::string_view raw;  // the text between dense< and >
};

namespace {

Status ParseDenseElement(Lexer& lex, DenseLiteral* literal) {
  DenseElement element;
  lex.Peek();
  element.pos = lex.pos();
  if (lex.ConsumeIf("(")) {
    element.real = lex.LexNumber();
    if (element.real.empty()) element.real = lex.LexBareId();
    if (element.real.empty()) return lex.Expected("the real part of a complex number");
    if (!lex.ConsumeIf(",")) return lex.Expected("',' between real and imaginary parts");
    element.imag = lex.LexNumber();
    if (element.imag.empty()) element.imag = lex.LexBareId();
    if (element.imag.empty()) return lex.Expected("the imaginary part of a complex number");
    if (!lex.ConsumeIf(")")) return lex.Expected("')' to close the complex number");
  } else {
    element.real = lex.LexNumber();
    if (element.real.empty()) {
      size_t save = lex.pos();
      bool minus = lex.ConsumeIf("-");
      std::string_view word = lex.LexBareId();
      if (word.empty()) {
        lex.set_pos(save);
        return lex.Expected("a literal element (number, true/false or (re, im))");
      }
      element.real = lex.text().substr(element.pos, lex.pos() - element.pos);
      (void)minus;
    }
  }
  literal->elements.push_back(element);
  return OkStatus();
}

// A nested list at `depth`; records each depth's length in `shape` (all
// lists at one depth must agree) and the depth of scalars in `leaf_depth`.
Status ParseDenseList(Lexer& lex, DenseLiteral* literal, size_t depth) {
  if (depth > static_cast<size_t>(kMaxNesting)) {
    return lex.ErrorAt(lex.pos(), "dense literal nested deeper than ", kMaxNesting);
  }
  lex.Peek();
  size_t start = lex.pos();
  if (!lex.ConsumeIf("[")) return lex.Expected("'['");
  int64_t count = 0;
  bool has_sublists = false, has_scalars = false;
  if (!lex.ConsumeIf("]")) {
    while (true) {
      if (lex.Peek() == '[') {
        if (has_scalars) return lex.ErrorAt(lex.pos(), "dense literal mixes lists and scalars");
        has_sublists = true;
        PLUGRT_RETURN_IF_ERROR(ParseDenseList(lex, literal, depth + 1));
      } else {
        if (has_sublists) return lex.ErrorAt(lex.pos(), "dense literal mixes lists and scalars");
        has_scalars = true;
        PLUGRT_RETURN_IF_ERROR(ParseDenseElement(lex, literal));
      }
      ++count;
      if (lex.ConsumeIf("]")) break;
      if (!lex.ConsumeIf(",")) return lex.Expected("',' or ']' in the dense literal");
    }
  }
  if (literal->shape.size() <= depth) literal->shape.resize(depth + 1, -1);
  if (literal->shape[depth] == -1) {
    literal->shape[depth] = count;
  } else if (literal->shape[depth] != count) {
    return lex.ErrorAt(start, "dense literal has rows of different lengths (", count, " vs ",
                       literal->shape[depth], ")");
  }
  if (has_scalars) {
    if (literal->leaf_depth == -1) literal->leaf_depth = static_cast<int64_t>(depth);
    if (literal->leaf_depth != static_cast<int64_t>(depth)) {
      return lex.ErrorAt(start, "dense literal has lists of different depths");
    }
  }
  return OkStatus();
}

StatusOr<std::shared_ptr<const DenseData>> BuildDenseData(Lexer& lex, const Type& type,
                                                          const DenseLiteral& literal) {
  auto data = std::make_shared<DenseData>();
  ElementType et = type.element_type();
  const int eb = StorageBytes(et);
  const int64_t n = type.num_elements();
  if (literal.empty) {
    if (n != 0) {
      return lex.ErrorAt(literal.pos, "empty dense literal for ", type.ToString(), " which has ",
                         n, " elements");
    }
    return std::shared_ptr<const DenseData>(data);
  }
  if (literal.hex) {
    StatusOr<std::shared_ptr<const DenseData>> hex =
        DenseDataFromBytes(type, literal.hex_bytes, "hex dense literal");
    if (!hex.ok()) return lex.ErrorAt(literal.pos, hex.status().message());
    return hex;
  }
  const size_t count = literal.elements.size();
  if (!literal.nested) {
    data->splat = n != 1;
  } else {
    const std::vector<int64_t>& shape = literal.shape;
    if (static_cast<int64_t>(count) != n) {
      return lex.ErrorAt(literal.pos, "dense literal has ", count, " elements but ",
                         type.ToString(), " has ", n);
    }
    if (n != 0 && shape != type.dims()) {
      return lex.ErrorAt(literal.pos, "dense literal's nesting does not match the shape of ",
                         type.ToString());
    }
  }
  data->bytes.resize(count * eb);
  std::string why;
  bool complex = IsComplex(et);
  ElementType part = complex ? ComplexComponent(et) : et;
  int part_bytes = complex ? eb / 2 : eb;
  for (size_t i = 0; i < count; ++i) {
    const DenseElement& e = literal.elements[i];
    std::byte* out = data->bytes.data() + i * eb;
    if (complex) {
      if (e.imag.empty()) {
        return lex.ErrorAt(e.pos, "expected a complex element '(re, im)' for ",
                           type.ToString());
      }
      uint64_t re = 0, im = 0;
      if (!FloatBits(e.real, part, &re, &why) || !FloatBits(e.imag, part, &im, &why)) {
        return lex.ErrorAt(e.pos, why);
      }
      StoreLittleEndian(re, part_bytes, out);
      StoreLittleEndian(im, part_bytes, out + part_bytes);
      continue;
    }
    if (!e.imag.empty()) {
      return lex.ErrorAt(e.pos, "complex element for non-complex type ", type.ToString());
    }
    if (IsFloat(et)) {
      uint64_t bits = 0;
      if (!FloatBits(e.real, et, &bits, &why)) return lex.ErrorAt(e.pos, why);
      StoreLittleEndian(bits, eb, out);
    } else {
      int64_t value = 0;
      if (!IntegerBits(e.real, et, &value, &why)) return lex.ErrorAt(e.pos, why);
      StoreLittleEndian(static_cast<uint64_t>(value), eb, out);
    }
  }
  return std::shared_ptr<const DenseData>(data);
}

}  // namespace

// ---------------------------------------------------------------- dense<...>

Status Parser::ParseDenseBody(Attribute* out) {
  // 'dense' consumed; at '<'.
  DenseLiteral literal;
  lex_.Peek();
  literal.pos = lex_.pos();
  if (!lex_.ConsumeIf("<")) return lex_.Expected("'<' after 'dense'");
  size_t body_start = lex_.pos();
  if (lex_.Peek() == '>') {
    literal.empty = true;
  } else if (lex_.Peek() == '"') {
    size_t str_pos = lex_.pos();
    PLUGRT_ASSIGN_OR_RETURN(std::string text, lex_.LexString());
    if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X') ||
        text.size() % 2 != 0) {
      return lex_.ErrorAt(str_pos, "expected a hex string \"0x...\" with whole bytes");
    }
    literal.hex = true;
    literal.hex_bytes.reserve(text.size() / 2 - 1);
    for (size_t i = 2; i < text.size(); i += 2) {
      auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      int hi = nibble(text[i]), lo = nibble(text[i + 1]);
      if (hi < 0 || lo < 0) return lex_.ErrorAt(str_pos, "bad hex digit in dense literal");
      literal.hex_bytes.push_back(static_cast<char>(hi * 16 + lo));
    }
  } else if (lex_.Peek() == '[') {
    literal.nested = true;
    PLUGRT_RETURN_IF_ERROR(ParseDenseList(lex_, &literal, 0));
  } else {
    PLUGRT_RETURN_IF_ERROR(ParseDenseElement(lex_, &literal));
  }
  size_t body_end = lex_.pos();
  if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close the dense literal");
  literal.raw = lex_.text().substr(body_start, body_end - body_start);
  if (!lex_.ConsumeIf(":")) return lex_.Expected("':' and the type of the dense literal");
  size_t type_pos = lex_.pos();
  lex_.Peek();
  type_pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (type.kind() == Type::Kind::kUnsupported) {
    // Unsupported types keep the literal as text.
    *out = Attribute::Dense(type, nullptr);
    std::string_view raw = literal.raw;
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n')) raw.remove_suffix(1);
    while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\n')) raw.remove_prefix(1);
    out->str = std::string(raw);
    return OkStatus();
  }
  if (Status s = CheckDenseLiteralType(type); !s.ok()) return lex_.ErrorAt(type_pos, s.message());
  PLUGRT_ASSIGN_OR_RETURN(auto data, BuildDenseData(lex_, type, literal));
  *out = Attribute::Dense(type, std::move(data));
  return OkStatus();
}

// ---------------------------------------------------------------- array<...>

StatusOr<Attribute> Parser::ParseDenseArray() {
  // 'array' consumed.
  if (!lex_.ConsumeIf("<")) return lex_.Expected("'<' after 'array'");
  size_t type_pos = lex_.pos();
  lex_.Peek();
  type_pos = lex_.pos();
  PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
  if (type.kind() != Type::Kind::kElement || IsComplex(type.element_type())) {
    return lex_.ErrorAt(type_pos, "array<> needs an integer or float element type");
  }
  Attribute attr;
  attr.kind = Attribute::Kind::kDenseArray;
  attr.type = type;
  ElementType et = type.element_type();
  if (lex_.ConsumeIf(":")) {
    while (true) {
      lex_.Peek();
      size_t pos = lex_.pos();
      std::string_view text = lex_.LexNumber();
      if (text.empty()) {
        if (lex_.ConsumeKeyword("true")) text = "true";
        else if (lex_.ConsumeKeyword("false")) text = "false";
        else return lex_.Expected("an array element");
      }
      std::string why;
      if (IsFloat(et)) {
        uint64_t bits = 0;
        if (!FloatBits(text, et, &bits, &why)) return lex_.ErrorAt(pos, why);
        attr.floats.push_back(FloatValueOfBits(et, bits));
      } else {
        int64_t value = 0;
        if (!IntegerBits(text, et, &value, &why)) return lex_.ErrorAt(pos, why);
        attr.ints.push_back(value);
      }
      if (lex_.ConsumeIf(">")) break;
      if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '>' in the array");
    }
  } else if (!lex_.ConsumeIf(">")) {
    return lex_.Expected("':' or '>' in the array");
  }
  return attr;
}

// ---------------------------------------------------------------- scalars

StatusOr<Attribute> Parser::ParseNumberAttribute() {
  lex_.Peek();
  size_t pos = lex_.pos();
  std::string_view text = lex_.LexNumber();
  if (text.empty()) return lex_.Expected("a number");
  bool is_float_text = !IsHexText(text) && text.find_first_of(".eE") != std::string_view::npos;
  Type type = is_float_text ? Type::Element(ElementType::kF64) : Type::Element(ElementType::kSI64);
  size_t save = lex_.pos();
  if (lex_.ConsumeIf(":")) {
    lex_.Peek();
    size_t type_pos = lex_.pos();
    // Only a scalar type types the number; `k = 1 : tensor<f32>` of a pretty
    // op is the op's signature.
    (void)type_pos;
    auto parsed = (lex_.Peek() == '!' || IsIdStart(lex_.Peek())) ? ParseType()
                                                                  : StatusOr<Type>(Type());
    if (parsed.ok() && parsed->kind() == Type::Kind::kElement) {
      type = *parsed;
    } else {
      lex_.set_pos(save);
    }
  }
  ElementType et = type.element_type();
  std::string why;
  if (IsFloat(et)) {
    uint64_t bits = 0;
    if (!FloatBits(text, et, &bits, &why)) return lex_.ErrorAt(pos, why);
    double value = 0;
    if (IsHexText(text) || et == ElementType::kF64) {
      value = FloatValueOfBits(et, bits);
    } else {
      // Keep the value as written (rounded once, to double).
      uint64_t dbits = 0;
      if (!FloatBits(text, ElementType::kF64, &dbits, &why)) return lex_.ErrorAt(pos, why);
      value = std::bit_cast<double>(dbits);
    }
    return Attribute::Float(value, type);
  }
  if (IsComplex(et)) return lex_.ErrorAt(pos, "complex scalar attributes are not supported");
  if (is_float_text) return lex_.ErrorAt(pos, "'", text, "' is not an integer of type ",
                                         ElementTypeName(et));
  int64_t value = 0;
  if (!IntegerBits(text, et, &value, &why)) return lex_.ErrorAt(pos, why);
  return Attribute::Integer(value, type);
}

StatusOr<int64_t> Parser::ParseInt64() {
  lex_.Peek();
  size_t pos = lex_.pos();
  std::string_view text = lex_.LexNumber();
  std::string why;
  int64_t value = 0;
  if (text.empty()) return lex_.Expected("an integer");
  if (!IntegerBits(text, ElementType::kSI64, &value, &why)) return lex_.ErrorAt(pos, why);
  return value;
}

StatusOr<std::vector<int64_t>> Parser::ParseIntList() {
  std::vector<int64_t> values;
  if (!lex_.ConsumeIf("[")) return lex_.Expected("'[' to open an integer list");
  if (lex_.ConsumeIf("]")) return values;
  while (true) {
    if (lex_.ConsumeKeyword("true")) {
      values.push_back(1);
    } else if (lex_.ConsumeKeyword("false")) {
      values.push_back(0);
    } else {
      PLUGRT_ASSIGN_OR_RETURN(int64_t v, ParseInt64());
      values.push_back(v);
    }
    if (lex_.ConsumeIf("]")) return values;
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the integer list");
  }
}

// ---------------------------------------------------------------- #attributes

Status Parser::ParseStructFields(std::vector<NamedAttribute>* fields, char close) {
  const std::string close_text(1, close);
  if (lex_.ConsumeIf(close_text)) return OkStatus();
  while (true) {
    std::string_view name = lex_.LexBareId();
    if (name.empty()) return lex_.Expected("a field name");
    if (!lex_.ConsumeIf("=")) return lex_.Expected("'=' after field '" + std::string(name) + "'");
    Attribute value;
    // Integer lists are normalised to i64 dense arrays.
    size_t save = lex_.pos();
    if (lex_.Peek() == '[') {
      auto list = ParseIntList();
      if (list.ok()) {
        value = Attribute::DenseI64Array(std::move(*list));
      } else {
        lex_.set_pos(save);
        PLUGRT_ASSIGN_OR_RETURN(value, ParseAttribute());
      }
    } else {
      PLUGRT_ASSIGN_OR_RETURN(value, ParseAttribute());
    }
    fields->emplace_back(std::string(name), std::move(value));
    if (lex_.ConsumeIf(close_text)) return OkStatus();
    if (!lex_.ConsumeIf(",")) {
      return lex_.Expected("',' or '" + close_text + "' in the field list");
    }
  }
}

namespace {

// `[b, 0, 1, f]` of a convolution layout: positions of the named dimensions.
Status ParseConvLayout(Lexer& lex, char batch, char feature, std::vector<NamedAttribute>* fields,
                       std::string_view batch_name, std::string_view feature_name,
                       std::string_view spatial_name) {
  if (!lex.ConsumeIf("[")) return lex.Expected("'[' to open a convolution layout");
  int64_t batch_dim = -1, feature_dim = -1;
  std::vector<std::pair<int64_t, int64_t>> spatial;  // (spatial number, position)
  int64_t position = 0;
  if (!lex.ConsumeIf("]")) {
    while (true) {
      lex.Peek();
      size_t pos = lex.pos();
      char c = lex.PeekRaw();
      if (c >= '0' && c <= '9') {
        std::string_view digits = lex.LexInteger();
        int64_t number = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (ec != std::errc() || number > 64) {
          return lex.ErrorAt(pos, "bad spatial dimension number in convolution layout");
        }
        (void)ptr;
        spatial.emplace_back(number, position);
      } else if (c == batch || c == feature) {
        lex.set_pos(pos + 1);
        if (IsIdChar(lex.PeekRaw())) return lex.Expected("a layout letter");
        int64_t& slot = c == batch ? batch_dim : feature_dim;
        if (slot >= 0) return lex.ErrorAt(pos, "'", c, "' appears twice in the layout");
        slot = position;
      } else {
        return lex.Expected(StrCat("'", batch, "', '", feature, "' or a spatial number"));
      }
      ++position;
      if (lex.ConsumeIf("]")) break;
      if (!lex.ConsumeIf(",")) return lex.Expected("',' or ']' in the convolution layout");
    }
  }
  if (batch_dim < 0 || feature_dim < 0) {
    return lex.ErrorAt(lex.pos(), "convolution layout needs both '", batch, "' and '", feature,
                       "'");
  }
  std::vector<int64_t> spatial_dims(spatial.size(), -1);
  for (auto [number, pos] : spatial) {
    if (number >= static_cast<int64_t>(spatial.size()) || spatial_dims[number] >= 0) {
      return lex.ErrorAt(lex.pos(), "spatial dimensions of the layout must be 0..",
                         spatial.size() - 1, " each once");
    }
    spatial_dims[number] = pos;
  }
  fields->emplace_back(std::string(batch_name), Attribute::Integer(batch_dim));
  fields->emplace_back(std::string(feature_name), Attribute::Integer(feature_dim));
  fields->emplace_back(std::string(spatial_name), Attribute::DenseI64Array(spatial_dims));
  return OkStatus();
}

}  // namespace

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` -> the "stablehlo.conv" struct.
StatusOr<Attribute> ParseConvDimensionNumbers(Lexer& lex) {
  std::vector<NamedAttribute> f;
  PLUGRT_RETURN_IF_ERROR(ParseConvLayout(lex, 'b', 'f', &f, "input_batch_dimension",
                                         "input_feature_dimension", "input_spatial_dimensions"));
  if (!lex.ConsumeIf("x")) return lex.Expected("'x' between input and kernel layouts");
  PLUGRT_RETURN_IF_ERROR(ParseConvLayout(lex, 'i', 'o', &f, "kernel_input_feature_dimension",
                                         "kernel_output_feature_dimension",
                                         "kernel_spatial_dimensions"));
  if (!lex.ConsumeIf("->")) return lex.Expected("'->' before the output layout");
  PLUGRT_RETURN_IF_ERROR(ParseConvLayout(lex, 'b', 'f', &f, "output_batch_dimension",
                                         "output_feature_dimension", "output_spatial_dimensions"));
  return Attribute::Struct("stablehlo.conv", std::move(f));
}

StatusOr<Attribute> Parser::ParseHashAttribute() {
  size_t start = lex_.pos();
  lex_.set_pos(start + 1);  // '#'
  std::string_view written = lex_.LexSuffixId();
  if (written.empty()) return lex_.Expected("an attribute name after '#'");
  // mhlo's spellings of the attributes StableHLO shares (#mhlo.conv<...>).
  const std::string mapped = MhloAttributeName(written);
  std::string_view name = mapped;
  if (lex_.PeekRaw() != '<') {
    return lex_.ErrorAt(start, "attribute aliases (#", name, ") are not supported");
  }
  size_t body_pos = lex_.pos();
  // #dialect<kind VALUE> short enum form.
  if (name.find('.') == std::string_view::npos) {
    lex_.set_pos(body_pos + 1);
    std::string_view kind = lex_.LexBareId();
    std::string_view value = kind.empty() ? std::string_view() : lex_.LexBareId();
    if (!value.empty() && lex_.ConsumeIf(">")) {
      return Attribute::Enum(MhloAttributeName(StrCat(name, ".", kind)), std::string(value));
    }
    lex_.set_pos(body_pos);
    PLUGRT_ASSIGN_OR_RETURN(std::string_view group, lex_.SkipAngleGroup());
    return Attribute::Enum(std::string(name), std::string(group.substr(1, group.size() - 2)));
  }
  lex_.set_pos(body_pos + 1);
  // #dialect.kind<VALUE> enum form.
  {
    std::string_view value = lex_.LexBareId();
    if (!value.empty() && lex_.ConsumeIf(">")) {
      return Attribute::Enum(std::string(name), std::string(value));
    }
    lex_.set_pos(body_pos + 1);
  }
  if (name == "stablehlo.conv") {
    lex_.ConsumeKeyword("raw");
    if (lex_.Peek() == '[') {
      PLUGRT_ASSIGN_OR_RETURN(Attribute conv, ParseConvDimensionNumbers(lex_));
      if (!lex_.ConsumeIf(">")) return lex_.Expected("'>' to close #stablehlo.conv");
      return conv;
    }
  }
  if (IsKnownStruct(name)) {
    std::vector<NamedAttribute> fields;
    PLUGRT_RETURN_IF_ERROR(ParseStructFields(&fields, '>'));
    return Attribute::Struct(std::string(name), std::move(fields));
  }
  // Anything else is kept as its text.
  lex_.set_pos(body_pos);
  PLUGRT_ASSIGN_OR_RETURN(std::string_view group, lex_.SkipAngleGroup());
  return Attribute::Enum(std::string(name),
                         NormalizedAttributeText(group.substr(1, group.size() - 2)));
}

StatusOr<Attribute> Parser::ParseAttribute() {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  char c = lex_.Peek();
  size_t start = lex_.pos();
  if (c == '"') {
    PLUGRT_ASSIGN_OR_RETURN(std::string text, lex_.LexString());
    // A typed string (`"x" : i32`) keeps only its text.
    return Attribute::String(std::move(text));
  }
  if (c == '@') {
    PLUGRT_ASSIGN_OR_RETURN(std::string name, ParseSymbolName("symbol"));
    return Attribute::SymbolRef(std::move(name));
  }
  if (c == '[') {
    lex_.set_pos(start + 1);
    std::vector<Attribute> elements;
    if (!lex_.ConsumeIf("]")) {
      while (true) {
        PLUGRT_ASSIGN_OR_RETURN(Attribute element, ParseAttribute());
        elements.push_back(std::move(element));
        if (lex_.ConsumeIf("]")) break;
        if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or ']' in the array");
      }
    }
    return Attribute::Array(std::move(elements));
  }
  if (c == '{') {
    std::vector<NamedAttribute> fields;
    PLUGRT_RETURN_IF_ERROR(ParseAttrDict(&fields));
    return Attribute::Dictionary(std::move(fields));
  }
  if (c == '#') return ParseHashAttribute();
  if (c == '-' || c == '+' || (c >= '0' && c <= '9')) return ParseNumberAttribute();
  if (c == '!') {
    PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
    return Attribute::TypeAttr(std::move(type));
  }
  if (IsIdStart(c)) {
    if (lex_.ConsumeKeyword("true")) return Attribute::Bool(true);
    if (lex_.ConsumeKeyword("false")) return Attribute::Bool(false);
    if (lex_.ConsumeKeyword("unit")) return Attribute::Unit();
    if (lex_.PeekKeyword("dense")) {
      lex_.ConsumeKeyword("dense");
      if (lex_.PeekRaw() == '<') {
        Attribute attr;
        PLUGRT_RETURN_IF_ERROR(ParseDenseBody(&attr));
        return attr;
      }
      lex_.set_pos(start);
    }
    if (lex_.ConsumeKeyword("array")) {
      if (lex_.PeekRaw() == '<') return ParseDenseArray();
      lex_.set_pos(start);
    }
    if (lex_.ConsumeKeyword("dense_resource")) return ParseDenseResource(start);
    PLUGRT_ASSIGN_OR_RETURN(Type type, ParseType());
    return Attribute::TypeAttr(std::move(type));
  }
  return lex_.Expected("an attribute value");
}

Status Parser::ParseAttrDict(std::vector<NamedAttribute>* out) {
  DepthGuard guard(this);
  PLUGRT_RETURN_IF_ERROR(guard.Check());
  if (!lex_.ConsumeIf("{")) return lex_.Expected("'{' to open an attribute dictionary");
  if (lex_.ConsumeIf("}")) return OkStatus();
  while (true) {
    std::string name;
    lex_.Peek();
    size_t pos = lex_.pos();
    if (lex_.Peek() == '"') {
      PLUGRT_ASSIGN_OR_RETURN(name, lex_.LexString());
    } else {
      name = std::string(lex_.LexBareId());
    }
    if (name.empty()) return lex_.Expected("an attribute name");
    for (const auto& existing : *out) {
      if (existing.first == name) return lex_.ErrorAt(pos, "duplicate attribute '", name, "'");
    }
    if (lex_.ConsumeIf("=")) {
      PLUGRT_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
      out->emplace_back(std::move(name), std::move(value));
    } else {
      out->emplace_back(std::move(name), Attribute::Unit());
    }
    if (lex_.ConsumeIf("}")) return OkStatus();
    if (!lex_.ConsumeIf(",")) return lex_.Expected("',' or '}' in the attribute dictionary");
  }
}

}  // namespace plugrt::shlo::internal
