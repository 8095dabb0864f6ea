// plugrt StableHLO bytecode: VHLO -> StableHLO. The decoded artifact is
// written out as StableHLO generic-form text, following upstream's VHLO to
// StableHLO legalization (defaults dropped, dimension-number attributes
// folded into their #stablehlo structs, channel ids into channel handles,
// i64 tensors into dense arrays), and read by the text parser, so a program
// read from bytecode has exactly the normal form its .mlir twin has. Source
// locations are then set from the bytecode's.
//
// Size: one converter, a function per op family and attribute kind. The
// text it writes is the one round trip left in a compile: building IR
// directly here would remove it (issue 31).
#include "compiler/importers/bytecode/reader.h"

#include <cctype>
#include <cstring>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_map>

#include "compiler/importers/bytecode/container.h"
#include "compiler/importers/bytecode/vhlo_codes.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {
namespace {

using bytecode::BcAttr;
using bytecode::BcBlock;
using bytecode::BcFile;
using bytecode::BcOp;
using bytecode::BcType;

std::string Quote(std::string_view s) { return bytecode::QuoteMlirString(s); }

// tensor<Nxindex>.
bool IsRankOneIndexTensor(std::string_view text) {
  constexpr std::string_view kHead = "tensor<", kTail = "xindex>";
  if (text.size() <= kHead.size() + kTail.size() || !text.starts_with(kHead) ||
      !text.ends_with(kTail)) {
    return false;
  }
  std::string_view n = text.substr(kHead.size(), text.size() - kHead.size() - kTail.size());
  for (char c : n) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// `@name`, quoted only when the name is not a bare identifier (as MLIR
// prints symbols, and as attributes kept as text compare).
std::string SymbolText(std::string_view name) {
  bool bare = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    bare = bare && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
                    c == '.' || c == '-');
  }
  return bare ? StrCat("@", name) : StrCat("@", Quote(name));
}

// Decimal text of a float of `type` that the text parser reads back to the
// value MLIR's printer would show: the shortest %e form that rounds to the
// same bits (as MLIR prints), hex for other widths and non-finite values.
std::string FloatText(uint64_t bits, const BcType* type) {
  char buf[64];
  if (type->text == "f64") {
    double v = std::bit_cast<double>(bits);
    if (std::isfinite(v)) {
      for (int p = 6; p <= 17; ++p) {
        std::snprintf(buf, sizeof(buf), "%.*e", p, v);
        if (std::strtod(buf, nullptr) == v) return buf;
      }
    }
  } else if (type->text == "f32") {
    float v = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (std::isfinite(v)) {
      for (int p = 6; p <= 9; ++p) {
        std::snprintf(buf, sizeof(buf), "%.*e", p, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) return buf;
      }
    }
  }
  int digits = std::max(1, (type->bits + 3) / 4);
  std::snprintf(buf, sizeof(buf), "0x%0*llX", digits, static_cast<unsigned long long>(bits));
  return buf;
}

const BcType& F64() {
  static const BcType* type = [] {
    auto* t = new BcType();
    t->text = "f64";
    t->bits = 64;
    t->is_float = true;
    return t;
  }();
  return *type;
}

class Converter {
 public:
  Converter(const BcFile& file, size_t input_size)
      : file_(file), max_text_(input_size * 64 + (size_t{1} << 24)) {}

  Status Run(std::string* text);
  std::vector<const BcAttr*>& locations() { return locations_; }

 private:
  Status Err(const BcOp& op, std::string_view what) {
    return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", what);
  }
  Status Attr(const BcAttr* a, std::string* out);
  Status SdyAttr(const BcAttr* a, std::string* out);
  Status AttrDict(const std::vector<std::pair<std::string, const BcAttr*>>& attrs,
                  std::string* out);
  Status Function(const BcOp& op);
  Status Op(const BcOp& op, int indent, bool in_function_body);
  Status OpAttributes(const BcOp& op, std::vector<std::pair<std::string, std::string>>* out);
  std::string Use(int64_t id);

  const BcFile& file_;
  size_t max_text_;
  std::string out_;
  std::vector<const BcAttr*> locations_;  // functions and ops, in text order
  std::vector<std::pair<int64_t, int>> result_names_;  // value id -> (first id, index)
  std::unordered_map<int64_t, const BcType*> value_types_;
};

std::string ValueName(int64_t id) { return StrCat("%v", id); }

std::string Converter::Use(int64_t id) {
  // Results of a multi-result op are named %vFIRST#i.
  auto it = std::lower_bound(result_names_.begin(), result_names_.end(),
                             std::make_pair(id, INT32_MIN));
  if (it != result_names_.end() && it->first == id && it->second >= 0) {
    return StrCat(ValueName(id - it->second), "#", it->second);
  }
  return ValueName(id);
}

Status Converter::Attr(const BcAttr* a, std::string* out) {
  // Shared attributes expand at each use: bound the text they make.
  if (out->size() + out_.size() > max_text_) {
    return InvalidArgument("bytecode: the program's text form would exceed ", max_text_,
                           " bytes (attributes repeated beyond any real program)");
  }
  switch (a->kind) {
    case BcAttr::Kind::kArray: {
      *out += "[";
      for (size_t i = 0; i < a->elements.size(); ++i) {
        if (i > 0) *out += ", ";
        PLUGRT_RETURN_IF_ERROR(Attr(a->elements[i], out));
      }
      *out += "]";
      return OkStatus();
    }
    case BcAttr::Kind::kBool:
      *out += a->bool_value ? "true" : "false";
      return OkStatus();
    case BcAttr::Kind::kEnum: {
      if (a->family == "api_version") {
        // StableHLO spells the custom-call API version as its number.
        std::optional<uint64_t> n =
            bytecode::VhloEnumValueNumber(*bytecode::FindVhloEnumByFamily("api_version"), a->str);
        if (n) *out += StrCat(*n, " : i32");
        return OkStatus();
      }
      if (a->family == "result_accuracy_mode") {
        *out += "#stablehlo.result_accuracy_mode<" + a->str + ">";
        return OkStatus();
      }
      *out += "#stablehlo<" + a->family + " " + a->str + ">";
      return OkStatus();
    }
    case BcAttr::Kind::kDictionary: {
      std::vector<std::pair<std::string, const BcAttr*>> entries;
      for (const auto& [k, v] : a->entries) entries.emplace_back(k->str, v);
      return AttrDict(entries, out);
    }
    case BcAttr::Kind::kFloat:
      *out += FloatText(a->bits, a->type) + " : " + a->type->text;
      return OkStatus();
    case BcAttr::Kind::kInteger:
      if (a->type->text[0] == 'u') {
        *out += StrCat(static_cast<uint64_t>(a->int_value), " : ", a->type->text);
      } else {
        *out += StrCat(a->int_value, " : ", a->type->text);
      }
      return OkStatus();
    case BcAttr::Kind::kOutputOperandAlias: {
      auto list = [](const std::vector<int64_t>& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
        return s + "]";
      };
      *out += "#stablehlo.output_operand_alias<output_tuple_indices = " + list(a->ints) +
              ", operand_index = " + std::to_string(a->int_value) +
              ", operand_tuple_indices = " + list(a->ints2) + ">";
      return OkStatus();
    }
    case BcAttr::Kind::kString:
      *out += Quote(a->str);
      return OkStatus();
    case BcAttr::Kind::kTensor: {
      if (a->data.empty()) {
        *out += "dense<> : " + a->type->text;
        return OkStatus();
      }
      // Index tensors (custom-call layouts) as MLIR prints them: the text
      // parser keeps their literal as written.
      if (IsRankOneIndexTensor(a->type->text) && a->data.size() % 8 == 0) {
        std::string list;
        for (size_t i = 0; i < a->data.size(); i += 8) {
          int64_t v = 0;
          std::memcpy(&v, a->data.data() + i, 8);
          list += StrCat(i == 0 ? "" : ", ", v);
        }
        *out += (a->data.size() == 8 ? "dense<" + list : "dense<[" + list + "]") + "> : " +
                a->type->text;
        return OkStatus();
      }
      static const char* kHex = "0123456789ABCDEF";
      std::string hex = "\"0x";
      for (char c : a->data) {
        auto u = static_cast<unsigned char>(c);
        hex += kHex[u >> 4];
        hex += kHex[u & 15];
      }
      *out += "dense<" + hex + "\"> : " + a->type->text;
      return OkStatus();
    }
    case BcAttr::Kind::kType:
      *out += a->type->text;
      return OkStatus();
    case BcAttr::Kind::kUnit:
      *out += "unit";
      return OkStatus();
    case BcAttr::Kind::kSymbolRef:
      *out += SymbolText(a->str);
      return OkStatus();
    case BcAttr::Kind::kResultAccuracy:
      *out += "#stablehlo.result_accuracy<atol = " +
              FloatText(a->atol_bits, &F64()) +
              ", rtol = " + FloatText(a->rtol_bits, &F64()) + ", ulps = " +
              std::to_string(a->int_value) + ", mode = #stablehlo.result_accuracy_mode<" +
              a->mode->str + ">>";
      return OkStatus();
    case BcAttr::Kind::kText:
      *out += a->str;
      return OkStatus();
    case BcAttr::Kind::kSdy:
      return SdyAttr(a, out);
    default:
      return InvalidArgument("bytecode: attribute kind ", static_cast<int>(a->kind),
                             " has no StableHLO form plugrt reads");
  }
}

// The attributes of collectives over mesh axes.
Status Converter::SdyAttr(const BcAttr* a, std::string* out) {
  if (a->family == "sub_axis_info") {
    *out += StrCat("(", a->ints[0], ")", a->ints[1]);
    return OkStatus();
  }
  if (a->family == "axis_ref") {
    *out += "#stablehlo.axis_ref<name = " + Quote(a->elements[0]->str);
    if (a->elements.size() > 1) {
      *out += ", sub_axis_info = ";
      PLUGRT_RETURN_IF_ERROR(SdyAttr(a->elements[1], out));
    }
    *out += ">";
    return OkStatus();
  }
  if (a->family == "replica_group_mesh_axes") {
    *out += "#stablehlo.replica_group_mesh_axes<mesh = ";
    const BcAttr* mesh = a->elements[0];
    if (mesh->kind == BcAttr::Kind::kString) {
      *out += SymbolText(mesh->str);
    } else {
      PLUGRT_RETURN_IF_ERROR(Attr(mesh, out));
    }
    *out += ", axes = ";
    PLUGRT_RETURN_IF_ERROR(Attr(a->elements[1], out));
    *out += ">";
    return OkStatus();
  }
  if (a->family == "mesh_axis") {
    *out += "#stablehlo.mesh_axis<name = ";
    PLUGRT_RETURN_IF_ERROR(Attr(a->elements[0], out));
    *out += StrCat(", size = ", a->int_value, ">");
    return OkStatus();
  }
  *out += "#stablehlo.mesh<axes = ";
  PLUGRT_RETURN_IF_ERROR(Attr(a->elements[0], out));
  if (a->elements.size() > 1) {
    *out += ", device_ids = ";
    PLUGRT_RETURN_IF_ERROR(Attr(a->elements[1], out));
  }
  *out += ">";
  return OkStatus();
}

Status Converter::AttrDict(const std::vector<std::pair<std::string, const BcAttr*>>& attrs,
                           std::string* out) {
  *out += "{";
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += Quote(attrs[i].first);
    if (attrs[i].second->kind == BcAttr::Kind::kUnit) continue;
    *out += " = ";
    PLUGRT_RETURN_IF_ERROR(Attr(attrs[i].second, out));
  }
  *out += "}";
  return OkStatus();
}

// ---------------------------------------------------------------- op helpers

bool IsBool(const BcAttr* a, bool v) {
  return a && a->kind == BcAttr::Kind::kBool && a->bool_value == v;
}
bool IsInt(const BcAttr* a, int64_t v) {
  return a && a->kind == BcAttr::Kind::kInteger && a->int_value == v;
}
bool IsEmptyArray(const BcAttr* a) {
  return a && a->kind == BcAttr::Kind::kArray && a->elements.empty();
}
bool IsEmptyDict(const BcAttr* a) {
  return a && a->kind == BcAttr::Kind::kDictionary && a->entries.empty();
}
bool IsString(const BcAttr* a, std::string_view v) {
  return a && a->kind == BcAttr::Kind::kString && a->str == v;
}
bool IsEmptyTensor(const BcAttr* a) {
  return a && a->kind == BcAttr::Kind::kTensor && a->data.empty();
}
bool IsEnum(const BcAttr* a, std::string_view family, std::string_view value) {
  return a && a->kind == BcAttr::Kind::kEnum && a->family == family && a->str == value;
}
bool IsNoneType(const BcAttr* a) {
  return a && a->kind == BcAttr::Kind::kType && a->type->kind == BcType::Kind::kNone;
}

int64_t NumElements(const BcType* t) {
  int64_t n = 1;
  for (int64_t d : t->dims) {
    if (d < 0) return -1;
    if (d > 0 && n > (int64_t{1} << 40) / d) return -1;
    n *= d;
  }
  return n;
}

// The integer elements of a VHLO tensor attribute (splats expanded).
StatusOr<std::vector<int64_t>> TensorInts(const BcAttr* a) {
  if (a == nullptr || a->kind != BcAttr::Kind::kTensor ||
      a->type->element->kind != BcType::Kind::kElement || a->type->element->is_float) {
    return InvalidArgument("bytecode: expected an integer tensor attribute");
  }
  int bits = a->type->element->bits;
  size_t width = bits <= 8 ? 1 : static_cast<size_t>(bits / 8);
  int64_t n = NumElements(a->type);
  if (n < 0) return InvalidArgument("bytecode: integer tensor attribute of dynamic shape");
  // Attributes read as integer lists (dimensions, strides, paddings) are
  // small; a huge splat would only expand into a huge text.
  if (n > (int64_t{1} << 20)) {
    return InvalidArgument("bytecode: integer list attribute of ", a->type->text,
                           " has more than 2^20 elements");
  }
  size_t have = a->data.size() / width;
  if (a->data.size() % width != 0 || (have != static_cast<size_t>(n) && !(have == 1))) {
    return InvalidArgument("bytecode: tensor attribute of ", a->type->text, " has ",
                           a->data.size(), " bytes of data");
  }
  std::vector<int64_t> out;
  if (n > 0) out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    size_t at = have == 1 ? 0 : static_cast<size_t>(i) * width;
    uint64_t v = 0;
    for (size_t b = 0; b < width; ++b) {
      v |= static_cast<uint64_t>(static_cast<unsigned char>(a->data[at + b])) << (8 * b);
    }
    if (width < 8 && a->type->element->text[0] == 'i' && bits > 1 && (v >> (width * 8 - 1)) & 1) {
      v |= ~((uint64_t{1} << (width * 8)) - 1);
    }
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

std::string IntList(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

bool IsSplatTensor(const BcAttr* a, int64_t value) {
  StatusOr<std::vector<int64_t>> v = TensorInts(a);
  if (!v.ok() || v->empty()) return false;
  for (int64_t x : *v) {
    if (x != value) return false;
  }
  return true;
}

std::string BaseName(std::string_view vhlo_name) {
  std::string_view n = vhlo_name.substr(5);  // drop "vhlo."
  size_t v = n.rfind("_v");
  return std::string(n.substr(0, v));
}

Status Converter::OpAttributes(const BcOp& op, std::vector<std::pair<std::string, std::string>>* out) {
  const std::string base = BaseName(op.name);
  auto get = [&](std::string_view n) { return op.attribute(n); };
  std::vector<std::string> drop;
  auto erase = [&](std::initializer_list<const char*> names) {
    for (const char* n : names) drop.emplace_back(n);
  };
  // Defaults that StableHLO leaves out.
  if (base == "all_gather" || base == "all_reduce" || base == "reduce_scatter" ||
      base == "collective_reduce") {
    if (IsInt(get("channel_id"), 0)) erase({"channel_id"});
    if (IsBool(get("use_global_device_ids"), false)) erase({"use_global_device_ids"});
  }
  if (base == "all_to_all" || base == "collective_permute" || base == "collective_broadcast") {
    if (IsInt(get("channel_id"), 0)) erase({"channel_id"});
  }
  if (base == "collective_broadcast" || base == "collective_reduce") {
    if (IsBool(get("has_dynamic_root"), false)) erase({"has_dynamic_root"});
  }
  if (base == "cholesky" && IsBool(get("lower"), false)) erase({"lower"});
  if (base == "compare" && IsEnum(get("compare_type"), "comparison_type", "NOTYPE")) {
    erase({"compare_type"});
  }
  if (base == "composite") {
    if (IsInt(get("version"), 0)) erase({"version"});
    if (IsEmptyDict(get("composite_attributes"))) erase({"composite_attributes"});
  }
  auto precision_default = [&](const BcAttr* a) {
    if (a == nullptr || a->kind != BcAttr::Kind::kArray) return false;
    for (const BcAttr* e : a->elements) {
      if (!IsEnum(e, "precision", "DEFAULT")) return false;
    }
    return true;
  };
  if (base == "convolution" || base == "dynamic_conv") {
    if (IsSplatTensor(get("window_strides"), 1)) erase({"window_strides"});
    // dynamic_conv_v1's padding attribute became an operand in v2: zero
    // padding is what v2 means without it.
    if ((base == "convolution" || op.name == "vhlo.dynamic_conv_v1") &&
        IsSplatTensor(get("padding"), 0)) {
      erase({"padding"});
    }
    if (IsSplatTensor(get("lhs_dilation"), 1)) erase({"lhs_dilation"});
    if (IsSplatTensor(get("rhs_dilation"), 1)) erase({"rhs_dilation"});
    if (IsSplatTensor(get("window_reversal"), 0)) erase({"window_reversal"});
    if (precision_default(get("precision_config"))) erase({"precision_config"});
  }
  if (base == "custom_call") {
    if (IsBool(get("has_side_effect"), false)) erase({"has_side_effect"});
    if (IsString(get("backend_config"), "") || IsEmptyDict(get("backend_config"))) {
      erase({"backend_config"});
    }
    if (IsEnum(get("api_version"), "api_version", "API_VERSION_ORIGINAL")) erase({"api_version"});
    if (IsEmptyArray(get("called_computations"))) erase({"called_computations"});
    if (IsEmptyArray(get("operand_layouts")) && IsEmptyArray(get("result_layouts"))) {
      erase({"operand_layouts", "result_layouts"});
    }
    if (IsEmptyArray(get("output_operand_aliases"))) erase({"output_operand_aliases"});
    if (IsEmptyArray(get("result_tilings"))) erase({"result_tilings"});
  }
  if ((base == "dot_general" || base == "dot") && precision_default(get("precision_config"))) {
    erase({"precision_config"});
  }
  if (base == "dynamic_broadcast_in_dim") {
    if (IsEmptyTensor(get("known_expanding_dimensions"))) erase({"known_expanding_dimensions"});
    if (IsEmptyTensor(get("known_nonexpanding_dimensions"))) {
      erase({"known_nonexpanding_dimensions"});
    }
  }
  if ((base == "gather" || base == "dynamic_gather" || base == "scatter") &&
      IsBool(get("indices_are_sorted"), false)) {
    erase({"indices_are_sorted"});
  }
  if (base == "scatter" && IsBool(get("unique_indices"), false)) erase({"unique_indices"});
  if (base == "infeed") {
    if (IsString(get("infeed_config"), "")) erase({"infeed_config"});
    if (IsEmptyArray(get("layout"))) erase({"layout"});
  }
  if (base == "outfeed" && IsString(get("outfeed_config"), "")) erase({"outfeed_config"});
  if (base == "recv" || base == "send") {
    if (IsBool(get("is_host_transfer"), false)) erase({"is_host_transfer"});
    if (IsEmptyTensor(get("source_target_pairs"))) erase({"source_target_pairs"});
  }
  if (base == "reduce_window") {
    if (IsSplatTensor(get("window_strides"), 1)) erase({"window_strides"});
    if (IsSplatTensor(get("base_dilations"), 1)) erase({"base_dilations"});
    if (IsSplatTensor(get("window_dilations"), 1)) erase({"window_dilations"});
    if (IsSplatTensor(get("padding"), 0)) erase({"padding"});
  }
  if (base == "select_and_scatter") {
    if (IsSplatTensor(get("window_strides"), 1)) erase({"window_strides"});
    if (IsSplatTensor(get("padding"), 0)) erase({"padding"});
  }
  if (base == "sort") {
    if (IsInt(get("dimension"), -1)) erase({"dimension"});
    if (IsBool(get("is_stable"), false)) erase({"is_stable"});
  }
  if (const BcAttr* ra = get("result_accuracy")) {
    if (ra->kind == BcAttr::Kind::kResultAccuracy && ra->atol_bits << 1 == 0 &&
        ra->rtol_bits << 1 == 0 && ra->int_value == 0 && ra->mode->str == "DEFAULT") {
      erase({"result_accuracy"});
    }
  }

  // Attributes folded into one StableHLO attribute.
  auto ints = [&](const char* n) -> StatusOr<std::vector<int64_t>> {
    const BcAttr* a = get(n);
    if (a == nullptr) return std::vector<int64_t>{};
    return TensorInts(a);
  };
  auto intv = [&](const char* n) -> StatusOr<int64_t> {
    const BcAttr* a = get(n);
    if (a == nullptr || a->kind != BcAttr::Kind::kInteger) {
      return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": attribute ", n,
                             " is missing or not an integer");
    }
    return a->int_value;
  };
  auto field = [](std::string* s, const char* name, const std::vector<int64_t>& v) {
    if (v.empty()) return;
    if (s->back() != '<') *s += ", ";
    *s += std::string(name) + " = " + IntList(v);
  };
  if (base == "convolution" || base == "dynamic_conv") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t ib, intv("input_batch_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t ifd, intv("input_feature_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> is, ints("input_spatial_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t ki, intv("kernel_input_feature_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t ko, intv("kernel_output_feature_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ks, ints("kernel_spatial_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t ob, intv("output_batch_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t of, intv("output_feature_dimension"));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> os, ints("output_spatial_dimensions"));
    auto layout = [&](int64_t a, const char* an, int64_t b, const char* bn,
                      const std::vector<int64_t>& sp) -> StatusOr<std::string> {
      size_t rank = sp.size() + 2;
      std::vector<std::string> slots(rank);
      auto put = [&](int64_t d, std::string v) -> Status {
        if (d < 0 || static_cast<size_t>(d) >= rank || !slots[d].empty()) {
          return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name,
                                 ": invalid convolution dimension numbers");
        }
        slots[d] = std::move(v);
        return OkStatus();
      };
      PLUGRT_RETURN_IF_ERROR(put(a, an));
      PLUGRT_RETURN_IF_ERROR(put(b, bn));
      for (size_t i = 0; i < sp.size(); ++i) PLUGRT_RETURN_IF_ERROR(put(sp[i], std::to_string(i)));
      std::string s = "[";
      for (size_t i = 0; i < rank; ++i) s += (i ? ", " : "") + slots[i];
      return s + "]";
    };
    PLUGRT_ASSIGN_OR_RETURN(std::string in, layout(ib, "b", ifd, "f", is));
    PLUGRT_ASSIGN_OR_RETURN(std::string k, layout(ki, "i", ko, "o", ks));
    PLUGRT_ASSIGN_OR_RETURN(std::string o, layout(ob, "b", of, "f", os));
    out->emplace_back("dimension_numbers", "#stablehlo.conv<" + in + "x" + k + "->" + o + ">");
    erase({"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
           "kernel_input_feature_dimension", "kernel_output_feature_dimension",
           "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
           "output_spatial_dimensions"});
  }
  if (base == "dot_general") {
    std::string s = "#stablehlo.dot<";
    for (const char* n : {"lhs_batching_dimensions", "rhs_batching_dimensions",
                          "lhs_contracting_dimensions", "rhs_contracting_dimensions"}) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
      field(&s, n, v);
    }
    out->emplace_back("dot_dimension_numbers", s + ">");
    erase({"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
           "rhs_contracting_dimensions"});
    if (get("lhs_precision_type") != nullptr && !IsNoneType(get("lhs_precision_type"))) {
      std::string alg = "#stablehlo.dot_algorithm<";
      const char* type_names[] = {"lhs_precision_type", "rhs_precision_type", "accumulation_type"};
      for (const char* n : type_names) {
        const BcAttr* a = get(n);
        if (a == nullptr || a->kind != BcAttr::Kind::kType) return Err(op, "bad dot algorithm");
        if (alg.back() != '<') alg += ", ";
        alg += std::string(n) + " = " + a->type->text;
      }
      for (const char* n : {"lhs_component_count", "rhs_component_count",
                            "num_primitive_operations"}) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t v, intv(n));
        alg += StrCat(", ", n, " = ", v);
      }
      const BcAttr* imprecise = get("allow_imprecise_accumulation");
      if (imprecise == nullptr || imprecise->kind != BcAttr::Kind::kBool) {
        return Err(op, "bad dot algorithm");
      }
      alg += StrCat(", allow_imprecise_accumulation = ", imprecise->bool_value ? "true" : "false");
      out->emplace_back("algorithm", alg + ">");
    }
    erase({"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
           "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"});
  }
  if (base == "gather" || base == "dynamic_gather") {
    std::string s = "#stablehlo.gather<";
    for (const char* n : {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                          "start_indices_batching_dims", "start_index_map"}) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
      field(&s, n, v);
    }
    PLUGRT_ASSIGN_OR_RETURN(int64_t ivd, intv("index_vector_dim"));
    // StableHLO prints an index_vector_dim of 0 by leaving it out.
    if (ivd != 0 || s.back() == '<') {
      s += StrCat(s.back() == '<' ? "" : ", ", "index_vector_dim = ", ivd);
    }
    s += ">";
    out->emplace_back("dimension_numbers", s);
    erase({"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
           "start_indices_batching_dims", "start_index_map", "index_vector_dim"});
  }
  if (base == "scatter") {
    std::string s = "#stablehlo.scatter<";
    for (const char* n : {"update_window_dims", "inserted_window_dims", "input_batching_dims",
                          "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
      field(&s, n, v);
    }
    PLUGRT_ASSIGN_OR_RETURN(int64_t ivd, intv("index_vector_dim"));
    // StableHLO prints an index_vector_dim of 0 by leaving it out.
    if (ivd != 0 || s.back() == '<') {
      s += StrCat(s.back() == '<' ? "" : ", ", "index_vector_dim = ", ivd);
    }
    s += ">";
    out->emplace_back("scatter_dimension_numbers", s);
    erase({"update_window_dims", "inserted_window_dims", "input_batching_dims",
           "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim"});
  }
  if (base == "send" || base == "recv") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t id, intv("channel_id"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t type, intv("channel_type"));
    out->emplace_back("channel_handle",
                      StrCat("#stablehlo.channel_handle<handle = ", id, ", type = ", type, ">"));
    erase({"channel_id", "channel_type"});
  }

  static const char* kDenseI64[][5] = {
      {"fft", "fft_length"},
      {"broadcast", "broadcast_sizes"},
      {"dynamic_slice", "slice_sizes"},
      {"reverse", "dimensions"},
      {"transpose", "permutation"},
      {"pad", "edge_padding_low", "edge_padding_high", "interior_padding"},
      {"slice", "start_indices", "limit_indices", "strides"},
      {"broadcast_in_dim", "broadcast_dimensions"},
      {"dynamic_broadcast_in_dim", "broadcast_dimensions", "known_expanding_dimensions",
       "known_nonexpanding_dimensions"},
      {"select_and_scatter", "window_dimensions", "window_strides"},
      {"reduce_window", "window_dimensions", "window_strides", "base_dilations",
       "window_dilations"},
      {"map", "dimensions"},
      {"reduce", "dimensions"},
      {"gather", "slice_sizes"},
      {"convolution", "lhs_dilation", "rhs_dilation", "window_strides"},
      {"dynamic_conv", "lhs_dilation", "rhs_dilation", "window_strides"},
  };
  auto dense_i64 = [&](std::string_view name) {
    for (const auto& row : kDenseI64) {
      if (base != row[0]) continue;
      for (int i = 1; i < 5 && row[i] != nullptr; ++i) {
        if (name == row[i]) return true;
      }
    }
    return false;
  };

  for (const auto& [name, value] : op.attributes) {
    if (std::find(drop.begin(), drop.end(), name) != drop.end()) continue;
    std::string out_name = name;
    std::string text;
    if ((name == "channel_id") &&
        (base == "all_gather" || base == "all_reduce" || base == "all_to_all" ||
         base == "collective_permute" || base == "reduce_scatter" ||
         base == "collective_broadcast" || base == "collective_reduce")) {
      PLUGRT_ASSIGN_OR_RETURN(int64_t id, intv("channel_id"));
      out_name = "channel_handle";
      text = StrCat("#stablehlo.channel_handle<handle = ", id, ", type = 0>");
    } else if ((name == "use_global_device_ids" || name == "has_dynamic_root") &&
               value->kind == BcAttr::Kind::kBool) {
      if (!value->bool_value) continue;
      text = "unit";
    } else if ((base == "custom_call" && name == "called_computations") ||
               (base == "composite" && name == "decomposition") ||
               (base == "call" && name == "callee")) {
      const std::string& attr_name = name;  // clang 14 cannot capture bindings
      auto symbol = [&](const BcAttr* s) -> StatusOr<std::string> {
        if (s->kind != BcAttr::Kind::kString) {
          return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", attr_name,
                                 " is not a symbol name");
        }
        return "@" + Quote(s->str);
      };
      if (value->kind == BcAttr::Kind::kArray) {
        text = "[";
        for (size_t i = 0; i < value->elements.size(); ++i) {
          PLUGRT_ASSIGN_OR_RETURN(std::string s, symbol(value->elements[i]));
          text += (i ? ", " : "") + s;
        }
        text += "]";
      } else {
        PLUGRT_ASSIGN_OR_RETURN(text, symbol(value));
      }
    } else if (dense_i64(name)) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, TensorInts(value));
      text = "array<i64";
      for (size_t i = 0; i < v.size(); ++i) text += (i ? ", " : ": ") + std::to_string(v[i]);
      text += ">";
    } else if (name == "window_reversal" && (base == "convolution" || base == "dynamic_conv")) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, TensorInts(value));
      text = "array<i1";
      for (size_t i = 0; i < v.size(); ++i) {
        text += std::string(i ? ", " : ": ") + (v[i] ? "true" : "false");
      }
      text += ">";
    } else if (value->kind == BcAttr::Kind::kUnit) {
      text = "unit";
    } else {
      PLUGRT_RETURN_IF_ERROR(Attr(value, &text));
    }
    out->emplace_back(out_name, text);
  }
  return OkStatus();
}

Status Converter::Op(const BcOp& op, int indent, bool in_function_body) {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  std::string name;
  if (op.name == "vhlo.return_v1") {
    name = in_function_body ? "func.return" : "stablehlo.return";
  } else if (op.name == "vhlo.call_v1") {
    name = "func.call";
  } else if (op.name.rfind("vhlo.", 0) == 0 && op.name != "vhlo.func_v1") {
    name = "stablehlo." + BaseName(op.name);
  } else {
    return Err(op, "is not an operation inside a function");
  }
  locations_.push_back(op.location);
  std::vector<std::pair<std::string, std::string>> attrs;
  PLUGRT_RETURN_IF_ERROR(OpAttributes(op, &attrs));
  out_ += pad;
  if (!op.result_ids.empty()) {
    out_ += ValueName(op.result_ids[0]);
    if (op.result_ids.size() > 1) {
      out_ += StrCat(":", op.result_ids.size());
      for (size_t i = 0; i < op.result_ids.size(); ++i) {
        result_names_.emplace_back(op.result_ids[i], static_cast<int>(i));
      }
      // Ids are handed out in order, so the table stays sorted.
    }
    out_ += " = ";
  }
  out_ += Quote(name) + "(";
  for (size_t i = 0; i < op.operand_ids.size(); ++i) {
    out_ += (i ? ", " : "") + Use(op.operand_ids[i]);
  }
  out_ += ")";
  if (!op.regions.empty()) {
    out_ += " (";
    for (size_t r = 0; r < op.regions.size(); ++r) {
      out_ += r ? ", {\n" : "{\n";
      const auto& blocks = op.regions[r].blocks;
      if (blocks.size() > 1) return Err(op, "regions with several blocks are not supported");
      for (const BcBlock& block : blocks) {
        if (!block.arg_ids.empty()) {
          out_ += pad + "^bb0(";
          for (size_t i = 0; i < block.arg_ids.size(); ++i) {
            out_ += (i ? ", " : "") + ValueName(block.arg_ids[i]) + ": " + block.arg_types[i]->text;
            value_types_[block.arg_ids[i]] = block.arg_types[i];
          }
          out_ += "):\n";
        }
        for (const auto& child : block.ops) PLUGRT_RETURN_IF_ERROR(Op(*child, indent + 1, false));
      }
      out_ += pad + "}";
    }
    out_ += ")";
  }
  if (!attrs.empty()) {
    out_ += " {";
    for (size_t i = 0; i < attrs.size(); ++i) {
      out_ += (i ? ", " : "") + Quote(attrs[i].first);
      if (attrs[i].second != "unit") out_ += " = " + attrs[i].second;
    }
    out_ += "}";
  }
  out_ += " : (";
  // Operand types come from their definitions; the text parser checks them.
  for (size_t i = 0; i < op.operand_ids.size(); ++i) {
    auto it = value_types_.find(op.operand_ids[i]);
    if (it == value_types_.end()) return Err(op, "operand of unknown type");
    out_ += (i ? ", " : "") + it->second->text;
  }
  out_ += ") -> ";
  if (op.result_types.size() != 1) out_ += "(";
  for (size_t i = 0; i < op.result_types.size(); ++i) {
    out_ += (i ? ", " : "") + op.result_types[i]->text;
    value_types_[op.result_ids[i]] = op.result_types[i];
  }
  if (op.result_types.size() != 1) out_ += ")";
  out_ += "\n";
  return OkStatus();
}

Status Converter::Function(const BcOp& op) {
  if (op.name != "vhlo.func_v1") return Err(op, "is not a function (vhlo.func_v1)");
  const BcAttr* sym = op.attribute("sym_name");
  const BcAttr* type = op.attribute("function_type");
  if (sym == nullptr || sym->kind != BcAttr::Kind::kString || type == nullptr ||
      type->kind != BcAttr::Kind::kType || type->type->kind != BcType::Kind::kFunction) {
    return Err(op, "function without a name or function type");
  }
  const BcType* ftype = type->type;
  const BcAttr* visibility = op.attribute("sym_visibility");
  auto per_value = [&](const char* n, size_t count) -> StatusOr<const BcAttr*> {
    const BcAttr* a = op.attribute(n);
    if (a == nullptr || IsEmptyArray(a)) return static_cast<const BcAttr*>(nullptr);
    if (a->kind != BcAttr::Kind::kArray || a->elements.size() != count) {
      return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", n,
                             " does not have one dictionary per value");
    }
    for (const BcAttr* e : a->elements) {
      if (e->kind != BcAttr::Kind::kDictionary) {
        return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", n,
                               " holds a non-dictionary");
      }
    }
    return a;
  };
  PLUGRT_ASSIGN_OR_RETURN(const BcAttr* arg_attrs, per_value("arg_attrs", ftype->types.size()));
  PLUGRT_ASSIGN_OR_RETURN(const BcAttr* res_attrs, per_value("res_attrs", ftype->results.size()));
  if (op.regions.size() != 1 || op.regions[0].blocks.size() > 1) {
    return Err(op, "function body must be one block");
  }
  static const BcBlock kNoBody;
  const bool declaration = op.regions[0].blocks.empty();
  const BcBlock& body = declaration ? kNoBody : op.regions[0].blocks[0];
  if (!declaration && body.arg_ids.size() != ftype->types.size()) {
    return Err(op, "function body arguments do not match its type");
  }
  locations_.push_back(op.location);
  out_ += "  func.func ";
  out_ += IsString(visibility, "private") ? "private " : "";
  out_ += "@" + Quote(sym->str) + "(";
  for (size_t i = 0; i < ftype->types.size(); ++i) {
    if (declaration) {
      out_ += (i ? ", " : "") + ftype->types[i]->text;
    } else {
      out_ += (i ? ", " : "") + ValueName(body.arg_ids[i]) + ": " + ftype->types[i]->text;
      value_types_[body.arg_ids[i]] = body.arg_types[i];
    }
    if (arg_attrs != nullptr && !arg_attrs->elements[i]->entries.empty()) {
      out_ += " ";
      PLUGRT_RETURN_IF_ERROR(Attr(arg_attrs->elements[i], &out_));
    }
  }
  out_ += ") -> (";
  for (size_t i = 0; i < ftype->results.size(); ++i) {
    out_ += (i ? ", " : "") + ftype->results[i]->text;
    if (res_attrs != nullptr && !res_attrs->elements[i]->entries.empty()) {
      out_ += " ";
      PLUGRT_RETURN_IF_ERROR(Attr(res_attrs->elements[i], &out_));
    }
  }
  out_ += ")";
  std::vector<std::pair<std::string, const BcAttr*>> extra;
  for (const auto& [n, a] : op.attributes) {
    if (n != "sym_name" && n != "function_type" && n != "sym_visibility" && n != "arg_attrs" &&
        n != "res_attrs") {
      extra.emplace_back(n, a);
    }
  }
  if (!extra.empty()) {
    out_ += " attributes ";
    PLUGRT_RETURN_IF_ERROR(AttrDict(extra, &out_));
  }
  if (declaration) {
    out_ += "\n";  // a declaration: the text parser decides whether it accepts one
    return OkStatus();
  }
  out_ += " {\n";
  for (const auto& child : body.ops) PLUGRT_RETURN_IF_ERROR(Op(*child, 2, true));
  out_ += "  }\n";
  if (out_.size() > max_text_) return Err(op, "text form too large");
  return OkStatus();
}

Status Converter::Run(std::string* text) {
  if (file_.top_ops.size() != 1 || file_.top_ops[0]->name != "builtin.module") {
    return InvalidArgument("bytecode: the artifact does not hold one builtin.module");
  }
  const BcOp& module = *file_.top_ops[0];
  locations_.push_back(module.location);
  out_ = "module";
  std::vector<std::pair<std::string, const BcAttr*>> attrs;
  for (const auto& [n, a] : module.attributes) {
    if (n == "sym_name" && a->kind == BcAttr::Kind::kString) {
      out_ += " @" + Quote(a->str);
    } else if (n != "sym_visibility") {
      attrs.emplace_back(n, a);
    }
  }
  if (!attrs.empty()) {
    out_ += " attributes ";
    PLUGRT_RETURN_IF_ERROR(AttrDict(attrs, &out_));
  }
  out_ += " {\n";
  if (module.regions.size() != 1) return Err(module, "module without one body region");
  for (const BcBlock& block : module.regions[0].blocks) {
    for (const auto& op : block.ops) PLUGRT_RETURN_IF_ERROR(Function(*op));
  }
  out_ += "}\n";
  *text = std::move(out_);
  return OkStatus();
}

// Sets the IR's locations from the bytecode's, walking functions and ops in
// the order the converter wrote them.
class LocationSetter {
 public:
  LocationSetter(const std::vector<const BcAttr*>& locs, std::string_view file_name)
      : locs_(locs), fallback_(std::make_shared<const std::string>(file_name)) {}

  void Set(Location* loc) {
    if (next_ >= locs_.size()) return;
    *loc = Convert(*locs_[next_++]);
  }
  void Walk(Region& region) {
    for (auto& block : region.blocks) {
      for (auto& op : block->operations) {
        Set(&op->location);
        for (auto& r : op->regions) Walk(*r);
      }
    }
  }

 private:
  // The one place bytecode locations become IR locations: the artifact
  // has no program text to point into, so the location is the source
  // location the bytecode records (file:line:col, names, call sites, fused).
  Location Convert(const BcAttr& a) {
    Location loc;
    loc.file = fallback_;
    if (a.str.empty() || a.str == "unknown") return loc;
    StatusOr<SourceLocationRef> source = ParseSourceLocation(a.str);
    if (source.ok()) loc.source = *source;
    return loc;
  }

  const std::vector<const BcAttr*>& locs_;
  size_t next_ = 0;
  std::shared_ptr<const std::string> fallback_;
};

}  // namespace

bool IsMlirBytecode(std::string_view bytes) { return bytecode::IsBytecode(bytes); }

StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<BcFile> file, bytecode::DecodeBytecode(bytes));
  Converter converter(*file, bytes.size());
  std::string text;
  PLUGRT_RETURN_IF_ERROR(converter.Run(&text));
  StatusOr<std::unique_ptr<Module>> module = ParseModule(text, file_name);
  if (!module.ok()) {
    return InvalidArgument("bytecode: ", file_name, ": the program read from bytecode (",
                           file->producer, ") is not valid StableHLO: ",
                           module.status().message());
  }
  LocationSetter setter(converter.locations(), file_name);
  setter.Set(&(*module)->location);
  for (auto& f : (*module)->functions) {
    setter.Set(&f->location);
    if (f->body) setter.Walk(*f->body);
  }
  return module;
}

}  // namespace plugrt::shlo
