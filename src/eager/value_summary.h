// plugrt eager: values shortened for messages: a few leading elements of an
// array, a long string cut in the middle.
#ifndef PLUGRT_EAGER_VALUE_SUMMARY_H_
#define PLUGRT_EAGER_VALUE_SUMMARY_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "eager/tensor_type.h"

namespace plugrt::eager {

// At most this many elements or characters are shown.
inline constexpr size_t kSummaryElements = 6;
inline constexpr size_t kSummaryChars = 40;

// "[1, 2, 3, 4, 5, 6, ... (1000 values)]" for dense row-major host bytes
// (one element per byte for sub-byte types); a scalar prints bare.
std::string DenseValueSummary(const TensorType& type, const std::byte* data, size_t size);
// The string quoted, its middle replaced by "..." past kSummaryChars.
std::string StringSummary(std::string_view text);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_VALUE_SUMMARY_H_
