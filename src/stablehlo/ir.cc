#include "stablehlo/ir.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "stablehlo/float_format.h"

namespace plugrt::shlo {

Attribute::Attribute() = default;
Attribute::~Attribute() = default;
Attribute::Attribute(const Attribute&) = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(const Attribute&) = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;


// ---------------------------------------------------------------- Location

std::string Location::ToString() const {
  std::string user = source ? source->ToString() : std::string();
  if (!file || line <= 0) return user.empty() ? "<unknown>" : user;
  std::string out = StrCat(*file, ":", line, ":", column);
  if (!user.empty()) out += StrCat(" (", user, ")");
  return out;
}

// ---------------------------------------------------------------- Type

Type Type::Tensor(ElementType element, std::vector<int64_t> dims) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.element_ = element;
  t.dims_ = std::move(dims);
  return t;
}
Type Type::Element(ElementType element) {
  Type t;
  t.kind_ = Kind::kElement;
  t.element_ = element;
  return t;
}
Type Type::QuantizedElement(UniformQuantParams params) {
  Type t;
  t.kind_ = Kind::kElement;
  t.element_ = params.storage;
  t.quant_ = std::make_shared<const UniformQuantParams>(std::move(params));
  return t;
}
Type Type::TensorOf(const Type& element, std::vector<int64_t> dims) {
  Type t = Tensor(element.element_, std::move(dims));
  t.quant_ = element.quant_;
  return t;
}
Type Type::WithPlainElement(ElementType element) const {
  Type t = *this;
  t.element_ = element;
  t.quant_ = nullptr;
  return t;
}
Type Type::Tuple(std::vector<Type> elements) {
  Type t;
  t.kind_ = Kind::kTuple;
  t.elements_ = std::move(elements);
  return t;
}
Type Type::Token() { return Type(); }
Type Type::Unsupported(std::string text) {
  Type t;
  t.kind_ = Kind::kUnsupported;
  t.text_ = std::move(text);
  return t;
}

bool Type::has_static_shape() const {
  if (kind_ != Kind::kTensor) return false;
  for (int64_t d : dims_) {
    if (d < 0) return false;
  }
  return true;
}

int64_t Type::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims_) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

std::string Type::ToString() const {
  switch (kind_) {
    case Kind::kToken:
      return "!stablehlo.token";
    case Kind::kElement:
      if (quant_) return QuantParamsToString(*quant_);
      return std::string(ElementTypeName(element_));
    case Kind::kUnsupported:
      return text_;
    case Kind::kTuple: {
      std::string out = "tuple<";
      for (size_t i = 0; i < elements_.size(); ++i) {
        if (i > 0) out += ", ";
        out += elements_[i].ToString();
      }
      return out + ">";
    }
    case Kind::kTensor: {
      std::string out = "tensor<";
      for (int64_t d : dims_) {
        out += d == kDynamicSize ? std::string("?") : std::to_string(d);
        out += 'x';
      }
      if (quant_) {
        out += QuantParamsToString(*quant_);
      } else {
        out += ElementTypeName(element_);
      }
      return out + ">";
    }
  }
  return "<bad type>";
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind_ != b.kind_) return false;
  if ((a.quant_ == nullptr) != (b.quant_ == nullptr)) return false;
  if (a.quant_ && a.quant_ != b.quant_ && !(*a.quant_ == *b.quant_)) return false;
  switch (a.kind_) {
    case Type::Kind::kToken:
      return true;
    case Type::Kind::kElement:
      return a.element_ == b.element_;
    case Type::Kind::kTensor:
      return a.element_ == b.element_ && a.dims_ == b.dims_;
    case Type::Kind::kTuple:
      return a.elements_ == b.elements_;
    case Type::Kind::kUnsupported:
      return a.text_ == b.text_;
  }
  return false;
}

// ---------------------------------------------------------------- Attribute

Attribute Attribute::Unit() { return Attribute(); }
Attribute Attribute::Bool(bool value) {
  Attribute a;
  a.kind = Kind::kBool;
  a.bool_value = value;
  return a;
}
Attribute Attribute::Integer(int64_t value, Type type) {
  Attribute a;
  a.kind = Kind::kInteger;
  a.int_value = value;
  a.type = std::move(type);
  return a;
}
Attribute Attribute::Float(double value, Type type) {
  Attribute a;
  a.kind = Kind::kFloat;
  a.float_value = value;
  a.type = std::move(type);
  return a;
}
Attribute Attribute::String(std::string value) {
  Attribute a;
  a.kind = Kind::kString;
  a.str = std::move(value);
  return a;
}
Attribute Attribute::TypeAttr(Type type) {
  Attribute a;
  a.kind = Kind::kType;
  a.type = std::move(type);
  return a;
}
Attribute Attribute::SymbolRef(std::string name) {
  Attribute a;
  a.kind = Kind::kSymbolRef;
  a.str = std::move(name);
  return a;
}
Attribute Attribute::Array(std::vector<Attribute> elements) {
  Attribute a;
  a.kind = Kind::kArray;
  a.elements = std::move(elements);
  return a;
}
Attribute Attribute::DenseI64Array(std::vector<int64_t> values) {
  Attribute a;
  a.kind = Kind::kDenseArray;
  a.type = Type::Element(ElementType::kSI64);
  a.ints = std::move(values);
  return a;
}
Attribute Attribute::Dense(Type tensor_type, std::shared_ptr<const DenseData> data) {
  Attribute a;
  a.kind = Kind::kDenseElements;
  a.type = std::move(tensor_type);
  a.dense = std::move(data);
  return a;
}
Attribute Attribute::Dictionary(std::vector<NamedAttribute> fields) {
  Attribute a;
  a.kind = Kind::kDictionary;
  a.fields = std::move(fields);
  return a;
}
Attribute Attribute::Enum(std::string name, std::string value) {
  Attribute a;
  a.kind = Kind::kEnum;
  a.str = std::move(name);
  a.enum_value = std::move(value);
  return a;
}
Attribute Attribute::Struct(std::string name, std::vector<NamedAttribute> fields) {
  Attribute a;
  a.kind = Kind::kStruct;
  a.str = std::move(name);
  a.fields = std::move(fields);
  return a;
}

const Attribute* Attribute::field(std::string_view name) const {
  return FindAttribute(fields, name);
}

const Attribute* FindAttribute(const std::vector<NamedAttribute>& attributes,
                               std::string_view name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

namespace {

bool SameBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

bool IsBareIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!start(s[0])) return false;
  for (char c : s) {
    if (!start(c) && !(c >= '0' && c <= '9') && c != '$' && c != '.') return false;
  }
  return true;
}

bool IsSuffixIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7F) {
      out += '\\';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

uint64_t LoadLittleEndian(const std::byte* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

// Integer element `index` of dense data, sign- or zero-extended.
int64_t DenseInt(const DenseData& data, ElementType type, int64_t index) {
  int eb = StorageBytes(type);
  if (data.splat) index = 0;
  uint64_t raw = LoadLittleEndian(data.bytes.data() + index * eb, eb);
  if (IsSignedInteger(type) && eb < 8 && ((raw >> (8 * eb - 1)) & 1)) {
    raw |= ~uint64_t{0} << (8 * eb);
  }
  return static_cast<int64_t>(raw);
}

std::string FormatInteger(int64_t value, ElementType type) {
  if (type == ElementType::kI1) return value ? "true" : "false";
  if (IsUnsignedInteger(type)) return std::to_string(static_cast<uint64_t>(value));
  return std::to_string(value);
}

std::string FormatDouble(double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", value);
  std::string out = buf;
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string HexBits(uint64_t bits, int bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out = "0x";
  for (int i = bytes * 2 - 1; i >= 0; --i) out += kHex[(bits >> (4 * i)) & 15];
  return out;
}

// Row-major nested list of integer elements.
void PrintIntList(const DenseData& data, const Type& type, size_t dim, int64_t* index,
                  std::string* out) {
  if (dim == type.dims().size()) {
    *out += FormatInteger(DenseInt(data, type.element_type(), (*index)++), type.element_type());
    return;
  }
  *out += '[';
  for (int64_t i = 0; i < type.dims()[dim]; ++i) {
    if (i > 0) *out += ", ";
    PrintIntList(data, type, dim + 1, index, out);
  }
  *out += ']';
}

std::string DenseToString(const Attribute& a) {
  std::string out = "dense<";
  if (!a.dense) {
    out += a.str;  // literal kept as text for an unsupported type
  } else if (a.type.is_tensor() && !a.dense->bytes.empty()) {
    ElementType et = a.type.element_type();
    if (IsInteger(et) || IsBoolean(et)) {
      if (a.dense->splat) {
        out += FormatInteger(DenseInt(*a.dense, et, 0), et);
      } else {
        int64_t index = 0;
        PrintIntList(*a.dense, a.type, 0, &index, &out);
      }
    } else {
      // Floats and complex numbers as exact bit patterns.
      static const char kHex[] = "0123456789ABCDEF";
      out += "\"0x";
      for (std::byte b : a.dense->bytes) {
        out += kHex[static_cast<unsigned>(b) >> 4];
        out += kHex[static_cast<unsigned>(b) & 15];
      }
      out += '"';
    }
  }
  out += "> : ";
  out += a.type.ToString();
  return out;
}

// The text of a field value inside #name<...>: integer lists as [a, b].
std::string StructFieldToString(const Attribute& a) {
  if (a.kind == Attribute::Kind::kDenseArray && a.type.kind() == Type::Kind::kElement &&
      a.type.element_type() == ElementType::kSI64 && a.floats.empty()) {
    std::string out = "[";
    for (size_t i = 0; i < a.ints.size(); ++i) {
      if (i > 0) out += ", ";
      out += std::to_string(a.ints[i]);
    }
    return out + "]";
  }
  return a.ToString();
}

}  // namespace

std::string Attribute::ToString() const {
  switch (kind) {
    case Kind::kUnit:
      return "unit";
    case Kind::kBool:
      return bool_value ? "true" : "false";
    case Kind::kInteger:
      if (type.kind() == Type::Kind::kElement && type.element_type() == ElementType::kI1) {
        return StrCat(int_value, " : i1");
      }
      return StrCat(FormatInteger(int_value, type.element_type()), " : ", type.ToString());
    case Kind::kFloat: {
      if (std::isfinite(float_value)) return StrCat(FormatDouble(float_value), " : ", type.ToString());
      ElementType et = type.element_type();
      uint64_t bits;
      int bytes;
      if (et == ElementType::kF64) {
        bits = std::bit_cast<uint64_t>(float_value);
        bytes = 8;
      } else if (et == ElementType::kF32) {
        bits = std::bit_cast<uint32_t>(static_cast<float>(float_value));
        bytes = 4;
      } else {
        bits = EncodeFloat(et, float_value);
        bytes = StorageBytes(et);
      }
      return StrCat(HexBits(bits, bytes), " : ", type.ToString());
    }
    case Kind::kString:
      return Quote(str);
    case Kind::kType:
      return type.ToString();
    case Kind::kSymbolRef:
      return IsSuffixIdentifier(str) ? "@" + str : "@" + Quote(str);
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += elements[i].ToString();
      }
      return out + "]";
    }
    case Kind::kDenseArray: {
      std::string out = "array<" + type.ToString();
      bool is_float = type.kind() == Type::Kind::kElement && IsFloat(type.element_type());
      size_t n = is_float ? floats.size() : ints.size();
      for (size_t i = 0; i < n; ++i) {
        out += i == 0 ? ": " : ", ";
        out += is_float ? FormatDouble(floats[i])
                        : FormatInteger(ints[i], type.kind() == Type::Kind::kElement
                                                     ? type.element_type()
                                                     : ElementType::kSI64);
      }
      return out + ">";
    }
    case Kind::kDenseElements:
      return DenseToString(*this);
    case Kind::kDictionary: {
      std::string out = "{";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += IsBareIdentifier(fields[i].first) ? fields[i].first : Quote(fields[i].first);
        if (fields[i].second.kind != Kind::kUnit) out += " = " + fields[i].second.ToString();
      }
      return out + "}";
    }
    case Kind::kEnum: {
      size_t dot = str.find('.');
      if (dot != std::string::npos && IsBareIdentifier(enum_value) &&
          IsBareIdentifier(str.substr(dot + 1)) && str.find('.', dot + 1) == std::string::npos) {
        return StrCat("#", str.substr(0, dot), "<", str.substr(dot + 1), " ", enum_value, ">");
      }
      return StrCat("#", str, "<", enum_value, ">");
    }
    case Kind::kStruct: {
      std::string out = "#" + str + "<";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += fields[i].first + " = " + StructFieldToString(fields[i].second);
      }
      return out + ">";
    }
  }
  return "<bad attribute>";
}

bool operator==(const Attribute& a, const Attribute& b) {
  if (a.kind != b.kind || a.bool_value != b.bool_value || a.int_value != b.int_value ||
      !SameBits(a.float_value, b.float_value) || a.str != b.str || a.enum_value != b.enum_value ||
      a.type != b.type || a.ints != b.ints || a.floats.size() != b.floats.size() ||
      a.elements.size() != b.elements.size() || a.fields != b.fields) {
    return false;
  }
  for (size_t i = 0; i < a.floats.size(); ++i) {
    if (!SameBits(a.floats[i], b.floats[i])) return false;
  }
  for (size_t i = 0; i < a.elements.size(); ++i) {
    if (!(a.elements[i] == b.elements[i])) return false;
  }
  if (a.dense == b.dense) return true;
  if (!a.dense || !b.dense) return false;
  return a.dense->splat == b.dense->splat && a.dense->bytes == b.dense->bytes;
}

// ---------------------------------------------------------------- accessors

namespace {
bool IsIntegerDense(const Attribute& attr) {
  return attr.kind == Attribute::Kind::kDenseElements && attr.dense && attr.type.is_tensor() &&
         (IsInteger(attr.type.element_type()) || IsBoolean(attr.type.element_type()));
}
}  // namespace

StatusOr<int64_t> AttrToInt(const Attribute& attr) {
  switch (attr.kind) {
    case Attribute::Kind::kInteger:
      return attr.int_value;
    case Attribute::Kind::kBool:
      return attr.bool_value ? 1 : 0;
    case Attribute::Kind::kDenseElements:
      if (IsIntegerDense(attr) && attr.type.num_elements() == 1) {
        return DenseInt(*attr.dense, attr.type.element_type(), 0);
      }
      break;
    default:
      break;
  }
  return InvalidArgument("expected an integer attribute, found ", attr.ToString());
}

StatusOr<std::vector<int64_t>> AttrToIntList(const Attribute& attr) {
  switch (attr.kind) {
    case Attribute::Kind::kDenseArray:
      if (attr.floats.empty()) return attr.ints;
      break;
    case Attribute::Kind::kArray: {
      std::vector<int64_t> out;
      for (const Attribute& e : attr.elements) {
        if (e.kind == Attribute::Kind::kInteger) {
          out.push_back(e.int_value);
        } else if (e.kind == Attribute::Kind::kBool) {
          out.push_back(e.bool_value ? 1 : 0);
        } else {
          return InvalidArgument("expected a list of integers, found ", attr.ToString());
        }
      }
      return out;
    }
    case Attribute::Kind::kDenseElements:
      if (IsIntegerDense(attr)) {
        int64_t n = attr.type.num_elements();
        if (n < 0) break;
        std::vector<int64_t> out(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) out[i] = DenseInt(*attr.dense, attr.type.element_type(), i);
        return out;
      }
      break;
    default:
      break;
  }
  return InvalidArgument("expected a list of integers, found ", attr.ToString());
}

StatusOr<double> AttrToFloat(const Attribute& attr) {
  if (attr.kind == Attribute::Kind::kFloat) return attr.float_value;
  if (attr.kind == Attribute::Kind::kInteger) {
    if (attr.type.kind() == Type::Kind::kElement && IsUnsignedInteger(attr.type.element_type())) {
      return static_cast<double>(static_cast<uint64_t>(attr.int_value));
    }
    return static_cast<double>(attr.int_value);
  }
  return InvalidArgument("expected a number attribute, found ", attr.ToString());
}

StatusOr<bool> AttrToBool(const Attribute& attr) {
  if (attr.kind == Attribute::Kind::kBool) return attr.bool_value;
  if (attr.kind == Attribute::Kind::kUnit) return true;
  if (attr.kind == Attribute::Kind::kInteger && (attr.int_value == 0 || attr.int_value == 1)) {
    return attr.int_value == 1;
  }
  return InvalidArgument("expected a boolean attribute, found ", attr.ToString());
}

StatusOr<std::string> AttrToEnumValue(const Attribute& attr) {
  if (attr.kind == Attribute::Kind::kEnum) return attr.enum_value;
  if (attr.kind == Attribute::Kind::kString) return attr.str;
  return InvalidArgument("expected an enum attribute, found ", attr.ToString());
}

// ---------------------------------------------------------------- Module

const Function* Module::FindFunction(std::string_view function_name) const {
  for (const auto& f : functions) {
    if (f->name == function_name) return f.get();
  }
  return nullptr;
}

void FlattenType(const Type& type, std::vector<Type>* leaves) {
  if (!type.is_tuple()) {
    leaves->push_back(type);
    return;
  }
  for (const Type& element : type.tuple_elements()) FlattenType(element, leaves);
}

std::vector<Type> FlattenType(const Type& type) {
  std::vector<Type> leaves;
  FlattenType(type, &leaves);
  return leaves;
}

const Function* Module::EntryFunction() const {
  if (const Function* main = FindFunction("main")) return main;
  const Function* only = nullptr;
  for (const auto& f : functions) {
    if (!f->is_public) continue;
    if (only != nullptr) return nullptr;
    only = f.get();
  }
  return only;
}

}  // namespace plugrt::shlo
