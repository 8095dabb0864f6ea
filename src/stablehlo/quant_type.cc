#include "stablehlo/quant_type.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

namespace plugrt::shlo {

bool UniformQuantParams::SameBaseline(const UniformQuantParams& other) const {
  return storage == other.storage && storage_min == other.storage_min &&
         storage_max == other.storage_max && expressed == other.expressed &&
         quantized_dimension == other.quantized_dimension;
}

bool operator==(const UniformQuantParams& a, const UniformQuantParams& b) {
  return a.SameBaseline(b) && a.scales == b.scales && a.zero_points == b.zero_points;
}

int64_t StorageTypeMin(ElementType storage) {
  if (IsUnsignedInteger(storage)) return 0;
  return -(int64_t{1} << (BitWidth(storage) - 1));
}

int64_t StorageTypeMax(ElementType storage) {
  if (IsUnsignedInteger(storage)) {
    return BitWidth(storage) >= 64 ? INT64_MAX : (int64_t{1} << BitWidth(storage)) - 1;
  }
  return (int64_t{1} << (BitWidth(storage) - 1)) - 1;
}

namespace {

std::string FormatScale(double scale) {
  char buf[64];
  // Shortest text that reads back as the same double.
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), scale);
  if (ec != std::errc()) return "nan";
  std::string text(buf, end);
  // MLIR reads a scale as a float literal: make sure it has a '.' or 'e'.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string StorageName(ElementType storage) {
  return StrCat(IsUnsignedInteger(storage) ? "u" : "i", BitWidth(storage));
}

// A cursor over the body text.
class BodyReader {
 public:
  explicit BodyReader(std::string_view text) : text_(text) {}
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  std::string_view Identifier() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }
  std::optional<int64_t> Integer() {
    SkipSpace();
    size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    int64_t value = 0;
    const char* first = text_.data() + start + (text_[start] == '+' ? 1 : 0);
    auto [ptr, ec] = std::from_chars(first, text_.data() + pos_, value);
    if (ec != std::errc() || ptr != text_.data() + pos_) {
      pos_ = start;
      return std::nullopt;
    }
    return value;
  }
  std::optional<double> Float() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
            text_[pos_] == '-' || text_[pos_] == '+')) {
      // A '-' or '+' belongs to the number only at its start or after 'e'.
      if ((text_[pos_] == '-' || text_[pos_] == '+') && pos_ != start &&
          text_[pos_ - 1] != 'e' && text_[pos_ - 1] != 'E') {
        break;
      }
      ++pos_;
    }
    double value = 0;
    auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    if (ec != std::errc() || ptr != text_.data() + pos_ || start == pos_) {
      pos_ = start;
      return std::nullopt;
    }
    return value;
  }
  size_t pos() const { return pos_; }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<ElementType> ParseStorageName(std::string_view name) {
  bool is_unsigned = false;
  std::string_view digits;
  if (name.substr(0, 2) == "ui" || name.substr(0, 2) == "si") {
    is_unsigned = name[0] == 'u';
    digits = name.substr(2);
  } else if (!name.empty() && (name[0] == 'i' || name[0] == 'u')) {
    is_unsigned = name[0] == 'u';
    digits = name.substr(1);
  } else {
    return std::nullopt;
  }
  int bits = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  switch (bits) {
    case 2: return is_unsigned ? ElementType::kUI2 : ElementType::kSI2;
    case 4: return is_unsigned ? ElementType::kUI4 : ElementType::kSI4;
    case 8: return is_unsigned ? ElementType::kUI8 : ElementType::kSI8;
    case 16: return is_unsigned ? ElementType::kUI16 : ElementType::kSI16;
    case 32: return is_unsigned ? ElementType::kUI32 : ElementType::kSI32;
    default: return std::nullopt;
  }
}

}  // namespace

std::string QuantParamsToString(const UniformQuantParams& p) {
  std::string out = "!quant.uniform<" + StorageName(p.storage);
  if (p.storage_min != StorageTypeMin(p.storage) || p.storage_max != StorageTypeMax(p.storage)) {
    out += StrCat("<", p.storage_min, ":", p.storage_max, ">");
  }
  out += StrCat(":", ElementTypeName(p.expressed));
  auto pair = [](double scale, int64_t zero_point) {
    std::string s = FormatScale(scale);
    if (zero_point != 0) s += StrCat(":", zero_point);
    return s;
  };
  if (p.per_axis()) {
    out += StrCat(":", p.quantized_dimension, ", {");
    for (size_t i = 0; i < p.scales.size(); ++i) {
      if (i > 0) out += ",";
      out += pair(p.scales[i], i < p.zero_points.size() ? p.zero_points[i] : 0);
    }
    out += "}";
  } else {
    out += ", " + pair(p.scales.empty() ? 0.0 : p.scales[0],
                       p.zero_points.empty() ? 0 : p.zero_points[0]);
  }
  return out + ">";
}

StatusOr<UniformQuantParams> ParseQuantParamsBody(std::string_view body, size_t* error_offset) {
  BodyReader r(body);
  auto fail = [&](auto&&... what) -> Status {
    if (error_offset != nullptr) *error_offset = r.pos();
    return InvalidArgument("!quant.uniform: ", what...);
  };
  UniformQuantParams p;
  std::string_view storage_name = r.Identifier();
  std::optional<ElementType> storage = ParseStorageName(storage_name);
  if (!storage) {
    return fail("expected a storage type i2/i4/i8/i16/i32 or u2..u32, found '", storage_name,
                "'");
  }
  p.storage = *storage;
  p.storage_min = StorageTypeMin(p.storage);
  p.storage_max = StorageTypeMax(p.storage);
  if (r.Consume('<')) {
    std::optional<int64_t> lo = r.Integer();
    if (!lo || !r.Consume(':')) return fail("expected '<min:max>' after the storage type");
    std::optional<int64_t> hi = r.Integer();
    if (!hi || !r.Consume('>')) return fail("expected '<min:max>' after the storage type");
    p.storage_min = *lo;
    p.storage_max = *hi;
  }
  if (!r.Consume(':')) return fail("expected ':' after the storage type");
  std::string_view expressed_name = r.Identifier();
  std::optional<ElementType> expressed = ParseElementTypeName(expressed_name);
  if (!expressed || !IsFloat(*expressed)) {
    return fail("expected a float expressed type, found '", expressed_name, "'");
  }
  p.expressed = *expressed;
  if (r.Consume(':')) {
    std::optional<int64_t> dim = r.Integer();
    if (!dim || *dim < 0) return fail("expected a quantized dimension >= 0");
    p.quantized_dimension = *dim;
  }
  if (!r.Consume(',')) return fail("expected ',' before the scale");
  auto read_pair = [&]() -> Status {
    std::optional<double> scale = r.Float();
    if (!scale) return fail("expected a scale");
    int64_t zero_point = 0;
    if (r.Consume(':')) {
      std::optional<int64_t> zp = r.Integer();
      if (!zp) return fail("expected an integer zero point after ':'");
      zero_point = *zp;
    }
    p.scales.push_back(*scale);
    p.zero_points.push_back(zero_point);
    return OkStatus();
  };
  if (p.per_axis()) {
    if (!r.Consume('{')) return fail("a per-axis type needs '{scale:zero_point, ...}'");
    while (true) {
      PLUGRT_RETURN_IF_ERROR(read_pair());
      if (r.Consume('}')) break;
      if (!r.Consume(',')) return fail("expected ',' or '}' in the scale list");
    }
  } else {
    if (r.Peek() == '{') return fail("'{...}' scales need a quantized dimension (':N')");
    PLUGRT_RETURN_IF_ERROR(read_pair());
  }
  if (!r.AtEnd()) return fail("unexpected text after the scales");
  std::string why = CheckQuantParams(p);
  if (!why.empty()) return fail(why);
  return p;
}

std::string CheckQuantParams(const UniformQuantParams& p) {
  if (!IsInteger(p.storage) || BitWidth(p.storage) > 32) {
    return StrCat("storage type ", ElementTypeName(p.storage), " is not an integer of 2 to 32 bits");
  }
  if (p.storage_min < StorageTypeMin(p.storage) || p.storage_max > StorageTypeMax(p.storage) ||
      p.storage_min >= p.storage_max) {
    return StrCat("storage range [", p.storage_min, ", ", p.storage_max, "] is not inside [",
                  StorageTypeMin(p.storage), ", ", StorageTypeMax(p.storage), "] of ",
                  StorageName(p.storage), " (or min >= max)");
  }
  if (!IsFloat(p.expressed)) {
    return StrCat("expressed type ", ElementTypeName(p.expressed), " is not a float type");
  }
  if (p.scales.empty() || p.scales.size() != p.zero_points.size()) {
    return "needs one zero point per scale";
  }
  for (double scale : p.scales) {
    if (!(scale > 0) || !std::isfinite(scale)) {
      return StrCat("scale ", FormatScale(scale), " is not positive and finite");
    }
  }
  for (int64_t zp : p.zero_points) {
    if (zp < p.storage_min || zp > p.storage_max) {
      return StrCat("zero point ", zp, " is outside the storage range [", p.storage_min, ", ",
                    p.storage_max, "]");
    }
  }
  if (!p.per_axis() && p.scales.size() != 1) return "a per-tensor type has one scale";
  return "";
}

}  // namespace plugrt::shlo
