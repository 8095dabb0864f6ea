// plugrt StableHLO: what JAX wraps around a computation to say how its data
// is laid out over devices, removed before compilation:
//  - Shardy (`sdy.sharding_constraint`, `sdy.reshard`, `sdy.propagation_barrier`,
//    `sdy.data_flow_edge`, `sdy.sharding_group`, `sdy.constant`,
//    `sdy.manual_computation`, `sdy.named_computation`, module-level meshes,
//    `sdy.sharding` attributes);
//  - GSPMD (`mhlo.sharding` attributes, the custom calls @Sharding,
//    @SPMDFullToShardShape, @SPMDShardToFullShape) and the memory placement
//    custom calls (@annotate_device_placement, @MoveToHost, @MoveToDevice);
//  - `mhlo.layout_mode` of the entry function's arguments and results.
// The CPU backend runs one copy of the whole program per partition, so a
// sharding that replicates its value is an identity and is removed, while a
// sharding that splits a value over more than one partition would need an
// SPMD partitioner plugrt does not have: UNIMPLEMENTED, naming the op, never
// a silently replicated result. On one partition every sharding is identity
// (the whole value lives on the one device); only bodies written on
// per-device shards (manual computations whose shapes differ from their
// operands') are refused.
#ifndef PLUGRT_COMPILER_PASSES_LOWER_SHARDING_H_
#define PLUGRT_COMPILER_PASSES_LOWER_SHARDING_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Rewrites `module` as described above for a program run on
// `num_partitions` partitions.
Status LowerShardingOps(Module& module, int64_t num_partitions);

// How an `mhlo.sharding` string distributes its value: "{replicated}",
// "{devices=[1,1]0}" and "{devices=[1,2]0,1 last_tile_dim_replicate}"
// replicate; "{manual}" is manual; "{devices=[2,1]0,1}" and
// "{maximal device=1}" are not replicated. Tuple shardings are replicated
// when every element is.
enum class HloShardingKind { kReplicated, kManual, kSplit };
HloShardingKind ClassifyHloSharding(std::string_view text);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_PASSES_LOWER_SHARDING_H_
