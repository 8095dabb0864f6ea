#include "compiler/importers/hlo/hlo_types.h"

#include <cstring>
#include <string>
#include <utility>

namespace plugrt::shlo::hlo {
namespace {

using xla::PrimitiveType;

// Copies `count` elements of `width` bytes each from a packed little-endian
// byte field (XLA's encoding of 8- and 16-bit types).
Status CopyBytes(const std::string& field, int64_t count, size_t width, DenseData* out) {
  if (field.size() != static_cast<size_t>(count) * width) {
    return InvalidArgument("literal holds ", field.size(), " bytes for ", count,
                           " elements of ", width, " bytes");
  }
  out->bytes.resize(field.size());
  if (!field.empty()) std::memcpy(out->bytes.data(), field.data(), field.size());
  return OkStatus();
}

// Copies a repeated numeric field (already host-endian values) as raw bytes.
template <typename Repeated>
Status CopyRepeated(const Repeated& field, int64_t count, int per_element, DenseData* out) {
  using T = typename Repeated::value_type;
  if (field.size() != count * per_element) {
    return InvalidArgument("literal holds ", field.size(), " values for ", count, " elements");
  }
  out->bytes.resize(static_cast<size_t>(field.size()) * sizeof(T));
  if (field.size() > 0) std::memcpy(out->bytes.data(), field.data(), out->bytes.size());
  return OkStatus();
}

}  // namespace

StatusOr<ElementType> ElementTypeOf(int type) {
  switch (type) {
    case xla::PRED: return ElementType::kI1;
    case xla::S2: return ElementType::kSI2;
    case xla::S4: return ElementType::kSI4;
    case xla::S8: return ElementType::kSI8;
    case xla::S16: return ElementType::kSI16;
    case xla::S32: return ElementType::kSI32;
    case xla::S64: return ElementType::kSI64;
    case xla::U2: return ElementType::kUI2;
    case xla::U4: return ElementType::kUI4;
    case xla::U8: return ElementType::kUI8;
    case xla::U16: return ElementType::kUI16;
    case xla::U32: return ElementType::kUI32;
    case xla::U64: return ElementType::kUI64;
    case xla::F16: return ElementType::kF16;
    case xla::F32: return ElementType::kF32;
    case xla::BF16: return ElementType::kBF16;
    case xla::F64: return ElementType::kF64;
    case xla::F8E5M2: return ElementType::kF8E5M2;
    case xla::F8E4M3: return ElementType::kF8E4M3;
    case xla::F8E4M3FN: return ElementType::kF8E4M3FN;
    case xla::F8E4M3B11FNUZ: return ElementType::kF8E4M3B11FNUZ;
    case xla::F8E3M4: return ElementType::kF8E3M4;
    case xla::F8E5M2FNUZ: return ElementType::kF8E5M2FNUZ;
    case xla::F8E4M3FNUZ: return ElementType::kF8E4M3FNUZ;
    case xla::F4E2M1FN: return ElementType::kF4E2M1FN;
    case xla::F8E8M0FNU: return ElementType::kF8E8M0FNU;
    case xla::C64: return ElementType::kC64;
    case xla::C128: return ElementType::kC128;
    default: break;
  }
  const std::string name = xla::PrimitiveType_IsValid(type)
                               ? xla::PrimitiveType_Name(static_cast<PrimitiveType>(type))
                               : std::to_string(type);
  return InvalidArgument("element type ", name, " has no tensor element type in the IR");
}

StatusOr<Type> TypeOf(const xla::ShapeProto& shape) {
  switch (shape.element_type()) {
    case xla::TUPLE: {
      std::vector<Type> elements;
      elements.reserve(shape.tuple_shapes_size());
      for (const xla::ShapeProto& element : shape.tuple_shapes()) {
        PLUGRT_ASSIGN_OR_RETURN(Type t, TypeOf(element));
        elements.push_back(std::move(t));
      }
      return Type::Tuple(std::move(elements));
    }
    case xla::TOKEN: return Type::Token();
    default: break;
  }
  PLUGRT_ASSIGN_OR_RETURN(ElementType element, ElementTypeOf(shape.element_type()));
  if (shape.tuple_shapes_size() != 0) {
    return InvalidArgument("an array shape with tuple elements");
  }
  for (bool dynamic : shape.is_dynamic_dimension()) {
    if (dynamic) return Unimplemented("dynamic (bounded) dimensions are not supported");
  }
  std::vector<int64_t> dims(shape.dimensions().begin(), shape.dimensions().end());
  // Bounded so that element counts and byte sizes cannot overflow.
  constexpr int64_t kMaxElements = int64_t{1} << 40;
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) return InvalidArgument("negative dimension size ", d);
    if (d > kMaxElements || (d > 0 && count > kMaxElements / d)) {
      return InvalidArgument("shape with more than 2^40 elements");
    }
    count *= d;
  }
  return Type::Tensor(element, std::move(dims));
}

StatusOr<int64_t> LeafIndex(const Type& type, const std::vector<int64_t>& index) {
  const Type* at = &type;
  int64_t offset = 0;
  for (int64_t i : index) {
    if (!at->is_tuple() || i < 0 || i >= static_cast<int64_t>(at->tuple_elements().size())) {
      return InvalidArgument("shape index element ", i, " does not name a tuple element of ",
                             at->ToString());
    }
    for (int64_t j = 0; j < i; ++j) {
      offset += static_cast<int64_t>(FlattenType(at->tuple_elements()[j]).size());
    }
    at = &at->tuple_elements()[i];
  }
  if (at->is_tuple()) return InvalidArgument("shape index names a tuple, not a leaf");
  return offset;
}

StatusOr<Attribute> DenseFromLiteral(const xla::LiteralProto& literal, const Type& type) {
  if (!type.is_tensor() || !type.has_static_shape()) {
    return InvalidArgument("a constant of type ", type.ToString());
  }
  const int64_t n = type.num_elements();
  auto data = std::make_shared<DenseData>();
  switch (type.element_type()) {
    case ElementType::kI1: {
      if (literal.preds_size() != n) {
        return InvalidArgument("literal holds ", literal.preds_size(), " predicates for ", n,
                               " elements");
      }
      data->bytes.resize(n);
      for (int64_t i = 0; i < n; ++i) data->bytes[i] = std::byte(literal.preds(i) ? 1 : 0);
      break;
    }
    case ElementType::kSI2: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.s2s(), n, 1, data.get())); break;
    case ElementType::kSI4: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.s4s(), n, 1, data.get())); break;
    case ElementType::kSI8: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.s8s(), n, 1, data.get())); break;
    case ElementType::kUI2: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.u2s(), n, 1, data.get())); break;
    case ElementType::kUI4: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.u4s(), n, 1, data.get())); break;
    case ElementType::kUI8: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.u8s(), n, 1, data.get())); break;
    case ElementType::kSI16: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.s16s(), n, 2, data.get())); break;
    case ElementType::kUI16: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.u16s(), n, 2, data.get())); break;
    case ElementType::kF16: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f16s(), n, 2, data.get())); break;
    case ElementType::kBF16: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.bf16s(), n, 2, data.get())); break;
    case ElementType::kF8E5M2: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e5m2s(), n, 1, data.get())); break;
    case ElementType::kF8E4M3: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e4m3s(), n, 1, data.get())); break;
    case ElementType::kF8E4M3FN: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e4m3fns(), n, 1, data.get())); break;
    case ElementType::kF8E4M3B11FNUZ: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e4m3b11fnuzs(), n, 1, data.get())); break;
    case ElementType::kF8E3M4: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e3m4s(), n, 1, data.get())); break;
    case ElementType::kF8E5M2FNUZ: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e5m2fnuzs(), n, 1, data.get())); break;
    case ElementType::kF8E4M3FNUZ: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e4m3fnuzs(), n, 1, data.get())); break;
    case ElementType::kF4E2M1FN: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f4e2m1fns(), n, 1, data.get())); break;
    case ElementType::kF8E8M0FNU: PLUGRT_RETURN_IF_ERROR(CopyBytes(literal.f8e8m0fnus(), n, 1, data.get())); break;
    case ElementType::kSI32: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.s32s(), n, 1, data.get())); break;
    case ElementType::kSI64: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.s64s(), n, 1, data.get())); break;
    case ElementType::kUI32: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.u32s(), n, 1, data.get())); break;
    case ElementType::kUI64: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.u64s(), n, 1, data.get())); break;
    case ElementType::kF32: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.f32s(), n, 1, data.get())); break;
    case ElementType::kF64: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.f64s(), n, 1, data.get())); break;
    case ElementType::kC64: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.c64s(), n, 2, data.get())); break;
    case ElementType::kC128: PLUGRT_RETURN_IF_ERROR(CopyRepeated(literal.c128s(), n, 2, data.get())); break;
    default:
      return Unimplemented("constants of element type ", ElementTypeName(type.element_type()));
  }
  // All elements equal: a splat, as MLIR stores (and the parser reads) it.
  const size_t width = n > 0 ? data->bytes.size() / static_cast<size_t>(n) : 0;
  // (A one-element tensor is written `dense<x>` but read as non-splat.)
  bool splat = n > 1 && width > 0;
  for (size_t at = width; splat && at < data->bytes.size(); at += width) {
    splat = std::memcmp(data->bytes.data(), data->bytes.data() + at, width) == 0;
  }
  if (splat) {
    data->bytes.resize(width);
    data->splat = true;
  }
  return Attribute::Dense(type, std::move(data));
}

}  // namespace plugrt::shlo::hlo
