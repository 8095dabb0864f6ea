#include "client/named_value_c.h"

#include <string>

#include "client/api_call.h"

namespace plugrt::internal {

StatusOr<std::vector<NamedValue>> NamedValuesFromC(const PJRT_NamedValue* values, size_t count) {
  std::vector<NamedValue> out;
  if (count == 0) return out;
  if (values == nullptr) {
    return InvalidArgument("plugin returned ", count, " named values but a null array");
  }
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& v = values[i];
    NamedValue value;
    value.name = StringFromC(v.name, v.name_size);
    switch (v.type) {
      case PJRT_NamedValue_kString:
        if (v.string_value == nullptr && v.value_size != 0) {
          return InvalidArgument("named value '", value.name, "': null string");
        }
        value.value = StringFromC(v.string_value, v.value_size);
        break;
      case PJRT_NamedValue_kInt64:
        value.value = v.int64_value;
        break;
      case PJRT_NamedValue_kInt64List:
        if (v.int64_array_value == nullptr && v.value_size != 0) {
          return InvalidArgument("named value '", value.name, "': null int64 list");
        }
        value.value = v.value_size == 0
                          ? std::vector<int64_t>()
                          : std::vector<int64_t>(v.int64_array_value,
                                                 v.int64_array_value + v.value_size);
        break;
      case PJRT_NamedValue_kFloat:
        value.value = v.float_value;
        break;
      case PJRT_NamedValue_kBool:
        value.value = v.bool_value;
        break;
      default:
        return InvalidArgument("named value '", value.name, "' has unknown type ",
                               static_cast<int>(v.type));
    }
    out.push_back(std::move(value));
  }
  return out;
}

namespace {
struct ToC {
  PJRT_NamedValue& c;
  void operator()(const std::string& s) const {
    c.type = PJRT_NamedValue_kString;
    c.string_value = s.c_str();
    c.value_size = s.size();
  }
  void operator()(int64_t v) const {
    c.type = PJRT_NamedValue_kInt64;
    c.int64_value = v;
    c.value_size = 1;
  }
  void operator()(const std::vector<int64_t>& list) const {
    c.type = PJRT_NamedValue_kInt64List;
    c.int64_array_value = list.data();
    c.value_size = list.size();
  }
  void operator()(float v) const {
    c.type = PJRT_NamedValue_kFloat;
    c.float_value = v;
    c.value_size = 1;
  }
  void operator()(bool v) const {
    c.type = PJRT_NamedValue_kBool;
    c.bool_value = v;
    c.value_size = 1;
  }
};
}  // namespace

CNamedValues::CNamedValues(const std::vector<NamedValue>& values) {
  c_.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    PJRT_NamedValue& c = c_[i];
    std::memset(&c, 0, sizeof(c));
    c.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    c.name = values[i].name.c_str();
    c.name_size = values[i].name.size();
    std::visit(ToC{c}, values[i].value);
  }
}

}  // namespace plugrt::internal
