// plugrt SDK: plain value types shared by the backend interfaces.
#ifndef PLUGRT_SDK_TYPES_H_
#define PLUGRT_SDK_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/element_type.h"
#include "common/layout.h"
#include "common/memory_stats.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::sdk {

// A named value as PJRT_NamedValue carries it, but owning its data.
using AttributeValue = NamedValueData;
using Attribute = NamedValue;
using Attributes = std::vector<Attribute>;
// FindNamedValue (common/named_value.h) looks one up by name.

using plugrt::Layout;  // common/layout.h
using plugrt::MemoryStats;  // common/memory_stats.h

// Element type names, widths and dense sizes: the one table in
// common/element_type.h.
using plugrt::DenseByteSize;
using plugrt::ElementBitWidth;
using plugrt::ElementTypeName;

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_TYPES_H_
