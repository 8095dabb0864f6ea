#include "dtypes.h"

#include <string>

#include "common/element_type.h"
#include "errors.h"

namespace plugrt::python {

namespace py = pybind11;

PJRT_Buffer_Type ElementTypeOf(const py::dtype& dtype) {
  // NumPy names its dtypes the way the element table's numpy column does
  // ("float32", "bool", "complex64"); ml_dtypes' extension types too.
  const std::string name = py::str(dtype.attr("name"));
  for (PJRT_Buffer_Type type : AllElementTypes()) {
    const ElementTypeInfo* info = FindElementType(type);
    if (!info->numpy.empty() && info->numpy == name) return type;
  }
  throw StatusError(Status(StatusCode::kInvalidArgument,
                           StrCat("NumPy dtype ", name, " has no PJRT element type")));
}

py::dtype DtypeOf(PJRT_Buffer_Type type) {
  const ElementTypeInfo* info = FindElementType(type);
  if (info == nullptr || info->numpy.empty()) {
    throw StatusError(Status(StatusCode::kUnimplemented,
                             StrCat("element type ", ElementTypeName(type),
                                    " has no NumPy dtype")));
  }
  const std::string name(info->numpy);
  try {
    return py::dtype(name);
  } catch (const py::error_already_set&) {
    // bfloat16, float8_*, int4 ...: NumPy itself lacks them; ml_dtypes
    // registers them when it is installed.
  }
  try {
    py::module_ ml_dtypes = py::module_::import("ml_dtypes");
    return py::dtype::from_args(ml_dtypes.attr(name.c_str()));
  } catch (const py::error_already_set&) {
    throw StatusError(Status(StatusCode::kUnimplemented,
                             StrCat("element type ", info->name, " needs the NumPy dtype ", name,
                                    ", which neither NumPy nor ml_dtypes provides here")));
  }
}

bool HasByteAlignedElements(PJRT_Buffer_Type type) {
  const int bits = ElementBitWidth(type);
  return bits >= 8 && bits % 8 == 0;
}

}  // namespace plugrt::python
