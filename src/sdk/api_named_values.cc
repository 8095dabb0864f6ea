#include "sdk/api_named_values.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "sdk/api_args.h"

namespace plugrt::sdk {

namespace {
// Points one C struct at the data of one owned attribute.
struct FillValue {
  PJRT_NamedValue& out;
  void operator()(const std::string& s) const {
    out.type = PJRT_NamedValue_kString;
    out.string_value = s.c_str();
    out.value_size = s.size();
  }
  void operator()(int64_t v) const {
    out.type = PJRT_NamedValue_kInt64;
    out.int64_value = v;
    out.value_size = 1;
  }
  void operator()(const std::vector<int64_t>& list) const {
    out.type = PJRT_NamedValue_kInt64List;
    out.int64_array_value = list.data();
    out.value_size = list.size();
  }
  void operator()(float v) const {
    out.type = PJRT_NamedValue_kFloat;
    out.float_value = v;
    out.value_size = 1;
  }
  void operator()(bool v) const {
    out.type = PJRT_NamedValue_kBool;
    out.bool_value = v;
    out.value_size = 1;
  }
};
}  // namespace

NamedValueArray::NamedValueArray(Attributes values) : values_(std::move(values)) {
  c_values_.resize(values_.size());
  for (size_t i = 0; i < values_.size(); ++i) {
    PJRT_NamedValue& out = c_values_[i];
    std::memset(&out, 0, sizeof(out));
    out.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    out.name = values_[i].name.c_str();
    out.name_size = values_[i].name.size();
    std::visit(FillValue{out}, values_[i].value);
  }
}

StatusOr<Attributes> AttributesFromC(const PJRT_NamedValue* values, size_t count,
                                     const char* fn, const char* field) {
  Attributes result;
  if (count == 0) return result;
  if (values == nullptr) {
    return InvalidArgument(fn, ": ", field, " is null but its count is ", count);
  }
  result.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const std::string where = StrCat(field, "[", i, "]");
    PLUGRT_ASSIGN_OR_RETURN(PJRT_NamedValue value, ReadNested(&values[i], fn, where.c_str()));
    if (value.name == nullptr && value.name_size > 0) {
      return InvalidArgument(fn, ": ", where, ".name is null");
    }
    Attribute attribute;
    attribute.name.assign(value.name ? value.name : "", value.name_size);
    const int64_t type = RawEnum(value.type);
    if (type < PJRT_NamedValue_kString || type > PJRT_NamedValue_kBool) {
      return InvalidArgument(fn, ": ", where, ".type has the unknown value ", type);
    }
    switch (value.type) {
      case PJRT_NamedValue_kString:
        if (value.string_value == nullptr && value.value_size > 0) {
          return InvalidArgument(fn, ": ", where, ".string_value is null");
        }
        attribute.value = std::string(value.string_value ? value.string_value : "",
                                      value.value_size);
        break;
      case PJRT_NamedValue_kInt64:
        attribute.value = value.int64_value;
        break;
      case PJRT_NamedValue_kInt64List:
        if (value.int64_array_value == nullptr && value.value_size > 0) {
          return InvalidArgument(fn, ": ", where, ".int64_array_value is null");
        }
        attribute.value = value.value_size == 0
                              ? std::vector<int64_t>{}
                              : std::vector<int64_t>(value.int64_array_value,
                                                     value.int64_array_value + value.value_size);
        break;
      case PJRT_NamedValue_kFloat:
        attribute.value = value.float_value;
        break;
      case PJRT_NamedValue_kBool:
        attribute.value = value.bool_value;
        break;
    }
    result.push_back(std::move(attribute));
  }
  return result;
}

}  // namespace plugrt::sdk
