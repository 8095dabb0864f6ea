#include "stablehlo/printer.h"

#include <unordered_map>

namespace plugrt::shlo {
namespace {

bool IsSymbolName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string SymbolText(const std::string& name) {
  return IsSymbolName(name) ? "@" + name : "@" + Attribute::String(name).ToString();
}

std::string AttrDictText(const std::vector<NamedAttribute>& attrs) {
  return Attribute::Dictionary(attrs).ToString();
}

class Printer {
 public:
  // `renumber`: name values %0.. / %argN in definition order; otherwise use
  // the names as written.
  explicit Printer(bool renumber) : renumber_(renumber) {}

  void PrintFunction(const Function& f) {
    names_.clear();
    next_result_ = 0;
    next_arg_ = 0;
    out_ += "  func.func ";
    if (!f.is_public) out_ += "private ";
    out_ += SymbolText(f.name) + "(";
    const Block* entry = f.body && !f.body->blocks.empty() ? &f.body->front() : nullptr;
    for (size_t i = 0; i < f.input_types.size(); ++i) {
      if (i > 0) out_ += ", ";
      std::string name = entry && i < entry->arguments.size()
                             ? Define(entry->arguments[i].get())
                             : StrCat("%arg", next_arg_++);
      out_ += name + ": " + f.input_types[i].ToString();
      if (i < f.arg_attributes.size() && !f.arg_attributes[i].empty()) {
        out_ += " " + AttrDictText(f.arg_attributes[i]);
      }
    }
    out_ += ")";
    if (!f.result_types.empty()) {
      out_ += " -> (";
      for (size_t i = 0; i < f.result_types.size(); ++i) {
        if (i > 0) out_ += ", ";
        out_ += f.result_types[i].ToString();
        if (i < f.result_attributes.size() && !f.result_attributes[i].empty()) {
          out_ += " " + AttrDictText(f.result_attributes[i]);
        }
      }
      out_ += ")";
    }
    if (!f.attributes.empty()) out_ += " attributes " + AttrDictText(f.attributes);
    if (!f.body) {  // a declaration
      out_ += "\n";
      return;
    }
    out_ += " {\n";
    if (f.body) {
      for (size_t b = 0; b < f.body->blocks.size(); ++b) {
        PrintBlock(*f.body->blocks[b], 2, /*label=*/b > 0, b);
      }
    }
    out_ += "  }\n";
  }

  void PrintOp(const Operation& op, int indent) {
    Indent(indent);
    if (!op.results.empty()) {
      std::string name = Define(op.results[0].get());
      // Every result of the op shares the first one's name.
      for (size_t i = 1; i < op.results.size(); ++i) {
        names_[op.results[i].get()] = StrCat(name, "#", i);
      }
      if (op.results.size() > 1) {
        names_[op.results[0].get()] = StrCat(name, "#0");
        out_ += StrCat(name, ":", op.results.size());
      } else {
        out_ += name;
      }
      out_ += " = ";
    }
    out_ += Attribute::String(op.name).ToString() + "(";
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (i > 0) out_ += ", ";
      out_ += Use(op.operands[i]);
    }
    out_ += ")";
    if (!op.regions.empty()) {
      out_ += " (";
      for (size_t r = 0; r < op.regions.size(); ++r) {
        if (r > 0) out_ += ", ";
        out_ += "{\n";
        const Region& region = *op.regions[r];
        for (size_t b = 0; b < region.blocks.size(); ++b) {
          PrintBlock(*region.blocks[b], indent + 1, /*label=*/true, b);
        }
        Indent(indent);
        out_ += "}";
      }
      out_ += ")";
    }
    if (!op.attributes.empty()) out_ += " " + AttrDictText(op.attributes);
    out_ += " : (";
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (i > 0) out_ += ", ";
      out_ += op.operands[i] ? op.operands[i]->type.ToString() : "<null>";
    }
    out_ += ") -> ";
    if (op.results.size() == 1) {
      out_ += op.results[0]->type.ToString();
    } else {
      out_ += "(";
      for (size_t i = 0; i < op.results.size(); ++i) {
        if (i > 0) out_ += ", ";
        out_ += op.results[i]->type.ToString();
      }
      out_ += ")";
    }
    out_ += "\n";
  }

  std::string& out() { return out_; }

 private:
  void Indent(int indent) { out_.append(static_cast<size_t>(indent) * 2, ' '); }

  void PrintBlock(const Block& block, int indent, bool label, size_t index) {
    if (label) {
      Indent(indent - 1);
      out_ += StrCat("^bb", index);
      if (!block.arguments.empty()) {
        out_ += "(";
        for (size_t i = 0; i < block.arguments.size(); ++i) {
          if (i > 0) out_ += ", ";
          out_ += Define(block.arguments[i].get()) + ": " + block.arguments[i]->type.ToString();
        }
        out_ += ")";
      }
      out_ += ":\n";
    }
    for (const auto& op : block.operations) PrintOp(*op, indent);
  }

  std::string Define(const Value* v) {
    std::string name;
    if (renumber_) {
      name = v->defining_op == nullptr ? StrCat("%arg", next_arg_++) : StrCat("%", next_result_++);
    } else {
      name = "%" + (v->name.empty() ? std::string("_") : v->name);
    }
    names_[v] = name;
    return name;
  }

  std::string Use(const Value* v) {
    if (v == nullptr) return "%<null>";
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    std::string name = "%" + (v->name.empty() ? std::string("_") : v->name);
    if (v->defining_op != nullptr && v->defining_op->results.size() > 1) {
      name += StrCat("#", v->index);
    }
    return name;
  }

  bool renumber_;
  std::unordered_map<const Value*, std::string> names_;
  int next_result_ = 0;
  int next_arg_ = 0;
  std::string out_;
};

}  // namespace

std::string PrintModule(const Module& module) {
  Printer printer(/*renumber=*/true);
  std::string& out = printer.out();
  out += "module";
  if (!module.name.empty()) out += " " + SymbolText(module.name);
  if (!module.attributes.empty()) out += " attributes " + AttrDictText(module.attributes);
  out += " {\n";
  for (const auto& [name, mesh] : module.meshes) {
    out += "  sdy.mesh " + SymbolText(name) + " = <" + mesh.enum_value + ">\n";
  }
  for (const auto& f : module.functions) printer.PrintFunction(*f);
  out += "}\n";
  return out;
}

std::string PrintOperation(const Operation& op) {
  Printer printer(/*renumber=*/false);
  printer.PrintOp(op, 0);
  std::string out = std::move(printer.out());
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace plugrt::shlo
