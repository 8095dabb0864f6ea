// plugrt compiler: the data of a `dense_resource<name>` constant, whichever
// form the program came in (text: the trailing dialect_resources hex blobs;
// bytecode: the resource sections). A resource named `__elided__`, or one
// the file declares without a blob, holds no data: it is refused with an
// error that says the weights were left out, or filled as the read options
// ask (read_options.h).
#ifndef PLUGRT_COMPILER_IMPORTERS_DENSE_RESOURCE_H_
#define PLUGRT_COMPILER_IMPORTERS_DENSE_RESOURCE_H_

#include <memory>
#include <optional>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

inline constexpr std::string_view kElidedResource = "__elided__";

// The constant's data: `elements` (every element's storage bytes, as a blob
// holds them: no splats), or, when the file holds none (nullopt) or marks
// it elided, `fill`'s values (each `stream` its own). INVALID_ARGUMENT
// without a location otherwise, or when the blob's size does not match
// `type`.
StatusOr<std::shared_ptr<const DenseData>> DenseResourceData(
    std::string_view name, const Type& type, std::optional<std::string_view> elements,
    bool elided, const ElidedConstantFill& fill, std::string_view stream);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_DENSE_RESOURCE_H_
