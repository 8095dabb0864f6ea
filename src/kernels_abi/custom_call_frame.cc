#include "kernels_abi/custom_call_frame.h"

#include <algorithm>
#include <iterator>

namespace plugrt::kernels_abi {

StatusOr<CustomCallAttributes> CustomCallAttributes::FromOperation(const shlo::Operation& op) {
  CustomCallAttributes result;
  if (const shlo::Attribute* config = op.attribute("backend_config")) {
    if (config->kind == shlo::Attribute::Kind::kString) {
      result.backend_config = config->str;
      result.has_string_config = !config->str.empty();
    } else if (config->kind == shlo::Attribute::Kind::kDictionary) {
      result.fields = config->fields;
    }
  }
  if (const shlo::Attribute* mhlo = op.attribute("mhlo.backend_config")) {
    if (mhlo->kind == shlo::Attribute::Kind::kDictionary) {
      result.fields.insert(result.fields.end(), mhlo->fields.begin(), mhlo->fields.end());
    }
  }
  for (size_t i = 0; i < result.fields.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (result.fields[i].first == result.fields[j].first) {
        return InvalidArgument("custom call attribute '", result.fields[i].first,
                               "' is given twice (backend_config and mhlo.backend_config)");
      }
    }
  }
  return result;
}

Status CheckCustomCallTypes(const shlo::Operation& op, std::string_view target,
                            CustomCallTypeRule rule) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(rule(target, false, i, op.operands[i]->type));
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(rule(target, true, i, op.results[i]->type));
  }
  return OkStatus();
}

int CustomCallApiVersion(const shlo::Operation& op) {
  const shlo::Attribute* attr = op.attribute("api_version");
  if (attr == nullptr) return 1;
  if (attr->kind == shlo::Attribute::Kind::kInteger) return static_cast<int>(attr->int_value);
  if (attr->kind == shlo::Attribute::Kind::kEnum) {
    static constexpr std::string_view kNames[] = {
        "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
    auto it = std::find(std::begin(kNames), std::end(kNames), attr->enum_value);
    if (it != std::end(kNames)) return static_cast<int>(it - std::begin(kNames));
  }
  return -1;
}

}  // namespace plugrt::kernels_abi
