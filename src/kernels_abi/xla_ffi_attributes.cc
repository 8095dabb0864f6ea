#include "kernels_abi/xla_ffi_attributes.h"

#include <algorithm>
#include <cstring>

#include "kernels_abi/xla_ffi_data_type.h"

namespace plugrt::kernels_abi {
namespace {

bool IsIntegerLike(shlo::ElementType type) {
  return shlo::IsInteger(type) || shlo::IsBoolean(type);
}

// The low `bytes` bytes of `value` (the machine is little-endian, as every
// buffer plugrt hands out).
void StoreInteger(int64_t value, size_t bytes, std::byte* out) { std::memcpy(out, &value, bytes); }

void StoreFloat(double value, shlo::ElementType type, std::byte* out) {
  if (type == shlo::ElementType::kF32) {
    const float narrow = static_cast<float>(value);
    std::memcpy(out, &narrow, sizeof(narrow));
  } else {
    std::memcpy(out, &value, sizeof(value));
  }
}

}  // namespace

void* XlaFfiAttributes::Keep(const void* data, size_t size) {
  std::vector<std::byte>& bytes = bytes_.emplace_back(size == 0 ? 1 : size);
  if (size != 0) std::memcpy(bytes.data(), data, size);
  return bytes.data();
}

StatusOr<std::unique_ptr<const XlaFfiAttributes>> XlaFfiAttributes::Convert(
    const CustomCallAttributes& attributes) {
  if (attributes.has_string_config) {
    return InvalidArgument(
        "an XLA FFI call (api_version = 4) takes its attributes as a dictionary: "
        "backend_config = {name = value, ...}, not a string");
  }
  std::unique_ptr<XlaFfiAttributes> result(new XlaFfiAttributes());
  PLUGRT_RETURN_IF_ERROR(result->BuildDictionary("", attributes.fields, result->top_));
  return std::unique_ptr<const XlaFfiAttributes>(std::move(result));
}

Status XlaFfiAttributes::BuildDictionary(const std::string& path,
                                         std::vector<shlo::NamedAttribute> fields,
                                         XLA_FFI_Attrs& out) {
  // Handlers look attributes up by binary search over bytewise-sorted names.
  std::stable_sort(fields.begin(), fields.end(),
                   [](const shlo::NamedAttribute& a, const shlo::NamedAttribute& b) {
                     return a.first < b.first;
                   });
  for (size_t i = 1; i < fields.size(); ++i) {
    if (fields[i].first == fields[i - 1].first) {
      return InvalidArgument("custom call attribute '", path, fields[i].first,
                             "' is given twice (backend_config and mhlo.backend_config)");
    }
  }
  std::vector<XLA_FFI_AttrType>& types = types_.emplace_back(fields.size());
  std::vector<XLA_FFI_ByteSpan*>& names = names_.emplace_back(fields.size());
  std::vector<void*>& values = values_.emplace_back(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& name = strings_.emplace_back(fields[i].first);
    names[i] = &spans_.emplace_back(XLA_FFI_ByteSpan{name.data(), name.size()});
    PLUGRT_RETURN_IF_ERROR(ConvertOne(path + name, fields[i].second, types[i], values[i]));
  }
  out.struct_size = XLA_FFI_Attrs_STRUCT_SIZE;
  out.extension_start = nullptr;
  out.size = static_cast<int64_t>(fields.size());
  out.types = types.data();
  out.names = names.data();
  out.attrs = values.data();
  return OkStatus();
}

Status XlaFfiAttributes::ConvertOne(const std::string& path, const shlo::Attribute& attr,
                                 XLA_FFI_AttrType& type, void*& value) {
  using Kind = shlo::Attribute::Kind;
  auto unsupported = [&](std::string_view what) {
    return InvalidArgument("custom call attribute '", path, "' is ", what,
                           ", which XLA FFI handlers cannot receive");
  };
  switch (attr.kind) {
    case Kind::kBool: {
      const uint8_t byte = attr.bool_value ? 1 : 0;
      type = XLA_FFI_AttrType_SCALAR;
      value = &scalars_.emplace_back(XLA_FFI_Scalar{XLA_FFI_DataType_PRED, Keep(&byte, 1)});
      return OkStatus();
    }
    case Kind::kInteger: {
      const shlo::ElementType element = attr.type.element_type();
      std::optional<XLA_FFI_DataType> dtype = ToXlaFfiDataType(element);
      const bool sub_byte = shlo::BitWidth(element) < 8 && !shlo::IsBoolean(element);
      if (!IsIntegerLike(element) || !dtype || sub_byte) {
        return unsupported(StrCat("an integer of type ", shlo::ElementTypeName(element)));
      }
      const size_t bytes = static_cast<size_t>(shlo::StorageBytes(element));
      std::byte storage[8];
      StoreInteger(shlo::IsBoolean(element) ? (attr.int_value != 0) : attr.int_value, bytes,
                   storage);
      type = XLA_FFI_AttrType_SCALAR;
      value = &scalars_.emplace_back(XLA_FFI_Scalar{*dtype, Keep(storage, bytes)});
      return OkStatus();
    }
    case Kind::kFloat: {
      const shlo::ElementType element = attr.type.element_type();
      if (element != shlo::ElementType::kF32 && element != shlo::ElementType::kF64) {
        return unsupported(StrCat("a float of type ", shlo::ElementTypeName(element),
                                  " (f32 and f64 are)"));
      }
      std::byte storage[8];
      StoreFloat(attr.float_value, element, storage);
      type = XLA_FFI_AttrType_SCALAR;
      value = &scalars_.emplace_back(XLA_FFI_Scalar{*ToXlaFfiDataType(element),
                                                    Keep(storage, shlo::StorageBytes(element))});
      return OkStatus();
    }
    case Kind::kString: {
      const std::string& text = strings_.emplace_back(attr.str);
      type = XLA_FFI_AttrType_STRING;
      value = &spans_.emplace_back(XLA_FFI_ByteSpan{text.data(), text.size()});
      return OkStatus();
    }
    case Kind::kDenseArray: {
      const shlo::ElementType element = attr.type.element_type();
      std::optional<XLA_FFI_DataType> dtype = ToXlaFfiDataType(element);
      const bool floats = element == shlo::ElementType::kF32 || element == shlo::ElementType::kF64;
      if (!dtype || !(floats || (IsIntegerLike(element) &&
                                 (shlo::IsBoolean(element) || shlo::BitWidth(element) >= 8)))) {
        return unsupported(StrCat("an array of ", shlo::ElementTypeName(element)));
      }
      const size_t width = static_cast<size_t>(shlo::StorageBytes(element));
      const size_t count = floats ? attr.floats.size() : attr.ints.size();
      std::vector<std::byte>& data = bytes_.emplace_back(count * width + 1);
      for (size_t i = 0; i < count; ++i) {
        if (floats) {
          StoreFloat(attr.floats[i], element, data.data() + i * width);
        } else {
          StoreInteger(attr.ints[i], width, data.data() + i * width);
        }
      }
      type = XLA_FFI_AttrType_ARRAY;
      value = &arrays_.emplace_back(XLA_FFI_Array{*dtype, count, data.data()});
      return OkStatus();
    }
    case Kind::kDenseElements: {
      const shlo::Type& tensor = attr.type;
      std::optional<XLA_FFI_DataType> dtype = ToXlaFfiDataType(tensor.element_type());
      if (!tensor.is_tensor() || !tensor.has_static_shape() || tensor.rank() > 1 || !dtype ||
          attr.dense == nullptr) {
        return unsupported(StrCat("a dense literal of type ", tensor.ToString(),
                                  " (only rank 0 and 1 are, as arrays)"));
      }
      const size_t width = static_cast<size_t>(shlo::StorageBytes(tensor.element_type()));
      const size_t count = static_cast<size_t>(tensor.num_elements());
      std::vector<std::byte>& data = bytes_.emplace_back();
      data.reserve(count * width + 1);
      if (attr.dense->splat) {
        for (size_t i = 0; i < count; ++i) {
          data.insert(data.end(), attr.dense->bytes.begin(), attr.dense->bytes.end());
        }
      } else {
        data = attr.dense->bytes;
      }
      if (data.size() != count * width) {
        return InvalidArgument("custom call attribute '", path, "': malformed dense literal");
      }
      type = XLA_FFI_AttrType_ARRAY;
      value = &arrays_.emplace_back(XLA_FFI_Array{*dtype, count, data.empty() ? nullptr : data.data()});
      return OkStatus();
    }
    case Kind::kDictionary: {
      XLA_FFI_Attrs& dictionary = dictionaries_.emplace_back();
      PLUGRT_RETURN_IF_ERROR(BuildDictionary(path + ".", attr.fields, dictionary));
      type = XLA_FFI_AttrType_DICTIONARY;
      value = &dictionary;
      return OkStatus();
    }
    case Kind::kUnit:
      return unsupported("a unit attribute");
    case Kind::kArray:
      return unsupported("a list [...] (write array<i64: ...> or a dense literal)");
    case Kind::kType:
      return unsupported("a type");
    case Kind::kSymbolRef:
      return unsupported("a symbol reference");
    case Kind::kEnum:
      return unsupported("an enum value");
    case Kind::kStruct:
      return unsupported("a dialect attribute");
  }
  return unsupported("of an unknown kind");
}

}  // namespace plugrt::kernels_abi
