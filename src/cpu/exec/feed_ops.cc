// plugrt CPU executor: stablehlo.infeed and stablehlo.outfeed over the run's
// FeedQueues (feeds.h).
#include "cpu/exec/feeds.h"
#include "cpu/exec/program_compiler.h"

namespace plugrt::cpu {
namespace {

using Results = StatusOr<std::vector<RtValue>>;

// The types an infeed entry must have: the op's results without the token.
bool EntryMatches(const std::vector<RtValue>& entry, const std::vector<shlo::Type>& types) {
  if (entry.size() != types.size()) return false;
  for (size_t i = 0; i < entry.size(); ++i) {
    const RtValue& value = entry[i];
    const shlo::Type& type = types[i];
    if (value.kind != RtValue::Kind::kTensor || !type.is_tensor() ||
        value.tensor.type() != type.element_type() || value.tensor.dims() != type.dims()) {
      return false;
    }
  }
  return true;
}

class InfeedOp final : public CompiledOp {
 public:
  InfeedOp(std::string where, std::vector<shlo::Type> types)
      : where_(std::move(where)), types_(std::move(types)) {}

  Results Execute(const std::vector<RtValue>&, ExecContext& context) const override {
    if (context.feeds == nullptr) {
      return FailedPrecondition(where_, ": this run has no infeed queue (PJRT launches have "
                                        "none; interpreter.run_parallel takes `infeed = [...]`)");
    }
    std::vector<RtValue> entry;
    {
      std::lock_guard<std::mutex> lock(context.feeds->mu);
      if (context.feeds->infeed.empty()) {
        return FailedPrecondition(where_, ": the infeed queue is empty");
      }
      entry = std::move(context.feeds->infeed.front());
      context.feeds->infeed.pop_front();
    }
    if (!EntryMatches(entry, types_)) {
      return InvalidArgument(where_, ": the infeed entry does not match the op's result types");
    }
    entry.push_back(RtValue::Token());
    return entry;
  }

 private:
  std::string where_;
  std::vector<shlo::Type> types_;  // results without the final token
};

class OutfeedOp final : public CompiledOp {
 public:
  explicit OutfeedOp(std::string where) : where_(std::move(where)) {}

  Results Execute(const std::vector<RtValue>& operands, ExecContext& context) const override {
    if (context.feeds == nullptr) {
      // Dropping the data silently would lose it.
      return FailedPrecondition(where_, ": this run has no outfeed consumer (PJRT launches have "
                                        "none; interpreter.run_parallel records outfeed)");
    }
    std::vector<RtValue> record(operands.begin(), operands.end() - 1);  // without the token
    std::lock_guard<std::mutex> lock(context.feeds->mu);
    context.feeds->outfeed.push_back(std::move(record));
    return std::vector<RtValue>{RtValue::Token()};
  }

 private:
  std::string where_;
};

StatusOr<std::unique_ptr<CompiledOp>> CompileFeedOp(const shlo::Operation& op,
                                                    CompileContext& context) {
  (void)context;
  const std::string where = StrCat(op.location.ToString(), ": ", op.name);
  if (op.code == shlo::OpCode::kInfeed) {
    if (op.operands.size() != 1 || !op.operands[0]->type.is_token() || op.results.empty() ||
        !op.results.back()->type.is_token()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     "takes a token and returns values followed by a token");
    }
    std::vector<shlo::Type> types;
    for (size_t i = 0; i + 1 < op.results.size(); ++i) {
      const shlo::Type& type = op.results[i]->type;
      if (!type.is_tensor() || !type.has_static_shape()) {
        return OpError(op, StatusCode::kUnimplemented,
                       "infeed results must be tensors of static shape");
      }
      types.push_back(type);
    }
    return std::unique_ptr<CompiledOp>(new InfeedOp(where, std::move(types)));
  }
  if (op.operands.empty() || !op.operands.back()->type.is_token() || op.results.size() != 1) {
    return OpError(op, StatusCode::kInvalidArgument,
                   "takes values followed by a token and returns a token");
  }
  return std::unique_ptr<CompiledOp>(new OutfeedOp(where));
}

}  // namespace

// Only the conformance harness has feed queues (feeds.h): a PJRT launch has
// no infeed or outfeed API.
void RegisterFeedOps(OpRegistry& registry) {
  registry.SetGroup(shlo::OpGroup::kFeed, &CompileFeedOp);
}

}  // namespace plugrt::cpu
