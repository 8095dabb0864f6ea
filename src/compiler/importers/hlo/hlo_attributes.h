// HLO importer: IR attributes, in the parser's normal form, from the
// pieces of an HloInstructionProto (windows, dimension numbers, replica
// groups, precision).
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_ATTRIBUTES_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_ATTRIBUTES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "proto/hlo.pb.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::hlo {

template <typename Repeated>
std::vector<int64_t> ToVector(const Repeated& field) {
  return std::vector<int64_t>(field.begin(), field.end());
}
template <typename Repeated>
Attribute I64Array(const Repeated& field) {
  return Attribute::DenseI64Array(ToVector(field));
}

// A dense i64 tensor of shape [rows, columns] (padding, replica groups,
// source-target pairs).
Attribute I64Matrix(const std::vector<int64_t>& flat, int64_t rows, int64_t columns);

// Appends `name` = the list when it is not empty (MLIR leaves out empty
// fields of the dimension-number structs).
void AddNonEmpty(std::vector<NamedAttribute>* fields, const char* name,
                 const std::vector<int64_t>& list);

// The windowed ops' attributes: window_dimensions, window_strides,
// base_dilations, window_dilations and padding (reduce_window's names;
// `with_dilations` false for select_and_scatter, which has none).
StatusOr<std::vector<NamedAttribute>> WindowAttributes(const xla::Window& window, size_t rank,
                                                       bool with_dilations);

// precision_config (one stablehlo.precision per operand), or nothing when
// the proto gives none.
void AddPrecision(const xla::PrecisionConfig& config, std::vector<NamedAttribute>* attrs);

// replica_groups as a [groups, size] tensor; INVALID_ARGUMENT for groups of
// different sizes. Empty groups: a 0x0 tensor (all devices in one group).
StatusOr<Attribute> ReplicaGroups(const xla::HloInstructionProto& inst);

// An OpSharding in HLO text's syntax ("{replicated}", "{maximal device=0}",
// "{devices=[2,1]0,1 last_tile_dim_replicate}", "{devices=[4]<=[2,2]T(1,0)}",
// tuples as "{{...}, {...}}"), what `mhlo.sharding` attributes hold.
std::string ShardingText(const xla::OpSharding& sharding);

// channel_handle for a positive channel id.
Attribute ChannelHandle(int64_t channel_id);

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_ATTRIBUTES_H_
