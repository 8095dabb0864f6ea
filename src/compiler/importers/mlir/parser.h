// plugrt StableHLO: MLIR text -> IR module.
//
// Reads what StableHLO and JAX emit: modules with attributes, func.func
// functions, the generic op form, the pretty forms of StableHLO ops (turned
// into the generic form's attributes, so later stages see one shape per op),
// CHLO and check/interpreter ops (kept as written, code kUnknown where the op
// list has no code). Also the forms other tools print: generic
// "builtin.module" / "func.func", dense_resource constants with the trailing
// resource section, the mhlo dialect (read as StableHLO), arith.constant and
// tensor.cast; ops of other dialects are refused by name. Errors name
// file:line:col and what was expected.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Parses a whole file or one `// -----` section: a `module` (named or not,
// with attributes), or bare top-level func.func ops (wrapped in an unnamed
// module). Errors: INVALID_ARGUMENT "file:line:col: message".
StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name);
// The same for a section that starts at line `first_line` of its file, so
// that locations name lines of the whole file.
StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name,
                                              int first_line);
// The same, with dense_resource<__elided__> (and resources without a blob)
// filled as `options` says instead of refused.
StatusOr<std::unique_ptr<Module>> ParseModule(std::string_view text, std::string_view file_name,
                                              const ReadOptions& options);

// What stands inside `loc(...)` (SourceLocation::ToMlir's output), without
// aliases: how stored programs keep their source locations.
StatusOr<SourceLocationRef> ParseSourceLocation(std::string_view text);

// Parses one type written in MLIR's spelling, the whole text
// ("tensor<2x!quant.uniform<i8:f32, 0.5:-20>>", "!quant.uniform<u8:f32, 0.1>",
// "f32", "tuple<...>"): for readers that build types from text (the bytecode
// reader's quantized types). Errors: INVALID_ARGUMENT naming the offset.
StatusOr<Type> ParseTypeText(std::string_view text);

// Parses one attribute written in MLIR's spelling, the whole text
// ("#sdy.op_sharding_rule<...>", "dense<1> : tensor<i32>"): for readers that
// hold attributes as text (the bytecode reader's attributes of other
// dialects). Errors: INVALID_ARGUMENT naming the offset.
StatusOr<Attribute> ParseAttributeText(std::string_view text);

// One `// -----`-separated part of a file (the interpreter's test format).
struct SourceSection {
  std::string_view text;
  int first_line = 1;  // line of the file where `text` starts
};
// Splits on lines starting with `// -----`; a file without them is one section.
std::vector<SourceSection> SplitSections(std::string_view text);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_PARSER_H_
