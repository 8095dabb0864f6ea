// plugrt StableHLO: where an op came from in the user's program, as MLIR's
// `loc(...)` says it (JAX writes one on every op: the Python file, line and
// column, the traced function's name, the call stack). The text parser and
// the bytecode reader build it; errors print it beside the program-text
// position (Location in ir.h) so a failing op names the user's source line.
#ifndef PLUGRT_STABLEHLO_SOURCE_LOCATION_H_
#define PLUGRT_STABLEHLO_SOURCE_LOCATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plugrt::shlo {

struct SourceLocation;
using SourceLocationRef = std::shared_ptr<const SourceLocation>;

// One node of MLIR's location tree. Immutable once built, shared between the
// ops that carry it (rewrites copy the pointer, never the tree).
struct SourceLocation {
  enum class Kind : uint8_t {
    kUnknown,      // loc(unknown)
    kFileLineCol,  // loc("x.py":3:4), loc("x.py":3:4 to 5:6), loc("x.py":3)
    kName,         // loc("name"), loc("name"(child))
    kCallSite,     // loc(callsite(callee at caller))
    kFused,        // loc(fused[a, b]), loc(fused<metadata>[a, b])
    kAlias,        // loc(#loc3) in text: `target` is the definition
  };

  Kind kind = Kind::kUnknown;
  // kFileLineCol: the file; kName: the name; kFused: the metadata attribute
  // as MLIR text (empty when none); kAlias: the alias name without '#'.
  std::string text;
  // kFileLineCol; 0 where the text gives none (end_* 0: not a range).
  int64_t line = 0;
  int64_t column = 0;
  int64_t end_line = 0;
  int64_t end_column = 0;
  // kName: the child, if any; kCallSite: callee then caller; kFused: the parts.
  std::vector<SourceLocationRef> children;
  // kAlias: what the alias names (set once the whole file is read).
  SourceLocationRef target;

  static SourceLocationRef Unknown();
  static SourceLocationRef FileLineCol(std::string file, int64_t line, int64_t column,
                                       int64_t end_line = 0, int64_t end_column = 0);
  static SourceLocationRef Name(std::string name, SourceLocationRef child = nullptr);
  static SourceLocationRef CallSite(SourceLocationRef callee, SourceLocationRef caller);
  static SourceLocationRef Fused(std::vector<SourceLocationRef> parts, std::string metadata = "");

  // For people: "x.py:3:4 in f, called from x.py:9:1"; empty for unknown.
  std::string ToString() const;
  // MLIR's syntax, aliases replaced by what they name: `"x.py":3:4`,
  // `callsite("f"("x.py":3:4) at unknown)`. Parseable inside `loc(...)`.
  std::string ToMlir() const;
  // The first file/line/column the tree holds (the innermost frame of a call
  // stack: the callee before its caller), or null.
  const SourceLocation* FirstFileLineCol() const;
};

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_SOURCE_LOCATION_H_
