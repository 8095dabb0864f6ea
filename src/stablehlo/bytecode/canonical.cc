#include "stablehlo/bytecode/canonical.h"

#include <algorithm>

namespace plugrt::shlo {
namespace {

void SortAttributes(std::vector<NamedAttribute>& attrs);

void SortAttribute(Attribute& attr) {
  if (attr.kind == Attribute::Kind::kDictionary) SortAttributes(attr.fields);
  for (Attribute& e : attr.elements) SortAttribute(e);
}

void SortAttributes(std::vector<NamedAttribute>& attrs) {
  for (auto& [name, value] : attrs) SortAttribute(value);
  std::stable_sort(attrs.begin(), attrs.end(),
                   [](const NamedAttribute& a, const NamedAttribute& b) { return a.first < b.first; });
}

void SortRegion(Region& region) {
  for (auto& block : region.blocks) {
    for (auto& op : block->operations) {
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
