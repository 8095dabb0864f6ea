// plugrt StableHLO: the one spelling of an attribute the IR keeps as text
// (attributes of other dialects, Shardy's mesh attributes): the text parser
// and the bytecode reader both store such bodies in this form, so a program
// and its portable artifact keep equal attributes.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_ATTRIBUTE_TEXT_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_ATTRIBUTE_TEXT_H_

#include <string>
#include <string_view>

namespace plugrt::shlo {

// `text` with runs of white space outside string literals made one space,
// and none after an opening or before a closing bracket or a comma.
std::string NormalizedAttributeText(std::string_view text);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_ATTRIBUTE_TEXT_H_
