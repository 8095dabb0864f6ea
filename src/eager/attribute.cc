#include "eager/attribute.h"

#include <sstream>

#include "common/element_type.h"
#include "eager/value_summary.h"

namespace plugrt::eager {

std::string_view ReducerOpName(Reducer reducer) {
  switch (reducer) {
    case Reducer::kAdd: return "stablehlo.add";
    case Reducer::kMul: return "stablehlo.multiply";
    case Reducer::kMax: return "stablehlo.maximum";
    case Reducer::kMin: return "stablehlo.minimum";
    case Reducer::kAnd: return "stablehlo.and";
    case Reducer::kOr: return "stablehlo.or";
  }
  return "unknown";
}

namespace {

struct KindName {
  std::string_view operator()(int64_t) const { return "int"; }
  std::string_view operator()(double) const { return "float"; }
  std::string_view operator()(bool) const { return "bool"; }
  std::string_view operator()(const std::string&) const { return "string"; }
  std::string_view operator()(PJRT_Buffer_Type) const { return "element type"; }
  std::string_view operator()(const Shape&) const { return "shape"; }
  std::string_view operator()(const std::vector<int64_t>&) const { return "list(int)"; }
  std::string_view operator()(const std::vector<double>&) const { return "list(float)"; }
  std::string_view operator()(const std::vector<bool>&) const { return "list(bool)"; }
  std::string_view operator()(const std::vector<std::string>&) const { return "list(string)"; }
  std::string_view operator()(const std::vector<PJRT_Buffer_Type>&) const {
    return "list(element type)";
  }
  std::string_view operator()(const std::vector<Shape>&) const { return "list(shape)"; }
  std::string_view operator()(const DenseTensor&) const { return "dense tensor"; }
  std::string_view operator()(const FunctionRef&) const { return "function"; }
  std::string_view operator()(Reducer) const { return "reducer"; }
};

template <typename T, typename Print>
std::string ListSummary(const std::vector<T>& values, Print print) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < values.size() && i < kSummaryElements; ++i) {
    if (i > 0) out << ", ";
    print(out, values[i]);
  }
  if (values.size() > kSummaryElements) out << ", ... (" << values.size() << " values)";
  out << "]";
  return out.str();
}

std::string DimsText(const std::vector<int64_t>& dims) {
  return ListSummary(dims, [](std::ostream& o, int64_t d) { o << d; });
}

struct Summary {
  std::string operator()(int64_t v) const { return std::to_string(v); }
  std::string operator()(double v) const {
    std::ostringstream out;
    out << v;
    return out.str();
  }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(const std::string& v) const { return StringSummary(v); }
  std::string operator()(PJRT_Buffer_Type v) const { return std::string(ElementTypeName(v)); }
  std::string operator()(const Shape& v) const { return DimsText(v.dims); }
  std::string operator()(const std::vector<int64_t>& v) const { return DimsText(v); }
  std::string operator()(const std::vector<double>& v) const {
    return ListSummary(v, [](std::ostream& o, double d) { o << d; });
  }
  std::string operator()(const std::vector<bool>& v) const {
    return ListSummary(v, [](std::ostream& o, bool b) { o << (b ? "true" : "false"); });
  }
  std::string operator()(const std::vector<std::string>& v) const {
    return ListSummary(v, [](std::ostream& o, const std::string& s) { o << StringSummary(s); });
  }
  std::string operator()(const std::vector<PJRT_Buffer_Type>& v) const {
    return ListSummary(v, [](std::ostream& o, PJRT_Buffer_Type t) { o << ElementTypeName(t); });
  }
  std::string operator()(const std::vector<Shape>& v) const {
    return ListSummary(v, [](std::ostream& o, const Shape& s) { o << DimsText(s.dims); });
  }
  std::string operator()(const DenseTensor& v) const {
    return ShortTypeText(v.type) + " " + DenseValueSummary(v.type, v.data.data(), v.data.size());
  }
  std::string operator()(const FunctionRef& v) const { return "@" + v.name; }
  std::string operator()(Reducer v) const { return std::string(ReducerOpName(v)); }
};

}  // namespace

std::string_view AttrKindName(const AttrValue& value) { return std::visit(KindName{}, value); }
std::string AttrValueSummary(const AttrValue& value) { return std::visit(Summary{}, value); }

template <typename T>
StatusOr<T> AttrReader::Get(std::string_view name, std::string_view kind) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) {
    return InvalidArgument(op_, ": attribute '", name, "' (", kind, ") is required");
  }
  if (const T* value = std::get_if<T>(&it->second)) return *value;
  return InvalidArgument(op_, ": attribute '", name, "' must be ", kind, ", got ",
                         AttrKindName(it->second), " ", AttrValueSummary(it->second));
}

StatusOr<int64_t> AttrReader::Int(std::string_view name) const { return Get<int64_t>(name, "int"); }
StatusOr<int64_t> AttrReader::Int(std::string_view name, int64_t fallback) const {
  if (!Has(name)) return fallback;
  return Int(name);
}
StatusOr<double> AttrReader::Float(std::string_view name) const {
  return Get<double>(name, "float");
}
StatusOr<bool> AttrReader::Bool(std::string_view name) const { return Get<bool>(name, "bool"); }
StatusOr<bool> AttrReader::Bool(std::string_view name, bool fallback) const {
  if (!Has(name)) return fallback;
  return Get<bool>(name, "bool");
}
StatusOr<std::string> AttrReader::String(std::string_view name) const {
  return Get<std::string>(name, "string");
}
StatusOr<PJRT_Buffer_Type> AttrReader::ElementType(std::string_view name) const {
  return Get<PJRT_Buffer_Type>(name, "element type");
}
StatusOr<std::vector<int64_t>> AttrReader::Ints(std::string_view name) const {
  return Get<std::vector<int64_t>>(name, "list(int)");
}
StatusOr<std::vector<int64_t>> AttrReader::IntsOrEmpty(std::string_view name) const {
  if (!Has(name)) return std::vector<int64_t>();
  return Ints(name);
}
StatusOr<Shape> AttrReader::ShapeAttr(std::string_view name) const {
  return Get<Shape>(name, "shape");
}
StatusOr<DenseTensor> AttrReader::Dense(std::string_view name) const {
  return Get<DenseTensor>(name, "dense tensor");
}
StatusOr<FunctionRef> AttrReader::Function(std::string_view name) const {
  return Get<FunctionRef>(name, "function");
}
StatusOr<std::variant<FunctionRef, Reducer>> AttrReader::Region(std::string_view name) const {
  auto it = attrs_.find(name);
  if (it != attrs_.end()) {
    if (const Reducer* r = std::get_if<Reducer>(&it->second)) {
      return std::variant<FunctionRef, Reducer>(*r);
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(FunctionRef f, Get<FunctionRef>(name, "function or reducer"));
  return std::variant<FunctionRef, Reducer>(std::move(f));
}

}  // namespace plugrt::eager
