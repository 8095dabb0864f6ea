#include "compiler/importers/bytecode/vhlo_codes.h"

namespace plugrt::shlo::bytecode {
namespace {

struct Versioned {
  uint64_t code;
  std::string_view name;
  VhloVersion min;
};

// Attribute kinds and enums with the version that introduced them.
constexpr Versioned kAttrs[] = {
    {kVhloArrayAttr, "vhlo.array_v1", {0, 9, 0}},
    {kVhloBoolAttr, "vhlo.bool_v1", {0, 9, 0}},
    {3, "vhlo.comparison_direction_v1", {0, 9, 0}},
    {4, "vhlo.comparison_type_v1", {0, 9, 0}},
    {5, "vhlo.api_version_v1", {0, 9, 0}},
    {kVhloDictionaryAttr, "vhlo.dict_v1", {0, 9, 0}},
    {7, "vhlo.fft_type_v1", {0, 9, 0}},
    {kVhloFloatAttr, "vhlo.float_v1", {0, 9, 0}},
    {kVhloIntegerAttr, "vhlo.integer_v1", {0, 9, 0}},
    {kVhloOutputOperandAliasAttr, "vhlo.output_operand_alias_v1", {0, 9, 0}},
    {11, "vhlo.precision_v1", {0, 9, 0}},
    {12, "vhlo.rng_algorithm_v1", {0, 9, 0}},
    {13, "vhlo.rng_distribution_v1", {0, 9, 0}},
    {kVhloStringAttr, "vhlo.string_v1", {0, 9, 0}},
    {kVhloTensorAttr, "vhlo.tensor_v1", {0, 9, 0}},
    {16, "vhlo.transpose_v1", {0, 9, 0}},
    {kVhloTypeAttr, "vhlo.type_v1", {0, 9, 0}},
    {kVhloTypeExtensionsAttr, "vhlo.type_extensions_v1", {0, 9, 0}},
    {19, "vhlo.result_accuracy_mode_v1", {1, 9, 0}},
    {kVhloResultAccuracyAttr, "vhlo.result_accuracy_v1", {1, 9, 0}},
    {kVhloSubAxisInfoAttr, "vhlo.sub_axis_info_v1", {1, 16, 0}},
    {kVhloAxisRefAttr, "vhlo.axis_ref_v1", {1, 16, 0}},
    {kVhloReplicaGroupMeshAxesAttr, "vhlo.replica_group_mesh_axes_v1", {1, 16, 0}},
    {kVhloMeshAxisAttr, "vhlo.mesh_axis_v1", {1, 16, 0}},
    {kVhloMeshAttr, "vhlo.mesh_v1", {1, 16, 0}},
};

constexpr Versioned kTypes[] = {
    {0, "vhlo.bool_v1", {0, 9, 0}},
    {kVhloComplexType, "vhlo.complex_v1", {0, 9, 0}},
    {2, "vhlo.bf16_v1", {0, 9, 0}},
    {3, "vhlo.f16_v1", {0, 9, 0}},
    {4, "vhlo.f32_v1", {0, 9, 0}},
    {5, "vhlo.f64_v1", {0, 9, 0}},
    {6, "vhlo.f8E4M3FN_v1", {0, 9, 0}},
    {7, "vhlo.f8E5M2_v1", {0, 9, 0}},
    {kVhloFunctionType, "vhlo.func_v1", {0, 9, 0}},
    {9, "vhlo.index_v1", {0, 9, 0}},
    {10, "vhlo.i4_v1", {0, 9, 0}},
    {11, "vhlo.i8_v1", {0, 9, 0}},
    {12, "vhlo.i16_v1", {0, 9, 0}},
    {13, "vhlo.i32_v1", {0, 9, 0}},
    {14, "vhlo.i64_v1", {0, 9, 0}},
    {15, "vhlo.ui4_v1", {0, 9, 0}},
    {16, "vhlo.ui8_v1", {0, 9, 0}},
    {17, "vhlo.ui16_v1", {0, 9, 0}},
    {18, "vhlo.ui32_v1", {0, 9, 0}},
    {19, "vhlo.ui64_v1", {0, 9, 0}},
    {kVhloRankedTensorType, "vhlo.tensor_v1", {0, 9, 0}},
    {kVhloRankedTensorWithEncodingType, "vhlo.tensor_v1", {0, 9, 0}},
    {kVhloTokenType, "vhlo.token_v1", {0, 9, 0}},
    {kVhloTupleType, "vhlo.tuple_v1", {0, 9, 0}},
    {kVhloQuantizedType, "vhlo.quant_v1", {0, 9, 0}},
    {kVhloUnrankedTensorType, "vhlo.unranked_tensor_v1", {0, 9, 0}},
    {kVhloWitnessType, "vhlo.witness_v1", {0, 9, 0}},
    {27, "vhlo.f8E4M3FNUZ_v1", {0, 10, 0}},
    {28, "vhlo.f8E5M2FNUZ_v1", {0, 10, 0}},
    {29, "vhlo.f8E4M3B11FNUZ_v1", {0, 11, 0}},
    {kVhloQuantizedPerAxisType, "vhlo.quant_per_axis_v1", {0, 18, 0}},
    {31, "vhlo.i2_v1", {1, 2, 0}},
    {32, "vhlo.ui2_v1", {1, 2, 0}},
    {kVhloNoneType, "vhlo.none_v1", {1, 6, 0}},
    {34, "vhlo.tf32_v1", {1, 6, 0}},
    {35, "vhlo.f8E4M3_v1", {1, 7, 0}},
    {36, "vhlo.f8E3M4_v1", {1, 7, 0}},
    {37, "vhlo.f4E2M1FN_v1", {1, 8, 0}},
    {38, "vhlo.f6E2M3FN_v1", {1, 8, 0}},
    {39, "vhlo.f6E3M2FN_v1", {1, 8, 0}},
    {40, "vhlo.f8E8M0FNU_v1", {1, 8, 0}},
    {kVhloRankedBufferType, "vhlo.buffer_v1", {1, 13, 0}},
    {kVhloFutureType, "vhlo.future_v1", {1, 15, 0}},
};

template <size_t N>
const Versioned* Find(const Versioned (&table)[N], uint64_t code) {
  for (const Versioned& v : table) {
    if (v.code == code) return &v;
  }
  return nullptr;
}

constexpr VhloEnumInfo kEnums[] = {
    {"comparison_direction", 3, 0, {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {"comparison_type", 4, 0, {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {"api_version", 5, 0,
     {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
      "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
    {"fft_type", 7, 0, {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {"precision", 11, 0, {"DEFAULT", "HIGH", "HIGHEST"}},
    {"rng_algorithm", 12, 0, {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {"rng_distribution", 13, 1, {"UNIFORM", "NORMAL"}},
    {"transpose", 16, 0, {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {"result_accuracy_mode", 19, 0, {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

constexpr VhloElementInfo kElements[] = {
    {"i1", 0, 1, false},          {"bf16", 2, 16, true},        {"f16", 3, 16, true},
    {"f32", 4, 32, true},         {"f64", 5, 64, true},         {"f8E4M3FN", 6, 8, true},
    {"f8E5M2", 7, 8, true},       {"index", 9, 64, false},      {"i4", 10, 4, false},
    {"i8", 11, 8, false},         {"i16", 12, 16, false},       {"i32", 13, 32, false},
    {"i64", 14, 64, false},       {"ui4", 15, 4, false},        {"ui8", 16, 8, false},
    {"ui16", 17, 16, false},      {"ui32", 18, 32, false},      {"ui64", 19, 64, false},
    {"f8E4M3FNUZ", 27, 8, true},  {"f8E5M2FNUZ", 28, 8, true},  {"f8E4M3B11FNUZ", 29, 8, true},
    {"i2", 31, 2, false},         {"ui2", 32, 2, false},        {"tf32", 34, 19, true},
    {"f8E4M3", 35, 8, true},      {"f8E3M4", 36, 8, true},      {"f4E2M1FN", 37, 4, true},
    {"f6E2M3FN", 38, 6, true},    {"f6E3M2FN", 39, 6, true},    {"f8E8M0FNU", 40, 8, true},
};

// The first row of `table` whose `field` equals `key`, or null.
template <typename Table, typename Row, typename Field, typename Key>
const Row* FindBy(const Table& table, Field Row::*field, const Key& key) {
  for (const Row& row : table) {
    if (row.*field == key) return &row;
  }
  return nullptr;
}

}  // namespace

VhloVersion VhloAttrMinVersion(uint64_t code) {
  const Versioned* v = Find(kAttrs, code);
  return v ? v->min : kStillCurrent;
}
VhloVersion VhloTypeMinVersion(uint64_t code) {
  const Versioned* v = Find(kTypes, code);
  return v ? v->min : kStillCurrent;
}
std::string_view VhloAttrName(uint64_t code) {
  const Versioned* v = Find(kAttrs, code);
  return v ? v->name : "an unknown vhlo attribute";
}
std::string_view VhloTypeName(uint64_t code) {
  const Versioned* v = Find(kTypes, code);
  return v ? v->name : "an unknown vhlo type";
}

const VhloEnumInfo* FindVhloEnumByCode(uint64_t code) {
  return FindBy(kEnums, &VhloEnumInfo::code, code);
}
const VhloEnumInfo* FindVhloEnumByFamily(std::string_view family) {
  return FindBy(kEnums, &VhloEnumInfo::family, family);
}

std::optional<std::string_view> VhloEnumValueName(const VhloEnumInfo& info, uint64_t v) {
  if (v < info.first) return std::nullopt;
  uint64_t i = v - info.first;
  if (i >= info.values.size() || info.values[i].empty()) return std::nullopt;
  return info.values[i];
}

std::optional<uint64_t> VhloEnumValueNumber(const VhloEnumInfo& info, std::string_view name) {
  for (size_t i = 0; i < info.values.size(); ++i) {
    if (!info.values[i].empty() && info.values[i] == name) return info.first + i;
  }
  return std::nullopt;
}

const VhloElementInfo* FindVhloElementByCode(uint64_t code) {
  return FindBy(kElements, &VhloElementInfo::code, code);
}
const VhloElementInfo* FindVhloElementByName(std::string_view name) {
  return FindBy(kElements, &VhloElementInfo::name, name);
}

}  // namespace plugrt::shlo::bytecode
