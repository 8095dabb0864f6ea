// plugrt StableHLO bytecode: StableHLO -> VHLO, the inverse of what
// reader.cc does: each op becomes the VHLO op version a chosen StableHLO
// version defines, with every attribute that version's op has (defaults
// spelled out, #stablehlo structs expanded into their fields, channel
// handles into channel ids, dense arrays into i64 tensors, symbols into
// strings), in bytecode_ir.h's structures for container_writer.cc to encode.
// Internal to src/stablehlo/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_TO_VHLO_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_TO_VHLO_H_

#include <memory>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/vhlo_version.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::bytecode {

// INVALID_ARGUMENT naming the op and the version when an op (or one of its
// attribute values) has no form at `target`, and for ops outside StableHLO
// (CHLO, Shardy's module-level meshes) that a portable artifact cannot hold.
StatusOr<std::unique_ptr<BcFile>> ModuleToVhlo(const Module& module, VhloVersion target);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_TO_VHLO_H_
