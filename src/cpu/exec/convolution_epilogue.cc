#include "cpu/exec/convolution_epilogue.h"

#include <algorithm>
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
// nullopt. With `side` >= 0, also a chain from the register loading input
// `side`, which the first chain adds in one step (the side's result is then
// the first's kSideResult input). `feature_last[c]`: for the first chain
// (0) and the side (1), the iteration space's last dim is that
// convolution's feature dim (so a column input is per channel).
std::optional<ConvolutionWithEpilogue> ChainOf(const fused::Kernel& kernel, int start, int side,
                                               const bool feature_last[2]) {
  using fused::Op;
  using fused::Source;
  ConvolutionWithEpilogue match;
  match.convolution_input = start;
  match.side_input = side;
  struct Chain {
    int reg = -1;  // the register holding the running value
    bool merged = false;
    ConvolutionEpilogue* epilogue;
    std::vector<int>* group_inputs;
    std::map<int, int> input_of;  // group input -> epilogue input
  };
  Chain chains[2];
  chains[0].epilogue = &match.epilogue;
  chains[0].group_inputs = &match.epilogue_inputs;
  chains[1].epilogue = &match.side_epilogue;
  chains[1].group_inputs = &match.side_epilogue_inputs;
  struct Loaded {
    int input;
    Source source;
  };
  std::map<int, Loaded> loaded;     // register -> the other input it holds
  std::map<int, float> constants;   // register -> the constant it holds
  std::set<int> retired;            // registers a chain held before
  auto operand_of = [&](Source source, int chain) -> std::optional<ConvolutionEpilogue::Operand> {
    switch (source) {
      case Source::kFull: return ConvolutionEpilogue::Operand::kFull;
      case Source::kScalar: return ConvolutionEpilogue::Operand::kScalar;
      case Source::kColumn:
        if (!feature_last[chain]) return std::nullopt;
        return ConvolutionEpilogue::Operand::kPerChannel;
      default: return std::nullopt;
    }
  };
  auto chain_at = [&](int reg) {
    for (int c = 0; c < 2; ++c) {
      if (chains[c].reg >= 0 && chains[c].reg == reg && !chains[c].merged) return c;
    }
    return -1;
  };
  for (const fused::Instr& in : kernel.code) {
    if (in.op == Op::kLoad) {
      const fused::Input& input = kernel.inputs[static_cast<size_t>(in.a)];
      if (input.type != ElementType::kF32) return std::nullopt;
      constants.erase(in.out);
      loaded.erase(in.out);
      if (in.a == start || in.a == side) {
        Chain& chain = chains[in.a == start ? 0 : 1];
        if (chain.reg >= 0 || input.source != Source::kFull) return std::nullopt;
        chain.reg = in.out;
        continue;
      }
      loaded[in.out] = {in.a, input.source};
      continue;
    }
    if (in.op == Op::kConst) {
      loaded.erase(in.out);
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
    if (in.c >= 0 || in.a < 0 || in.b < 0) return std::nullopt;
    const int ca = chain_at(in.a), cb = chain_at(in.b);
    ConvolutionEpilogue::Step step;
    step.kind = *kind;
    int c;
    if (ca >= 0 && cb >= 0) {
      // The first chain adds the side's result.
      if (ca == cb || *kind != ConvolutionEpilogue::Kind::kAdd) return std::nullopt;
      c = 0;
      step.input = static_cast<int>(match.epilogue.inputs.size());
      match.epilogue.inputs.push_back(ConvolutionEpilogue::Operand::kFull);
      match.epilogue_inputs.push_back(ConvolutionWithEpilogue::kSideResult);
      chains[1].merged = true;
      retired.insert(chains[1].reg);
    } else {
      int other;
      if (ca >= 0) {
        c = ca;
        other = in.b;
      } else if (cb >= 0 && commutes) {
        c = cb;
        other = in.a;
      } else {
        return std::nullopt;
      }
      if (auto k = constants.find(other); k != constants.end()) {
        step.input = -1;
        step.value = k->second;
      } else if (auto l = loaded.find(other); l != loaded.end()) {
        Chain& chain = chains[c];
        auto [it, added] =
            chain.input_of.emplace(l->second.input, static_cast<int>(chain.epilogue->inputs.size()));
        if (added) {
          std::optional<ConvolutionEpilogue::Operand> operand = operand_of(l->second.source, c);
          if (!operand) return std::nullopt;
          chain.epilogue->inputs.push_back(*operand);
          chain.group_inputs->push_back(l->second.input);
        }
        step.input = it->second;
      } else {
        return std::nullopt;
      }
    }
    chains[c].epilogue->steps.push_back(step);
    retired.insert(chains[c].reg);
    chains[c].reg = in.out;
    constants.erase(in.out);
    loaded.erase(in.out);
  }
  if (chains[0].reg < 0 || match.epilogue.steps.empty() || kernel.outputs.size() != 1 ||
      kernel.outputs[0].reg != chains[0].reg || kernel.outputs[0].type != ElementType::kF32 ||
      (side >= 0 && !chains[1].merged)) {
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
  struct Candidate {
    int input;
    const Operation* convolution;
    bool feature_last;
  };
  for (size_t g = 0; g < fusion.groups.size(); ++g) {
    const FusionGroup& group = fusion.groups[g];
    // Columns of the last dim only (a per-channel input is then a column).
    if (group.outputs.size() != 1 || !IsStaticF32(group.outputs[0]) ||
        group.outputs[0]->type.rank() == 0 ||
        group.cols != group.outputs[0]->type.dims().back()) {
      continue;
    }
    const std::unordered_set<const Operation*> members(group.members.begin(), group.members.end());
    // The group's inputs that are f32 convolutions of this block read by
    // the group only, of the group's result shape.
    std::vector<Candidate> candidates;
    for (size_t i = 0; i < group.inputs.size(); ++i) {
      const Value* v = group.inputs[i];
      const Operation* conv = v->defining_op;
      if (conv == nullptr || conv->code != OpCode::kConvolution || dead.count(conv) > 0 ||
          conv->results.size() != 1 || conv->operands.size() != 2 || !IsStaticF32(v) ||
          !IsStaticF32(conv->operands[0]) || !IsStaticF32(conv->operands[1]) ||
          group.outputs[0]->type.dims() != v->type.dims()) {
        continue;
      }
      auto it = readers.find(v);
      if (it == readers.end()) continue;
      bool others = false;
      for (const Operation* reader : it->second) others = others || members.count(reader) == 0;
      if (others) continue;
      StatusOr<ConvolutionConfig> config = ConvolutionConfigOf(*conv);
      // A matrix product runs on the product's kernels, without an epilogue.
      if (!config.ok() || compute::IsMatrixProductConvolution(*conv, *config)) continue;
      candidates.push_back(
          {static_cast<int>(i), conv, config->output_feature_dimension == v->type.rank() - 1});
    }
    // Two convolutions with a chain each, then one alone.
    std::optional<ConvolutionWithEpilogue> match;
    for (size_t a = 0; a < candidates.size() && !match; ++a) {
      for (size_t b = 0; b < candidates.size() && !match; ++b) {
        if (a == b) continue;
        const bool feature_last[2] = {candidates[a].feature_last, candidates[b].feature_last};
        match = ChainOf(group.kernel, candidates[a].input, candidates[b].input, feature_last);
        if (match) {
          match->convolution = candidates[a].convolution;
          match->side = candidates[b].convolution;
        }
      }
    }
    for (size_t a = 0; a < candidates.size() && !match; ++a) {
      const bool feature_last[2] = {candidates[a].feature_last, false};
      match = ChainOf(group.kernel, candidates[a].input, -1, feature_last);
      if (match) match->convolution = candidates[a].convolution;
    }
    if (!match) continue;
    match->group = static_cast<int>(g);
    found.push_back(std::move(*match));
  }
  return found;
}

std::vector<const Value*> ConvolutionWithEpilogueInputs(const ConvolutionWithEpilogue& match,
                                                        const FusionGroup& group) {
  std::vector<const Value*> reads = {match.convolution->operands[0],
                                     match.convolution->operands[1]};
  if (match.side != nullptr) {
    reads.push_back(match.side->operands[0]);
    reads.push_back(match.side->operands[1]);
  }
  for (size_t i = 0; i < group.inputs.size(); ++i) {
    const int input = static_cast<int>(i);
    if (input != match.convolution_input && input != match.side_input) {
      reads.push_back(group.inputs[i]);
    }
  }
  return reads;
}

namespace {

// One convolution of the step: its plan, the operands of its two operands
// and, per epilogue input, the step's operand (or kSideResult).
struct PlannedConvolution {
  std::shared_ptr<const FastConvolution> fast;
  ConvolutionConfig config;
  int lhs = 0;
  std::vector<int64_t> lhs_dims, rhs_dims;
  std::vector<int> epilogue_operands;
  int group_input = -1;  // the group input its result is
};

class ConvolutionWithEpilogueOp final : public CompiledOp {
 public:
  // `convolutions`: the first, then the side when there is one.
  ConvolutionWithEpilogueOp(const ConvolutionWithEpilogue& match, const FusionGroup& group,
                            std::vector<PlannedConvolution> convolutions, bool generate_code)
      : tag_(TagOf(*match.convolution)),
        convolutions_(std::move(convolutions)),
        group_loop_(MakeFusedOp(group, generate_code)) {
    // The step reads two operands per convolution and the group's other inputs.
    tag_.num_operands = group.inputs.size() + convolutions_.size();
  }

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(tag_, operands));
    if (t.size() != tag_.num_operands) {
      return Invalid(tag_, "convolution with epilogue: wrong operand count");
    }
    bool planned = true;
    for (const PlannedConvolution& c : convolutions_) {
      planned = planned && t[static_cast<size_t>(c.lhs)].dims() == c.lhs_dims &&
                t[static_cast<size_t>(c.lhs) + 1].dims() == c.rhs_dims;
    }
    if (planned) {
      // An input whose value dies here (the step holds its only reference)
      // may take the result, as a fused loop's output may, unless both
      // convolutions read it.
      std::vector<int> readers(operands.size(), 0);
      for (const PlannedConvolution& c : convolutions_) {
        for (int k : c.epilogue_operands) {
          if (k >= 0) ++readers[static_cast<size_t>(k)];
        }
      }
      Tensor side_result;
      bool ok = true;
      for (size_t n = convolutions_.size(); n-- > 0 && ok;) {  // the side first
        const PlannedConvolution& c = convolutions_[n];
        std::vector<Tensor> extra;
        std::vector<bool> overwritable;
        for (int k : c.epilogue_operands) {
          if (k == ConvolutionWithEpilogue::kSideResult) {
            extra.push_back(side_result);
            overwritable.push_back(true);
            continue;
          }
          const size_t u = static_cast<size_t>(k);
          extra.push_back(t[u]);
          overwritable.push_back(n == 0 && readers[u] == 1 &&
                                 operands[u].kind == RtValue::Kind::kTensor &&
                                 operands[u].tensor.HasUniqueStorage());
        }
        const size_t lhs = static_cast<size_t>(c.lhs);
        StatusOr<Tensor> result =
            c.fast->Run(t[lhs], t[lhs + 1], context.kernel_threads, extra, overwritable);
        if (!result.ok()) {
          ok = false;
          break;
        }
        if (context.counters != nullptr) {
          ++context.counters->onednn_calls;
          ++context.counters->convolution_epilogues;
        }
        if (n == 0) return Wrap({std::move(result).value()});
        side_result = std::move(result).value();
      }
    }
    // As the steps would run apart: the reference convolutions, then the
    // group's loop over their results.
    std::vector<std::pair<int, Tensor>> results;  // by group input
    size_t first_input = 0;
    for (const PlannedConvolution& c : convolutions_) {
      const Tensor& lhs = t[static_cast<size_t>(c.lhs)];
      const Tensor& rhs = t[static_cast<size_t>(c.lhs) + 1];
      if (!ConvolutionResultDims(lhs.dims(), rhs.dims(), c.config).ok()) {
        return Invalid(tag_, "operands do not have the shapes the op was compiled for");
      }
      results.emplace_back(c.group_input, Convolution(lhs, rhs, c.config, ElementType::kF32));
      first_input += 2;
    }
    std::sort(results.begin(), results.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    // The group's inputs: the step's operands after the convolutions',
    // with their results back in their places.
    std::vector<RtValue> loop_operands(operands.begin() + static_cast<ptrdiff_t>(first_input),
                                       operands.end());
    for (auto& [input, result] : results) {
      loop_operands.insert(loop_operands.begin() + input, RtValue::Of(std::move(result)));
    }
    return group_loop_->Execute(loop_operands, context);
  }

 private:
  OpTag tag_;
  std::vector<PlannedConvolution> convolutions_;
  std::unique_ptr<CompiledOp> group_loop_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileConvolutionWithEpilogue(
    const ConvolutionWithEpilogue& match, const FusionGroup& group, CompileContext& context) {
  const int convolution_operands = match.side != nullptr ? 4 : 2;
  // The step's operand for group input i.
  auto operand_of = [&](int input) {
    if (input == ConvolutionWithEpilogue::kSideResult) return input;
    return convolution_operands + input - (input > match.convolution_input ? 1 : 0) -
           (match.side != nullptr && input > match.side_input ? 1 : 0);
  };
  std::vector<PlannedConvolution> planned;
  auto plan = [&](const Operation& conv, const ConvolutionEpilogue& epilogue,
                  const std::vector<int>& inputs, int lhs, int group_input) -> Status {
    PlannedConvolution c;
    PLUGRT_ASSIGN_OR_RETURN(c.config, ConvolutionConfigOf(conv));
    c.lhs = lhs;
    c.lhs_dims = conv.operands[0]->type.dims();
    c.rhs_dims = conv.operands[1]->type.dims();
    c.group_input = group_input;
    for (int input : inputs) c.epilogue_operands.push_back(operand_of(input));
    c.fast = FastConvolution::Plan(c.lhs_dims, ElementType::kF32, c.rhs_dims, ElementType::kF32,
                                   c.config, ElementType::kF32, context.options().kernel_threads,
                                   epilogue.steps.empty() ? nullptr : &epilogue);
    if (c.fast == nullptr) {
      return Unimplemented("oneDNN does not take this convolution with its epilogue");
    }
    planned.push_back(std::move(c));
    return OkStatus();
  };
  PLUGRT_RETURN_IF_ERROR(plan(*match.convolution, match.epilogue, match.epilogue_inputs, 0,
                              match.convolution_input));
  if (match.side != nullptr) {
    PLUGRT_RETURN_IF_ERROR(plan(*match.side, match.side_epilogue, match.side_epilogue_inputs, 2,
                                match.side_input));
  }
  return std::unique_ptr<CompiledOp>(std::make_unique<ConvolutionWithEpilogueOp>(
      match, group, std::move(planned), context.options().jit));
}

}  // namespace plugrt::cpu
