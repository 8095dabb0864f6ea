#include "kernels_abi/kernel_attributes.h"

#include <cstring>
#include <memory>

namespace plugrt::kernels_abi {
namespace {

PLUGRT_KernelAttr EmptyAttr() {
  PLUGRT_KernelAttr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.struct_size = sizeof(PLUGRT_KernelAttr);
  attr.name = "";
  attr.str = "";
  return attr;
}

bool IsFloatElement(shlo::ElementType type) {
  switch (type) {
    case shlo::ElementType::kBF16:
    case shlo::ElementType::kF16:
    case shlo::ElementType::kF32:
    case shlo::ElementType::kF64:
      return true;
    default:
      return false;
  }
}

}  // namespace

const char* KernelAttributes::Keep(std::string text) {
  return strings_.emplace_back(std::move(text)).c_str();
}

StatusOr<std::unique_ptr<const KernelAttributes>> KernelAttributes::Convert(
    const CustomCallAttributes& attributes) {
  std::unique_ptr<KernelAttributes> result(new KernelAttributes());
  result->backend_config_ = attributes.backend_config;
  PLUGRT_RETURN_IF_ERROR(result->ConvertFields(attributes.fields, result->dictionary_));
  return std::unique_ptr<const KernelAttributes>(std::move(result));
}

Status KernelAttributes::ConvertFields(const std::vector<shlo::NamedAttribute>& fields,
                                       std::vector<PLUGRT_KernelAttr>& out) {
  out.assign(fields.size(), EmptyAttr());
  for (size_t i = 0; i < fields.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(ConvertOne(fields[i].first, fields[i].second, out[i]));
  }
  return OkStatus();
}

Status KernelAttributes::ConvertOne(const std::string& name, const shlo::Attribute& attr,
                                    PLUGRT_KernelAttr& out) {
  using Kind = shlo::Attribute::Kind;
  out.name = Keep(name);
  out.name_size = name.size();
  auto set_string = [&](std::string text) {
    out.kind = PLUGRT_KernelAttr_STRING;
    out.str_size = text.size();
    out.str = Keep(std::move(text));
  };
  switch (attr.kind) {
    case Kind::kUnit:
      out.kind = PLUGRT_KernelAttr_BOOL;
      out.i = 1;
      return OkStatus();
    case Kind::kBool:
      out.kind = PLUGRT_KernelAttr_BOOL;
      out.i = attr.bool_value ? 1 : 0;
      return OkStatus();
    case Kind::kInteger:
      out.kind = PLUGRT_KernelAttr_INT;
      out.i = attr.int_value;
      return OkStatus();
    case Kind::kFloat:
      out.kind = PLUGRT_KernelAttr_FLOAT;
      out.f = attr.float_value;
      return OkStatus();
    case Kind::kString:
    case Kind::kSymbolRef:
      set_string(attr.str);
      return OkStatus();
    case Kind::kEnum:
      set_string(attr.enum_value);
      return OkStatus();
    case Kind::kType:
      set_string(attr.type.ToString());
      return OkStatus();
    case Kind::kDenseArray:
      if (IsFloatElement(attr.type.element_type()) && attr.ints.empty()) {
        out.kind = PLUGRT_KernelAttr_FLOAT_ARRAY;
        out.floats = floats_.emplace_back(attr.floats).data();
        out.count = attr.floats.size();
      } else {
        out.kind = PLUGRT_KernelAttr_INT_ARRAY;
        out.ints = ints_.emplace_back(attr.ints).data();
        out.count = attr.ints.size();
      }
      return OkStatus();
    case Kind::kArray: {
      bool all_ints = !attr.elements.empty(), all_floats = !attr.elements.empty();
      for (const shlo::Attribute& element : attr.elements) {
        all_ints &= element.kind == Kind::kInteger || element.kind == Kind::kBool;
        all_floats &= element.kind == Kind::kFloat;
      }
      if (all_ints) {
        std::vector<int64_t>& values = ints_.emplace_back();
        for (const shlo::Attribute& e : attr.elements) {
          values.push_back(e.kind == Kind::kBool ? (e.bool_value ? 1 : 0) : e.int_value);
        }
        out.kind = PLUGRT_KernelAttr_INT_ARRAY;
        out.ints = values.data();
        out.count = values.size();
      } else if (all_floats) {
        std::vector<double>& values = floats_.emplace_back();
        for (const shlo::Attribute& e : attr.elements) values.push_back(e.float_value);
        out.kind = PLUGRT_KernelAttr_FLOAT_ARRAY;
        out.floats = values.data();
        out.count = values.size();
      } else {
        std::vector<PLUGRT_KernelAttr>& elements =
            children_.emplace_back(attr.elements.size(), EmptyAttr());
        for (size_t i = 0; i < attr.elements.size(); ++i) {
          PLUGRT_RETURN_IF_ERROR(ConvertOne("", attr.elements[i], elements[i]));
        }
        out.kind = PLUGRT_KernelAttr_ARRAY;
        out.elements = elements.data();
        out.num_elements = elements.size();
      }
      return OkStatus();
    }
    case Kind::kDictionary:
    case Kind::kStruct: {
      std::vector<PLUGRT_KernelAttr>& elements = children_.emplace_back();
      PLUGRT_RETURN_IF_ERROR(ConvertFields(attr.fields, elements));
      out.kind = PLUGRT_KernelAttr_DICT;
      out.elements = elements.data();
      out.num_elements = elements.size();
      return OkStatus();
    }
    case Kind::kDenseElements: {
      const shlo::Type& type = attr.type;
      std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(type.element_type());
      if (!type.is_tensor() || !type.has_static_shape() || !pjrt || attr.dense == nullptr) {
        return InvalidArgument("custom call attribute '", name, "': a dense literal of type ",
                               type.ToString(), " has no kernel ABI form");
      }
      const size_t element_bytes = static_cast<size_t>(shlo::StorageBytes(type.element_type()));
      const size_t count = static_cast<size_t>(type.num_elements());
      std::vector<std::byte>& bytes = bytes_.emplace_back();
      if (attr.dense->splat) {
        if (attr.dense->bytes.size() != element_bytes) {
          return InvalidArgument("custom call attribute '", name, "': malformed splat literal");
        }
        bytes.reserve(count * element_bytes);
        for (size_t i = 0; i < count; ++i) {
          bytes.insert(bytes.end(), attr.dense->bytes.begin(), attr.dense->bytes.end());
        }
      } else {
        if (attr.dense->bytes.size() != count * element_bytes) {
          return InvalidArgument("custom call attribute '", name, "': the literal has ",
                                 attr.dense->bytes.size(), " bytes, its type needs ",
                                 count * element_bytes);
        }
        bytes = attr.dense->bytes;
      }
      out.kind = PLUGRT_KernelAttr_DENSE;
      out.dense_type = static_cast<PLUGRT_KernelType>(*pjrt);
      out.dense_rank = type.dims().size();
      out.dense_dims = ints_.emplace_back(type.dims()).data();
      out.dense_data = bytes.data();
      out.dense_size_in_bytes = bytes.size();
      return OkStatus();
    }
  }
  return InvalidArgument("custom call attribute '", name, "' has no kernel ABI form");
}

const PLUGRT_KernelAttr* KernelAttributes::Find(std::string_view name) const {
  for (const PLUGRT_KernelAttr& attr : dictionary_) {
    if (std::string_view(attr.name, attr.name_size) == name) return &attr;
  }
  return nullptr;
}

}  // namespace plugrt::kernels_abi
