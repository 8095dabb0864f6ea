#include "tools/array_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "common/element_type.h"
#include "client/element_decode.h"

namespace plugrt::tools {
namespace {

// NumPy's print defaults.
constexpr int kPrecision = 8;
constexpr size_t kLineWidth = 75;
constexpr int64_t kSummaryThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

// A float split the way NumPy pads it: integer part, fraction digits and
// exponent aligned separately across the array.
struct FloatText {
  std::string special;  // "nan", "inf", "-inf": printed as is
  std::string whole;    // with its sign
  std::string fraction;
  std::string exponent;  // digits only; exponent mode
  char exponent_sign = '+';
};

// Shortest decimal text that reads back as the same value in the element's
// own precision (float for f32 and narrower, double for f64).
std::string Shortest(double value, bool is_double, std::chars_format format, int precision = -1) {
  char buffer[512];
  std::to_chars_result result;
  if (is_double) {
    result = precision < 0 ? std::to_chars(buffer, buffer + sizeof(buffer), value, format)
                           : std::to_chars(buffer, buffer + sizeof(buffer), value, format,
                                           precision);
  } else {
    float f = static_cast<float>(value);
    result = precision < 0 ? std::to_chars(buffer, buffer + sizeof(buffer), f, format)
                           : std::to_chars(buffer, buffer + sizeof(buffer), f, format, precision);
  }
  return std::string(buffer, result.ptr);
}

void StripTrailingZeros(std::string& digits) {
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
}

FloatText SplitFloat(double value, bool is_double, bool exponent_mode) {
  FloatText text;
  if (std::isnan(value)) {
    text.special = "nan";
    return text;
  }
  if (std::isinf(value)) {
    text.special = value < 0 ? "-inf" : "inf";
    return text;
  }
  std::string mantissa;
  if (exponent_mode) {
    std::string s = Shortest(value, is_double, std::chars_format::scientific);
    size_t e = s.find('e');
    mantissa = s.substr(0, e);
    size_t point = mantissa.find('.');
    if (point != std::string::npos && mantissa.size() - point - 1 > kPrecision) {
      s = Shortest(value, is_double, std::chars_format::scientific, kPrecision);
      e = s.find('e');
      mantissa = s.substr(0, e);
    }
    text.exponent_sign = s[e + 1];
    text.exponent = s.substr(e + 2);
    // At least two exponent digits, no more leading zeros than that.
    while (text.exponent.size() > 2 && text.exponent[0] == '0') text.exponent.erase(0, 1);
  } else {
    mantissa = Shortest(value, is_double, std::chars_format::fixed);
    size_t point = mantissa.find('.');
    if (point != std::string::npos && mantissa.size() - point - 1 > kPrecision) {
      mantissa = Shortest(value, is_double, std::chars_format::fixed, kPrecision);
    }
  }
  size_t point = mantissa.find('.');
  text.whole = mantissa.substr(0, point);
  if (point != std::string::npos) {
    text.fraction = mantissa.substr(point + 1);
    StripTrailingZeros(text.fraction);
  }
  return text;
}

// Formats a column of floats with shared padding. `force_sign` puts '+'
// before non-negative values (imaginary parts).
std::vector<std::string> FormatFloats(const std::vector<double>& values, bool is_double,
                                      bool force_sign) {
  double max_abs = 0, min_abs = 0;
  bool any = false;
  for (double v : values) {
    if (!std::isfinite(v) || v == 0) continue;
    double a = std::fabs(v);
    if (!any) max_abs = min_abs = a;
    max_abs = std::max(max_abs, a);
    min_abs = std::min(min_abs, a);
    any = true;
  }
  const bool exponent_mode =
      any && (max_abs >= 1e8 || min_abs < 1e-4 || max_abs / min_abs > 1e3);
  std::vector<FloatText> texts;
  size_t whole_width = 0, fraction_width = 0, exponent_width = 0;
  for (double v : values) {
    FloatText t = SplitFloat(v, is_double, exponent_mode);
    if (force_sign && t.special.empty() && t.whole[0] != '-') t.whole.insert(0, "+");
    if (force_sign && t.special == "nan") t.special = "+nan";
    if (force_sign && t.special == "inf") t.special = "+inf";
    if (t.special.empty()) {
      whole_width = std::max(whole_width, t.whole.size());
      fraction_width = std::max(fraction_width, t.fraction.size());
      exponent_width = std::max(exponent_width, t.exponent.size());
    }
    texts.push_back(std::move(t));
  }
  std::vector<std::string> out;
  size_t width = 0;
  for (const FloatText& t : texts) {
    std::string s;
    if (t.special.empty()) {
      s.append(whole_width - t.whole.size(), ' ');
      s += t.whole;
      s += '.';
      s += t.fraction;
      if (exponent_mode) {
        s.append(fraction_width - t.fraction.size(), '0');
        s += 'e';
        s += t.exponent_sign;
        s.append(exponent_width - t.exponent.size(), '0');
        s += t.exponent;
      } else {
        s.append(fraction_width - t.fraction.size(), ' ');
      }
    } else {
      s = t.special;
    }
    width = std::max(width, s.size());
    out.push_back(std::move(s));
  }
  for (std::string& s : out) s.insert(0, width - s.size(), ' ');
  return out;
}

std::vector<std::string> RightAlign(std::vector<std::string> items) {
  size_t width = 0;
  for (const std::string& s : items) width = std::max(width, s.size());
  for (std::string& s : items) s.insert(0, width - s.size(), ' ');
  return items;
}

// The elements that are shown: all of them, or the edges of each axis for
// a summarised array.
class Printer {
 public:
  Printer(PJRT_Buffer_Type type, const std::vector<int64_t>& dims, const std::byte* data)
      : type_(type), dims_(dims), data_(data), strides_(dims.size(), 1) {
    for (size_t i = dims.size(); i-- > 1;) strides_[i - 1] = strides_[i] * dims[i];
    summarise_ = ElementCount(dims) > kSummaryThreshold;
  }

  std::string Print() {
    Collect(0, 0);
    FormatShown();
    if (dims_.empty()) return text_.at(0);
    return Nest(0, 0, std::string(6, ' '));  // under "array("
  }

 private:
  bool Elided(size_t axis) const { return summarise_ && dims_[axis] > 2 * kEdgeItems; }

  template <typename Fn>
  void ForShown(size_t axis, Fn&& fn) const {
    const int64_t n = dims_[axis];
    if (!Elided(axis)) {
      for (int64_t i = 0; i < n; ++i) fn(i);
      return;
    }
    for (int64_t i = 0; i < kEdgeItems; ++i) fn(i);
    fn(-1);  // the "..." marker
    for (int64_t i = n - kEdgeItems; i < n; ++i) fn(i);
  }

  void Collect(size_t axis, int64_t offset) {
    if (axis == dims_.size()) {
      shown_.push_back(offset);
      return;
    }
    ForShown(axis, [&](int64_t i) {
      if (i >= 0) Collect(axis + 1, offset + i * strides_[axis]);
    });
  }

  void FormatShown() {
    std::vector<std::string> items;
    switch (KindOf(type_)) {
      case ElementKind::kBool:
        for (int64_t at : shown_) {
          items.push_back(data_[at] != std::byte{0} ? "True" : "False");
        }
        items = RightAlign(std::move(items));
        break;
      case ElementKind::kSigned:
        for (int64_t at : shown_) items.push_back(std::to_string(ReadSigned(type_, data_, at)));
        items = RightAlign(std::move(items));
        break;
      case ElementKind::kUnsigned:
        for (int64_t at : shown_) {
          items.push_back(std::to_string(ReadUnsigned(type_, data_, at)));
        }
        items = RightAlign(std::move(items));
        break;
      case ElementKind::kFloat: {
        std::vector<double> values;
        for (int64_t at : shown_) values.push_back(ReadFloat(type_, data_, at));
        items = FormatFloats(values, type_ == PJRT_Buffer_Type_F64, false);
        break;
      }
      case ElementKind::kComplex: {
        std::vector<double> re, im;
        for (int64_t at : shown_) {
          double r, i;
          ReadComplex(type_, data_, at, r, i);
          re.push_back(r);
          im.push_back(i);
        }
        const bool is_double = type_ == PJRT_Buffer_Type_C128;
        std::vector<std::string> real = FormatFloats(re, is_double, false);
        std::vector<std::string> imag = FormatFloats(im, is_double, true);
        for (size_t k = 0; k < real.size(); ++k) items.push_back(real[k] + imag[k] + "j");
        break;
      }
      case ElementKind::kNone:
        for (size_t k = 0; k < shown_.size(); ++k) items.push_back("?");
        break;
    }
    for (size_t k = 0; k < shown_.size(); ++k) text_[shown_[k]] = std::move(items[k]);
  }

  // The sub-array at `axis` starting at flat `offset`, its '[' in the
  // column after `indent`.
  std::string Nest(size_t axis, int64_t offset, const std::string& indent) const {
    std::string out = "[";
    if (axis + 1 == dims_.size()) {
      size_t line = indent.size() + 1;
      bool first = true;
      const int64_t last = dims_[axis] - 1;
      ForShown(axis, [&](int64_t i) {
        std::string word = i < 0 ? "..." : text_.at(offset + i * strides_[axis]);
        if (i != last) word += ',';
        if (!first) {
          // Room for the word and a closing bracket.
          if (line + 1 + word.size() + 1 > kLineWidth) {
            out += '\n';
            out += indent;
            out += ' ';
            line = indent.size() + 1;
          } else {
            out += ' ';
            ++line;
          }
        }
        out += word;
        line += word.size();
        first = false;
      });
      return out + "]";
    }
    const std::string separator =
        ",\n" + std::string(dims_.size() - axis - 2, '\n') + indent + " ";
    bool first = true;
    ForShown(axis, [&](int64_t i) {
      if (!first) out += separator;
      out += i < 0 ? "..." : Nest(axis + 1, offset + i * strides_[axis], indent + " ");
      first = false;
    });
    return out + "]";
  }

  PJRT_Buffer_Type type_;
  const std::vector<int64_t>& dims_;
  const std::byte* data_;
  std::vector<int64_t> strides_;
  bool summarise_ = false;
  std::vector<int64_t> shown_;
  std::unordered_map<int64_t, std::string> text_;
};

bool DefaultNumpyType(PJRT_Buffer_Type type) {
  return type == PJRT_Buffer_Type_F64 || type == PJRT_Buffer_Type_S64 ||
         type == PJRT_Buffer_Type_PRED || type == PJRT_Buffer_Type_C128;
}

std::string TupleString(const std::vector<int64_t>& dims) {
  std::ostringstream out;
  out << '(';
  for (size_t i = 0; i < dims.size(); ++i) out << (i ? ", " : "") << dims[i];
  out << (dims.size() == 1 ? ",)" : ")");
  return out.str();
}

}  // namespace

StatusOr<std::string> FormatArray(PJRT_Buffer_Type type, const std::vector<int64_t>& dims,
                                  const std::byte* data, size_t size) {
  for (int64_t dim : dims) {
    if (dim < 0) return InvalidArgument("cannot print an array with negative dimension ", dim);
  }
  const int64_t count = ElementCount(dims);
  const int64_t element_size = HostElementByteSize(type);
  if (element_size == 0) {
    return InvalidArgument("cannot print elements of type ", ElementTypeName(type));
  }
  if (static_cast<uint64_t>(count) * element_size != size) {
    return InvalidArgument("array data is ", size, " bytes but ", ShapeString(type, dims),
                           " needs ", count * element_size);
  }
  const std::string dtype = "dtype=" + std::string(NumpyTypeName(type));
  if (count == 0) {
    if (dims.size() == 1) return "array([], " + dtype + ")";
    return "array([], shape=" + TupleString(dims) + ", " + dtype + ")";
  }
  std::string body = Printer(type, dims, data).Print();
  return "array(" + body + (DefaultNumpyType(type) ? "" : ", " + dtype) + ")";
}

std::string ShapeString(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
  std::ostringstream out;
  out << ElementTypeName(type) << '[';
  for (size_t i = 0; i < dims.size(); ++i) out << (i ? "," : "") << dims[i];
  out << ']';
  return out.str();
}

}  // namespace plugrt::tools
