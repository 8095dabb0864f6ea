#include "stablehlo/bytecode/canonical.h"

#include <algorithm>

namespace plugrt::shlo {
namespace {

void SortAttributes(std::vector<NamedAttribute>& attrs);

void SortAttribute(Attribute& attr) {
  if (attr.kind == Attribute::Kind::kDictionary || attr.kind == Attribute::Kind::kStruct) {
    SortAttributes(attr.fields);
  }
  for (Attribute& e : attr.elements) SortAttribute(e);
}

void SortAttributes(std::vector<NamedAttribute>& attrs) {
  for (auto& [name, value] : attrs) SortAttribute(value);
  std::stable_sort(attrs.begin(), attrs.end(),
                   [](const NamedAttribute& a, const NamedAttribute& b) { return a.first < b.first; });
}

// Attributes spelled out with the value StableHLO gives them when absent
// (the bytecode writer leaves these out; text may spell them).
bool IsDefaultValued(const Operation& op, const NamedAttribute& attr) {
  const auto& [name, value] = attr;
  if (op.name == "stablehlo.custom_call") {
    if (name == "api_version") return value.kind == Attribute::Kind::kInteger && value.int_value == 1;
    if (name == "has_side_effect") return value.kind == Attribute::Kind::kBool && !value.bool_value;
    if (name == "backend_config") return value.kind == Attribute::Kind::kString && value.str.empty();
    if (name == "result_tilings") return value.kind == Attribute::Kind::kArray && value.elements.empty();
  }
  if (op.name == "stablehlo.composite" && name == "composite_attributes") {
    return value.kind == Attribute::Kind::kDictionary && value.fields.empty();
  }
  if ((op.name == "stablehlo.send" || op.name == "stablehlo.recv") &&
      name == "source_target_pairs") {
    return value.kind == Attribute::Kind::kDenseElements && value.type.is_tensor() &&
           value.type.has_static_shape() && value.type.num_elements() == 0;
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
      std::erase_if(op->attributes,
                    [&](const NamedAttribute& a) { return IsDefaultValued(*op, a); });
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
