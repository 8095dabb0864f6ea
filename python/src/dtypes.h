// plugrt Python bindings: NumPy dtypes <-> PJRT element types, through the
// one element-type table (common/element_type.h).
#ifndef PLUGRT_PYTHON_DTYPES_H_
#define PLUGRT_PYTHON_DTYPES_H_

#include <pybind11/numpy.h>

#include "pjrt_c_api.h"

namespace plugrt::python {

// The element type of `dtype`; INVALID_ARGUMENT (thrown) for a dtype
// plugrt has no type for (object, string, structured dtypes).
PJRT_Buffer_Type ElementTypeOf(const pybind11::dtype& dtype);

// The NumPy dtype of `type`; UNIMPLEMENTED (thrown) for types NumPy lacks
// (bf16, the 8-bit floats, sub-byte integers) unless ml_dtypes provides
// them.
pybind11::dtype DtypeOf(PJRT_Buffer_Type type);

// Whether `type` has one whole host element per device element (no packed
// sub-byte storage), so device memory can be read as a NumPy array.
bool HasByteAlignedElements(PJRT_Buffer_Type type);

}  // namespace plugrt::python

#endif  // PLUGRT_PYTHON_DTYPES_H_
