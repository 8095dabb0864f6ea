// plugrt CPU executor: a convolution and the fused elementwise group that
// reads its result, as one step.
//
// After a convolution, exported models spell out batch norm in inference
// form ((x - mean) * factor + offset, per channel), a bias add, a residual
// add and relu or relu6. The fusion planner gathers that into one loop, which
// still reads the convolution's whole result back after oneDNN wrote it.
// FindConvolutionEpilogues picks the groups whose loop is a chain oneDNN can
// apply before it stores the result (kernels/convolution_epilogue.h): the
// convolution then runs at the group's place with that epilogue, and its
// plain result is never stored. Taken: an f32 static convolution whose only
// reader is the group, a group of one f32 output of the convolution's shape
// whose loop steps the running value once per instruction with add,
// subtract (value minus operand), multiply, maximum or minimum against a
// constant, a per-feature vector (the result's last dim must be its feature
// dim), a tensor of the result's shape or one value.
//
// A group may read two such convolutions, as a projection shortcut's block
// does (batch norm after each, their sum, relu): when the second one's steps
// form a chain of their own that the first one's chain adds in one step, the
// second (the side) runs first with its own steps as its epilogue, and the
// first takes the side's result as its residual.
#ifndef PLUGRT_CPU_EXEC_CONVOLUTION_EPILOGUE_H_
#define PLUGRT_CPU_EXEC_CONVOLUTION_EPILOGUE_H_

#include <memory>
#include <unordered_set>
#include <vector>

#include "cpu/exec/compiled_op.h"
#include "cpu/exec/fusion.h"
#include "cpu/kernels/convolution_epilogue.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

struct ConvolutionWithEpilogue {
  int group = -1;  // index into FusionPlan::groups
  const shlo::Operation* convolution = nullptr;
  int convolution_input = -1;  // the group input that is the convolution's result
  ConvolutionEpilogue epilogue;
  // Per epilogue input, its index among the group's inputs, or kSideResult.
  std::vector<int> epilogue_inputs;
  static constexpr int kSideResult = -1;

  // The side convolution (above), or null.
  const shlo::Operation* side = nullptr;
  int side_input = -1;  // the group input that is the side's result
  ConvolutionEpilogue side_epilogue;
  std::vector<int> side_epilogue_inputs;  // as epilogue_inputs, without kSideResult
};

std::vector<ConvolutionWithEpilogue> FindConvolutionEpilogues(
    const shlo::Block& block, const std::unordered_set<const shlo::Operation*>& dead,
    const FusionPlan& fusion);

// The step's operands: the convolution's two operands, the side's two when
// there is one, then the group's inputs but the convolutions' results, in the
// group's order; its result: the
// group's output. An error when oneDNN does not take the convolution with
// that epilogue (the two then run as they would apart). At run time, inputs
// the plan does not fit run through the reference convolution and the
// group's own loop.
StatusOr<std::unique_ptr<CompiledOp>> CompileConvolutionWithEpilogue(
    const ConvolutionWithEpilogue& match, const FusionGroup& group, CompileContext& context);

// The values the step reads, in operand order.
std::vector<const shlo::Value*> ConvolutionWithEpilogueInputs(const ConvolutionWithEpilogue& match,
                                                              const FusionGroup& group);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_CONVOLUTION_EPILOGUE_H_
