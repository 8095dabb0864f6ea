// plugrt client (internal): NamedValue <-> PJRT_NamedValue.
#ifndef PLUGRT_CLIENT_NAMED_VALUE_C_H_
#define PLUGRT_CLIENT_NAMED_VALUE_C_H_

#include <vector>

#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::internal {

// Copies a plugin's array; INVALID_ARGUMENT (naming the entry) for an unknown
// value type or a null pointer with a non-zero size.
StatusOr<std::vector<NamedValue>> NamedValuesFromC(const PJRT_NamedValue* values, size_t count);

// PJRT_NamedValues pointing into `values`, which must outlive this object.
class CNamedValues {
 public:
  explicit CNamedValues(const std::vector<NamedValue>& values);
  const PJRT_NamedValue* data() const { return c_.empty() ? nullptr : c_.data(); }
  size_t size() const { return c_.size(); }

 private:
  std::vector<PJRT_NamedValue> c_;
};

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_NAMED_VALUE_C_H_
