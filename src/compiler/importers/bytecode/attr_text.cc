#include "compiler/importers/bytecode/attr_text.h"

#include <cctype>
#include <cstring>

#include "compiler/importers/bytecode/container.h"

namespace plugrt::shlo::bytecode {
namespace {

// Bounds the nesting of mesh attributes written here (the decoder bounds it
// already; this keeps the recursion safe on its own).
constexpr int kMaxMeshTextDepth = 64;

// `@name`, quoted only when the name is not a bare identifier (as MLIR
// prints symbols).
std::string MeshSymbolText(std::string_view name) {
  bool bare = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    bare = bare && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
                    c == '.' || c == '-');
  }
  return bare ? StrCat("@", name) : StrCat("@", QuoteMlirString(name));
}

bool IsIndexVector(const BcType* t) {
  return t->kind == BcType::Kind::kTensor && t->dims.size() == 1 && t->dims[0] >= 0 &&
         t->text == StrCat("tensor<", t->dims[0], "xindex>");
}

class MeshTextWriter {
 public:
  Status Write(const BcAttr* a, int depth);
  Status Body(const BcAttr* a, int depth);
  std::string out;
};

// An attribute nested in a mesh attribute, as MLIR prints it.
Status MeshTextWriter::Write(const BcAttr* a, int depth) {
  if (depth > kMaxMeshTextDepth) {
    return InvalidArgument("bytecode: mesh attributes nest deeper than ", kMaxMeshTextDepth);
  }
  switch (a->kind) {
    case BcAttr::Kind::kArray:
      out += "[";
      for (size_t i = 0; i < a->elements.size(); ++i) {
        if (i > 0) out += ", ";
        PLUGRT_RETURN_IF_ERROR(Write(a->elements[i], depth + 1));
      }
      out += "]";
      return OkStatus();
    case BcAttr::Kind::kBool:
      out += a->bool_value ? "true" : "false";
      return OkStatus();
    case BcAttr::Kind::kString:
      out += QuoteMlirString(a->str);
      return OkStatus();
    case BcAttr::Kind::kInteger:
      if (a->type->text[0] == 'u') {
        out += StrCat(static_cast<uint64_t>(a->int_value), " : ", a->type->text);
      } else {
        out += StrCat(a->int_value, " : ", a->type->text);
      }
      return OkStatus();
    case BcAttr::Kind::kSymbolRef:
      out += MeshSymbolText(a->str);
      return OkStatus();
    case BcAttr::Kind::kTensor:
      out += "dense<" + DenseLiteralText(a) + "> : " + a->type->text;
      return OkStatus();
    case BcAttr::Kind::kSdy:
      if (a->family == "sub_axis_info") return Body(a, depth);
      out += "#stablehlo." + a->family + "<";
      PLUGRT_RETURN_IF_ERROR(Body(a, depth));
      out += ">";
      return OkStatus();
    default:
      return InvalidArgument("bytecode: attribute kind ", static_cast<int>(a->kind),
                             " inside a mesh attribute has no StableHLO form plugrt reads");
  }
}

// The fields of a mesh attribute (`sub_axis_info`: its `(pre)size`).
Status MeshTextWriter::Body(const BcAttr* a, int depth) {
  if (a->family == "sub_axis_info") {
    out += StrCat("(", a->ints[0], ")", a->ints[1]);
    return OkStatus();
  }
  if (a->family == "axis_ref") {
    out += "name = " + QuoteMlirString(a->elements[0]->str);
    if (a->elements.size() > 1) {
      out += ", sub_axis_info = ";
      PLUGRT_RETURN_IF_ERROR(Write(a->elements[1], depth + 1));
    }
    return OkStatus();
  }
  if (a->family == "replica_group_mesh_axes") {
    out += "mesh = ";
    const BcAttr* mesh = a->elements[0];
    if (mesh->kind == BcAttr::Kind::kString) {
      out += MeshSymbolText(mesh->str);
    } else {
      PLUGRT_RETURN_IF_ERROR(Write(mesh, depth + 1));
    }
    out += ", axes = ";
    return Write(a->elements[1], depth + 1);
  }
  if (a->family == "mesh_axis") {
    out += "name = ";
    PLUGRT_RETURN_IF_ERROR(Write(a->elements[0], depth + 1));
    out += StrCat(", size = ", a->int_value);
    return OkStatus();
  }
  out += "axes = ";  // mesh
  PLUGRT_RETURN_IF_ERROR(Write(a->elements[0], depth + 1));
  if (a->elements.size() > 1) {
    out += ", device_ids = ";
    PLUGRT_RETURN_IF_ERROR(Write(a->elements[1], depth + 1));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::string> MeshAttrBody(const BcAttr* attr) {
  MeshTextWriter writer;
  PLUGRT_RETURN_IF_ERROR(writer.Body(attr, 0));
  return std::move(writer.out);
}

std::string DenseLiteralText(const BcAttr* a) {
  if (a->data.empty()) return "";
  if (IsIndexVector(a->type) && a->data.size() % 8 == 0) {
    std::string list;
    for (size_t i = 0; i < a->data.size(); i += 8) {
      int64_t v = 0;
      std::memcpy(&v, a->data.data() + i, 8);
      list += StrCat(i == 0 ? "" : ", ", v);
    }
    return a->data.size() == 8 ? list : "[" + list + "]";
  }
  static const char* kHexDigits = "0123456789ABCDEF";
  std::string hex = "\"0x";
  hex.reserve(a->data.size() * 2 + 4);
  for (char c : a->data) {
    auto u = static_cast<unsigned char>(c);
    hex += kHexDigits[u >> 4];
    hex += kHexDigits[u & 15];
  }
  return hex + "\"";
}

}  // namespace plugrt::shlo::bytecode
