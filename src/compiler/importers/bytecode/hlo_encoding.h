// plugrt MLIR bytecode: the attributes and types of the HLO dialects in
// their own bytecode encodings, as tools that write these dialects directly
// produce them (MHLO from TensorFlow and XLA tools; stablehlo and chlo from
// stablehlo-opt and other MLIR pipelines, which write the dialect itself,
// not the VHLO of a portable artifact). Each entry starts with a varint
// code, numbered per dialect (upstream mhlo_bytecode.cc,
// StablehloBytecode.cpp, ChloBytecode.cpp: facts); integers follow as
// signed varints, lists as a count and signed varints, enums as their
// number, nested attributes and types as table references.
//
// The result is what the same attribute in text reads as: enums and
// dimension-number structs become their StableHLO spelling (a kText
// attribute the text parser reads, mhlo's spelled as StableHLO's, which
// the text parser maps it to), and the kinds VHLO has too (type
// extensions, output-operand aliases, result accuracy) the same BcAttr
// kinds. Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_HLO_ENCODING_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_HLO_ENCODING_H_

#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/encoding_reader.h"
#include "compiler/importers/bytecode/entry_reader.h"

namespace plugrt::shlo::bytecode {

// Whether `dialect` is one whose encoding this file reads.
bool IsHloDialect(std::string_view dialect);

// Decodes the attribute of `dialect` ("mhlo", "stablehlo", "chlo") whose
// encoding `r` holds into `a`.
Status DecodeHloAttr(EncodingReader& r, std::string_view dialect, EntryReader& entries,
                     BcAttr* a);

// Decodes a type of `dialect` (the token type; mhlo's async bundles and
// stablehlo's futures are refused by name).
Status DecodeHloType(EncodingReader& r, std::string_view dialect, EntryReader& entries,
                     BcType* t);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_HLO_ENCODING_H_
