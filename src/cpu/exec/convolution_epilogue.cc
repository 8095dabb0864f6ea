#include "cpu/exec/convolution_epilogue.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "cpu/exec/compute_ops_util.h"
#include "cpu/kernels/fast_convolution.h"

namespace plugrt::cpu {
namespace {

using compute::ConvolutionConfigOf;
using compute::Invalid;
using compute::OpTag;
using compute::OperandTensors;
using compute::TagOf;
using compute::Wrap;
using shlo::OpCode;
using shlo::Operation;
using shlo::Value;

bool IsStaticF32(const Value* v) {
  return v->type.is_tensor() && v->type.has_static_shape() &&
         v->type.element_type() == ElementType::kF32;
}

// Per convolution result of `block`: the live top-level ops that read it
// (an op reading it inside one of its regions counts as that op; the
// terminator counts too). One pass over the block.
std::unordered_map<const Value*, std::vector<const Operation*>> ConvolutionReaders(
    const shlo::Block& block, const std::unordered_set<const Operation*>& dead) {
  std::unordered_map<const Value*, std::vector<const Operation*>> readers;
  for (const auto& op : block.operations) {
    if (op->code == OpCode::kConvolution && dead.count(op.get()) == 0 && op->results.size() == 1) {
      readers[op->result(0)];
    }
  }
  if (readers.empty()) return readers;
  std::function<void(const shlo::Block&, const Operation*)> scan = [&](const shlo::Block& b,
                                                                     const Operation* top) {
    for (const auto& op : b.operations) {
      const Operation* owner = top != nullptr ? top : op.get();
      if (top == nullptr && dead.count(owner) > 0) continue;
      for (const Value* v : op->operands) {
        if (auto it = readers.find(v); it != readers.end()) it->second.push_back(owner);
      }
      for (const auto& region : op->regions) {
        for (const auto& inner : region->blocks) scan(*inner, owner);
      }
    }
  };
  scan(block, nullptr);
  return readers;
}

// The group's loop as a chain from the register loading input `start`, or
// nullopt. `feature_last`: the iteration space's last dim is the
// convolution's feature dim (so a column input is per channel).
std::optional<ConvolutionWithEpilogue> ChainOf(const fused::Kernel& kernel, int start,
                                               bool feature_last) {
  using fused::Op;
  using fused::Source;
  ConvolutionWithEpilogue match;
  match.convolution_input = start;
  // Per register: the chain's running value (-2), an epilogue input (its
  // index), or a constant.
  constexpr int kChain = -2, kConstant = -1;
  std::map<int, int> role;
  std::map<int, float> constants;
  std::map<int, int> epilogue_input_of;  // group input -> epilogue input
  int chain = -1;
  std::set<int> retired;  // registers the chain held before
  for (const fused::Instr& in : kernel.code) {
    if (in.op == Op::kLoad) {
      const fused::Input& input = kernel.inputs[static_cast<size_t>(in.a)];
      if (input.type != ElementType::kF32) return std::nullopt;
      if (in.a == start) {
        if (chain >= 0 || input.source != Source::kFull) return std::nullopt;
        chain = in.out;
        role[in.out] = kChain;
        continue;
      }
      ConvolutionEpilogue::Operand operand;
      switch (input.source) {
        case Source::kFull: operand = ConvolutionEpilogue::Operand::kFull; break;
        case Source::kScalar: operand = ConvolutionEpilogue::Operand::kScalar; break;
        case Source::kColumn:
          if (!feature_last) return std::nullopt;
          operand = ConvolutionEpilogue::Operand::kPerChannel;
          break;
        default: return std::nullopt;
      }
      auto [it, added] = epilogue_input_of.emplace(in.a, static_cast<int>(match.epilogue.inputs.size()));
      if (added) {
        match.epilogue.inputs.push_back(operand);
        match.epilogue_inputs.push_back(in.a);
      }
      role[in.out] = it->second;
      continue;
    }
    if (in.op == Op::kConst) {
      role[in.out] = kConstant;
      constants[in.out] = in.imm;
      continue;
    }
    if (retired.count(in.a) || retired.count(in.b) || retired.count(in.c)) return std::nullopt;
    std::optional<ConvolutionEpilogue::Kind> kind;
    bool commutes = true;
    switch (in.op) {
      case Op::kAdd: kind = ConvolutionEpilogue::Kind::kAdd; break;
      case Op::kSub: kind = ConvolutionEpilogue::Kind::kSubtract; commutes = false; break;
      case Op::kMul: kind = ConvolutionEpilogue::Kind::kMultiply; break;
      case Op::kMax: kind = ConvolutionEpilogue::Kind::kMaximum; break;
      case Op::kMin: kind = ConvolutionEpilogue::Kind::kMinimum; break;
      default: return std::nullopt;
    }
    if (in.c >= 0 || in.a < 0 || in.b < 0 || chain < 0) return std::nullopt;
    int other;
    if (in.a == chain && in.b != chain) {
      other = in.b;
    } else if (in.b == chain && in.a != chain && commutes) {
      other = in.a;
    } else {
      return std::nullopt;
    }
    auto it = role.find(other);
    if (it == role.end() || it->second == kChain) return std::nullopt;
    ConvolutionEpilogue::Step step;
    step.kind = *kind;
    step.input = it->second;  // kConstant is -1: the constant
    if (step.input == kConstant) step.value = constants.at(other);
    match.epilogue.steps.push_back(step);
    retired.insert(chain);
    chain = in.out;
    role[in.out] = kChain;
  }
  if (chain < 0 || match.epilogue.steps.empty() || kernel.outputs.size() != 1 ||
      kernel.outputs[0].reg != chain || kernel.outputs[0].type != ElementType::kF32) {
    return std::nullopt;
  }
  return match;
}

}  // namespace

std::vector<ConvolutionWithEpilogue> FindConvolutionEpilogues(
    const shlo::Block& block, const std::unordered_set<const Operation*>& dead,
    const FusionPlan& fusion) {
  std::vector<ConvolutionWithEpilogue> found;
  const auto readers = ConvolutionReaders(block, dead);
  if (readers.empty()) return found;
  for (size_t g = 0; g < fusion.groups.size(); ++g) {
    const FusionGroup& group = fusion.groups[g];
    if (group.outputs.size() != 1) continue;
    for (size_t i = 0; i < group.inputs.size(); ++i) {
      const Value* v = group.inputs[i];
      const Operation* conv = v->defining_op;
      if (conv == nullptr || conv->code != OpCode::kConvolution || dead.count(conv) > 0 ||
          conv->results.size() != 1 || conv->operands.size() != 2 || !IsStaticF32(v) ||
          !IsStaticF32(conv->operands[0]) || !IsStaticF32(conv->operands[1]) ||
          group.outputs[0]->type.dims() != v->type.dims() || !IsStaticF32(group.outputs[0])) {
        continue;
      }
      // The convolution must be this block's own op, read by the group only.
      auto it = readers.find(v);
      if (it == readers.end()) continue;
      const std::unordered_set<const Operation*> members(group.members.begin(),
                                                         group.members.end());
      bool others = false;
      for (const Operation* reader : it->second) others = others || members.count(reader) == 0;
      if (others) continue;
      StatusOr<ConvolutionConfig> config = ConvolutionConfigOf(*conv);
      if (!config.ok()) continue;
      const bool feature_last =
          config->output_feature_dimension == v->type.rank() - 1;
      std::optional<ConvolutionWithEpilogue> match =
          ChainOf(group.kernel, static_cast<int>(i), feature_last);
      if (!match) continue;
      match->group = static_cast<int>(g);
      match->convolution = conv;
      found.push_back(std::move(*match));
      break;
    }
  }
  return found;
}

std::vector<const Value*> ConvolutionWithEpilogueInputs(const ConvolutionWithEpilogue& match,
                                                        const FusionGroup& group) {
  std::vector<const Value*> reads = {match.convolution->operands[0],
                                     match.convolution->operands[1]};
  for (size_t i = 0; i < group.inputs.size(); ++i) {
    if (static_cast<int>(i) != match.convolution_input) reads.push_back(group.inputs[i]);
  }
  return reads;
}

namespace {

class ConvolutionWithEpilogueOp final : public CompiledOp {
 public:
  ConvolutionWithEpilogueOp(const ConvolutionWithEpilogue& match, const FusionGroup& group,
                            ConvolutionConfig config, std::shared_ptr<const FastConvolution> fast,
                            bool generate_code)
      : tag_(TagOf(*match.convolution)),
        config_(std::move(config)),
        fast_(std::move(fast)),
        group_loop_(MakeFusedOp(group, generate_code)),
        convolution_input_(match.convolution_input),
        lhs_dims_(match.convolution->operands[0]->type.dims()),
        rhs_dims_(match.convolution->operands[1]->type.dims()) {
    tag_.num_operands = group.inputs.size() + 1;  // the convolution's two, less its result
    // Operand k of the step for group input i: 2 + i, less one past the
    // convolution's result.
    for (int input : match.epilogue_inputs) {
      epilogue_operands_.push_back(2 + input - (input > convolution_input_ ? 1 : 0));
    }
  }

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    // An input whose value dies here (the step holds its only reference)
    // may take the result, as a fused loop's output may.
    std::vector<bool> overwritable(epilogue_operands_.size(), false);
    for (size_t e = 0; e < epilogue_operands_.size(); ++e) {
      const size_t k = static_cast<size_t>(epilogue_operands_[e]);
      overwritable[e] = k < operands.size() && operands[k].kind == RtValue::Kind::kTensor &&
                        operands[k].tensor.HasUniqueStorage();
    }
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(tag_, operands));
    if (t.size() < 2) return Invalid(tag_, "convolution with epilogue: missing operands");
    if (t[0].dims() == lhs_dims_ && t[1].dims() == rhs_dims_) {
      std::vector<Tensor> extra;
      extra.reserve(epilogue_operands_.size());
      for (int k : epilogue_operands_) extra.push_back(t[static_cast<size_t>(k)]);
      StatusOr<Tensor> result =
          fast_->Run(t[0], t[1], context.kernel_threads, extra, overwritable);
      if (result.ok()) {
        if (context.counters != nullptr) {
          ++context.counters->onednn_calls;
          ++context.counters->convolution_epilogues;
        }
        return Wrap({std::move(result).value()});
      }
    }
    // As the two steps would run apart: the reference convolution, then
    // the group's loop over its result.
    if (!ConvolutionResultDims(t[0].dims(), t[1].dims(), config_).ok()) {
      return Invalid(tag_, "operands do not have the shapes the op was compiled for");
    }
    // The group's inputs: the step's operands after the convolution's two,
    // with the convolution's result back in its place.
    std::vector<RtValue> loop_operands(operands.begin() + 2, operands.end());
    loop_operands.insert(loop_operands.begin() + convolution_input_,
                         RtValue::Of(Convolution(t[0], t[1], config_, ElementType::kF32)));
    return group_loop_->Execute(loop_operands, context);
  }

 private:
  OpTag tag_;
  ConvolutionConfig config_;
  std::shared_ptr<const FastConvolution> fast_;
  std::unique_ptr<CompiledOp> group_loop_;
  int convolution_input_;
  std::vector<int64_t> lhs_dims_, rhs_dims_;
  std::vector<int> epilogue_operands_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileConvolutionWithEpilogue(
    const ConvolutionWithEpilogue& match, const FusionGroup& group, CompileContext& context) {
  const Operation& conv = *match.convolution;
  PLUGRT_ASSIGN_OR_RETURN(ConvolutionConfig config, ConvolutionConfigOf(conv));
  std::shared_ptr<const FastConvolution> fast = FastConvolution::Plan(
      conv.operands[0]->type.dims(), ElementType::kF32, conv.operands[1]->type.dims(),
      ElementType::kF32, config, ElementType::kF32, context.options().kernel_threads,
      &match.epilogue);
  if (fast == nullptr) {
    return Unimplemented("oneDNN does not take this convolution with its epilogue");
  }
  return std::unique_ptr<CompiledOp>(std::make_unique<ConvolutionWithEpilogueOp>(
      match, group, std::move(config), std::move(fast), context.options().jit));
}

}  // namespace plugrt::cpu
