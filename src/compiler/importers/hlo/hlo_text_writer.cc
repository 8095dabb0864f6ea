#include "compiler/importers/hlo/hlo_text_writer.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/importers/hlo/hlo_converter.h"
#include "compiler/importers/hlo/hlo_types.h"
#include "stablehlo/element_type.h"
#include "stablehlo/float_format.h"

namespace plugrt::shlo {
namespace {

// XLA's text name of an element type: the PrimitiveType whose IR type it
// is (hlo_types.h says which), in lower case.
StatusOr<std::string> HloElementName(ElementType type) {
  static const auto* names = [] {
    auto* map = new std::unordered_map<int, std::string>;
    for (int v = 0; v < 64; ++v) {
      if (!xla::PrimitiveType_IsValid(v)) continue;
      StatusOr<ElementType> e = hlo::ElementTypeOf(v);
      if (!e.ok()) continue;
      std::string name = xla::PrimitiveType_Name(static_cast<xla::PrimitiveType>(v));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      map->emplace(static_cast<int>(*e), name);
    }
    return map;
  }();
  auto it = names->find(static_cast<int>(type));
  if (it == names->end()) {
    return Unimplemented("element type ", ElementTypeName(type), " has no HLO spelling");
  }
  return it->second;
}

StatusOr<std::string> ShapeText(const Type& type) {
  if (type.is_token()) return std::string("token[]");
  if (type.is_tuple()) {
    std::string out = "(";
    for (size_t i = 0; i < type.tuple_elements().size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(std::string e, ShapeText(type.tuple_elements()[i]));
      out += (i ? ", " : "") + e;
    }
    return out + ")";
  }
  if (!type.is_tensor() || type.is_quantized()) {
    return Unimplemented("type ", type.ToString(), " in HLO text");
  }
  if (!type.has_static_shape()) {
    return Unimplemented("dynamic shape ", type.ToString(), " in HLO text (refine it first)");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string out, HloElementName(type.element_type()));
  out += "[";
  for (size_t i = 0; i < type.dims().size(); ++i) {
    out += (i ? "," : "") + std::to_string(type.dims()[i]);
  }
  return out + "]";
}

std::string IntList(const std::vector<int64_t>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "}";
}

// Enough digits to read back the same value: 17 for f64, 9 for f32 and
// narrower types.
std::string FloatText(double d, bool is_f64) {
  if (std::isnan(d)) return std::signbit(d) ? "-nan" : "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, is_f64 ? "%.17g" : "%.9g", d);
  return buffer;
}

// One element of a dense literal in HLO's literal syntax.
std::string ElementText(ElementType type, const std::byte* p) {
  const bool complex = IsComplex(type);
  const ElementType part = complex ? ComplexComponent(type) : type;
  const int bytes = StorageBytes(type) / (complex ? 2 : 1);
  auto bits_at = [&](int k) {
    uint64_t bits = 0;
    for (int b = 0; b < bytes; ++b) {
      bits |= static_cast<uint64_t>(std::to_integer<uint8_t>(p[k * bytes + b])) << (8 * b);
    }
    return bits;
  };
  auto one = [&](int k) -> std::string {
    const uint64_t bits = bits_at(k);
    if (part == ElementType::kI1) return bits ? "true" : "false";
    if (IsFloat(part)) return FloatText(DecodeFloat(part, bits), part == ElementType::kF64);
    if (IsSignedInteger(part)) {
      const int width = 8 * bytes;
      int64_t v = static_cast<int64_t>(bits);
      if (width < 64 && (bits >> (width - 1)) & 1) v = static_cast<int64_t>(bits | (~uint64_t{0} << width));
      return std::to_string(v);
    }
    return std::to_string(bits);
  };
  if (complex) return "(" + one(0) + ", " + one(1) + ")";
  return one(0);
}

// Elements from `*next` on, one level of braces per dimension from `d`.
void NestedLiteral(const Type& type, const DenseData& data, size_t d, int64_t* next,
                   std::string* out) {
  const std::vector<int64_t>& dims = type.dims();
  if (d == dims.size()) {
    const size_t offset =
        data.splat ? 0 : static_cast<size_t>(*next) * StorageBytes(type.element_type());
    *out += ElementText(type.element_type(), data.bytes.data() + offset);
    ++*next;
    return;
  }
  *out += "{";
  for (int64_t i = 0; i < dims[d]; ++i) {
    if (i > 0) *out += ", ";
    NestedLiteral(type, data, d + 1, next, out);
  }
  *out += "}";
}

StatusOr<std::string> LiteralText(const Attribute& value) {
  if (value.kind != Attribute::Kind::kDenseElements || !value.dense || !value.type.is_tensor() ||
      !value.type.has_static_shape()) {
    return Unimplemented("a constant whose value is not a dense literal of static shape");
  }
  std::string out;
  int64_t next = 0;
  NestedLiteral(value.type, *value.dense, 0, &next, &out);
  return out;
}

StatusOr<std::vector<int64_t>> Ints(const Operation& op, std::string_view name) {
  const Attribute* a = op.attribute(name);
  if (a == nullptr) return std::vector<int64_t>{};
  return AttrToIntList(*a);
}

StatusOr<std::vector<int64_t>> Field(const Attribute* s, std::string_view name) {
  if (s == nullptr) return std::vector<int64_t>{};
  const Attribute* f = s->field(name);
  if (f == nullptr) return std::vector<int64_t>{};
  return AttrToIntList(*f);
}

std::string Symbol(std::string_view name) {
  std::string out;
  for (char c : name) {
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'
                      ? c : '_');
  }
  return out.empty() ? "f" : out;
}

// The values `region` uses (its nested regions included) that are defined
// outside it, in order of first use.
void FreeValues(const Region& region, std::unordered_set<const Value*>* defined,
                std::unordered_set<const Value*>* seen, std::vector<const Value*>* out) {
  for (const auto& block : region.blocks) {
    for (const auto& arg : block->arguments) defined->insert(arg.get());
    for (const auto& op : block->operations) {
      for (const Value* v : op->operands) {
        if (defined->count(v) == 0 && seen->insert(v).second) out->push_back(v);
      }
      for (const auto& nested : op->regions) FreeValues(*nested, defined, seen, out);
      for (const auto& r : op->results) defined->insert(r.get());
    }
  }
}

class HloTextWriter {
 public:
  explicit HloTextWriter(const Module& module) : module_(module) {}

  StatusOr<std::string> Run() {
    const Function* entry = module_.EntryFunction();
    if (entry == nullptr || entry->body == nullptr || entry->body->blocks.empty()) {
      return InvalidArgument("the module has no entry function (@main) with a body");
    }
    for (const auto& f : module_.functions) {
      std::string name = Symbol(f->name);
      while (!used_.insert(name).second) name += "_";
      function_names_[f.get()] = name;
    }
    std::string header = "HloModule " + Symbol(module_.name.empty() ? "main" : module_.name);
    std::string entry_text;
    PLUGRT_ASSIGN_OR_RETURN(entry_text, Computation(function_names_[entry], entry->body->front(),
                                                    entry->result_types, /*is_entry=*/true,
                                                    /*tuple_param=*/false, /*tuple_root=*/false));
    return header + "\n\n" + computations_ + entry_text;
  }

 private:
  struct Lines {
    std::vector<std::string> lines;
    std::unordered_map<const Value*, std::string> names;
    std::unordered_map<const Value*, size_t> line_of;
  };

  std::string Fresh(const char* stem) { return StrCat("%", stem, next_id_++); }

  StatusOr<std::string> NameOf(Lines& c, const Value* v, const Operation& user) {
    auto it = c.names.find(v);
    if (it == c.names.end()) {
      return Unimplemented(user.name, ": uses a value of an enclosing block; HLO computations "
                                      "take every value as a parameter");
    }
    return it->second;
  }

  StatusOr<std::string> OperandList(Lines& c, const Operation& op) {
    std::string out;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(std::string n, NameOf(c, op.operands[i], op));
      out += (i ? ", " : "") + n;
    }
    return out;
  }

  // The computation of a block: its arguments as parameters (one tuple
  // parameter for while's regions), its ops, its terminator's values as
  // ROOT (a tuple when `tuple_root` or when there are several). With
  // `captured`, the block's parameter is one tuple of those values of the
  // enclosing block (the branches of a conditional).
  StatusOr<std::string> Computation(const std::string& name, const Block& block,
                                    const std::vector<Type>& result_types, bool is_entry,
                                    bool tuple_param, bool tuple_root,
                                    const std::vector<const Value*>* captured = nullptr) {
    Lines c;
    std::vector<const Value*> params;
    if (captured != nullptr) {
      params = *captured;
      tuple_param = true;
    } else {
      for (const auto& arg : block.arguments) params.push_back(arg.get());
    }
    std::vector<std::string> param_shapes;
    for (const Value* param : params) {
      PLUGRT_ASSIGN_OR_RETURN(std::string s, ShapeText(param->type));
      param_shapes.push_back(s);
    }
    std::string signature;
    if (tuple_param) {
      std::string tuple = "(";
      for (size_t i = 0; i < param_shapes.size(); ++i) tuple += (i ? ", " : "") + param_shapes[i];
      tuple += ")";
      const std::string p = Fresh("p");
      signature = "(" + p.substr(1) + ": " + tuple + ")";
      c.lines.push_back(StrCat("  ", p, " = ", tuple, " parameter(0)"));
      for (size_t i = 0; i < params.size(); ++i) {
        const std::string v = Fresh("v");
        c.names[params[i]] = v;
        c.line_of[params[i]] = c.lines.size();
        c.lines.push_back(StrCat("  ", v, " = ", param_shapes[i], " get-tuple-element(", p,
                                 "), index=", i));
      }
    } else {
      signature = "(";
      for (size_t i = 0; i < params.size(); ++i) {
        const std::string v = Fresh("v");
        c.names[params[i]] = v;
        c.line_of[params[i]] = c.lines.size();
        c.lines.push_back(StrCat("  ", v, " = ", param_shapes[i], " parameter(", i, ")"));
        signature += (i ? ", " : "") + v.substr(1) + ": " + param_shapes[i];
      }
      signature += ")";
    }
    const Operation* terminator = nullptr;
    for (const auto& op : block.operations) {
      if (op->name == "stablehlo.return" || op->name == "func.return") {
        terminator = op.get();
        break;
      }
      PLUGRT_RETURN_IF_ERROR(Emit(c, *op));
    }
    std::vector<std::string> roots;
    if (terminator != nullptr) {
      for (const Value* v : terminator->operands) {
        PLUGRT_ASSIGN_OR_RETURN(std::string n, NameOf(c, v, *terminator));
        roots.push_back(n);
      }
    }
    std::string result_shape;
    if (roots.size() == 1 && !tuple_root) {
      PLUGRT_ASSIGN_OR_RETURN(result_shape, ShapeText(terminator->operands[0]->type));
      const Value* v = terminator->operands[0];
      std::string& line = c.lines[c.line_of.at(v)];
      if (line.rfind("  ROOT ", 0) != 0) {
        line = "  ROOT " + line.substr(2);
      } else {
        // Already the root of another use, or a parameter's element: a copy.
        c.lines.push_back(StrCat("  ROOT ", Fresh("r"), " = ", result_shape, " copy(", roots[0], ")"));
      }
    } else {
      std::vector<Type> types;
      if (terminator != nullptr) {
        for (const Value* v : terminator->operands) types.push_back(v->type);
      } else {
        types = result_types;
      }
      PLUGRT_ASSIGN_OR_RETURN(result_shape, ShapeText(Type::Tuple(types)));
      std::string list;
      for (size_t i = 0; i < roots.size(); ++i) list += (i ? ", " : "") + roots[i];
      c.lines.push_back(StrCat("  ROOT ", Fresh("t"), " = ", result_shape, " tuple(", list, ")"));
    }
    std::string out = StrCat(is_entry ? "ENTRY " : "", "%", name, " ", signature, " -> ",
                             result_shape, " {\n");
    for (const std::string& line : c.lines) out += line + "\n";
    return out + "}\n\n";
  }

  // A region of `op` as a computation written ahead of the current one.
  StatusOr<std::string> RegionComputation(const Operation& op, size_t index, bool tuple_param,
                                          bool tuple_root,
                                          const std::vector<const Value*>* captured = nullptr) {
    const Region& region = op.region(index);
    if (region.blocks.size() != 1) return Unimplemented(op.name, ": a region of several blocks");
    std::string name = StrCat("region_", next_region_++);
    while (!used_.insert(name).second) name += "_";
    PLUGRT_ASSIGN_OR_RETURN(std::string text, Computation(name, region.front(), {}, false,
                                                          tuple_param, tuple_root, captured));
    computations_ += text;
    return "%" + name;
  }

  // Writes `op`'s instruction: one line for one result, a tuple and its
  // elements for several.
  Status Instruction(Lines& c, const Operation& op, const std::string& opcode,
                     const std::string& operands, const std::string& attrs) {
    if (op.results.size() == 1) {
      PLUGRT_ASSIGN_OR_RETURN(std::string shape, ShapeText(op.results[0]->type));
      const std::string v = Fresh("v");
      c.names[op.results[0].get()] = v;
      c.line_of[op.results[0].get()] = c.lines.size();
      c.lines.push_back(StrCat("  ", v, " = ", shape, " ", opcode, "(", operands, ")", attrs));
      return OkStatus();
    }
    std::vector<Type> types;
    for (const auto& r : op.results) types.push_back(r->type);
    PLUGRT_ASSIGN_OR_RETURN(std::string shape, ShapeText(Type::Tuple(types)));
    const std::string t = Fresh("t");
    c.lines.push_back(StrCat("  ", t, " = ", shape, " ", opcode, "(", operands, ")", attrs));
    for (size_t i = 0; i < op.results.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(std::string s, ShapeText(types[i]));
      const std::string v = Fresh("v");
      c.names[op.results[i].get()] = v;
      c.line_of[op.results[i].get()] = c.lines.size();
      c.lines.push_back(StrCat("  ", v, " = ", s, " get-tuple-element(", t, "), index=", i));
    }
    return OkStatus();
  }

  // HLO's window={size=... stride=... pad=... lhs_dilate=... rhs_dilate=...
  // rhs_reversal=...} from `op`'s attributes of those names.
  StatusOr<std::string> WindowText(const Operation& op, const std::vector<int64_t>& size,
                                   const char* stride_name, const char* lhs_name,
                                   const char* rhs_name) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> stride, Ints(op, stride_name));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> pad, Ints(op, "padding"));
    std::vector<int64_t> lhs, rhs, reversal;
    if (lhs_name) {
      PLUGRT_ASSIGN_OR_RETURN(lhs, Ints(op, lhs_name));
    }
    if (rhs_name) {
      PLUGRT_ASSIGN_OR_RETURN(rhs, Ints(op, rhs_name));
    }
    PLUGRT_ASSIGN_OR_RETURN(reversal, Ints(op, "window_reversal"));
    auto xs = [](const std::vector<int64_t>& v) {
      std::string out;
      for (size_t i = 0; i < v.size(); ++i) out += (i ? "x" : "") + std::to_string(v[i]);
      return out;
    };
    std::string w = "{size=" + xs(size);
    if (!stride.empty()) w += " stride=" + xs(stride);
    if (!pad.empty()) {
      if (pad.size() != 2 * size.size()) return InvalidArgument(op.name, ": padding has ", pad.size(), " values");
      w += " pad=";
      for (size_t i = 0; i < size.size(); ++i) {
        w += StrCat(i ? "x" : "", pad[2 * i], "_", pad[2 * i + 1]);
      }
    }
    if (!lhs.empty()) w += " lhs_dilate=" + xs(lhs);
    if (!rhs.empty()) w += " rhs_dilate=" + xs(rhs);
    if (!reversal.empty()) w += " rhs_reversal=" + xs(reversal);
    return w + "}";
  }

  Status Emit(Lines& c, const Operation& op) {
    const std::string& n = op.name;
    PLUGRT_ASSIGN_OR_RETURN(std::string operands, OperandList(c, op));
    static const auto* elementwise = [] {
      auto* map = new std::unordered_map<std::string_view, std::string_view>;
      for (const auto& [opcode, name] : hlo::HloElementwiseOpcodes()) map->emplace(name, opcode);
      return map;
    }();
    if (auto it = elementwise->find(n); it != elementwise->end()) {
      return Instruction(c, op, std::string(it->second), operands, "");
    }
    auto ints_attr = [&](const char* hlo, std::string_view ir) -> StatusOr<std::string> {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, Ints(op, ir));
      return StrCat(", ", hlo, "=", IntList(v));
    };
    auto int_attr = [&](std::string_view ir) -> StatusOr<int64_t> {
      const Attribute* a = op.attribute(ir);
      if (a == nullptr) return InvalidArgument(n, " lacks ", ir);
      return AttrToInt(*a);
    };
    const size_t rank0 = op.operands.empty() || !op.operands[0]->type.is_tensor()
                             ? 0 : op.operands[0]->type.dims().size();
    if (n == "stablehlo.constant") {
      const Attribute* value = op.attribute("value");
      if (value == nullptr) return InvalidArgument(n, " lacks its value");
      PLUGRT_ASSIGN_OR_RETURN(std::string literal, LiteralText(*value));
      return Instruction(c, op, "constant", literal, "");
    }
    if (n == "stablehlo.compare") {
      const Attribute* d = op.attribute("comparison_direction");
      if (d == nullptr) return InvalidArgument(n, " lacks comparison_direction");
      PLUGRT_ASSIGN_OR_RETURN(std::string dir, AttrToEnumValue(*d));
      std::string attrs = ", direction=" + dir;
      if (const Attribute* t = op.attribute("compare_type")) {
        PLUGRT_ASSIGN_OR_RETURN(std::string type, AttrToEnumValue(*t));
        if (type != "NOTYPE") attrs += ", type=" + type;
      }
      return Instruction(c, op, "compare", operands, attrs);
    }
    if (n == "stablehlo.broadcast_in_dim") {
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dimensions", "broadcast_dimensions"));
      return Instruction(c, op, "broadcast", operands, a);
    }
    if (n == "stablehlo.reshape") return Instruction(c, op, "reshape", operands, "");
    if (n == "stablehlo.transpose") {
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dimensions", "permutation"));
      return Instruction(c, op, "transpose", operands, a);
    }
    if (n == "stablehlo.reverse") {
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dimensions", "dimensions"));
      return Instruction(c, op, "reverse", operands, a);
    }
    if (n == "stablehlo.iota") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t d, int_attr("iota_dimension"));
      return Instruction(c, op, "iota", "", StrCat(", iota_dimension=", d));
    }
    if (n == "stablehlo.concatenate") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t d, int_attr("dimension"));
      return Instruction(c, op, "concatenate", operands, StrCat(", dimensions={", d, "}"));
    }
    if (n == "stablehlo.get_dimension_size") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t d, int_attr("dimension"));
      return Instruction(c, op, "get-dimension-size", operands, StrCat(", dimensions={", d, "}"));
    }
    if (n == "stablehlo.slice") {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, Ints(op, "start_indices"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> limit, Ints(op, "limit_indices"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, Ints(op, "strides"));
      std::string s = ", slice={";
      for (size_t i = 0; i < start.size() && i < limit.size(); ++i) {
        s += StrCat(i ? ", " : "", "[", start[i], ":", limit[i], ":",
                    i < strides.size() ? strides[i] : 1, "]");
      }
      return Instruction(c, op, "slice", operands, s + "}");
    }
    if (n == "stablehlo.pad") {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> lo, Ints(op, "edge_padding_low"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> hi, Ints(op, "edge_padding_high"));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> in, Ints(op, "interior_padding"));
      std::string p = ", padding=";
      for (size_t i = 0; i < lo.size(); ++i) {
        p += StrCat(i ? "x" : "", lo[i], "_", i < hi.size() ? hi[i] : 0, "_",
                    i < in.size() ? in[i] : 0);
      }
      if (lo.empty()) p.clear();
      return Instruction(c, op, "pad", operands, p);
    }
    if (n == "stablehlo.dynamic_slice") {
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dynamic_slice_sizes", "slice_sizes"));
      return Instruction(c, op, "dynamic-slice", operands, a);
    }
    if (n == "stablehlo.dynamic_update_slice") {
      return Instruction(c, op, "dynamic-update-slice", operands, "");
    }
    if (n == "stablehlo.dot_general" || n == "stablehlo.dot") {
      std::string a;
      if (n == "stablehlo.dot") {
        a = StrCat(", lhs_contracting_dims={", rank0 == 0 ? 0 : rank0 - 1, "}, rhs_contracting_dims={0}");
      } else {
        const Attribute* d = op.attribute("dot_dimension_numbers");
        PLUGRT_ASSIGN_OR_RETURN(auto lb, Field(d, "lhs_batching_dimensions"));
        PLUGRT_ASSIGN_OR_RETURN(auto rb, Field(d, "rhs_batching_dimensions"));
        PLUGRT_ASSIGN_OR_RETURN(auto lc, Field(d, "lhs_contracting_dimensions"));
        PLUGRT_ASSIGN_OR_RETURN(auto rc, Field(d, "rhs_contracting_dimensions"));
        if (!lb.empty()) a += ", lhs_batch_dims=" + IntList(lb);
        if (!rb.empty()) a += ", rhs_batch_dims=" + IntList(rb);
        a += ", lhs_contracting_dims=" + IntList(lc) + ", rhs_contracting_dims=" + IntList(rc);
      }
      return Instruction(c, op, "dot", operands, a);
    }
    if (n == "stablehlo.convolution") {
      const Attribute* d = op.attribute("dimension_numbers");
      if (d == nullptr || op.operands.size() != 2) return InvalidArgument(n, " lacks dimension_numbers");
      // The window's sizes are the kernel's spatial sizes.
      PLUGRT_ASSIGN_OR_RETURN(auto ks, Field(d, "kernel_spatial_dimensions"));
      std::vector<int64_t> size;
      for (int64_t k : ks) {
        if (k < 0 || static_cast<size_t>(k) >= op.operands[1]->type.dims().size()) {
          return InvalidArgument(n, ": kernel spatial dimension ", k, " out of range");
        }
        size.push_back(op.operands[1]->type.dims()[k]);
      }
      PLUGRT_ASSIGN_OR_RETURN(std::string window,
                              WindowText(op, size, "window_strides", "lhs_dilation", "rhs_dilation"));
      auto labels = [&](const char* batch, const char* feature, const char* spatial_name,
                        char b, char f) -> StatusOr<std::string> {
        PLUGRT_ASSIGN_OR_RETURN(int64_t bi, AttrToInt(*d->field(batch)));
        PLUGRT_ASSIGN_OR_RETURN(int64_t fi, AttrToInt(*d->field(feature)));
        PLUGRT_ASSIGN_OR_RETURN(auto sp, Field(d, spatial_name));
        std::string s(sp.size() + 2, '?');
        if (bi < 0 || fi < 0 || static_cast<size_t>(bi) >= s.size() ||
            static_cast<size_t>(fi) >= s.size()) {
          return InvalidArgument(n, ": dimension numbers out of range");
        }
        s[bi] = b;
        s[fi] = f;
        for (size_t i = 0; i < sp.size(); ++i) {
          if (sp[i] < 0 || static_cast<size_t>(sp[i]) >= s.size() || i > 9) {
            return Unimplemented(n, ": more than 10 spatial dimensions");
          }
          s[sp[i]] = static_cast<char>('0' + i);
        }
        return s;
      };
      if (d->field("input_batch_dimension") == nullptr || d->field("kernel_input_feature_dimension") == nullptr ||
          d->field("output_batch_dimension") == nullptr) {
        return InvalidArgument(n, ": incomplete dimension numbers");
      }
      PLUGRT_ASSIGN_OR_RETURN(std::string in, labels("input_batch_dimension", "input_feature_dimension",
                                                     "input_spatial_dimensions", 'b', 'f'));
      PLUGRT_ASSIGN_OR_RETURN(std::string k, labels("kernel_input_feature_dimension",
                                                    "kernel_output_feature_dimension",
                                                    "kernel_spatial_dimensions", 'i', 'o'));
      PLUGRT_ASSIGN_OR_RETURN(std::string out, labels("output_batch_dimension", "output_feature_dimension",
                                                      "output_spatial_dimensions", 'b', 'f'));
      std::string a = ", window=" + window + ", dim_labels=" + in + "_" + k + "->" + out;
      if (const Attribute* g = op.attribute("feature_group_count")) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t v, AttrToInt(*g));
        if (v != 1) a += StrCat(", feature_group_count=", v);
      }
      if (const Attribute* g = op.attribute("batch_group_count")) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t v, AttrToInt(*g));
        if (v != 1) a += StrCat(", batch_group_count=", v);
      }
      return Instruction(c, op, "convolution", operands, a);
    }
    if (n == "stablehlo.reduce") {
      PLUGRT_ASSIGN_OR_RETURN(std::string body, RegionComputation(op, 0, false, false));
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dimensions", "dimensions"));
      return Instruction(c, op, "reduce", operands, a + ", to_apply=" + body);
    }
    if (n == "stablehlo.reduce_window") {
      PLUGRT_ASSIGN_OR_RETURN(std::string body, RegionComputation(op, 0, false, false));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> size, Ints(op, "window_dimensions"));
      PLUGRT_ASSIGN_OR_RETURN(std::string w, WindowText(op, size, "window_strides",
                                                        "base_dilations", "window_dilations"));
      return Instruction(c, op, "reduce-window", operands, ", window=" + w + ", to_apply=" + body);
    }
    if (n == "stablehlo.select_and_scatter") {
      PLUGRT_ASSIGN_OR_RETURN(std::string select, RegionComputation(op, 0, false, false));
      PLUGRT_ASSIGN_OR_RETURN(std::string scatter, RegionComputation(op, 1, false, false));
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> size, Ints(op, "window_dimensions"));
      PLUGRT_ASSIGN_OR_RETURN(std::string w, WindowText(op, size, "window_strides", nullptr, nullptr));
      return Instruction(c, op, "select-and-scatter", operands,
                         ", window=" + w + ", select=" + select + ", scatter=" + scatter);
    }
    if (n == "stablehlo.map") {
      PLUGRT_ASSIGN_OR_RETURN(std::string body, RegionComputation(op, 0, false, false));
      PLUGRT_ASSIGN_OR_RETURN(std::string a, ints_attr("dimensions", "dimensions"));
      return Instruction(c, op, "map", operands, a + ", to_apply=" + body);
    }
    if (n == "stablehlo.sort") {
      PLUGRT_ASSIGN_OR_RETURN(std::string cmp, RegionComputation(op, 0, false, false));
      int64_t dim = -1;
      if (op.attribute("dimension") != nullptr) {
        PLUGRT_ASSIGN_OR_RETURN(dim, int_attr("dimension"));
      }
      if (dim < 0) dim += static_cast<int64_t>(rank0);
      std::string a = StrCat(", dimensions={", dim, "}");
      if (const Attribute* s = op.attribute("is_stable")) {
        PLUGRT_ASSIGN_OR_RETURN(bool stable, AttrToBool(*s));
        if (stable) a += ", is_stable=true";
      }
      return Instruction(c, op, "sort", operands, a + ", to_apply=" + cmp);
    }
    if (n == "stablehlo.gather") {
      const Attribute* d = op.attribute("dimension_numbers");
      std::string a;
      for (const char* f : {"offset_dims", "collapsed_slice_dims", "start_index_map",
                            "operand_batching_dims", "start_indices_batching_dims"}) {
        PLUGRT_ASSIGN_OR_RETURN(auto v, Field(d, f));
        if (!v.empty() || std::string_view(f) == "offset_dims" ||
            std::string_view(f) == "start_index_map" || std::string_view(f) == "collapsed_slice_dims") {
          a += StrCat(", ", f, "=", IntList(v));
        }
      }
      int64_t ivd = 0;
      if (d != nullptr && d->field("index_vector_dim") != nullptr) {
        PLUGRT_ASSIGN_OR_RETURN(ivd, AttrToInt(*d->field("index_vector_dim")));
      }
      a += StrCat(", index_vector_dim=", ivd);
      PLUGRT_ASSIGN_OR_RETURN(std::string ss, ints_attr("slice_sizes", "slice_sizes"));
      a += ss;
      if (const Attribute* s = op.attribute("indices_are_sorted")) {
        PLUGRT_ASSIGN_OR_RETURN(bool b, AttrToBool(*s));
        if (b) a += ", indices_are_sorted=true";
      }
      return Instruction(c, op, "gather", operands, a);
    }
    if (n == "stablehlo.scatter") {
      PLUGRT_ASSIGN_OR_RETURN(std::string body, RegionComputation(op, 0, false, false));
      const Attribute* d = op.attribute("scatter_dimension_numbers");
      std::string a;
      for (const char* f : {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                            "input_batching_dims", "scatter_indices_batching_dims"}) {
        PLUGRT_ASSIGN_OR_RETURN(auto v, Field(d, f));
        a += StrCat(", ", f, "=", IntList(v));
      }
      int64_t ivd = 0;
      if (d != nullptr && d->field("index_vector_dim") != nullptr) {
        PLUGRT_ASSIGN_OR_RETURN(ivd, AttrToInt(*d->field("index_vector_dim")));
      }
      a += StrCat(", index_vector_dim=", ivd);
      for (const char* f : {"indices_are_sorted", "unique_indices"}) {
        if (const Attribute* s = op.attribute(f)) {
          PLUGRT_ASSIGN_OR_RETURN(bool b, AttrToBool(*s));
          if (b) a += StrCat(", ", f, "=true");
        }
      }
      return Instruction(c, op, "scatter", operands, a + ", to_apply=" + body);
    }
    if (n == "stablehlo.while") {
      PLUGRT_ASSIGN_OR_RETURN(std::string cond, RegionComputation(op, 0, true, false));
      PLUGRT_ASSIGN_OR_RETURN(std::string body, RegionComputation(op, 1, true, true));
      std::vector<Type> types;
      for (const Value* v : op.operands) types.push_back(v->type);
      PLUGRT_ASSIGN_OR_RETURN(std::string shape, ShapeText(Type::Tuple(types)));
      const std::string init = Fresh("t");
      c.lines.push_back(StrCat("  ", init, " = ", shape, " tuple(", operands, ")"));
      const std::string loop = Fresh("t");
      c.lines.push_back(StrCat("  ", loop, " = ", shape, " while(", init, "), condition=", cond,
                               ", body=", body));
      for (size_t i = 0; i < op.results.size(); ++i) {
        PLUGRT_ASSIGN_OR_RETURN(std::string s, ShapeText(op.results[i]->type));
        const std::string v = Fresh("v");
        c.names[op.results[i].get()] = v;
        c.line_of[op.results[i].get()] = c.lines.size();
        c.lines.push_back(StrCat("  ", v, " = ", s, " get-tuple-element(", loop, "), index=", i));
      }
      return OkStatus();
    }
    if (n == "stablehlo.if" || n == "stablehlo.case") {
      // HLO's conditional: each branch a computation of one tuple parameter
      // holding the values of this block the branches use.
      std::unordered_set<const Value*> seen;
      std::vector<const Value*> captured;
      for (const auto& region : op.regions) {
        std::unordered_set<const Value*> defined;
        FreeValues(*region, &defined, &seen, &captured);
      }
      std::vector<Type> types;
      std::string list;
      for (size_t i = 0; i < captured.size(); ++i) {
        PLUGRT_ASSIGN_OR_RETURN(std::string name, NameOf(c, captured[i], op));
        list += (i ? ", " : "") + name;
        types.push_back(captured[i]->type);
      }
      PLUGRT_ASSIGN_OR_RETURN(std::string shape, ShapeText(Type::Tuple(types)));
      const std::string args = Fresh("t");
      c.lines.push_back(StrCat("  ", args, " = ", shape, " tuple(", list, ")"));
      std::vector<std::string> branches;
      for (size_t b = 0; b < op.regions.size(); ++b) {
        PLUGRT_ASSIGN_OR_RETURN(std::string branch, RegionComputation(op, b, true, op.results.size() != 1,
                                                                      &captured));
        branches.push_back(branch);
      }
      PLUGRT_ASSIGN_OR_RETURN(std::string selector, NameOf(c, op.operands.at(0), op));
      std::string operand_list = selector;
      for (size_t b = 0; b < branches.size(); ++b) operand_list += ", " + args;
      std::string attrs;
      if (n == "stablehlo.if") {
        if (branches.size() != 2) return InvalidArgument(n, " has ", branches.size(), " regions");
        attrs = ", true_computation=" + branches[0] + ", false_computation=" + branches[1];
      } else {
        attrs = ", branch_computations={";
        for (size_t b = 0; b < branches.size(); ++b) attrs += (b ? ", " : "") + branches[b];
        attrs += "}";
      }
      return Instruction(c, op, "conditional", operand_list, attrs);
    }
    if (n == "func.call" || n == "stablehlo.call") {
      const Attribute* callee = op.attribute("callee");
      const Function* f = callee == nullptr ? nullptr : module_.FindFunction(callee->str);
      if (f == nullptr) return InvalidArgument(n, ": no callee");
      PLUGRT_ASSIGN_OR_RETURN(std::string name, CalleeComputation(*f));
      return Instruction(c, op, "call", operands, ", to_apply=" + name);
    }
    if (n == "stablehlo.custom_call") {
      const Attribute* target = op.attribute("call_target_name");
      if (target == nullptr) return InvalidArgument(n, " lacks call_target_name");
      std::string a = ", custom_call_target=\"" + Escape(target->str) + "\"";
      if (const Attribute* s = op.attribute("has_side_effect")) {
        PLUGRT_ASSIGN_OR_RETURN(bool b, AttrToBool(*s));
        if (b) a += ", custom_call_has_side_effect=true";
      }
      if (const Attribute* b = op.attribute("backend_config")) {
        if (b->kind == Attribute::Kind::kString) {
          if (!b->str.empty()) a += ", backend_config=\"" + Escape(b->str) + "\"";
        } else {
          return Unimplemented(n, " @", target->str, ": a dictionary backend_config in HLO text");
        }
      }
      if (const Attribute* v = op.attribute("api_version")) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t version, AttrToInt(*v));
        static const char* const kVersions[] = {
            "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
            "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
        if (version > 0 && version < 5) a += StrCat(", api_version=", kVersions[version]);
      }
      if (op.attribute("called_computations") != nullptr) {
        return Unimplemented(n, " @", target->str, " with called computations in HLO text");
      }
      return Instruction(c, op, "custom-call", operands, a);
    }
    if (n == "stablehlo.rng_bit_generator") {
      std::string algorithm = "rng_default";
      if (const Attribute* a = op.attribute("rng_algorithm")) {
        PLUGRT_ASSIGN_OR_RETURN(std::string v, AttrToEnumValue(*a));
        if (v == "THREE_FRY") algorithm = "rng_three_fry";
        if (v == "PHILOX") algorithm = "rng_philox";
      }
      return Instruction(c, op, "rng-bit-generator", operands, ", algorithm=" + algorithm);
    }
    if (n == "stablehlo.reduce_precision") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t e, int_attr("exponent_bits"));
      PLUGRT_ASSIGN_OR_RETURN(int64_t m, int_attr("mantissa_bits"));
      return Instruction(c, op, "reduce-precision", operands,
                         StrCat(", exponent_bits=", e, ", mantissa_bits=", m));
    }
    if (n == "stablehlo.fft") {
      const Attribute* t = op.attribute("fft_type");
      if (t == nullptr) return InvalidArgument(n, " lacks fft_type");
      PLUGRT_ASSIGN_OR_RETURN(std::string type, AttrToEnumValue(*t));
      PLUGRT_ASSIGN_OR_RETURN(std::string len, ints_attr("fft_length", "fft_length"));
      return Instruction(c, op, "fft", operands, ", fft_type=" + type + len);
    }
    if (n == "stablehlo.cholesky") {
      bool lower = false;
      if (const Attribute* a = op.attribute("lower")) {
        PLUGRT_ASSIGN_OR_RETURN(lower, AttrToBool(*a));
      }
      return Instruction(c, op, "cholesky", operands, lower ? ", lower=true" : ", lower=false");
    }
    if (n == "stablehlo.triangular_solve") {
      std::string a;
      for (const char* f : {"left_side", "lower", "unit_diagonal"}) {
        bool b = false;
        if (const Attribute* v = op.attribute(f)) {
          PLUGRT_ASSIGN_OR_RETURN(b, AttrToBool(*v));
        }
        a += StrCat(", ", f, "=", b ? "true" : "false");
      }
      std::string transpose = "NO_TRANSPOSE";
      if (const Attribute* t = op.attribute("transpose_a")) {
        PLUGRT_ASSIGN_OR_RETURN(transpose, AttrToEnumValue(*t));
      }
      return Instruction(c, op, "triangular-solve", operands, a + ", transpose_a=" + transpose);
    }
    if (n == "stablehlo.get_tuple_element") {
      PLUGRT_ASSIGN_OR_RETURN(int64_t i, int_attr("index"));
      return Instruction(c, op, "get-tuple-element", operands, StrCat(", index=", i));
    }
    if (n == "stablehlo.tuple") return Instruction(c, op, "tuple", operands, "");
    if (n == "stablehlo.after_all") return Instruction(c, op, "after-all", operands, "");
    return Unimplemented("'", n, "' has no HLO text form in plugrt's writer");
  }

  // The computation of function `f` (written once, ahead of its callers).
  StatusOr<std::string> CalleeComputation(const Function& f) {
    const std::string& name = function_names_.at(&f);
    if (f.body == nullptr || f.body->blocks.empty()) {
      return InvalidArgument("@", f.name, " is called but has no body");
    }
    if (written_.insert(&f).second) {
      PLUGRT_ASSIGN_OR_RETURN(std::string text, Computation(name, f.body->front(), f.result_types,
                                                            false, false, f.result_types.size() != 1));
      computations_ += text;
    }
    return "%" + name;
  }

  static std::string Escape(const std::string& s) {
    std::string out;
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out.push_back('\\');
      if (ch == '\n') {
        out += "\\n";
        continue;
      }
      out.push_back(ch);
    }
    return out;
  }

  const Module& module_;
  std::string computations_;
  std::unordered_map<const Function*, std::string> function_names_;
  std::unordered_set<std::string> used_;
  std::unordered_set<const Function*> written_;
  int next_id_ = 0;
  int next_region_ = 0;
};

}  // namespace

StatusOr<std::string> WriteHloText(const Module& module) {
  HloTextWriter writer(module);
  return writer.Run();
}

}  // namespace plugrt::shlo
