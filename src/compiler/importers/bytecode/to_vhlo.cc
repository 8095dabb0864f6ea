// plugrt StableHLO bytecode: StableHLO -> VHLO (to_vhlo.h says what each op
// becomes).
//
// Size: one conversion per op family and attribute kind, each short, all
// reading the same version tables (vhlo_ops.h): split, the per-version
// defaults would be written in two places.
#include "compiler/importers/bytecode/to_vhlo.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "compiler/importers/bytecode/vhlo_codes.h"
#include "compiler/importers/bytecode/vhlo_ops.h"
#include "stablehlo/float_format.h"

namespace plugrt::shlo::bytecode {
namespace {

using AttrList = std::vector<std::pair<std::string, const BcAttr*>>;

bool InTable(const VhloOpInfo* info, std::string_view name) {
  if (info == nullptr) return false;
  for (std::string_view n : info->attributes) {
    if (n == name) return true;
  }
  return false;
}

// Structural equality of two attributes (a value against its default).
bool SameAttr(const BcAttr* a, const BcAttr* b);
bool SameType(const BcType* a, const BcType* b) {
  return a == b || (a != nullptr && b != nullptr && a->kind == b->kind && a->text == b->text);
}
bool SameAttr(const BcAttr* a, const BcAttr* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr || a->kind != b->kind || a->builtin != b->builtin ||
      a->family != b->family || a->str != b->str || a->bool_value != b->bool_value ||
      a->int_value != b->int_value || a->bits != b->bits || !SameType(a->type, b->type) ||
      a->ints != b->ints || a->ints2 != b->ints2 || a->data != b->data ||
      a->atol_bits != b->atol_bits || a->rtol_bits != b->rtol_bits ||
      a->elements.size() != b->elements.size() || a->entries.size() != b->entries.size() ||
      !SameAttr(a->mode, b->mode)) {
    return false;
  }
  for (size_t i = 0; i < a->elements.size(); ++i) {
    if (!SameAttr(a->elements[i], b->elements[i])) return false;
  }
  for (size_t i = 0; i < a->entries.size(); ++i) {
    if (!SameAttr(a->entries[i].first, b->entries[i].first) ||
        !SameAttr(a->entries[i].second, b->entries[i].second)) {
      return false;
    }
  }
  return true;
}

class ToVhlo {
 public:
  ToVhlo(VhloVersion target, BcFile* file) : target_(target), file_(file) {}

  Status Run(const Module& module);

 private:
  BcAttr* NewAttr(BcAttr::Kind kind) {
    file_->attr_storage.push_back(std::make_unique<BcAttr>());
    BcAttr* a = file_->attr_storage.back().get();
    a->kind = kind;
    return a;
  }
  BcType* NewType(BcType::Kind kind) {
    file_->type_storage.push_back(std::make_unique<BcType>());
    BcType* t = file_->type_storage.back().get();
    t->kind = kind;
    return t;
  }

  // Types.
  StatusOr<const BcType*> ConvertType(const Type& type);
  StatusOr<const BcType*> ParseTypeText(std::string_view text, size_t* pos);
  StatusOr<const BcType*> ElementType(std::string_view name);
  const BcType* TensorType(std::vector<int64_t> dims, const BcType* element);

  // Attributes.
  const BcAttr* Str(std::string s, bool builtin = false) {
    BcAttr* a = NewAttr(BcAttr::Kind::kString);
    a->str = std::move(s);
    a->builtin = builtin;
    return a;
  }
  const BcAttr* Int(int64_t v, std::string_view type = "i64") {
    BcAttr* a = NewAttr(BcAttr::Kind::kInteger);
    a->int_value = v;
    a->type = *ElementType(type);
    return a;
  }
  const BcAttr* Bool(bool v) {
    BcAttr* a = NewAttr(BcAttr::Kind::kBool);
    a->bool_value = v;
    return a;
  }
  const BcAttr* Array(std::vector<const BcAttr*> elements) {
    BcAttr* a = NewAttr(BcAttr::Kind::kArray);
    a->elements = std::move(elements);
    return a;
  }
  const BcAttr* Dict(const AttrList& entries) {
    BcAttr* a = NewAttr(BcAttr::Kind::kDictionary);
    for (const auto& [k, v] : entries) a->entries.emplace_back(Str(k), v);
    return a;
  }
  const BcAttr* TypeAttr(const BcType* t) {
    BcAttr* a = NewAttr(BcAttr::Kind::kType);
    a->type = t;
    return a;
  }
  const BcAttr* Enum(std::string_view family, std::string_view value) {
    BcAttr* a = NewAttr(BcAttr::Kind::kEnum);
    a->family = std::string(family);
    a->str = std::string(value);
    return a;
  }
  // An i64 (or, with `bool_elements`, i1) tensor of `dims` holding `values`.
  const BcAttr* IntTensor(const std::vector<int64_t>& values, std::vector<int64_t> dims,
                          bool bool_elements = false);
  const BcAttr* I64List(const std::vector<int64_t>& values) {
    return IntTensor(values, {static_cast<int64_t>(values.size())});
  }
  const BcAttr* Splat(int64_t value, std::vector<int64_t> dims, bool bool_elements = false) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return IntTensor(std::vector<int64_t>(static_cast<size_t>(n), value), std::move(dims),
                     bool_elements);
  }
  const BcAttr* Location(const SourceLocationRef& loc, int depth = 0);
  StatusOr<const BcAttr*> Attr(const Attribute& attr);
  StatusOr<const BcAttr*> DenseAttr(const Attribute& attr);
  StatusOr<const BcAttr*> StructAttr(const Attribute& attr);
  // Collectives over mesh axes (#stablehlo.replica_group_mesh_axes<...>, its
  // mesh, axis_ref, sub-axis info), which the IR keeps as text.
  StatusOr<const BcAttr*> MeshAttr(std::string_view family, std::string_view body);
  StatusOr<const BcAttr*> MeshAttrAt(std::string_view text, size_t* pos);

  // Ops.
  Status OpAttributes(const Operation& op, const std::string& base, const VhloOpInfo* newest,
                      std::unordered_map<std::string, const BcAttr*>* vattrs, AttrList* extra);
  const BcAttr* Default(const Operation& op, const std::string& base, std::string_view name);
  Status ConvertOp(const Operation& op, BcOp* out);
  Status ConvertRegion(const Region& region, BcRegion* out);
  Status ConvertFunction(const Function& f, BcOp* out);
  int64_t ValueId(const Value* v) {
    auto [it, inserted] = ids_.emplace(v, file_->num_values);
    if (inserted) ++file_->num_values;
    return it->second;
  }
  template <typename... Args>
  Status Refuse(const Args&... args) const {
    return InvalidArgument("writing StableHLO ", target_.ToString(), ": ", args...);
  }

  VhloVersion target_;
  BcFile* file_;
  std::unordered_map<const Value*, int64_t> ids_;
  std::unordered_map<std::string, const BcType*> element_types_;
};

// ------------------------------------------------------------------- types

StatusOr<const BcType*> ToVhlo::ElementType(std::string_view name) {
  auto it = element_types_.find(std::string(name));
  if (it != element_types_.end()) return it->second;
  const VhloElementInfo* info = FindVhloElementByName(name);
  if (info == nullptr) return Refuse("element type ", name, " has no VHLO form");
  BcType* t = NewType(BcType::Kind::kElement);
  t->text = std::string(name);
  t->bits = info->bits;
  t->is_float = info->is_float;
  element_types_.emplace(std::string(name), t);
  return t;
}

const BcType* ToVhlo::TensorType(std::vector<int64_t> dims, const BcType* element) {
  BcType* t = NewType(BcType::Kind::kTensor);
  t->dims = std::move(dims);
  t->element = element;
  t->text = "tensor<";
  for (int64_t d : t->dims) t->text += (d == kDynamicSize ? std::string("?") : std::to_string(d)) + "x";
  t->text += element->text + ">";
  return t;
}

StatusOr<const BcType*> ToVhlo::ConvertType(const Type& type) {
  if (type.kind() == Type::Kind::kUnsupported) {
    size_t pos = 0;
    const std::string& text = type.unsupported_text();
    PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ParseTypeText(text, &pos));
    if (pos != text.size()) return Refuse("type ", text, " has no VHLO form");
    return t;
  }
  std::string text = type.ToString();
  size_t pos = 0;
  return ParseTypeText(text, &pos);
}

// MLIR type spellings, as Type::ToString and the text parser keep them.
StatusOr<const BcType*> ToVhlo::ParseTypeText(std::string_view text, size_t* pos) {
  auto rest = [&] { return text.substr(*pos); };
  auto consume = [&](std::string_view s) {
    if (!rest().starts_with(s)) return false;
    *pos += s.size();
    return true;
  };
  auto skip_spaces = [&] {
    while (*pos < text.size() && text[*pos] == ' ') ++*pos;
  };
  auto type_list = [&](char close, std::vector<const BcType*>* out) -> Status {
    skip_spaces();
    if (*pos < text.size() && text[*pos] == close) {
      ++*pos;
      return OkStatus();
    }
    while (true) {
      skip_spaces();
      PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ParseTypeText(text, pos));
      out->push_back(t);
      skip_spaces();
      if (*pos < text.size() && text[*pos] == close) {
        ++*pos;
        return OkStatus();
      }
      if (!consume(",")) return Refuse("type ", text, " has no VHLO form");
    }
  };
  auto dims = [&](std::vector<int64_t>* out) {
    while (*pos < text.size()) {
      size_t save = *pos;
      int64_t d = 0;
      if (text[*pos] == '?') {
        d = kDynamicSize;
        ++*pos;
      } else {
        auto [end, ec] = std::from_chars(text.data() + *pos, text.data() + text.size(), d);
        if (ec != std::errc() || end == text.data() + *pos) break;
        *pos = static_cast<size_t>(end - text.data());
      }
      if (!consume("x")) {
        *pos = save;
        break;
      }
      out->push_back(d);
    }
  };
  if (consume("tensor<")) {
    if (consume("*x")) {
      BcType* t = NewType(BcType::Kind::kUnrankedTensor);
      PLUGRT_ASSIGN_OR_RETURN(t->element, ParseTypeText(text, pos));
      if (!consume(">")) return Refuse("type ", text, " has no VHLO form");
      t->text = "tensor<*x" + t->element->text + ">";
      return t;
    }
    std::vector<int64_t> d;
    dims(&d);
    PLUGRT_ASSIGN_OR_RETURN(const BcType* element, ParseTypeText(text, pos));
    if (consume(",")) {
      // An encoding: plugrt's IR keeps none (the text parser drops bounds).
      int depth = 0;
      while (*pos < text.size() && !(depth == 0 && text[*pos] == '>')) {
        depth += text[*pos] == '<' ? 1 : (text[*pos] == '>' ? -1 : 0);
        ++*pos;
      }
    }
    if (!consume(">")) return Refuse("type ", text, " has no VHLO form");
    return TensorType(std::move(d), element);
  }
  if (consume("memref<")) {
    BcType* t = NewType(BcType::Kind::kBuffer);
    dims(&t->dims);
    PLUGRT_ASSIGN_OR_RETURN(t->element, ParseTypeText(text, pos));
    if (!consume(">")) return Refuse("type ", text, " has no VHLO form");
    t->text = "memref<";
    for (int64_t d : t->dims) t->text += (d == kDynamicSize ? std::string("?") : std::to_string(d)) + "x";
    t->text += t->element->text + ">";
    return t;
  }
  if (consume("tuple<") || consume("!stablehlo.future<")) {
    bool tuple = text.substr(0, *pos).ends_with("tuple<");
    BcType* t = NewType(tuple ? BcType::Kind::kTuple : BcType::Kind::kFuture);
    PLUGRT_RETURN_IF_ERROR(type_list('>', &t->types));
    t->text = std::string(tuple ? "tuple<" : "!stablehlo.future<");
    for (size_t i = 0; i < t->types.size(); ++i) t->text += (i ? ", " : "") + t->types[i]->text;
    t->text += ">";
    return t;
  }
  if (consume("complex<")) {
    BcType* t = NewType(BcType::Kind::kComplex);
    PLUGRT_ASSIGN_OR_RETURN(t->element, ParseTypeText(text, pos));
    if (!consume(">")) return Refuse("type ", text, " has no VHLO form");
    t->text = "complex<" + t->element->text + ">";
    return t;
  }
  if (consume("!stablehlo.token")) {
    BcType* t = NewType(BcType::Kind::kToken);
    t->text = "!stablehlo.token";
    return t;
  }
  if (consume("!shape.witness")) {
    BcType* t = NewType(BcType::Kind::kText);
    t->text = "!shape.witness";
    return t;
  }
  if (consume("!quant.uniform<")) {
    size_t start = *pos - std::strlen("!quant.uniform<");
    int depth = 1;
    while (*pos < text.size() && depth > 0) {
      depth += text[*pos] == '<' ? 1 : (text[*pos] == '>' ? -1 : 0);
      ++*pos;
    }
    if (depth != 0) return Refuse("type ", text, " has no VHLO form");
    BcType* t = NewType(BcType::Kind::kQuantized);
    t->text = std::string(text.substr(start, *pos - start));
    return t;
  }
  size_t start = *pos;
  while (*pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[*pos])) ||
                                text[*pos] == '_')) {
    ++*pos;
  }
  std::string_view name = text.substr(start, *pos - start);
  if (name == "none") {
    BcType* t = NewType(BcType::Kind::kNone);
    t->text = "none";
    return t;
  }
  if (name.empty()) return Refuse("type ", text, " has no VHLO form");
  return ElementType(name);
}

// ------------------------------------------------------------- attributes

const BcAttr* ToVhlo::IntTensor(const std::vector<int64_t>& values, std::vector<int64_t> dims,
                                bool bool_elements) {
  BcAttr* a = NewAttr(BcAttr::Kind::kTensor);
  a->type = TensorType(std::move(dims), *ElementType(bool_elements ? "i1" : "i64"));
  for (int64_t v : values) {
    if (bool_elements) {
      a->data.push_back(v != 0 ? '\1' : '\0');
    } else {
      char bytes[8];
      std::memcpy(bytes, &v, 8);
      a->data.append(bytes, 8);
    }
  }
  return a;
}

// Locations are builtin attributes; `family` says which kind (the encoder
// reads it): "unknown", "file" (str, ints = line, column), "name" (str,
// one child), "callsite" (callee, caller), "fused" (parts).
const BcAttr* ToVhlo::Location(const SourceLocationRef& loc, int depth) {
  BcAttr* a = NewAttr(BcAttr::Kind::kLocation);
  a->builtin = true;
  const SourceLocation* l = loc.get();
  while (l != nullptr && l->kind == SourceLocation::Kind::kAlias) l = l->target.get();
  if (l == nullptr || depth > 64) {
    a->family = "unknown";
    return a;
  }
  switch (l->kind) {
    case SourceLocation::Kind::kFileLineCol:
      a->family = "file";
      a->str = l->text;
      a->ints = {l->line, l->column};
      break;
    case SourceLocation::Kind::kName:
      a->family = "name";
      a->str = l->text;
      a->elements.push_back(Location(l->children.empty() ? nullptr : l->children[0], depth + 1));
      break;
    case SourceLocation::Kind::kCallSite:
      a->family = "callsite";
      for (size_t i = 0; i < 2; ++i) {
        a->elements.push_back(Location(i < l->children.size() ? l->children[i] : nullptr, depth + 1));
      }
      break;
    case SourceLocation::Kind::kFused:
      a->family = "fused";
      for (const SourceLocationRef& part : l->children) a->elements.push_back(Location(part, depth + 1));
      break;
    default:
      a->family = "unknown";
      break;
  }
  return a;
}

StatusOr<const BcAttr*> ToVhlo::DenseAttr(const Attribute& attr) {
  BcAttr* a = NewAttr(BcAttr::Kind::kTensor);
  PLUGRT_ASSIGN_OR_RETURN(a->type, ConvertType(attr.type));
  if (a->type->kind != BcType::Kind::kTensor) {
    return Refuse("dense literal of type ", a->type->text, " has no VHLO form");
  }
  if (attr.dense != nullptr) {
    const auto* bytes = reinterpret_cast<const char*>(attr.dense->bytes.data());
    a->data.assign(bytes, attr.dense->bytes.size());
    return a;
  }
  // Literals of types the IR does not model (index tensors of custom-call
  // layouts) keep their text: integers only.
  if (a->type->element->text != "index") {
    return Refuse("dense literal of type ", a->type->text, " has no VHLO form");
  }
  std::string_view raw = attr.str;
  std::vector<int64_t> values;
  size_t i = 0;
  while (i < raw.size()) {
    char c = raw[i];
    if (c == '-' || (c >= '0' && c <= '9')) {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(raw.data() + i, raw.data() + raw.size(), v);
      if (ec != std::errc()) return Refuse("dense literal <", raw, "> of ", a->type->text);
      values.push_back(v);
      i = static_cast<size_t>(end - raw.data());
    } else if (c == '[' || c == ']' || c == ',' || c == ' ') {
      ++i;
    } else {
      return Refuse("dense literal <", raw, "> of ", a->type->text, " has no VHLO form");
    }
  }
  for (int64_t v : values) {
    char bytes[8];
    std::memcpy(bytes, &v, 8);
    a->data.append(bytes, 8);
  }
  return a;
}

StatusOr<const BcAttr*> ToVhlo::StructAttr(const Attribute& attr) {
  auto field = [&](std::string_view n) { return attr.field(n); };
  if (attr.str == "stablehlo.output_operand_alias") {
    BcAttr* a = NewAttr(BcAttr::Kind::kOutputOperandAlias);
    if (const Attribute* f = field("output_tuple_indices")) {
      PLUGRT_ASSIGN_OR_RETURN(a->ints, AttrToIntList(*f));
    }
    if (const Attribute* f = field("operand_index")) {
      PLUGRT_ASSIGN_OR_RETURN(a->int_value, AttrToInt(*f));
    }
    if (const Attribute* f = field("operand_tuple_indices")) {
      PLUGRT_ASSIGN_OR_RETURN(a->ints2, AttrToIntList(*f));
    }
    return a;
  }
  if (attr.str == "stablehlo.result_accuracy") {
    BcAttr* a = NewAttr(BcAttr::Kind::kResultAccuracy);
    double atol = 0, rtol = 0;
    std::string mode = "DEFAULT";
    if (const Attribute* f = field("atol")) {
      PLUGRT_ASSIGN_OR_RETURN(atol, AttrToFloat(*f));
    }
    if (const Attribute* f = field("rtol")) {
      PLUGRT_ASSIGN_OR_RETURN(rtol, AttrToFloat(*f));
    }
    if (const Attribute* f = field("ulps")) {
      PLUGRT_ASSIGN_OR_RETURN(a->int_value, AttrToInt(*f));
    }
    if (const Attribute* f = field("mode")) {
      PLUGRT_ASSIGN_OR_RETURN(mode, AttrToEnumValue(*f));
    }
    a->atol_bits = std::bit_cast<uint64_t>(atol);
    a->rtol_bits = std::bit_cast<uint64_t>(rtol);
    a->mode = Enum("result_accuracy_mode", mode);
    return a;
  }
  // Other structs (collectives over mesh axes, dialects VHLO lacks) keep
  // their MLIR spelling.
  BcAttr* a = NewAttr(BcAttr::Kind::kText);
  a->builtin = true;
  a->str = attr.ToString();
  return a;
}

namespace {

// A cursor over the text of a mesh attribute (the text parser's normalized
// spelling: single spaces, none inside brackets).
struct MeshText {
  std::string_view text;
  size_t* pos;
  void Spaces() {
    while (*pos < text.size() && text[*pos] == ' ') ++*pos;
  }
  bool Take(std::string_view s) {
    Spaces();
    if (text.substr(*pos).substr(0, s.size()) != s) return false;
    *pos += s.size();
    return true;
  }
  bool Int(int64_t* v) {
    Spaces();
    auto [end, ec] = std::from_chars(text.data() + *pos, text.data() + text.size(), *v);
    if (ec != std::errc()) return false;
    *pos = static_cast<size_t>(end - text.data());
    return true;
  }
  // A "quoted" string (escapes \\, \" and \XX) or a bare symbol name.
  bool Name(std::string* out) {
    Spaces();
    out->clear();
    if (*pos < text.size() && text[*pos] == '"') {
      for (++*pos; *pos < text.size(); ++*pos) {
        char c = text[*pos];
        if (c == '"') {
          ++*pos;
          return true;
        }
        if (c == '\\' && *pos + 1 < text.size()) {
          char n = text[++*pos];
          if (std::isxdigit(static_cast<unsigned char>(n)) && *pos + 1 < text.size()) {
            *out += static_cast<char>(std::stoi(std::string(text.substr(*pos, 2)), nullptr, 16));
            ++*pos;
          } else {
            *out += n;
          }
          continue;
        }
        *out += c;
      }
      return false;
    }
    while (*pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[*pos])) ||
                                  text[*pos] == '_' || text[*pos] == '.' || text[*pos] == '$' ||
                                  text[*pos] == '-')) {
      *out += text[(*pos)++];
    }
    return !out->empty();
  }
};

}  // namespace

StatusOr<const BcAttr*> ToVhlo::MeshAttr(std::string_view family, std::string_view body) {
  std::string text = StrCat("#", family, "<", body, ">");
  size_t pos = 0;
  PLUGRT_ASSIGN_OR_RETURN(const BcAttr* a, MeshAttrAt(text, &pos));
  if (pos != text.size()) return Refuse("attribute ", text, " has no VHLO form");
  return a;
}

StatusOr<const BcAttr*> ToVhlo::MeshAttrAt(std::string_view text, size_t* pos) {
  MeshText t{text, pos};
  auto bad = [&]() { return Refuse("attribute ", text, " has no VHLO form"); };
  BcAttr* a = NewAttr(BcAttr::Kind::kSdy);
  std::string name;
  // "a, b, ...]" after the list's "[": each a mesh attribute, as one array.
  auto take_axes = [&]() -> Status {
    std::vector<const BcAttr*> axes;
    while (!t.Take("]")) {
      if (!axes.empty() && !t.Take(",")) return bad();
      PLUGRT_ASSIGN_OR_RETURN(const BcAttr* axis, MeshAttrAt(text, pos));
      axes.push_back(axis);
    }
    a->elements.push_back(Array(std::move(axes)));
    return OkStatus();
  };
  if (t.Take("#stablehlo.replica_group_mesh_axes<")) {
    a->family = "replica_group_mesh_axes";
    if (!t.Take("mesh") || !t.Take("=")) return bad();
    if (t.Take("@")) {
      if (!t.Name(&name)) return bad();
      a->elements.push_back(Str(name));
    } else {
      PLUGRT_ASSIGN_OR_RETURN(const BcAttr* mesh, MeshAttrAt(text, pos));
      a->elements.push_back(mesh);
    }
    if (!t.Take(",") || !t.Take("axes") || !t.Take("=") || !t.Take("[")) return bad();
    PLUGRT_RETURN_IF_ERROR(take_axes());
  } else if (t.Take("#stablehlo.axis_ref<")) {
    a->family = "axis_ref";
    if (!t.Take("name") || !t.Take("=") || !t.Name(&name)) return bad();
    a->elements.push_back(Str(name));
    if (t.Take(",")) {
      int64_t pre = 0, size = 0;
      if (!t.Take("sub_axis_info") || !t.Take("=") || !t.Take("(") || !t.Int(&pre) ||
          !t.Take(")") || !t.Int(&size)) {
        return bad();
      }
      BcAttr* sub = NewAttr(BcAttr::Kind::kSdy);
      sub->family = "sub_axis_info";
      sub->ints = {pre, size};
      a->elements.push_back(sub);
    }
  } else if (t.Take("#stablehlo.mesh<")) {
    a->family = "mesh";
    if (!t.Take("axes") || !t.Take("=") || !t.Take("[")) return bad();
    PLUGRT_RETURN_IF_ERROR(take_axes());
    if (t.Take(",")) {
      return Refuse("the device_ids of ", text, " have no VHLO form plugrt writes");
    }
  } else if (t.Take("#stablehlo.mesh_axis<")) {
    a->family = "mesh_axis";
    if (!t.Take("name") || !t.Take("=") || !t.Name(&name) || !t.Take(",") || !t.Take("size") ||
        !t.Take("=") || !t.Int(&a->int_value)) {
      return bad();
    }
    a->elements.push_back(Str(name));
  } else {
    return bad();
  }
  if (!t.Take(">")) return bad();
  return a;
}

StatusOr<const BcAttr*> ToVhlo::Attr(const Attribute& attr) {
  switch (attr.kind) {
    case Attribute::Kind::kUnit: {
      BcAttr* a = NewAttr(BcAttr::Kind::kUnit);
      a->builtin = true;
      return a;
    }
    case Attribute::Kind::kBool:
      return Bool(attr.bool_value);
    case Attribute::Kind::kInteger: {
      PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(attr.type));
      if (t->kind != BcType::Kind::kElement || t->is_float || t->text == "i1") {
        return Refuse("integer attribute of type ", t->text, " has no VHLO form");
      }
      BcAttr* a = NewAttr(BcAttr::Kind::kInteger);
      a->type = t;
      a->int_value = attr.int_value;
      return a;
    }
    case Attribute::Kind::kFloat: {
      PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(attr.type));
      if (attr.type.kind() != Type::Kind::kElement || !IsFloat(attr.type.element_type())) {
        return Refuse("float attribute of type ", t->text, " has no VHLO form");
      }
      BcAttr* a = NewAttr(BcAttr::Kind::kFloat);
      a->type = t;
      a->bits = EncodeFloat(attr.type.element_type(), attr.float_value);
      return a;
    }
    case Attribute::Kind::kString:
      return Str(attr.str);
    case Attribute::Kind::kType: {
      PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(attr.type));
      return TypeAttr(t);
    }
    case Attribute::Kind::kSymbolRef: {
      BcAttr* a = NewAttr(BcAttr::Kind::kSymbolRef);
      a->builtin = true;
      a->str = attr.str;
      return a;
    }
    case Attribute::Kind::kArray: {
      std::vector<const BcAttr*> elements;
      for (const Attribute& e : attr.elements) {
        PLUGRT_ASSIGN_OR_RETURN(const BcAttr* v, Attr(e));
        elements.push_back(v);
      }
      return Array(std::move(elements));
    }
    case Attribute::Kind::kDenseArray: {
      bool is_bool = attr.type.kind() == Type::Kind::kElement &&
                     attr.type.element_type() == ElementType::kI1;
      if (!attr.floats.empty()) return Refuse("a dense array of floats has no VHLO form");
      return IntTensor(attr.ints, {static_cast<int64_t>(attr.ints.size())}, is_bool);
    }
    case Attribute::Kind::kDenseElements:
      return DenseAttr(attr);
    case Attribute::Kind::kDictionary: {
      AttrList entries;
      for (const auto& [k, v] : attr.fields) {
        PLUGRT_ASSIGN_OR_RETURN(const BcAttr* value, Attr(v));
        entries.emplace_back(k, value);
      }
      return Dict(entries);
    }
    case Attribute::Kind::kEnum: {
      std::string_view family = attr.str;
      if (family.starts_with("stablehlo.")) family.remove_prefix(std::strlen("stablehlo."));
      if (FindVhloEnumByFamily(family) != nullptr && attr.str.starts_with("stablehlo.")) {
        return Enum(family, attr.enum_value);
      }
      if (attr.str == "stablehlo.replica_group_mesh_axes" || attr.str == "stablehlo.mesh" ||
          attr.str == "stablehlo.axis_ref" || attr.str == "stablehlo.mesh_axis") {
        return MeshAttr(attr.str, attr.enum_value);
      }
      BcAttr* a = NewAttr(BcAttr::Kind::kText);
      a->builtin = true;
      a->str = attr.ToString();
      return a;
    }
    case Attribute::Kind::kStruct:
      return StructAttr(attr);
  }
  return Refuse("attribute ", attr.ToString(), " has no VHLO form");
}

// --------------------------------------------------------------------- ops

// The number of spatial dimensions of a convolution (its lhs rank - 2) or
// the rank of a windowed op's first operand.
int64_t OperandRank(const Operation& op, size_t i = 0) {
  if (i >= op.operands.size() || !op.operands[i]->type.is_tensor()) return 0;
  return op.operands[i]->type.rank();
}

const BcAttr* ToVhlo::Default(const Operation& op, const std::string& base,
                              std::string_view name) {
  const bool conv = base == "convolution" || base == "dynamic_conv";
  const int64_t spatial = std::max<int64_t>(0, OperandRank(op) - 2);
  const int64_t rank = OperandRank(op);
  if (name == "channel_id") return Int(0);
  if (name == "use_global_device_ids" || name == "has_dynamic_root" || name == "lower" ||
      name == "indices_are_sorted" || name == "unique_indices" || name == "has_side_effect" ||
      name == "is_stable" || name == "is_host_transfer") {
    return Bool(false);
  }
  if (name == "compare_type") return Enum("comparison_type", "NOTYPE");
  if (base == "composite" && name == "version") return Int(0);
  if (name == "composite_attributes") return Dict({});
  if (name == "precision_config") {
    return Array({Enum("precision", "DEFAULT"), Enum("precision", "DEFAULT")});
  }
  if (conv) {
    if (name == "window_strides" || name == "lhs_dilation" || name == "rhs_dilation") {
      return Splat(1, {spatial});
    }
    if (name == "padding") return Splat(0, {spatial, 2});
    if (name == "window_reversal") return Splat(0, {spatial}, true);
    if (name == "feature_group_count" || name == "batch_group_count") return Int(1);
  }
  if (base == "reduce_window" || base == "select_and_scatter") {
    if (name == "window_strides" || name == "base_dilations" || name == "window_dilations") {
      return Splat(1, {rank});
    }
    if (name == "padding") return Splat(0, {rank, 2});
  }
  if (base == "custom_call") {
    if (name == "api_version") return Enum("api_version", "API_VERSION_ORIGINAL");
    if (name == "backend_config") {
      // Typed-FFI calls take a dictionary; the others a string.
      const Attribute* api = op.attribute("api_version");
      if (api != nullptr && api->kind == Attribute::Kind::kInteger && api->int_value == 4) {
        return Dict({});
      }
      return Str("");
    }
    if (name == "called_computations" || name == "operand_layouts" ||
        name == "result_layouts" || name == "output_operand_aliases" || name == "result_tilings") {
      return Array({});
    }
  }
  if (base == "dot_general") {
    if (name.ends_with("_dimensions")) return I64List({});
    if (name == "lhs_precision_type" || name == "rhs_precision_type" ||
        name == "accumulation_type" || name == "lhs_component_count" ||
        name == "rhs_component_count" || name == "num_primitive_operations" ||
        name == "allow_imprecise_accumulation") {
      BcType* none = NewType(BcType::Kind::kNone);
      none->text = "none";
      return TypeAttr(none);
    }
  }
  if (name == "known_expanding_dimensions" || name == "known_nonexpanding_dimensions" ||
      name == "operand_batching_dims" || name == "start_indices_batching_dims" ||
      name == "input_batching_dims" || name == "scatter_indices_batching_dims" ||
      name == "offset_dims" || name == "collapsed_slice_dims" || name == "start_index_map" ||
      name == "update_window_dims" || name == "inserted_window_dims" ||
      name == "scatter_dims_to_operand_dims" || name == "source_target_pairs") {
    return I64List({});
  }
  // #stablehlo.gather/scatter leave out an index_vector_dim of 0.
  if (name == "index_vector_dim") return Int(0);
  if (name == "infeed_config" || name == "outfeed_config") return Str("");
  if (name == "layout") return Array({});
  if (base == "sort" && name == "dimension") return Int(-1);
  if (name == "result_accuracy") {
    BcAttr* a = NewAttr(BcAttr::Kind::kResultAccuracy);
    a->mode = Enum("result_accuracy_mode", "DEFAULT");
    return a;
  }
  return nullptr;
}

Status ToVhlo::OpAttributes(const Operation& op, const std::string& base,
                            const VhloOpInfo* newest,
                            std::unordered_map<std::string, const BcAttr*>* vattrs,
                            AttrList* extra) {
  auto set = [&](std::string name, const BcAttr* value) { (*vattrs)[std::move(name)] = value; };
  // Fields of a #stablehlo struct: integer lists as i64 tensors, integers
  // as i64, the rest as themselves.
  auto expand = [&](const Attribute& s) -> Status {
    for (const auto& [fname, fvalue] : s.fields) {
      if (fvalue.kind == Attribute::Kind::kArray || fvalue.kind == Attribute::Kind::kDenseArray) {
        PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, AttrToIntList(fvalue));
        set(fname, I64List(v));
      } else if (fvalue.kind == Attribute::Kind::kInteger) {
        set(fname, Int(fvalue.int_value));
      } else if (fvalue.kind == Attribute::Kind::kType) {
        PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(fvalue.type));
        set(fname, TypeAttr(t));
      } else {
        PLUGRT_ASSIGN_OR_RETURN(const BcAttr* v, Attr(fvalue));
        set(fname, v);
      }
    }
    return OkStatus();
  };
  for (const auto& [name, value] : op.attributes) {
    const bool in_table = InTable(newest, name);
    if (value.kind == Attribute::Kind::kStruct &&
        ((name == "dimension_numbers" &&
          (base == "convolution" || base == "dynamic_conv" || base == "gather" ||
           base == "dynamic_gather")) ||
         (name == "dot_dimension_numbers" && base == "dot_general") ||
         (name == "algorithm" && base == "dot_general") ||
         (name == "scatter_dimension_numbers" && base == "scatter"))) {
      PLUGRT_RETURN_IF_ERROR(expand(value));
      continue;
    }
    if (name == "channel_handle" && value.kind == Attribute::Kind::kStruct) {
      const Attribute* handle = value.field("handle");
      const Attribute* type = value.field("type");
      int64_t h = 0, t = 0;
      if (handle) {
        PLUGRT_ASSIGN_OR_RETURN(h, AttrToInt(*handle));
      }
      if (type) {
        PLUGRT_ASSIGN_OR_RETURN(t, AttrToInt(*type));
      }
      set("channel_id", Int(h));
      if (base == "send" || base == "recv") set("channel_type", Int(t));
      continue;
    }
    if (base == "custom_call" && name == "api_version" && value.kind == Attribute::Kind::kInteger) {
      const VhloEnumInfo* info = FindVhloEnumByFamily("api_version");
      std::optional<std::string_view> v =
          value.int_value < 0 ? std::nullopt
                              : VhloEnumValueName(*info, static_cast<uint64_t>(value.int_value));
      if (!v) return Refuse(op.name, ": api_version ", value.int_value, " has no VHLO form");
      set(name, Enum("api_version", *v));
      continue;
    }
    if (in_table && value.kind == Attribute::Kind::kSymbolRef) {
      set(name, Str(value.str));
      continue;
    }
    if (in_table && value.kind == Attribute::Kind::kArray && !value.elements.empty() &&
        value.elements[0].kind == Attribute::Kind::kSymbolRef) {
      std::vector<const BcAttr*> names;
      for (const Attribute& e : value.elements) names.push_back(Str(e.str));
      set(name, Array(std::move(names)));
      continue;
    }
    if (in_table && value.kind == Attribute::Kind::kUnit) {
      set(name, Bool(true));
      continue;
    }
    PLUGRT_ASSIGN_OR_RETURN(const BcAttr* v, Attr(value));
    if (in_table) {
      set(name, v);
    } else {
      extra->emplace_back(name, v);
    }
  }
  return OkStatus();
}

Status ToVhlo::ConvertRegion(const Region& region, BcRegion* out) {
  for (const auto& block : region.blocks) {
    BcBlock& b = out->blocks.emplace_back();
    for (const auto& arg : block->arguments) {
      b.arg_ids.push_back(ValueId(arg.get()));
      PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(arg->type));
      b.arg_types.push_back(t);
    }
    for (const auto& child : block->operations) {
      auto op = std::make_unique<BcOp>();
      PLUGRT_RETURN_IF_ERROR(ConvertOp(*child, op.get()));
      b.ops.push_back(std::move(op));
    }
  }
  return OkStatus();
}

Status ToVhlo::ConvertOp(const Operation& op, BcOp* out) {
  std::string base;
  if (op.name == "func.return" || op.name == "stablehlo.return") {
    base = "return";
  } else if (op.name == "func.call") {
    base = "call";
  } else if (op.name.starts_with("stablehlo.")) {
    base = op.name.substr(std::strlen("stablehlo."));
  } else {
    return Refuse("op ", op.name, " has no VHLO form (a portable artifact holds StableHLO ops",
                  op.name.starts_with("chlo.") ? "; lower CHLO first" : "", ")");
  }
  const VhloOpInfo* first = nullptr;
  const VhloOpInfo* info = FindVhloOpAt(base, target_, &first);
  if (info == nullptr) {
    if (first != nullptr) {
      return Refuse("op ", op.name, " first exists in StableHLO ", first->min.ToString(),
                    " (vhlo.", first->name, "); StableHLO ", target_.ToString(),
                    " cannot express it");
    }
    return Refuse("op ", op.name, " has no VHLO form");
  }
  const VhloOpInfo* newest = FindVhloOpAt(base, kCurrentVhloVersion);
  out->name = StrCat("vhlo.", info->name);
  out->location = Location(op.location.source);

  std::unordered_map<std::string, const BcAttr*> vattrs;
  AttrList extra;
  PLUGRT_RETURN_IF_ERROR(OpAttributes(op, base, newest, &vattrs, &extra));
  for (std::string_view n : newest->attributes) {
    if (n.empty()) break;
    if (vattrs.count(std::string(n))) continue;
    const BcAttr* d = Default(op, base, n);
    if (d == nullptr) return Refuse(op.name, " lacks its attribute ", n);
    vattrs.emplace(std::string(n), d);
  }
  // Attributes newer than the target's op version: only their default
  // value can be left out.
  for (const auto& [n, v] : vattrs) {
    if (InTable(info, n)) continue;
    const BcAttr* d = Default(op, base, n);
    if (d == nullptr || !SameAttr(v, d)) {
      return Refuse(op.name, ": attribute ", n, " needs vhlo.", newest->name, " (StableHLO ",
                    newest->min.ToString(), "); vhlo.", info->name, " of StableHLO ",
                    target_.ToString(), " cannot express it");
    }
  }
  // Older op versions' operand and region rules.
  if ((info->name == "all_gather_v1" || info->name == "all_reduce_v1" ||
       info->name == "all_to_all_v1") &&
      op.operands.size() > 1) {
    return Refuse(op.name, " with ", op.operands.size(), " operands needs StableHLO 1.5.0; vhlo.",
                  info->name, " takes one");
  }
  if (info->name == "composite_v1" && !op.regions.empty()) {
    return Refuse(op.name, " with regions needs StableHLO 1.14.0 (vhlo.composite_v2)");
  }
  for (std::string_view n : info->attributes) {
    if (n.empty()) break;
    auto it = vattrs.find(std::string(n));
    const BcAttr* v = it != vattrs.end() ? it->second : Default(op, base, n);
    if (v == nullptr) return Refuse(op.name, " lacks its attribute ", n);
    out->attributes.emplace_back(std::string(n), v);
  }
  for (auto& e : extra) out->attributes.push_back(std::move(e));

  for (const Value* operand : op.operands) out->operand_ids.push_back(ValueId(operand));
  for (const auto& r : op.results) {
    PLUGRT_ASSIGN_OR_RETURN(const BcType* t, ConvertType(r->type));
    out->result_types.push_back(t);
  }
  for (const auto& region : op.regions) {
    PLUGRT_RETURN_IF_ERROR(ConvertRegion(*region, &out->regions.emplace_back()));
  }
  // Results are defined after the op's regions in reading order, but their
  // ids only need to be unique.
  for (const auto& r : op.results) out->result_ids.push_back(ValueId(r.get()));
  return OkStatus();
}

Status ToVhlo::ConvertFunction(const Function& f, BcOp* out) {
  out->name = "vhlo.func_v1";
  out->location = Location(f.location.source);
  BcType* ftype = NewType(BcType::Kind::kFunction);
  for (const Type& t : f.input_types) {
    PLUGRT_ASSIGN_OR_RETURN(const BcType* v, ConvertType(t));
    ftype->types.push_back(v);
  }
  for (const Type& t : f.result_types) {
    PLUGRT_ASSIGN_OR_RETURN(const BcType* v, ConvertType(t));
    ftype->results.push_back(v);
  }
  auto per_value = [&](const std::vector<std::vector<NamedAttribute>>& attrs,
                       size_t count) -> StatusOr<const BcAttr*> {
    bool any = false;
    for (const auto& a : attrs) any = any || !a.empty();
    if (!any) return Array({});
    std::vector<const BcAttr*> dicts;
    for (size_t i = 0; i < count; ++i) {
      AttrList entries;
      if (i < attrs.size()) {
        for (const auto& [k, v] : attrs[i]) {
          PLUGRT_ASSIGN_OR_RETURN(const BcAttr* value, Attr(v));
          entries.emplace_back(k, value);
        }
      }
      dicts.push_back(Dict(entries));
    }
    return Array(std::move(dicts));
  };
  PLUGRT_ASSIGN_OR_RETURN(const BcAttr* arg_attrs, per_value(f.arg_attributes, f.input_types.size()));
  PLUGRT_ASSIGN_OR_RETURN(const BcAttr* res_attrs,
                          per_value(f.result_attributes, f.result_types.size()));
  // In the func_v1 table's (name) order.
  out->attributes.emplace_back("arg_attrs", arg_attrs);
  out->attributes.emplace_back("function_type", TypeAttr(ftype));
  out->attributes.emplace_back("res_attrs", res_attrs);
  out->attributes.emplace_back("sym_name", Str(f.name));
  out->attributes.emplace_back("sym_visibility", Str(f.is_public ? "" : "private"));
  for (const auto& [k, v] : f.attributes) {
    if (k == "sym_visibility") continue;
    PLUGRT_ASSIGN_OR_RETURN(const BcAttr* value, Attr(v));
    out->attributes.emplace_back(k, value);
  }
  BcRegion& body = out->regions.emplace_back();
  if (f.body) PLUGRT_RETURN_IF_ERROR(ConvertRegion(*f.body, &body));
  return OkStatus();
}

Status ToVhlo::Run(const Module& module) {
  if (!module.meshes.empty()) {
    return Refuse("Shardy's sdy.mesh ", module.meshes[0].first,
                  " has no VHLO form (a portable artifact carries meshes as attributes)");
  }
  auto top = std::make_unique<BcOp>();
  top->name = "builtin.module";
  top->location = Location(module.location.source);
  if (!module.name.empty()) top->attributes.emplace_back("sym_name", Str(module.name, true));
  for (const auto& [k, v] : module.attributes) {
    PLUGRT_ASSIGN_OR_RETURN(const BcAttr* value, Attr(v));
    top->attributes.emplace_back(k, value);
  }
  BcBlock& block = top->regions.emplace_back().blocks.emplace_back();
  for (const auto& f : module.functions) {
    auto op = std::make_unique<BcOp>();
    PLUGRT_RETURN_IF_ERROR(ConvertFunction(*f, op.get()));
    block.ops.push_back(std::move(op));
  }
  file_->top_ops.push_back(std::move(top));
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<BcFile>> ModuleToVhlo(const Module& module, VhloVersion target) {
  auto file = std::make_unique<BcFile>();
  ToVhlo converter(target, file.get());
  PLUGRT_RETURN_IF_ERROR(converter.Run(module));
  return file;
}

}  // namespace plugrt::shlo::bytecode
