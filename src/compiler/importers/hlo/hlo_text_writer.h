// plugrt compiler: a StableHLO module written as XLA's HLO text, the form
// the HLO text reader takes back (`plugrt convert --to hlo`), so programs
// move both ways and the two readers can be checked against each other.
//
// Each function becomes a computation (@main the ENTRY), each op region a
// computation of its own, each op one instruction; ops with several results
// give a tuple-shaped instruction and one get-tuple-element per result, and
// stablehlo.while carries its operands as one tuple, as HLO does;
// stablehlo.if / case become a conditional whose branches take the values of
// the enclosing block they use as one tuple parameter. CHLO ops must be
// lowered first (HLO has none). An op the writer does not know (collectives,
// optimization_barrier, ...), or another region that uses a value of its
// enclosing block (HLO computations capture nothing), is UNIMPLEMENTED
// naming the op.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_WRITER_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_WRITER_H_

#include <string>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

StatusOr<std::string> WriteHloText(const Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_WRITER_H_
