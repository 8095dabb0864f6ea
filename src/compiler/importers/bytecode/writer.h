// plugrt StableHLO: writing a program as a StableHLO portable artifact: its
// ops converted to the VHLO op versions a chosen StableHLO version (0.9.0 to
// 1.20.0) defines, written as MLIR bytecode in the format version that
// StableHLO release reads, so that plugrt's reader (reader.h) and upstream's
// read it back.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_WRITER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_WRITER_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// `target_version`: "X.Y.Z", or empty for the current version plugrt
// announces (1.20.0). INVALID_ARGUMENT for a version outside 0.9.0..1.20.0,
// and naming the op and the version when the program uses an op, attribute
// or type the target version cannot express (or one outside StableHLO, such
// as a CHLO op). Source locations are written; the program is not verified
// here.
StatusOr<std::string> WriteBytecodeModule(const Module& module, std::string_view target_version);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_WRITER_H_
