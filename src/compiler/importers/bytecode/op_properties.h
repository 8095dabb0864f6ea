// plugrt MLIR bytecode: the inherent attributes ("properties") of the ops of
// dialects other than VHLO that plugrt reads from MLIR bytecode and writes
// back: func, Shardy's sdy, and the HLO dialects as tools write them
// directly (mhlo, stablehlo, chlo). Since bytecode version 5 an op keeps
// these attributes in a properties blob, in the order its ODS definition
// writes them (by name), each a reference to the attribute table, or for an
// attribute that may be absent a flagged reference (0: absent). Nothing in
// the blob names them, so decoding needs this table. One table serves the
// reader (container.cc) and the writer (container_writer.cc).
// Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_PROPERTIES_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_PROPERTIES_H_

#include <string_view>

namespace plugrt::shlo::bytecode {

struct OpProperties {
  std::string_view op;    // full name: "mhlo.compare"
  // Space-separated attribute names in the order they are written; a
  // trailing '?' marks one that may be absent ("compare_type? comparison_direction").
  std::string_view spec;
  // What earlier versions of the op wrote, tried when `spec` does not
  // decode the blob exactly (attributes are added to ops over time); empty
  // when there is none.
  std::string_view older;
  // The op sizes its variadic operand or result groups with a segment-size
  // property, which plugrt does not read.
  bool segments = false;

  struct Property {
    std::string_view name;
    bool optional = false;
  };
  // Calls fn(Property) for each property of `list` (spec or older), in order.
  template <typename Fn>
  static void ForEach(std::string_view list, Fn&& fn) {
    std::string_view rest = list;
    while (!rest.empty()) {
      size_t end = rest.find(' ');
      std::string_view word = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      if (word.empty()) continue;
      const bool optional = word.back() == '?';
      if (optional) word.remove_suffix(1);
      fn(Property{word, optional});
    }
  }
  bool Has(std::string_view name) const {
    bool found = false;
    ForEach(spec, [&](const Property& p) { found = found || p.name == name; });
    return found;
  }
};

// The table row of op `name` ("func.func", "sdy.mesh", "mhlo.compare"), or
// null when plugrt has none: for func and sdy, an op plugrt does not read;
// for the HLO dialects, an op without inherent attributes or one plugrt does
// not know.
const OpProperties* FindOpProperties(std::string_view name);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_PROPERTIES_H_
