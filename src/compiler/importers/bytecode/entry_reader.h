// plugrt MLIR bytecode: what a dialect's own attribute and type encodings
// (Shardy's: sdy_encoding.cc; the HLO dialects': hlo_encoding.cc) need from
// the container that holds them: references into its attribute, type and
// string tables. Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENTRY_READER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENTRY_READER_H_

#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/encoding_reader.h"

namespace plugrt::shlo::bytecode {

class EntryReader {
 public:
  virtual ~EntryReader() = default;
  virtual Status ReadAttr(EncodingReader& r, const BcAttr** out) = 0;
  // Null when absent.
  virtual Status ReadOptionalAttr(EncodingReader& r, const BcAttr** out) = 0;
  virtual Status ReadType(EncodingReader& r, const BcType** out) = 0;
  virtual Status ReadString(EncodingReader& r, std::string_view* out) = 0;
};

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENTRY_READER_H_
