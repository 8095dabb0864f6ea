// plugrt StableHLO bytecode: Shardy's `sdy` dialect in its own bytecode
// encoding, as JAX writes it into a portable artifact when it exports with
// Shardy (StableHLO keeps other dialects' ops and attributes next to VHLO):
// the dialect's attributes (meshes, axis refs, dimension and tensor
// shardings, shardings per value, manual axes, sharding rules, ...) and the
// inherent attributes (properties) of its ops.
//
// A decoded Shardy attribute is a kText attribute whose `str` is its MLIR
// spelling (`#sdy.sharding<@mesh, [{"x"}, {}]>`), so it reads exactly as the
// same attribute in a text program does (older artifacts hold them as that
// text); `family` is its mnemonic and `sdy_body` the spelling after it,
// which the attributes that hold it spell it with.
// Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_

#include <array>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/encoding_reader.h"

namespace plugrt::shlo::bytecode {

// What decoding a Shardy attribute needs from the container: the entries of
// the attribute table it refers to, and the string table.
class SdyEntryReader {
 public:
  virtual ~SdyEntryReader() = default;
  virtual Status ReadAttr(EncodingReader& r, const BcAttr** out) = 0;
  // Null when absent.
  virtual Status ReadOptionalAttr(EncodingReader& r, const BcAttr** out) = 0;
  virtual Status ReadString(EncodingReader& r, std::string_view* out) = 0;
};

// Decodes the Shardy attribute whose encoding `r` holds into `a`.
Status DecodeSdyAttr(EncodingReader& r, SdyEntryReader& entries, BcAttr* a);

// A Shardy op's inherent attributes as its properties encode them.
struct SdyOpInfo {
  struct Property {
    std::string_view name;
    bool optional = false;
  };
  std::string_view name;  // without "sdy."
  // In name order, as the properties are written; unused slots are empty.
  std::array<Property, 3> properties;
};

// The Shardy op called `name` (without "sdy."), or null when plugrt does not
// read it.
const SdyOpInfo* FindSdyOp(std::string_view name);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_SDY_ENCODING_H_
