// plugrt StableHLO: the rules that turn raw element bytes into a dense
// literal's data (`dense<"0x...">` in text, tensor attributes in bytecode),
// shared by the text parser and the bytecode reader so both give the same
// DenseData for the same bytes.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_DENSE_DATA_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_DENSE_DATA_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// A dense literal's type must be a tensor of static shape with at most 2^40
// elements. INVALID_ARGUMENT saying which rule `type` breaks.
Status CheckDenseLiteralType(const Type& type);

// The data of a dense literal of `type` (checked above) from little-endian
// element bytes: one element per element of `type`, or a single element (a
// splat). i1 elements become 0/1 bytes and sub-byte integers are sign- or
// zero-extended to their storage byte. Errors name the literal as `what`
// ("hex dense literal has 3 bytes but tensor<2xf32> needs 8 ...").
StatusOr<std::shared_ptr<const DenseData>> DenseDataFromBytes(const Type& type,
                                                              std::string_view bytes,
                                                              std::string_view what);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_DENSE_DATA_H_
