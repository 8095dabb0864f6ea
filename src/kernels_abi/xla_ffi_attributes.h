// plugrt XLA FFI: a custom call's attributes as an XLA FFI handler receives
// them (XLA_FFI_Attrs), built once when the program compiles; every call's
// frame points at the same storage.
//
// The attributes are the fields the call decoded (CustomCallAttributes,
// custom_call_frame.h: those of `backend_config = {...}`, how
// `api_version = 4` calls carry them, and of `mhlo.backend_config`), sorted
// by name. Each becomes, as in XLA:
//   true / false                          SCALAR of PRED (one byte)
//   42 : i32 (any integer width/sign)     SCALAR of S32 (the declared type)
//   1.5 : f32, 1.5 : f64                  SCALAR of F32 / F64
//   "text"                                STRING
//   array<i64: 1, 2>, array<f32: ...>     ARRAY of the element type
//   dense<[1, 2]> : tensor<2xi64>         ARRAY (rank 0 or 1 only)
//   {a = 1, ...}                          DICTIONARY (sorted as well)
// Anything else (unit attributes, `[...]` lists, types, symbols, enums,
// other float widths) is refused at compile time naming the attribute.
#ifndef PLUGRT_KERNELS_ABI_XLA_FFI_ATTRIBUTES_H_
#define PLUGRT_KERNELS_ABI_XLA_FFI_ATTRIBUTES_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "kernels_abi/custom_call_frame.h"
#include "plugrt/xla_ffi_c_api.h"
#include "stablehlo/ir.h"

namespace plugrt::kernels_abi {

class XlaFfiAttributes {
 public:
  // INVALID_ARGUMENT naming the attribute for a value XLA FFI cannot carry,
  // or for a non-empty string backend_config.
  static StatusOr<std::unique_ptr<const XlaFfiAttributes>> Convert(
      const CustomCallAttributes& attributes);

  XlaFfiAttributes(const XlaFfiAttributes&) = delete;
  XlaFfiAttributes& operator=(const XlaFfiAttributes&) = delete;

  // The top-level attributes; copy into XLA_FFI_CallFrame::attrs.
  const XLA_FFI_Attrs& attrs() const { return top_; }

 private:
  XlaFfiAttributes() = default;
  Status BuildDictionary(const std::string& path, std::vector<shlo::NamedAttribute> fields,
                         XLA_FFI_Attrs& out);
  Status ConvertOne(const std::string& path, const shlo::Attribute& attr, XLA_FFI_AttrType& type,
                    void*& value);
  // A copy of `size` bytes at `data` in storage that never moves.
  void* Keep(const void* data, size_t size);

  XLA_FFI_Attrs top_{};
  // Storage the attributes point into; deques keep element addresses when
  // they grow.
  std::deque<std::string> strings_;
  std::deque<XLA_FFI_ByteSpan> spans_;
  std::deque<XLA_FFI_Scalar> scalars_;
  std::deque<XLA_FFI_Array> arrays_;
  std::deque<XLA_FFI_Attrs> dictionaries_;
  std::deque<std::vector<std::byte>> bytes_;
  std::deque<std::vector<XLA_FFI_AttrType>> types_;
  std::deque<std::vector<XLA_FFI_ByteSpan*>> names_;
  std::deque<std::vector<void*>> values_;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_XLA_FFI_ATTRIBUTES_H_
