#include "compiler/importers/bytecode/op_attributes.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo::bytecode {
namespace {

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

bool IsSplatTensor(const BcAttr* a, int64_t value) {
  StatusOr<std::vector<int64_t>> v = TensorInts(a);
  if (!v.ok() || v->empty()) return false;
  for (int64_t x : *v) {
    if (x != value) return false;
  }
  return true;
}


}  // namespace

std::string VhloOpBaseName(std::string_view vhlo_name) {
  std::string_view n = vhlo_name.substr(5);  // drop "vhlo."
  size_t v = n.rfind("_v");
  return std::string(n.substr(0, v));
}

Status BuildOpAttributes(const BcOp& op, IrAttributes& attrs, std::vector<NamedAttribute>* out) {
  const std::string base = VhloOpBaseName(op.name);
  auto get = [&](std::string_view n) { return op.attribute(n); };
  auto err = [&](auto&&... what) {
    return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", what...);
  };
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


  // Attributes folded into one StableHLO attribute. Integer lists of the
  // #stablehlo structs are i64 dense arrays, their integers i64, as the
  // text parser reads `#stablehlo.gather<offset_dims = [1], ...>`.
  auto ints = [&](const char* n) -> StatusOr<std::vector<int64_t>> {
    const BcAttr* a = get(n);
    if (a == nullptr) return std::vector<int64_t>{};
    return TensorInts(a);
  };
  auto intv = [&](const char* n) -> StatusOr<int64_t> {
    const BcAttr* a = get(n);
    if (a == nullptr || a->kind != BcAttr::Kind::kInteger) {
      return err("attribute ", n, " is missing or not an integer");
    }
    return a->int_value;
  };
  // Fields left out when empty, as StableHLO prints them.
  auto list_fields = [&](std::initializer_list<const char*> names,
                         std::vector<NamedAttribute>* fields) -> Status {
    for (const char* n : names) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
      if (!v.empty()) fields->emplace_back(n, Attribute::DenseI64Array(std::move(v)));
    }
    return OkStatus();
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
    // Each layout must place its two named dimensions and every spatial
    // dimension at distinct positions of one rank (the `[b, 0, 1, f]` form).
    auto layout = [&](int64_t a, const char* an, int64_t b, const char* bn,
                      const std::vector<int64_t>& sp,
                      std::vector<NamedAttribute>* fields) -> Status {
      const size_t rank = sp.size() + 2;
      std::vector<bool> used(rank, false);
      auto put = [&](int64_t d) -> Status {
        if (sp.size() > 65 || d < 0 || static_cast<size_t>(d) >= rank || used[d]) {
          return err("invalid convolution dimension numbers");
        }
        used[d] = true;
        return OkStatus();
      };
      PLUGRT_RETURN_IF_ERROR(put(a));
      PLUGRT_RETURN_IF_ERROR(put(b));
      for (int64_t d : sp) PLUGRT_RETURN_IF_ERROR(put(d));
      fields->emplace_back(an, Attribute::Integer(a));
      fields->emplace_back(bn, Attribute::Integer(b));
      return OkStatus();
    };
    std::vector<NamedAttribute> f;
    PLUGRT_RETURN_IF_ERROR(
        layout(ib, "input_batch_dimension", ifd, "input_feature_dimension", is, &f));
    f.emplace_back("input_spatial_dimensions", Attribute::DenseI64Array(is));
    PLUGRT_RETURN_IF_ERROR(layout(ki, "kernel_input_feature_dimension", ko,
                                  "kernel_output_feature_dimension", ks, &f));
    f.emplace_back("kernel_spatial_dimensions", Attribute::DenseI64Array(ks));
    PLUGRT_RETURN_IF_ERROR(
        layout(ob, "output_batch_dimension", of, "output_feature_dimension", os, &f));
    f.emplace_back("output_spatial_dimensions", Attribute::DenseI64Array(os));
    out->emplace_back("dimension_numbers", Attribute::Struct("stablehlo.conv", std::move(f)));
    erase({"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
           "kernel_input_feature_dimension", "kernel_output_feature_dimension",
           "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
           "output_spatial_dimensions"});
  }
  if (base == "dot_general") {
    std::vector<NamedAttribute> f;
    PLUGRT_RETURN_IF_ERROR(list_fields({"lhs_batching_dimensions", "rhs_batching_dimensions",
                                        "lhs_contracting_dimensions",
                                        "rhs_contracting_dimensions"},
                                       &f));
    out->emplace_back("dot_dimension_numbers", Attribute::Struct("stablehlo.dot", std::move(f)));
    erase({"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
           "rhs_contracting_dimensions"});
    if (get("lhs_precision_type") != nullptr && !IsNoneType(get("lhs_precision_type"))) {
      std::vector<NamedAttribute> alg;
      for (const char* n : {"lhs_precision_type", "rhs_precision_type", "accumulation_type"}) {
        const BcAttr* a = get(n);
        if (a == nullptr || a->kind != BcAttr::Kind::kType) return err("bad dot algorithm");
        PLUGRT_ASSIGN_OR_RETURN(Type type, attrs.TypeOf(a->type));
        alg.emplace_back(n, Attribute::TypeAttr(std::move(type)));
      }
      for (const char* n : {"lhs_component_count", "rhs_component_count",
                            "num_primitive_operations"}) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t v, intv(n));
        alg.emplace_back(n, Attribute::Integer(v));
      }
      const BcAttr* imprecise = get("allow_imprecise_accumulation");
      if (imprecise == nullptr || imprecise->kind != BcAttr::Kind::kBool) {
        return err("bad dot algorithm");
      }
      alg.emplace_back("allow_imprecise_accumulation", Attribute::Bool(imprecise->bool_value));
      out->emplace_back("algorithm", Attribute::Struct("stablehlo.dot_algorithm", std::move(alg)));
    }
    erase({"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
           "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"});
  }
  // StableHLO prints an index_vector_dim of 0 by leaving it out (unless the
  // struct would be empty).
  auto index_vector_dim = [&](std::vector<NamedAttribute>* f) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(int64_t ivd, intv("index_vector_dim"));
    if (ivd != 0 || f->empty()) f->emplace_back("index_vector_dim", Attribute::Integer(ivd));
    return OkStatus();
  };
  if (base == "gather" || base == "dynamic_gather") {
    std::vector<NamedAttribute> f;
    PLUGRT_RETURN_IF_ERROR(list_fields({"offset_dims", "collapsed_slice_dims",
                                        "operand_batching_dims", "start_indices_batching_dims",
                                        "start_index_map"},
                                       &f));
    PLUGRT_RETURN_IF_ERROR(index_vector_dim(&f));
    out->emplace_back("dimension_numbers", Attribute::Struct("stablehlo.gather", std::move(f)));
    erase({"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
           "start_indices_batching_dims", "start_index_map", "index_vector_dim"});
  }
  if (base == "scatter") {
    std::vector<NamedAttribute> f;
    PLUGRT_RETURN_IF_ERROR(list_fields({"update_window_dims", "inserted_window_dims",
                                        "input_batching_dims", "scatter_indices_batching_dims",
                                        "scatter_dims_to_operand_dims"},
                                       &f));
    PLUGRT_RETURN_IF_ERROR(index_vector_dim(&f));
    out->emplace_back("scatter_dimension_numbers",
                      Attribute::Struct("stablehlo.scatter", std::move(f)));
    erase({"update_window_dims", "inserted_window_dims", "input_batching_dims",
           "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim"});
  }
  auto channel_handle = [](int64_t handle, int64_t type) {
    return Attribute::Struct("stablehlo.channel_handle", {{"handle", Attribute::Integer(handle)},
                                                          {"type", Attribute::Integer(type)}});
  };
  if (base == "send" || base == "recv") {
    PLUGRT_ASSIGN_OR_RETURN(int64_t id, intv("channel_id"));
    PLUGRT_ASSIGN_OR_RETURN(int64_t type, intv("channel_type"));
    out->emplace_back("channel_handle", channel_handle(id, type));
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
    Attribute attr;
    if ((name == "channel_id") &&
        (base == "all_gather" || base == "all_reduce" || base == "all_to_all" ||
         base == "collective_permute" || base == "reduce_scatter" ||
         base == "collective_broadcast" || base == "collective_reduce")) {
      PLUGRT_ASSIGN_OR_RETURN(int64_t id, intv("channel_id"));
      out_name = "channel_handle";
      attr = channel_handle(id, 0);
    } else if ((name == "use_global_device_ids" || name == "has_dynamic_root") &&
               value->kind == BcAttr::Kind::kBool) {
      if (!value->bool_value) continue;
      attr = Attribute::Unit();
    } else if ((base == "custom_call" && name == "called_computations") ||
               (base == "composite" && name == "decomposition") ||
               (base == "call" && name == "callee")) {
      const std::string& attr_name = name;  // clang 14 cannot capture bindings
      auto symbol = [&](const BcAttr* s) -> StatusOr<Attribute> {
        if (s->kind != BcAttr::Kind::kString || s->str.empty()) {
          return err(attr_name, " is not a symbol name");
        }
        return Attribute::SymbolRef(s->str);
      };
      if (value->kind == BcAttr::Kind::kArray) {
        std::vector<Attribute> symbols;
        for (const BcAttr* e : value->elements) {
          PLUGRT_ASSIGN_OR_RETURN(Attribute s, symbol(e));
          symbols.push_back(std::move(s));
        }
        attr = Attribute::Array(std::move(symbols));
      } else {
        PLUGRT_ASSIGN_OR_RETURN(attr, symbol(value));
      }
    } else if (dense_i64(name)) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, TensorInts(value));
      attr = Attribute::DenseI64Array(std::move(v));
    } else if (name == "window_reversal" && (base == "convolution" || base == "dynamic_conv")) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, TensorInts(value));
      for (int64_t& b : v) b = b != 0;
      attr = Attribute::DenseI64Array(std::move(v));
      attr.type = Type::Element(ElementType::kI1);
    } else {
      PLUGRT_ASSIGN_OR_RETURN(attr, attrs.AttrOf(value));
    }
    PLUGRT_RETURN_IF_ERROR(AddNamedAttribute(std::move(out_name), std::move(attr), out));
  }
  return OkStatus();
}

namespace {

// The items of a Shardy list spelling "<...>, <...>" (split at the commas
// outside brackets and strings).
std::vector<std::string_view> SdyListItems(std::string_view text) {
  std::vector<std::string_view> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (c == '<' || c == '[' || c == '{' || c == '(') {
      ++depth;
    } else if (c == '>' || c == ']' || c == '}' || c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (start < text.size()) items.push_back(text.substr(start));
  for (std::string_view& item : items) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  }
  return items;
}

// `s` without its first and last character when they are `open`/`close`.
std::optional<std::string_view> Inside(std::string_view s, char open, char close) {
  if (s.size() < 2 || s.front() != open || s.back() != close) return std::nullopt;
  return s.substr(1, s.size() - 2);
}

// A Shardy op's attribute as the text parser's pretty form of the op has
// it. `value` is how an attribute dictionary holds it, whichever way the
// artifact encoded it: "sdy.sharding_per_value" ("[<...>, ...]") becomes an
// array of "sdy.sharding" ones, manual axes ("manual_axes{...}") an array
// of strings.
StatusOr<Attribute> SdyOpAttribute(const Attribute& value) {
  if (value.kind != Attribute::Kind::kEnum) return value;
  if (value.str == "sdy.sharding_per_value") {
    std::optional<std::string_view> list = Inside(value.enum_value, '[', ']');
    if (!list) return InvalidArgument("a sharding per value is not a list: ", value.ToString());
    std::vector<Attribute> shardings;
    for (std::string_view item : SdyListItems(*list)) {
      std::optional<std::string_view> sharding = Inside(item, '<', '>');
      if (!sharding) return InvalidArgument("a sharding per value holds ", item);
      shardings.push_back(Attribute::Enum("sdy.sharding", std::string(*sharding)));
    }
    return Attribute::Array(std::move(shardings));
  }
  if (value.str == "sdy" && value.enum_value.starts_with("manual_axes")) {
    std::string_view rest = value.enum_value;
    rest.remove_prefix(11);
    std::optional<std::string_view> axes = Inside(rest, '{', '}');
    if (!axes) return InvalidArgument("manual axes are not a {...} list: ", value.ToString());
    return ParseAttributeText(StrCat("[", *axes, "]"));
  }
  return value;
}

}  // namespace

Status BuildSdyOpAttributes(const BcOp& op, IrAttributes& attrs, std::vector<NamedAttribute>* out) {
  for (const auto& [name, value] : op.attributes) {
    PLUGRT_ASSIGN_OR_RETURN(Attribute attr, attrs.AttrOf(value));
    StatusOr<Attribute> converted = SdyOpAttribute(attr);
    if (!converted.ok()) {
      return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name, ": ", name, ": ",
                             converted.status().message());
    }
    PLUGRT_RETURN_IF_ERROR(AddNamedAttribute(name, *std::move(converted), out));
  }
  return OkStatus();
}

Status SdyMeshOf(const BcOp& op, IrAttributes& attrs, std::string* name, Attribute* mesh) {
  const BcAttr* sym = op.attribute("sym_name");
  const BcAttr* value = op.attribute("mesh");
  auto refuse = [&]() {
    return InvalidArgument("bytecode: at byte ", op.offset, ": ", op.name,
                           " without a name and a mesh");
  };
  if (sym == nullptr || sym->kind != BcAttr::Kind::kString || sym->str.empty() ||
      value == nullptr || value->kind != BcAttr::Kind::kText) {
    return refuse();
  }
  StatusOr<Attribute> parsed = attrs.AttrOf(value);
  if (!parsed.ok() || parsed->kind != Attribute::Kind::kEnum || parsed->str != "sdy.mesh") {
    return refuse();
  }
  *name = sym->str;
  *mesh = *std::move(parsed);
  return OkStatus();
}

}  // namespace plugrt::shlo::bytecode
