#include "compiler/importers/dense_resource.h"

#include <string>

#include "compiler/importers/mlir/dense_data.h"

namespace plugrt::shlo {

StatusOr<std::shared_ptr<const DenseData>> DenseResourceData(
    std::string_view name, const Type& type, std::optional<std::string_view> elements,
    bool elided, const ElidedConstantFill& fill, std::string_view stream) {
  const std::string what = StrCat("dense_resource<", name, ">");
  elided = elided || name == kElidedResource;
  if ((elided || !elements) && fill.mode != ElidedConstantFill::Mode::kRefuse) {
    // Filled as asked (timing a program printed without its weights).
    ElidedValues values(fill, stream);
    const std::string bytes =
        ElidedElementBytes(values, type.element_type(), type.num_elements());
    return DenseDataFromBytes(type, bytes, what);
  }
  if (elided) {
    return InvalidArgument(what,
                           ": the weights were left out of the file (it was printed with "
                           "large constants elided); export it again with the data, or fill "
                           "them to time it (plugrt run/bench --fill-elided=zeros|random[:SEED])");
  }
  if (!elements) {
    return InvalidArgument(what,
                           " has no blob in the file's resources (the weights were left out "
                           "of the file; --fill-elided fills them)");
  }
  const uint64_t needed =
      static_cast<uint64_t>(type.num_elements()) * StorageBytes(type.element_type());
  if (elements->size() != needed) {
    return InvalidArgument(what, " has ", elements->size(), " bytes but ", type.ToString(),
                           " needs ", needed);
  }
  return DenseDataFromBytes(type, *elements, what);
}

}  // namespace plugrt::shlo
