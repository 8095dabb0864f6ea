#include "client/npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "common/element_type.h"
#include "client/element_decode.h"
#include "filesystem/file_io.h"

namespace plugrt {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// The header is a Python dict literal; this reads the subset NumPy writes:
// string keys, values that are strings, True/False or tuples of integers.
struct HeaderValue {
  enum class Kind { kString, kBool, kTuple } kind = Kind::kString;
  std::string text;
  bool flag = false;
  std::vector<int64_t> numbers;
};

class HeaderReader {
 public:
  HeaderReader(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  StatusOr<std::map<std::string, HeaderValue>> ReadDict() {
    std::map<std::string, HeaderValue> dict;
    PLUGRT_RETURN_IF_ERROR(Expect('{'));
    while (true) {
      SkipSpace();
      if (Peek() == '}') break;
      PLUGRT_ASSIGN_OR_RETURN(std::string key, ReadString());
      PLUGRT_RETURN_IF_ERROR(Expect(':'));
      PLUGRT_ASSIGN_OR_RETURN(HeaderValue value, ReadValue(key));
      if (!dict.emplace(key, std::move(value)).second) return Error("key '", key, "' repeats");
      SkipSpace();
      if (Peek() == ',') {
        ++at_;
        continue;
      }
      if (Peek() != '}') return Error("expected ',' or '}' after the value of '", key, "'");
    }
    ++at_;
    SkipSpace();
    if (at_ != text_.size()) return Error("unexpected text after the closing '}'");
    return dict;
  }

 private:
  template <typename... Pieces>
  Status Error(const Pieces&... pieces) const {
    return InvalidArgument(name_, ": bad .npy header: ", pieces..., " (header: ", text_, ")");
  }
  char Peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void SkipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  Status Expect(char c) {
    SkipSpace();
    if (Peek() != c) return Error("expected '", std::string(1, c), "' at offset ", at_);
    ++at_;
    return OkStatus();
  }
  StatusOr<std::string> ReadString() {
    SkipSpace();
    char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected a quoted string at offset ", at_);
    size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) return Error("unterminated string at offset ", at_);
    std::string out(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return out;
  }
  StatusOr<HeaderValue> ReadValue(const std::string& key) {
    SkipSpace();
    HeaderValue value;
    char c = Peek();
    if (c == '\'' || c == '"') {
      PLUGRT_ASSIGN_OR_RETURN(value.text, ReadString());
      return value;
    }
    if (text_.substr(at_, 4) == "True") {
      value.kind = HeaderValue::Kind::kBool;
      value.flag = true;
      at_ += 4;
      return value;
    }
    if (text_.substr(at_, 5) == "False") {
      value.kind = HeaderValue::Kind::kBool;
      at_ += 5;
      return value;
    }
    if (c == '(') {
      ++at_;
      value.kind = HeaderValue::Kind::kTuple;
      while (true) {
        SkipSpace();
        if (Peek() == ')') break;
        size_t start = at_;
        while (std::isdigit(static_cast<unsigned char>(Peek()))) ++at_;
        if (start == at_) return Error("'", key, "' must be a tuple of non-negative integers");
        std::string digits(text_.substr(start, at_ - start));
        if (digits.size() > 18) return Error("dimension ", digits, " is too large");
        value.numbers.push_back(std::stoll(digits));
        // NumPy may write 3L on Python 2.
        if (Peek() == 'L') ++at_;
        SkipSpace();
        if (Peek() == ',') {
          ++at_;
        } else if (Peek() != ')') {
          return Error("expected ',' or ')' in '", key, "'");
        }
      }
      ++at_;
      return value;
    }
    if (c == '[') return Error("'", key, "' is a list: structured dtypes are not supported");
    return Error("unsupported value for '", key, "' at offset ", at_);
  }

  std::string_view text_;
  std::string_view name_;
  size_t at_ = 0;
};

// The element types NumPy stores natively, with their dtype string (byte
// order, kind, bytes); the one table both loading and saving read.
struct NpyType {
  std::string_view descr;
  PJRT_Buffer_Type type;
};
constexpr NpyType kNpyTypes[] = {
    {"|b1", PJRT_Buffer_Type_PRED}, {"|i1", PJRT_Buffer_Type_S8},   {"<i2", PJRT_Buffer_Type_S16},
    {"<i4", PJRT_Buffer_Type_S32},  {"<i8", PJRT_Buffer_Type_S64},  {"|u1", PJRT_Buffer_Type_U8},
    {"<u2", PJRT_Buffer_Type_U16},  {"<u4", PJRT_Buffer_Type_U32},  {"<u8", PJRT_Buffer_Type_U64},
    {"<f2", PJRT_Buffer_Type_F16},  {"<f4", PJRT_Buffer_Type_F32},  {"<f8", PJRT_Buffer_Type_F64},
    {"<c8", PJRT_Buffer_Type_C64},  {"<c16", PJRT_Buffer_Type_C128},
};

const NpyType* NpyTypeOf(PJRT_Buffer_Type type) {
  for (const NpyType& t : kNpyTypes) {
    if (t.type == type) return &t;
  }
  return nullptr;
}

bool MultiplyChecked(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

}  // namespace

StatusOr<PJRT_Buffer_Type> TypeFromNpyDescr(std::string_view descr) {
  if (descr.size() < 2) return InvalidArgument("dtype '", descr, "' is not a NumPy dtype string");
  char order = descr[0];
  std::string_view code = descr.substr(1);
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    return InvalidArgument("dtype '", descr, "' has no byte-order character (<, >, | or =)");
  }
  for (const NpyType& t : kNpyTypes) {
    if (t.descr.substr(1) == code) return t.type;
  }
  if (code[0] == 'V') {
    return InvalidArgument("dtype '", descr,
                           "' is opaque bytes: ml_dtypes types (bfloat16, float8_*, int4) are "
                           "saved that way and cannot be told apart; save the array as "
                           "float32 (or int8) instead");
  }
  return InvalidArgument("dtype '", descr,
                         "' is not supported (supported: bool, int8..int64, uint8..uint64, "
                         "float16, float32, float64, complex64, complex128)");
}

StatusOr<HostArray> ParseNpy(std::string_view bytes, std::string_view name) {
  if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic) {
    return InvalidArgument(name, ": not a .npy file (it does not start with \\x93NUMPY)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  size_t header_length = 0;
  size_t header_start = 0;
  if (major == 1) {
    header_length = static_cast<unsigned char>(bytes[8]) |
                    (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return InvalidArgument(name, ": .npy file ends inside its preamble");
    for (int i = 3; i >= 0; --i) {
      header_length = (header_length << 8) | static_cast<unsigned char>(bytes[8 + i]);
    }
    header_start = 12;
  } else {
    return InvalidArgument(name, ": .npy format version ", major, ".", minor,
                           " is not supported (1.0, 2.0 and 3.0 are)");
  }
  if (header_length > bytes.size() - header_start) {
    return InvalidArgument(name, ": .npy header says it is ", header_length,
                           " bytes but the file has only ", bytes.size() - header_start,
                           " bytes after the preamble");
  }
  std::string_view header = bytes.substr(header_start, header_length);
  HeaderReader reader(header, name);
  PLUGRT_ASSIGN_OR_RETURN(auto dict, reader.ReadDict());
  for (const auto& [key, value] : dict) {
    if (key != "descr" && key != "fortran_order" && key != "shape") {
      return InvalidArgument(name, ": bad .npy header: unknown key '", key, "'");
    }
  }
  auto descr = dict.find("descr");
  auto fortran = dict.find("fortran_order");
  auto shape = dict.find("shape");
  if (descr == dict.end() || fortran == dict.end() || shape == dict.end()) {
    return InvalidArgument(name, ": bad .npy header: it needs 'descr', 'fortran_order' and "
                                 "'shape' (header: ",
                           header, ")");
  }
  if (descr->second.kind != HeaderValue::Kind::kString) {
    return InvalidArgument(name, ": bad .npy header: 'descr' must be a string");
  }
  if (fortran->second.kind != HeaderValue::Kind::kBool) {
    return InvalidArgument(name, ": bad .npy header: 'fortran_order' must be True or False");
  }
  if (shape->second.kind != HeaderValue::Kind::kTuple) {
    return InvalidArgument(name, ": bad .npy header: 'shape' must be a tuple");
  }

  HostArray array;
  StatusOr<PJRT_Buffer_Type> type = TypeFromNpyDescr(descr->second.text);
  if (!type.ok()) return InvalidArgument(name, ": ", type.status().message());
  array.type = *type;
  array.dims = shape->second.numbers;
  if (fortran->second.flag) {
    // Column-major equals row-major when at most one dimension exceeds 1.
    size_t non_trivial =
        std::count_if(array.dims.begin(), array.dims.end(), [](int64_t d) { return d > 1; });
    if (non_trivial > 1) {
      return InvalidArgument(name, ": Fortran-order (column-major) arrays are not supported; "
                                   "save np.ascontiguousarray(x) instead");
    }
  }
  int64_t count = 1;
  for (int64_t dim : array.dims) {
    if (!MultiplyChecked(count, dim, count)) {
      return InvalidArgument(name, ": shape has too many elements");
    }
  }
  const int64_t element_size = HostElementByteSize(array.type);
  int64_t expected = 0;
  if (!MultiplyChecked(count, element_size, expected)) {
    return InvalidArgument(name, ": shape has too many elements");
  }
  std::string_view payload = bytes.substr(header_start + header_length);
  if (static_cast<uint64_t>(expected) != payload.size()) {
    return InvalidArgument(name, ": .npy data is ", payload.size(), " bytes but shape (",
                           [&] {
                             std::ostringstream dims;
                             for (size_t i = 0; i < array.dims.size(); ++i) {
                               dims << (i ? ", " : "") << array.dims[i];
                             }
                             return dims.str();
                           }(),
                           ") of ", descr->second.text, " needs ", expected, " bytes");
  }
  array.data.resize(payload.size());
  if (!payload.empty()) std::memcpy(array.data.data(), payload.data(), payload.size());
  if (descr->second.text[0] == '>' && element_size > 1) {
    // Complex values swap each half on its own.
    const size_t unit = KindOf(array.type) == ElementKind::kComplex ? element_size / 2
                                                                    : element_size;
    for (size_t at = 0; at < array.data.size(); at += unit) {
      std::reverse(array.data.begin() + at, array.data.begin() + at + unit);
    }
  }
  if (array.type == PJRT_Buffer_Type_PRED) {
    for (std::byte& b : array.data) b = b != std::byte{0} ? std::byte{1} : std::byte{0};
  }
  return array;
}

StatusOr<HostArray> ReadNpyFile(const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(std::string contents, fs::ReadFile(path));
  return ParseNpy(contents, path);
}

StatusOr<NpySaveType> NpySaveTypeFor(PJRT_Buffer_Type type) {
  if (const NpyType* native = NpyTypeOf(type)) return NpySaveType{std::string(native->descr), type};
  // Types NumPy lacks are widened: sub-byte integers to 8 bits, narrow
  // floats to float32.
  PJRT_Buffer_Type wide = PJRT_Buffer_Type_INVALID;
  switch (KindOf(type)) {
    case ElementKind::kSigned: wide = PJRT_Buffer_Type_S8; break;
    case ElementKind::kUnsigned: wide = PJRT_Buffer_Type_U8; break;
    case ElementKind::kFloat: wide = PJRT_Buffer_Type_F32; break;
    default: break;
  }
  if (wide == PJRT_Buffer_Type_INVALID || ElementBitWidth(type) >= ElementBitWidth(wide)) {
    return InvalidArgument("element type ", ElementTypeName(type), " has no .npy form");
  }
  return NpySaveType{std::string(NpyTypeOf(wide)->descr), wide, true};
}

StatusOr<std::string> SerializeNpy(const HostArray& array) {
  PLUGRT_ASSIGN_OR_RETURN(NpySaveType save, NpySaveTypeFor(array.type));
  const int64_t count = ElementCount(array.dims);
  const int64_t element_size = HostElementByteSize(array.type);
  if (count < 0 || static_cast<uint64_t>(count * element_size) != array.data.size()) {
    return InvalidArgument("array data is ", array.data.size(), " bytes but its shape needs ",
                           count * element_size);
  }
  std::ostringstream dict;
  dict << "{'descr': '" << save.descr << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.dims.size(); ++i) {
    dict << (i ? ", " : "") << array.dims[i];
  }
  dict << (array.dims.size() == 1 ? ",), }" : "), }");
  std::string header = dict.str();

  std::string payload;
  if (!save.widened) {
    payload.assign(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  } else if (save.saved_type == PJRT_Buffer_Type_F32) {
    payload.resize(static_cast<size_t>(count) * sizeof(float));
    for (int64_t i = 0; i < count; ++i) {
      float value = static_cast<float>(ReadFloat(array.type, array.data.data(), i));
      std::memcpy(payload.data() + i * sizeof(float), &value, sizeof(float));
    }
  } else {
    // Sub-byte integers are already one sign- or zero-extended byte each.
    payload.assign(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  }

  // Preamble + header + '\n' is padded to a multiple of 64 bytes.
  const bool long_header = header.size() + 11 > 65535;
  const size_t preamble = long_header ? 12 : 10;
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string out(kMagic);
  out.push_back(static_cast<char>(long_header ? 2 : 1));
  out.push_back(0);
  const size_t length = header.size();
  out.push_back(static_cast<char>(length & 0xff));
  out.push_back(static_cast<char>((length >> 8) & 0xff));
  if (long_header) {
    out.push_back(static_cast<char>((length >> 16) & 0xff));
    out.push_back(static_cast<char>((length >> 24) & 0xff));
  }
  out += header;
  out += payload;
  return out;
}

Status WriteNpyFile(const std::string& path, const HostArray& array) {
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, SerializeNpy(array));
  return fs::WriteFile(path, bytes);
}

}  // namespace plugrt
