// plugrt StableHLO: uniform quantized element types
// (`!quant.uniform<i8:f32, 0.0039:-128>`, per-tensor, and
// `!quant.uniform<i8<-127:127>:f32:1, {0.1:-5, 0.2:3}>`, per-axis).
//
// A quantized element stores an integer (the storage type, clamped to
// [storage_min, storage_max]) that stands for the real value
// (stored - zero_point) * scale in the expressed (float) type. Per-axis
// types carry one scale and zero point per index of the quantized dimension.
#ifndef PLUGRT_STABLEHLO_QUANT_TYPE_H_
#define PLUGRT_STABLEHLO_QUANT_TYPE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "stablehlo/element_type.h"

namespace plugrt::shlo {

struct UniformQuantParams {
  ElementType storage = ElementType::kSI8;  // kSI2..kSI32 or kUI2..kUI32
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  ElementType expressed = ElementType::kF32;  // a float type
  // The per-axis dimension; -1 for per-tensor (one scale and zero point).
  int64_t quantized_dimension = -1;
  std::vector<double> scales;
  std::vector<int64_t> zero_points;

  bool per_axis() const { return quantized_dimension >= 0; }
  // Equal storage, range and expressed type (the spec's baseline type:
  // scales and zero points may differ).
  bool SameBaseline(const UniformQuantParams& other) const;
  friend bool operator==(const UniformQuantParams& a, const UniformQuantParams& b);
};

// The full range of a storage type: i8 -> [-128, 127], ui4 -> [0, 15].
int64_t StorageTypeMin(ElementType storage);
int64_t StorageTypeMax(ElementType storage);

// MLIR's spelling, parseable back: "!quant.uniform<i8:f32, 0.5:-20>"; the
// storage range is written only when narrower than the storage type, a zero
// point of 0 is left out.
std::string QuantParamsToString(const UniformQuantParams& params);

// Reads the text between `!quant.uniform<` and its closing `>`
// ("i8:f32, 0.5:-20"). Errors (INVALID_ARGUMENT) say what is wrong with it;
// `*error_offset` is set to the offset in `body` the error is about.
StatusOr<UniformQuantParams> ParseQuantParamsBody(std::string_view body, size_t* error_offset);

// Rules every quantized element type obeys on its own (spec "Quantized
// element types" C1-C9): storage width, range inside the storage type,
// float expressed type, positive finite scales, zero points in range,
// per-axis scale and zero point counts equal. Empty when valid, else why.
std::string CheckQuantParams(const UniformQuantParams& params);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_QUANT_TYPE_H_
