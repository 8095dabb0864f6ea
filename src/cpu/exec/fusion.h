// plugrt CPU executor: elementwise fusion.
//
// PlanFusion looks at one block and gathers its f32 elementwise ops,
// broadcasts of scalars/rows/columns, converts and last-dim reductions into
// groups that run as one fused loop (kernels/fused_loop.h): the group reads
// its inputs once and writes only the values used outside it. A group runs
// at the place of its last member; it stops growing once anything outside it
// reads one of its values, so that reader still runs after it. Groups smaller
// than kMinFusedElements stay unfused (the per-op kernels serve them, and
// their results stay those of the reference kernels).
#ifndef PLUGRT_CPU_EXEC_FUSION_H_
#define PLUGRT_CPU_EXEC_FUSION_H_

#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cpu/exec/compiled_op.h"
#include "cpu/kernels/fused_loop.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

inline constexpr int64_t kMinFusedElements = 1024;

// The fused-loop operation of an op whose OpFusion kind is kUnary, kBinary
// or kLogic (stablehlo/op_code.h); nullopt for other ops. Every op of those
// kinds has one (tests/cpu/op_registry_test.cc checks).
std::optional<fused::Op> FusedElementwiseOp(shlo::OpCode code);

struct FusionGroup {
  std::vector<const shlo::Operation*> members;  // in block order
  std::vector<const shlo::Value*> inputs;       // kernel input order
  std::vector<const shlo::Value*> outputs;      // kernel output order
  fused::Kernel kernel;
  int64_t rows = 1, cols = 1;
};

struct FusionPlan {
  std::vector<FusionGroup> groups;
  std::unordered_map<const shlo::Operation*, int> group_of;  // member -> group
};

// Ops in `dead` (dropped by dead-code elimination) are left out.
FusionPlan PlanFusion(const shlo::Block& block,
                      const std::unordered_set<const shlo::Operation*>& dead = {});

// The op that runs a group: operands are the group's inputs, results its
// outputs.
std::unique_ptr<CompiledOp> MakeFusedOp(const FusionGroup& group, bool generate_code);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_FUSION_H_
