// plugrt XLA FFI: element types as XLA FFI data types (XLA's PrimitiveType
// numbers), for buffers and attributes.
#ifndef PLUGRT_KERNELS_ABI_XLA_FFI_DATA_TYPE_H_
#define PLUGRT_KERNELS_ABI_XLA_FFI_DATA_TYPE_H_

#include <optional>

#include "plugrt/xla_ffi_c_api.h"
#include "stablehlo/element_type.h"

namespace plugrt::kernels_abi {

// nullopt for the types XLA FFI has no number for (f6E2M3FN, f6E3M2FN).
inline std::optional<XLA_FFI_DataType> ToXlaFfiDataType(shlo::ElementType type) {
  using E = shlo::ElementType;
  switch (type) {
    case E::kI1: return XLA_FFI_DataType_PRED;
    case E::kSI2: return XLA_FFI_DataType_S2;
    case E::kSI4: return XLA_FFI_DataType_S4;
    case E::kSI8: return XLA_FFI_DataType_S8;
    case E::kSI16: return XLA_FFI_DataType_S16;
    case E::kSI32: return XLA_FFI_DataType_S32;
    case E::kSI64: return XLA_FFI_DataType_S64;
    case E::kUI2: return XLA_FFI_DataType_U2;
    case E::kUI4: return XLA_FFI_DataType_U4;
    case E::kUI8: return XLA_FFI_DataType_U8;
    case E::kUI16: return XLA_FFI_DataType_U16;
    case E::kUI32: return XLA_FFI_DataType_U32;
    case E::kUI64: return XLA_FFI_DataType_U64;
    case E::kF4E2M1FN: return XLA_FFI_DataType_F4E2M1FN;
    case E::kF6E2M3FN: return std::nullopt;
    case E::kF6E3M2FN: return std::nullopt;
    case E::kF8E3M4: return XLA_FFI_DataType_F8E3M4;
    case E::kF8E4M3: return XLA_FFI_DataType_F8E4M3;
    case E::kF8E4M3FN: return XLA_FFI_DataType_F8E4M3FN;
    case E::kF8E4M3FNUZ: return XLA_FFI_DataType_F8E4M3FNUZ;
    case E::kF8E4M3B11FNUZ: return XLA_FFI_DataType_F8E4M3B11FNUZ;
    case E::kF8E5M2: return XLA_FFI_DataType_F8E5M2;
    case E::kF8E5M2FNUZ: return XLA_FFI_DataType_F8E5M2FNUZ;
    case E::kF8E8M0FNU: return XLA_FFI_DataType_F8E8M0FNU;
    case E::kBF16: return XLA_FFI_DataType_BF16;
    case E::kF16: return XLA_FFI_DataType_F16;
    case E::kF32: return XLA_FFI_DataType_F32;
    case E::kF64: return XLA_FFI_DataType_F64;
    case E::kC64: return XLA_FFI_DataType_C64;
    case E::kC128: return XLA_FFI_DataType_C128;
  }
  return std::nullopt;
}

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_XLA_FFI_DATA_TYPE_H_
