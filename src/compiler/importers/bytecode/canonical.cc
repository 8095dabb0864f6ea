#include "compiler/importers/bytecode/canonical.h"

#include <algorithm>
#include <memory>

namespace plugrt::shlo {
namespace {

void SortAttributes(std::vector<NamedAttribute>& attrs);

// A dense literal whose elements are all equal as a splat, as MLIR holds
// and prints it (bytecode cannot tell a packed all-false i1 tensor of up to
// 8 elements from a splat).
void CollapseSplat(Attribute& attr) {
  if (attr.kind != Attribute::Kind::kDenseElements || attr.dense == nullptr ||
      attr.dense->splat || !attr.type.is_tensor() || !attr.type.has_static_shape()) {
    return;
  }
  const std::vector<std::byte>& bytes = attr.dense->bytes;
  const int64_t n = attr.type.num_elements();
  if (n < 2 || bytes.size() % static_cast<size_t>(n) != 0) return;
  const size_t width = bytes.size() / static_cast<size_t>(n);
  for (size_t i = width; i < bytes.size(); i += width) {
    if (!std::equal(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(width),
                    bytes.begin() + static_cast<std::ptrdiff_t>(i))) {
      return;
    }
  }
  auto splat = std::make_shared<DenseData>();
  splat->splat = true;
  splat->bytes.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(width));
  attr.dense = std::move(splat);
}

void SortAttribute(Attribute& attr) {
  if (attr.kind == Attribute::Kind::kDictionary || attr.kind == Attribute::Kind::kStruct) {
    SortAttributes(attr.fields);
  }
  CollapseSplat(attr);
  for (Attribute& e : attr.elements) SortAttribute(e);
}

void SortAttributes(std::vector<NamedAttribute>& attrs) {
  for (auto& [name, value] : attrs) SortAttribute(value);
  std::stable_sort(attrs.begin(), attrs.end(),
                   [](const NamedAttribute& a, const NamedAttribute& b) { return a.first < b.first; });
}

// A non-empty integer list whose every element is `v`.
bool AllInts(const Attribute& value, int64_t v) {
  if (value.kind == Attribute::Kind::kDenseElements && value.dense == nullptr) return false;
  StatusOr<std::vector<int64_t>> list = AttrToIntList(value);
  if (!list.ok() || list->empty()) return false;
  for (int64_t x : *list) {
    if (x != v) return false;
  }
  return true;
}
bool IsFalse(const Attribute& value) {
  return value.kind == Attribute::Kind::kBool && !value.bool_value;
}
bool IsEmptyList(const Attribute& value) {
  if (value.kind == Attribute::Kind::kArray) return value.elements.empty();
  if (value.kind == Attribute::Kind::kDenseArray) return value.ints.empty() && value.floats.empty();
  return value.kind == Attribute::Kind::kDenseElements && value.type.is_tensor() &&
         value.type.has_static_shape() && value.type.num_elements() == 0;
}
bool IsEnumValue(const Attribute& value, std::string_view v) {
  StatusOr<std::string> e = AttrToEnumValue(value);
  return value.kind == Attribute::Kind::kEnum && e.ok() && *e == v;
}
bool AllDefaultPrecision(const Attribute& value) {
  if (value.kind != Attribute::Kind::kArray) return false;
  for (const Attribute& e : value.elements) {
    if (!IsEnumValue(e, "DEFAULT")) return false;
  }
  return true;
}

// Attributes spelled out with the value StableHLO gives them when absent:
// the bytecode reader leaves these out (as upstream's VHLO legalization
// does), text may spell them.
bool IsDefaultValued(const Operation& op, const NamedAttribute& attr) {
  const auto& [name, value] = attr;
  std::string_view base = op.name;
  if (!base.starts_with("stablehlo.")) return false;
  base.remove_prefix(std::string_view("stablehlo.").size());
  if (base == "custom_call") {
    if (name == "api_version") return value.kind == Attribute::Kind::kInteger && value.int_value == 1;
    if (name == "has_side_effect") return IsFalse(value);
    if (name == "backend_config") {
      return (value.kind == Attribute::Kind::kString && value.str.empty()) ||
             (value.kind == Attribute::Kind::kDictionary && value.fields.empty());
    }
    if (name == "result_tilings" || name == "called_computations" ||
        name == "output_operand_aliases") {
      return IsEmptyList(value);
    }
    if (name == "operand_layouts" || name == "result_layouts") {
      const Attribute* other = op.attribute(name == "operand_layouts" ? "result_layouts"
                                                                      : "operand_layouts");
      return IsEmptyList(value) && (other == nullptr || IsEmptyList(*other));
    }
  }
  if (base == "composite") {
    if (name == "composite_attributes") {
      return value.kind == Attribute::Kind::kDictionary && value.fields.empty();
    }
    if (name == "version") return value.kind == Attribute::Kind::kInteger && value.int_value == 0;
  }
  if ((base == "send" || base == "recv") &&
      (name == "source_target_pairs" || name == "is_host_transfer")) {
    return name == "is_host_transfer" ? IsFalse(value) : IsEmptyList(value);
  }
  if (base == "all_gather" || base == "all_reduce" || base == "reduce_scatter" ||
      base == "collective_reduce" || base == "all_to_all" || base == "collective_permute" ||
      base == "collective_broadcast") {
    if (name == "channel_handle" && value.kind == Attribute::Kind::kStruct) {
      const Attribute* handle = value.field("handle");
      StatusOr<int64_t> h = handle ? AttrToInt(*handle) : StatusOr<int64_t>(int64_t{0});
      return h.ok() && *h == 0;
    }
    if (name == "use_global_device_ids" || name == "has_dynamic_root") return IsFalse(value);
  }
  if (base == "cholesky" && name == "lower") return IsFalse(value);
  if (base == "compare" && name == "compare_type") return IsEnumValue(value, "NOTYPE");
  const bool conv = base == "convolution" || base == "dynamic_conv";
  if ((conv || base == "dot" || base == "dot_general") && name == "precision_config") {
    return AllDefaultPrecision(value);
  }
  if (conv) {
    if (name == "window_strides" || name == "lhs_dilation" || name == "rhs_dilation") {
      return AllInts(value, 1);
    }
    if (name == "window_reversal") return AllInts(value, 0);
    if (name == "padding" && base == "convolution") return AllInts(value, 0);
  }
  if (base == "reduce_window" || base == "select_and_scatter") {
    if (name == "window_strides" || name == "base_dilations" || name == "window_dilations") {
      return AllInts(value, 1);
    }
    if (name == "padding") return AllInts(value, 0);
  }
  if (base == "dynamic_broadcast_in_dim" &&
      (name == "known_expanding_dimensions" || name == "known_nonexpanding_dimensions")) {
    return IsEmptyList(value);
  }
  if ((base == "gather" || base == "dynamic_gather" || base == "scatter") &&
      name == "indices_are_sorted") {
    return IsFalse(value);
  }
  if (base == "scatter" && name == "unique_indices") return IsFalse(value);
  if (base == "infeed") {
    if (name == "infeed_config") return value.kind == Attribute::Kind::kString && value.str.empty();
    if (name == "layout") return IsEmptyList(value);
  }
  if (base == "outfeed" && name == "outfeed_config") {
    return value.kind == Attribute::Kind::kString && value.str.empty();
  }
  if (base == "sort") {
    if (name == "dimension") return value.kind == Attribute::Kind::kInteger && value.int_value == -1;
    if (name == "is_stable") return IsFalse(value);
  }
  if (name == "result_accuracy" && value.kind == Attribute::Kind::kStruct) {
    for (const auto& [field, v] : value.fields) {
      if (field == "mode") {
        StatusOr<std::string> mode = AttrToEnumValue(v);
        if (!mode.ok() || *mode != "DEFAULT") return false;
      } else if (field == "atol" || field == "rtol") {
        StatusOr<double> f = AttrToFloat(v);
        if (!f.ok() || *f != 0) return false;
      } else if (field == "ulps") {
        StatusOr<int64_t> u = AttrToInt(v);
        if (!u.ok() || *u != 0) return false;
      }
    }
    return true;
  }
  return false;
}

void SortRegion(Region& region) {
  for (auto& block : region.blocks) {
    for (auto& op : block->operations) {
      // Decided first: a rule may look at the op's other attributes.
      std::vector<std::string> defaults;
      for (const NamedAttribute& a : op->attributes) {
        if (IsDefaultValued(*op, a)) defaults.push_back(a.first);
      }
      std::erase_if(op->attributes, [&](const NamedAttribute& a) {
        return std::find(defaults.begin(), defaults.end(), a.first) != defaults.end();
      });
      SortAttributes(op->attributes);
      for (auto& r : op->regions) SortRegion(*r);
    }
  }
}

}  // namespace

void CanonicalizeAttributeOrder(Module& module) {
  SortAttributes(module.attributes);
  for (auto& f : module.functions) {
    SortAttributes(f->attributes);
    for (auto& a : f->arg_attributes) SortAttributes(a);
    for (auto& a : f->result_attributes) SortAttributes(a);
    if (f->body) SortRegion(*f->body);
  }
}

}  // namespace plugrt::shlo
