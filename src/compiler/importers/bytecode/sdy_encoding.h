// plugrt StableHLO bytecode: Shardy's `sdy` dialect in its own bytecode
// encoding, as JAX writes it into a portable artifact when it exports with
// Shardy (StableHLO keeps other dialects' ops and attributes next to VHLO):
// the dialect's attributes (meshes, axis refs, dimension and tensor
// shardings, shardings per value, manual axes, sharding rules, ...). The
// properties of its ops are in op_properties.cc.
//
// A decoded Shardy attribute is a kText attribute whose `str` is its MLIR
// spelling (`#sdy.sharding<@mesh, [{"x"}, {}]>`), so it reads exactly as the
// same attribute in a text program does (older artifacts hold them as that
// text); `family` is its mnemonic and `sdy_body` the spelling after it,
// which the attributes that hold it spell it with.
// Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_

#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/encoding_reader.h"
#include "compiler/importers/bytecode/entry_reader.h"

namespace plugrt::shlo::bytecode {

// Decodes the Shardy attribute whose encoding `r` holds into `a`.
Status DecodeSdyAttr(EncodingReader& r, EntryReader& entries, BcAttr* a);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_
