#include "eager/value_summary.h"

#include <sstream>

#include "client/element_decode.h"
#include "common/element_type.h"

namespace plugrt::eager {

namespace {

void AppendElement(std::ostringstream& out, PJRT_Buffer_Type type, const std::byte* data,
                   size_t index) {
  switch (KindOf(type)) {
    case ElementKind::kBool:
      out << (ReadUnsigned(type, data, index) != 0 ? "true" : "false");
      break;
    case ElementKind::kSigned:
      out << ReadSigned(type, data, index);
      break;
    case ElementKind::kUnsigned:
      out << ReadUnsigned(type, data, index);
      break;
    case ElementKind::kFloat:
      out << ReadFloat(type, data, index);
      break;
    case ElementKind::kComplex: {
      double re = 0, im = 0;
      ReadComplex(type, data, index, re, im);
      out << "(" << re << (im < 0 ? "" : "+") << im << "j)";
      break;
    }
    default:
      out << "?";
  }
}

}  // namespace

std::string DenseValueSummary(const TensorType& type, const std::byte* data, size_t size) {
  const int64_t count = ElementCount(type.dims);
  const int64_t needed = HostByteSize(type.type, type.dims);
  if (count < 0 || needed < 0 || static_cast<size_t>(needed) > size || data == nullptr) {
    return "<" + std::to_string(size) + " bytes, too few for " + ShortTypeText(type) + ">";
  }
  std::ostringstream out;
  if (type.dims.empty()) {
    AppendElement(out, type.type, data, 0);
    return out.str();
  }
  out << "[";
  const size_t shown = std::min<size_t>(static_cast<size_t>(count), kSummaryElements);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out << ", ";
    AppendElement(out, type.type, data, i);
  }
  if (static_cast<size_t>(count) > shown) out << ", ... (" << count << " values)";
  out << "]";
  return out.str();
}

std::string StringSummary(std::string_view text) {
  if (text.size() <= kSummaryChars) return "\"" + std::string(text) + "\"";
  const size_t half = kSummaryChars / 2;
  return "\"" + std::string(text.substr(0, half)) + "..." +
         std::string(text.substr(text.size() - half)) + "\" (" + std::to_string(text.size()) +
         " chars)";
}

}  // namespace plugrt::eager
