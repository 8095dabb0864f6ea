// Tests' structural comparison of two programs (same_ir.h): what two
// readers of one program must agree on, beyond printing the same.
#ifndef PLUGRT_TESTS_COMPILER_SAME_IR_H_
#define PLUGRT_TESTS_COMPILER_SAME_IR_H_

#include <map>
#include <string>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Structural equality of two programs, stronger than equal printing: same
// functions and signatures, same ops (name and OpCode), attributes equal as
// IR values (kinds, types, values bit for bit, dense data), same types, and
// each operand the value at the same place of the other program. Attribute
// order is canonicalized first; locations are not compared (the text's are
// line:col). Empty when equal, else the first difference.
class SameIr {
 public:
  std::string Compare(const Module& a, const Module& b) {
    if (a.name != b.name) return "module name " + a.name + " vs " + b.name;
    if (!(a.attributes == b.attributes)) return "module attributes";
    if (a.functions.size() != b.functions.size()) return "number of functions";
    for (size_t i = 0; i < a.functions.size(); ++i) {
      const Function& f = *a.functions[i];
      const Function& g = *b.functions[i];
      std::string where = "@" + f.name + ": ";
      if (f.name != g.name || f.is_public != g.is_public) return where + "name or visibility";
      if (f.input_types != g.input_types || f.result_types != g.result_types) {
        return where + "signature";
      }
      if (!(f.arg_attributes == g.arg_attributes)) return where + "argument attributes";
      if (!(f.result_attributes == g.result_attributes)) return where + "result attributes";
      if (!(f.attributes == g.attributes)) return where + "function attributes";
      if ((f.body == nullptr) != (g.body == nullptr)) return where + "body";
      if (f.body != nullptr) {
        map_.clear();
        std::string d = Regions(*f.body, *g.body);
        if (!d.empty()) return where + d;
      }
    }
    return "";
  }

 private:
  std::string Regions(const Region& a, const Region& b) {
    if (a.blocks.size() != b.blocks.size()) return "number of blocks";
    for (size_t i = 0; i < a.blocks.size(); ++i) {
      const Block& x = *a.blocks[i];
      const Block& y = *b.blocks[i];
      if (x.arguments.size() != y.arguments.size()) return "number of block arguments";
      for (size_t j = 0; j < x.arguments.size(); ++j) {
        if (x.arguments[j]->type != y.arguments[j]->type) return "block argument type";
        map_[x.arguments[j].get()] = y.arguments[j].get();
      }
      if (x.operations.size() != y.operations.size()) return "number of ops";
      for (size_t j = 0; j < x.operations.size(); ++j) {
        std::string d = Ops(*x.operations[j], *y.operations[j]);
        if (!d.empty()) return d;
      }
    }
    return "";
  }
  std::string Ops(const Operation& a, const Operation& b) {
    std::string where = a.name + ": ";
    if (a.name != b.name || a.code != b.code) return where + "name or code vs " + b.name;
    if (!(a.attributes == b.attributes)) return where + "attributes";
    if (a.operands.size() != b.operands.size()) return where + "number of operands";
    for (size_t i = 0; i < a.operands.size(); ++i) {
      auto it = map_.find(a.operands[i]);
      if (it == map_.end() || it->second != b.operands[i]) return where + "operand";
    }
    if (a.results.size() != b.results.size()) return where + "number of results";
    for (size_t i = 0; i < a.results.size(); ++i) {
      if (a.results[i]->type != b.results[i]->type) return where + "result type";
      map_[a.results[i].get()] = b.results[i].get();
    }
    if (a.regions.size() != b.regions.size()) return where + "number of regions";
    for (size_t i = 0; i < a.regions.size(); ++i) {
      std::string d = Regions(*a.regions[i], *b.regions[i]);
      if (!d.empty()) return where + d;
    }
    return "";
  }

  std::map<const Value*, const Value*> map_;
};

}  // namespace plugrt::shlo

#endif  // PLUGRT_TESTS_COMPILER_SAME_IR_H_
