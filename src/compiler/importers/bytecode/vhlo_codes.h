// plugrt StableHLO bytecode: the numbers VHLO's bytecode gives its attribute
// and type kinds, its enums and their values, and the StableHLO version that
// introduced each (upstream VhloBytecode.cpp, VhloAttrs.td, VhloTypes.td,
// VhloEnums.td). One table serves the reader and the writer.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_CODES_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_CODES_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/importers/bytecode/vhlo_version.h"

namespace plugrt::shlo::bytecode {

// Builtin attribute kinds a portable artifact holds (upstream MLIR's
// BuiltinDialectBytecode.td).
enum BuiltinAttrCode : uint64_t {
  kBuiltinArrayAttr = 0,
  kBuiltinDictionaryAttr = 1,
  kBuiltinStringAttr = 2,
  kBuiltinTypedStringAttr = 3,
  kBuiltinFlatSymbolRefAttr = 4,
  kBuiltinSymbolRefAttr = 5,
  kBuiltinTypeAttr = 6,
  kBuiltinUnitAttr = 7,
  kBuiltinIntegerAttr = 8,
  kBuiltinFloatAttr = 9,
  kBuiltinCallSiteLoc = 10,
  kBuiltinFileLineColLoc = 11,
  kBuiltinFusedLoc = 12,
  kBuiltinFusedLocWithMetadata = 13,
  kBuiltinNameLoc = 14,
  kBuiltinUnknownLoc = 15,
  kBuiltinDenseResourceAttr = 16,
  kBuiltinDenseArrayAttr = 17,
  kBuiltinDenseElementsAttr = 18,
  kBuiltinFileLineColRange = 22,
};

// VHLO attribute kinds (besides the enums below).
enum VhloAttrCode : uint64_t {
  kVhloArrayAttr = 1,
  kVhloBoolAttr = 2,
  kVhloDictionaryAttr = 6,
  kVhloFloatAttr = 8,
  kVhloIntegerAttr = 9,
  kVhloOutputOperandAliasAttr = 10,
  kVhloStringAttr = 14,
  kVhloTensorAttr = 15,
  kVhloTypeAttr = 17,
  kVhloTypeExtensionsAttr = 18,
  kVhloResultAccuracyAttr = 20,
  kVhloSubAxisInfoAttr = 21,
  kVhloAxisRefAttr = 22,
  kVhloReplicaGroupMeshAxesAttr = 23,
  kVhloMeshAxisAttr = 24,
  kVhloMeshAttr = 25,
};

// VHLO type kinds (besides the scalar element types below).
enum VhloTypeCode : uint64_t {
  kVhloComplexType = 1,
  kVhloFunctionType = 8,
  kVhloRankedTensorType = 20,
  kVhloRankedTensorWithEncodingType = 21,
  kVhloTokenType = 22,
  kVhloTupleType = 23,
  kVhloQuantizedType = 24,
  kVhloUnrankedTensorType = 25,
  kVhloWitnessType = 26,
  kVhloQuantizedPerAxisType = 30,
  kVhloNoneType = 33,
  kVhloRankedBufferType = 41,
  kVhloFutureType = 42,
};

// The first StableHLO version with attribute kind `code` (an enum's code
// included) or type kind `code` (element types included).
VhloVersion VhloAttrMinVersion(uint64_t code);
VhloVersion VhloTypeMinVersion(uint64_t code);
// "vhlo.result_accuracy_v1", "vhlo.f8E4M3_v1": for messages.
std::string_view VhloAttrName(uint64_t code);
std::string_view VhloTypeName(uint64_t code);

// A VHLO enum attribute: family ("comparison_direction", as StableHLO spells
// it after "#stablehlo<"), its attribute code, and its values by number
// (numbers start at `first`).
struct VhloEnumInfo {
  std::string_view family;
  uint64_t code;
  uint64_t first;
  std::array<std::string_view, 6> values;  // unused slots are empty
};
const VhloEnumInfo* FindVhloEnumByCode(uint64_t code);
const VhloEnumInfo* FindVhloEnumByFamily(std::string_view family);
// The value numbered `v`, or nullopt.
std::optional<std::string_view> VhloEnumValueName(const VhloEnumInfo& info, uint64_t v);
// The number of `name`, or nullopt.
std::optional<uint64_t> VhloEnumValueNumber(const VhloEnumInfo& info, std::string_view name);

// A VHLO scalar element type: MLIR spelling ("f32", "ui8", "index"), code,
// bit width, float or not.
struct VhloElementInfo {
  std::string_view name;
  uint64_t code;
  int bits;
  bool is_float;
};
const VhloElementInfo* FindVhloElementByCode(uint64_t code);
const VhloElementInfo* FindVhloElementByName(std::string_view name);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_CODES_H_
