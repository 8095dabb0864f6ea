#include "common/named_value.h"

#include <sstream>

namespace plugrt {

const NamedValue* FindNamedValue(const std::vector<NamedValue>& values, std::string_view name) {
  for (const NamedValue& value : values) {
    if (value.name == name) return &value;
  }
  return nullptr;
}

namespace {
struct Printer {
  std::ostringstream& out;
  void operator()(const std::string& s) const { out << '"' << s << '"'; }
  void operator()(int64_t v) const { out << v; }
  void operator()(const std::vector<int64_t>& list) const {
    out << '[';
    for (size_t i = 0; i < list.size(); ++i) out << (i ? ", " : "") << list[i];
    out << ']';
  }
  void operator()(float v) const { out << v; }
  void operator()(bool v) const { out << (v ? "true" : "false"); }
};
}  // namespace

std::string NamedValueToString(const NamedValue& value) {
  std::ostringstream out;
  out << value.name << '=';
  std::visit(Printer{out}, value.value);
  return out.str();
}

}  // namespace plugrt
