#include "tools/bench_program.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "client/element_type.h"
#include "tools/element_decode.h"

namespace plugrt::tools {
namespace {

// "path:line:col" of byte `offset` of `text` (both 1-based).
std::string Where(std::string_view text, size_t offset, const std::string& path) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return StrCat(path, ":", line, ":", column);
}

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

// `text` with the insides of comments and string literals blanked (newlines
// kept), so structure can be searched without meeting either; offsets match.
std::string MaskCommentsAndStrings(std::string_view text) {
  std::string masked(text);
  size_t i = 0;
  while (i < masked.size()) {
    if (masked[i] == '"') {
      ++i;
      while (i < masked.size() && masked[i] != '"' && masked[i] != '\n') {
        if (masked[i] == '\\' && i + 1 < masked.size()) masked[i++] = ' ';
        masked[i++] = ' ';
      }
      if (i < masked.size()) ++i;  // the closing quote stays
    } else if (masked.compare(i, 2, "//") == 0) {
      while (i < masked.size() && masked[i] != '\n') masked[i++] = ' ';
    } else {
      ++i;
    }
  }
  return masked;
}

// A cursor over the masked text, with the original beside it for symbol
// names and errors.
class Scanner {
 public:
  Scanner(std::string_view text, std::string_view masked, const std::string& path, size_t pos)
      : text_(text), masked_(masked), path_(path), pos_(pos) {}

  size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= masked_.size(); }
  char Peek() const { return AtEnd() ? '\0' : masked_[pos_]; }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(masked_[pos_]))) ++pos_;
  }
  bool Consume(std::string_view token) {
    SkipSpace();
    if (masked_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  std::string_view Identifier() {
    SkipSpace();
    size_t start = pos_;
    while (!AtEnd() && IsIdentifierChar(masked_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // The contents of a string literal at the cursor (raw, escapes kept).
  std::optional<std::string_view> StringLiteral() {
    SkipSpace();
    if (Peek() != '"') return std::nullopt;
    size_t start = ++pos_;
    while (!AtEnd() && masked_[pos_] != '"' && masked_[pos_] != '\n') ++pos_;
    std::string_view contents = text_.substr(start, pos_ - start);
    if (Peek() == '"') ++pos_;
    return contents;
  }
  // Skips from an `open` at the cursor to just past its matching `close`.
  Status SkipBalanced(char open, char close) {
    SkipSpace();
    if (Peek() != open) return Error("expected '", open, "'");
    const size_t start = pos_;
    int depth = 0;
    for (; !AtEnd(); ++pos_) {
      if (masked_[pos_] == open) ++depth;
      if (masked_[pos_] == close && --depth == 0) {
        ++pos_;
        return OkStatus();
      }
    }
    pos_ = start;
    return Error("no matching '", close, "'");
  }
  template <typename... Args>
  Status Error(const Args&... args) const {
    return InvalidArgument(Where(text_, pos_, path_), ": ", args...);
  }
  template <typename... Args>
  Status UnimplementedAt(size_t at, const Args&... args) const {
    return Unimplemented(Where(text_, at, path_), ": ", args...);
  }

  // A type: tensor<DIMSxELEMENT[, encoding]>; anything else (tokens,
  // tuples, dynamic dimensions) is UNIMPLEMENTED.
  StatusOr<ArgumentSpec> TensorType() {
    SkipSpace();
    const size_t start = pos_;
    if (!Consume("tensor<")) {
      size_t end = start;
      while (end < masked_.size() && !std::isspace(static_cast<unsigned char>(masked_[end])) &&
             masked_[end] != ',' && masked_[end] != ')' && masked_[end] != '{') {
        ++end;
      }
      return UnimplementedAt(start, "plugrt bench feeds only tensor arguments; this one is ",
                             text_.substr(start, end - start));
    }
    const size_t body = pos_;
    int depth = 1;
    size_t encoding = std::string_view::npos;
    for (; !AtEnd() && depth > 0; ++pos_) {
      char c = masked_[pos_];
      if (c == '<') ++depth;
      if (c == '>') --depth;
      if (c == ',' && depth == 1 && encoding == std::string_view::npos) encoding = pos_;
    }
    if (depth != 0) return InvalidArgument(Where(text_, start, path_), ": unterminated tensor type");
    const size_t body_end = (encoding != std::string_view::npos ? encoding : pos_ - 1);
    std::string_view contents = text_.substr(body, body_end - body);
    ArgumentSpec spec;
    size_t i = 0;
    while (i < contents.size()) {
      if (contents[i] == '?') {
        return UnimplementedAt(start, "plugrt bench feeds only static shapes; this argument is ",
                               text_.substr(start, pos_ - start));
      }
      if (!std::isdigit(static_cast<unsigned char>(contents[i]))) break;
      size_t digits = i;
      while (digits < contents.size() && std::isdigit(static_cast<unsigned char>(contents[digits]))) {
        ++digits;
      }
      if (digits >= contents.size() || contents[digits] != 'x') break;
      int64_t dim = 0;
      std::from_chars(contents.data() + i, contents.data() + digits, dim);
      spec.dims.push_back(dim);
      i = digits + 1;
    }
    std::string_view element = contents.substr(i);
    while (!element.empty() && std::isspace(static_cast<unsigned char>(element.back()))) {
      element.remove_suffix(1);
    }
    StatusOr<PJRT_Buffer_Type> type = ElementTypeOfMlirName(element);
    if (!type.ok()) {
      return UnimplementedAt(start, "element type '", element, "' of ",
                             text_.substr(start, pos_ - start), " is not one plugrt bench feeds");
    }
    spec.type = *type;
    return spec;
  }

 private:
  // MLIR element type names -> PJRT types: i1 -> pred, iN/siN -> sN,
  // uiN -> uN, complex<f32> -> c64, the float names as they are.
  static StatusOr<PJRT_Buffer_Type> ElementTypeOfMlirName(std::string_view name) {
    if (name == "i1") return PJRT_Buffer_Type_PRED;
    if (name == "complex<f32>") return PJRT_Buffer_Type_C64;
    if (name == "complex<f64>") return PJRT_Buffer_Type_C128;
    std::string pjrt(name);
    if (name.substr(0, 2) == "ui") {
      pjrt = "u" + std::string(name.substr(2));
    } else if (name.substr(0, 2) == "si") {
      pjrt = "s" + std::string(name.substr(2));
    } else if (!name.empty() && name[0] == 'i') {
      pjrt = "s" + std::string(name.substr(1));
    }
    if (pjrt == "token" || pjrt == "invalid") return InvalidArgument("not an array type");
    return ParseElementType(pjrt);
  }

  std::string_view text_;
  std::string_view masked_;
  const std::string& path_;
  size_t pos_;
};

// The argument list of a pretty-printed `func.func [visibility] @name(` whose
// "(" the scanner is on: `%x: type {attrs} loc(...), ...)`.
StatusOr<std::vector<ArgumentSpec>> PrettyArguments(Scanner& scan) {
  std::vector<ArgumentSpec> arguments;
  if (!scan.Consume("(")) return scan.Error("expected '(' after the function name");
  if (scan.Consume(")")) return arguments;
  while (true) {
    if (!scan.Consume("%")) return scan.Error("expected an argument name (%name)");
    scan.Identifier();
    if (!scan.Consume(":")) return scan.Error("expected ':' after the argument name");
    PLUGRT_ASSIGN_OR_RETURN(ArgumentSpec spec, scan.TensorType());
    arguments.push_back(std::move(spec));
    scan.SkipSpace();
    if (scan.Peek() == '{') PLUGRT_RETURN_IF_ERROR(scan.SkipBalanced('{', '}'));
    if (scan.Consume("loc")) PLUGRT_RETURN_IF_ERROR(scan.SkipBalanced('(', ')'));
    if (scan.Consume(")")) return arguments;
    if (!scan.Consume(",")) return scan.Error("expected ',' or ')' in the argument list");
  }
}

// `(type, type, ...)` of a function_type.
StatusOr<std::vector<ArgumentSpec>> TypeList(Scanner& scan) {
  std::vector<ArgumentSpec> arguments;
  if (!scan.Consume("(")) return scan.Error("expected '(' to start function_type");
  if (scan.Consume(")")) return arguments;
  while (true) {
    PLUGRT_ASSIGN_OR_RETURN(ArgumentSpec spec, scan.TensorType());
    arguments.push_back(std::move(spec));
    if (scan.Consume(")")) return arguments;
    if (!scan.Consume(",")) return scan.Error("expected ',' or ')' in function_type");
  }
}

// Within the attribute or property dictionary [begin, end) of a generic
// "func.func": whether sym_name is "main", and if so its argument types.
StatusOr<std::optional<std::vector<ArgumentSpec>>> GenericDictionary(
    std::string_view text, std::string_view masked, const std::string& path, size_t begin,
    size_t end) {
  std::string_view dict = masked.substr(begin, end - begin);
  auto key_value = [&](std::string_view key) -> std::optional<Scanner> {
    for (size_t at = dict.find(key); at != std::string_view::npos; at = dict.find(key, at + 1)) {
      if (at > 0 && IsIdentifierChar(dict[at - 1])) continue;
      Scanner scan(text, masked, path, begin + at + key.size());
      if (scan.Consume("=")) return scan;
    }
    return std::nullopt;
  };
  std::optional<Scanner> name = key_value("sym_name");
  if (!name) return std::optional<std::vector<ArgumentSpec>>();
  std::optional<std::string_view> symbol = name->StringLiteral();
  if (!symbol || *symbol != "main") return std::optional<std::vector<ArgumentSpec>>();
  std::optional<Scanner> type = key_value("function_type");
  if (!type) {
    return InvalidArgument(Where(text, begin, path), ": @main has no function_type");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<ArgumentSpec> arguments, TypeList(*type));
  return std::optional<std::vector<ArgumentSpec>>(std::move(arguments));
}

}  // namespace

std::string_view BenchKindName(BenchKind kind) {
  switch (kind) {
    case BenchKind::kExecute: return "execute";
    case BenchKind::kDispatch: return "dispatch";
    case BenchKind::kCompile: return "compile";
  }
  return "unknown";
}

std::string_view BenchMetricName(BenchMetric metric) {
  return metric == BenchMetric::kFlops ? "flops" : "bytes";
}

StatusOr<BenchHeader> ParseBenchHeader(std::string_view text, const std::string& path) {
  BenchHeader header;
  size_t line_end = text.find('\n');
  std::string_view first = text.substr(0, line_end);
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  if (first.substr(0, kBenchHeaderPrefix.size()) != kBenchHeaderPrefix) return header;

  bool has_iterations = false;
  size_t i = kBenchHeaderPrefix.size();
  while (i < first.size()) {
    while (i < first.size() && std::isspace(static_cast<unsigned char>(first[i]))) ++i;
    if (i >= first.size()) break;
    const size_t start = i;
    while (i < first.size() && !std::isspace(static_cast<unsigned char>(first[i]))) ++i;
    std::string_view item = first.substr(start, i - start);
    const std::string where = Where(text, start, path);
    size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return InvalidArgument(where, ": expected key=value in the plugrt-bench header, got '",
                             item, "'");
    }
    std::string_view key = item.substr(0, equals);
    std::string_view value = item.substr(equals + 1);
    if (key == "kind") {
      if (value == "execute") {
        header.kind = BenchKind::kExecute;
      } else if (value == "dispatch") {
        header.kind = BenchKind::kDispatch;
      } else if (value == "compile") {
        header.kind = BenchKind::kCompile;
      } else {
        return InvalidArgument(where, ": unknown kind '", value,
                               "' (expected execute, dispatch or compile)");
      }
    } else if (key == "iterations") {
      int64_t count = 0;
      auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (error != std::errc() || end != value.data() + value.size() || count < 1) {
        return InvalidArgument(where, ": iterations must be a positive integer, got '", value, "'");
      }
      header.iterations = count;
      has_iterations = true;
    } else if (key == "metric") {
      if (value == "flops") {
        header.metric = BenchMetric::kFlops;
      } else if (value == "bytes") {
        header.metric = BenchMetric::kBytes;
      } else {
        return InvalidArgument(where, ": unknown metric '", value, "' (expected flops or bytes)");
      }
    } else if (key == "ceiling") {
      header.ceiling = ParseCeilingKind(value);
      if (!header.ceiling) {
        return InvalidArgument(where, ": unknown ceiling '", value,
                               "' (expected sgemm, bf16gemm or bandwidth)");
      }
    } else {
      return InvalidArgument(where, ": unknown key '", key,
                             "' in the plugrt-bench header (expected kind, iterations, metric, "
                             "ceiling)");
    }
  }
  if (header.kind == BenchKind::kDispatch && !has_iterations) {
    return InvalidArgument(Where(text, 0, path), ": kind=dispatch needs iterations=N");
  }
  if (header.kind != BenchKind::kDispatch && has_iterations) {
    return InvalidArgument(Where(text, 0, path), ": iterations applies to kind=dispatch only");
  }

  // The description: the comment lines right after the header.
  size_t pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    size_t first_char = line.find_first_not_of(" \t");
    if (first_char == std::string_view::npos || line.substr(first_char, 2) != "//") break;
    std::string_view words = line.substr(first_char + 2);
    while (!words.empty() && std::isspace(static_cast<unsigned char>(words.front()))) {
      words.remove_prefix(1);
    }
    while (!words.empty() && std::isspace(static_cast<unsigned char>(words.back()))) {
      words.remove_suffix(1);
    }
    if (!words.empty()) {
      if (!header.description.empty()) header.description += ' ';
      header.description += words;
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return header;
}

StatusOr<std::vector<ArgumentSpec>> ReadMainArguments(std::string_view text,
                                                      const std::string& path) {
  const std::string masked = MaskCommentsAndStrings(text);
  std::string_view view = masked;

  // Pretty form: func.func [public|private|nested] @main(...).
  static constexpr std::string_view kPretty = "func.func";
  for (size_t at = view.find(kPretty); at != std::string_view::npos;
       at = view.find(kPretty, at + 1)) {
    if (at > 0 && (IsIdentifierChar(view[at - 1]) || view[at - 1] == '"')) continue;
    Scanner scan(text, view, path, at + kPretty.size());
    if (!std::isspace(static_cast<unsigned char>(scan.Peek()))) continue;
    if (!scan.Consume("@")) {
      std::string_view visibility = scan.Identifier();
      if (visibility != "public" && visibility != "private" && visibility != "nested") continue;
      if (!scan.Consume("@")) continue;
    }
    std::string_view name;
    if (std::optional<std::string_view> quoted = scan.StringLiteral()) {
      name = *quoted;
    } else {
      name = scan.Identifier();
    }
    if (name != "main") continue;
    return PrettyArguments(scan);
  }

  // Generic form: "func.func"() <{function_type = (...) -> ..., sym_name = "main"}> ({...}),
  // or with an attribute dictionary after the regions.
  static constexpr std::string_view kGeneric = "\"func.func\"";
  for (size_t at = text.find(kGeneric); at != std::string_view::npos;
       at = text.find(kGeneric, at + 1)) {
    if (view[at] != '"' || view[at + 1] != ' ') continue;  // inside a comment or string
    Scanner scan(text, view, path, at + kGeneric.size());
    if (scan.SkipBalanced('(', ')').ok() == false) continue;
    scan.SkipSpace();
    size_t dict_begin = 0, dict_end = 0;
    if (scan.Consume("<")) {
      dict_begin = scan.pos();
      PLUGRT_RETURN_IF_ERROR(scan.SkipBalanced('{', '}'));
      dict_end = scan.pos();
    } else {
      scan.SkipSpace();
      if (scan.Peek() == '(') PLUGRT_RETURN_IF_ERROR(scan.SkipBalanced('(', ')'));
      scan.SkipSpace();
      if (scan.Peek() != '{') continue;
      dict_begin = scan.pos();
      PLUGRT_RETURN_IF_ERROR(scan.SkipBalanced('{', '}'));
      dict_end = scan.pos();
    }
    PLUGRT_ASSIGN_OR_RETURN(std::optional<std::vector<ArgumentSpec>> arguments,
                            GenericDictionary(text, view, path, dict_begin, dict_end));
    if (arguments) return std::move(*arguments);
  }
  return NotFound(path, ": no function @main");
}

namespace {

// SplitMix64: a small, fast generator whose output depends only on the seed.
class Generator {
 public:
  explicit Generator(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1): 24 random bits, exact in float.
  float NextFloat() { return static_cast<float>(Next() >> 40) * 0x1p-23f - 1.0f; }
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1p-52 - 1.0; }

 private:
  uint64_t state_;
};

uint16_t Bf16FromFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

uint16_t HalfFromFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return sign | 0x7E00;   // NaN
  if (magnitude >= 0x477FF000u) return sign | 0x7C00;  // rounds to infinity (>= 65520)
  if (magnitude < 0x38800000u) {                       // below 2^-14: subnormal half
    float scaled = std::fabs(value) * 0x1p24f;          // exact; units of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t half = (magnitude >> 13) - ((127u - 15u) << 10);
  const uint32_t rest = magnitude & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return sign | static_cast<uint16_t>(half);
}

template <typename T>
void Store(std::byte* data, size_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

StatusOr<std::vector<std::byte>> RandomArgumentData(const ArgumentSpec& spec, uint64_t seed) {
  const int64_t count = ElementCount(spec.dims);
  const int64_t element_bytes = HostElementByteSize(spec.type);
  if (element_bytes == 0 || spec.type == PJRT_Buffer_Type_TOKEN) {
    return Unimplemented("cannot make inputs of element type ", ElementTypeName(spec.type));
  }
  std::vector<std::byte> data(static_cast<size_t>(count * element_bytes));
  Generator generator(seed);
  std::byte* out = data.data();
  const size_t n = static_cast<size_t>(count);
  const int bits = ElementBitWidth(spec.type);
  switch (spec.type) {
    case PJRT_Buffer_Type_F32:
      for (size_t i = 0; i < n; ++i) Store(out, i, generator.NextFloat());
      return data;
    case PJRT_Buffer_Type_F64:
      for (size_t i = 0; i < n; ++i) Store(out, i, generator.NextDouble());
      return data;
    case PJRT_Buffer_Type_BF16:
      for (size_t i = 0; i < n; ++i) Store(out, i, Bf16FromFloat(generator.NextFloat()));
      return data;
    case PJRT_Buffer_Type_F16:
      for (size_t i = 0; i < n; ++i) Store(out, i, HalfFromFloat(generator.NextFloat()));
      return data;
    case PJRT_Buffer_Type_C64:
      for (size_t i = 0; i < 2 * n; ++i) Store(out, i, generator.NextFloat());
      return data;
    case PJRT_Buffer_Type_C128:
      for (size_t i = 0; i < 2 * n; ++i) Store(out, i, generator.NextDouble());
      return data;
    case PJRT_Buffer_Type_PRED:
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>(generator.Next() >> 63);
      return data;
    default:
      break;
  }
  const ElementKind kind = KindOf(spec.type);
  if (kind == ElementKind::kSigned || kind == ElementKind::kUnsigned) {
    // Small values: [-8, 8) signed, [0, 8) unsigned, or the type's own range
    // when narrower.
    const int64_t span = bits >= 4 ? 8 : (int64_t{1} << (bits - 1));
    const int64_t low = kind == ElementKind::kSigned ? -span : 0;
    const uint64_t width = static_cast<uint64_t>(kind == ElementKind::kSigned ? 2 * span : span);
    for (size_t i = 0; i < n; ++i) {
      const int64_t value = low + static_cast<int64_t>(generator.Next() % width);
      // Little-endian two's complement: the low element_bytes bytes.
      const uint64_t raw = static_cast<uint64_t>(value);
      for (int64_t b = 0; b < element_bytes; ++b) {
        out[i * element_bytes + b] = static_cast<std::byte>((raw >> (8 * b)) & 0xFF);
      }
    }
    return data;
  }
  return Unimplemented("cannot make inputs of element type ", ElementTypeName(spec.type),
                       " (plugrt bench feeds floats, f16, bf16, complex, integers and pred)");
}

}  // namespace plugrt::tools
