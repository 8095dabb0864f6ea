// plugrt SDK: conversions between PJRT_NamedValue arrays and sdk::Attributes.
#ifndef PLUGRT_SDK_API_NAMED_VALUES_H_
#define PLUGRT_SDK_API_NAMED_VALUES_H_

#include <cstddef>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// An array of PJRT_NamedValue handed to a caller, together with the data it
// points into. Not copyable: the C structs point into `values_`.
class NamedValueArray {
 public:
  NamedValueArray() = default;
  explicit NamedValueArray(Attributes values);
  NamedValueArray(const NamedValueArray&) = delete;
  NamedValueArray& operator=(const NamedValueArray&) = delete;

  const PJRT_NamedValue* data() const { return c_values_.empty() ? nullptr : c_values_.data(); }
  size_t size() const { return c_values_.size(); }

 private:
  Attributes values_;
  std::vector<PJRT_NamedValue> c_values_;
};

// Copies a caller's PJRT_NamedValue array, checking every entry; `fn` and
// `field` name the array in errors ("PJRT_Client_Create: create_options[2]...").
StatusOr<Attributes> AttributesFromC(const PJRT_NamedValue* values, size_t count,
                                     const char* fn, const char* field);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_API_NAMED_VALUES_H_
