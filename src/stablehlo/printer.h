// plugrt StableHLO: IR -> MLIR text in the generic op form, which ParseModule
// reads back to an equal program (values renumbered %0, %1, ..., %argN).
#ifndef PLUGRT_STABLEHLO_PRINTER_H_
#define PLUGRT_STABLEHLO_PRINTER_H_

#include <string>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Every op as "dialect.op"(operands) ({regions}) {attributes} : (types) ->
// types; functions as func.func with their attributes.
std::string PrintModule(const Module& module);
// One op (with its regions), values named as written; for error messages and
// debugging.
std::string PrintOperation(const Operation& op);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_PRINTER_H_
