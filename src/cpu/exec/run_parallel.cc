// plugrt CPU executor: the conformance corpus' "interpreter.run_parallel",
// which runs a grid of functions at once, programs[i][j] as process
// (replica i, partition j), one thread each, sharing one CollectiveHub.
// Operands go to the processes in order (each takes as many as its function
// has inputs); the results are the processes' results, concatenated in
// process order.
#include <exception>
#include <thread>
#include <utility>

#include "cpu/exec/collective_hub.h"
#include "cpu/exec/interpreter.h"

namespace plugrt::cpu {
namespace {

using Results = StatusOr<std::vector<RtValue>>;

class RunParallelOp final : public CompiledOp {
 public:
  RunParallelOp(int64_t num_replicas, int64_t num_partitions,
                std::vector<std::shared_ptr<const CompiledRegion>> programs,
                size_t arguments_per_process)
      : num_replicas_(num_replicas),
        num_partitions_(num_partitions),
        programs_(std::move(programs)),
        arguments_per_process_(arguments_per_process) {}

  Results Execute(const std::vector<RtValue>& operands, ExecContext&) const override {
    const size_t count = programs_.size();
    if (operands.size() != count * arguments_per_process_) {
      return InvalidArgument("expects ", count * arguments_per_process_, " operands, got ",
                             operands.size());
    }
    CollectiveHub hub(num_replicas_, num_partitions_);
    std::vector<Results> results(count, Status(StatusCode::kUnknown, "did not run"));

    auto run = [&](size_t p) {
      ExecContext context;
      context.replica_id = static_cast<int64_t>(p) / num_partitions_;
      context.partition_id = static_cast<int64_t>(p) % num_partitions_;
      context.num_replicas = num_replicas_;
      context.num_partitions = num_partitions_;
      context.collectives = &hub;
      context.frame = nullptr;  // a callee sees only its arguments
      try {
        std::vector<RtValue> arguments(
            operands.begin() + static_cast<std::ptrdiff_t>(p * arguments_per_process_),
            operands.begin() + static_cast<std::ptrdiff_t>((p + 1) * arguments_per_process_));
        results[p] = programs_[p]->Run(std::move(arguments), context);
      } catch (const std::exception& e) {
        // Nothing may escape a thread (it would terminate the process).
        results[p] = Internal("unexpected exception: ", e.what());
      }
      if (!results[p].ok()) {
        // Wake the peers waiting for this process. The hub keeps the first
        // reason, so the run reports the cause rather than its echoes.
        const Status& error = results[p].status();
        hub.Abort(Status(error.code(),
                         StrCat("process (replica ", context.replica_id, ", partition ",
                                context.partition_id, "): ", error.message())));
      }
      hub.Finished(static_cast<int64_t>(p));  // after any Abort: the cause comes first
    };

    if (count == 1) {
      run(0);
    } else {
      std::vector<std::thread> threads;
      threads.reserve(count);
      for (size_t p = 0; p < count; ++p) {
        try {
          threads.emplace_back(run, p);
        } catch (const std::exception& e) {
          hub.Abort(ResourceExhausted("cannot start a thread for process ", p, ": ", e.what()));
          break;
        }
      }
      for (std::thread& thread : threads) thread.join();
    }
    PLUGRT_RETURN_IF_ERROR(hub.abort_status());

    std::vector<RtValue> all;
    for (Results& process : results) {
      if (!process.ok()) return process.status();
      for (RtValue& value : *process) all.push_back(std::move(value));
    }
    return all;
  }

 private:
  int64_t num_replicas_;
  int64_t num_partitions_;
  std::vector<std::shared_ptr<const CompiledRegion>> programs_;  // process order
  size_t arguments_per_process_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileRunParallelOp(const shlo::Operation& op,
                                                           CompileContext& context) {
  for (const auto& [name, value] : op.attributes) {
    if (name != "programs") {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("the attribute '", name,
                            "' (infeed queues) of interpreter.run_parallel is not implemented"));
    }
  }
  const shlo::Attribute* programs = op.attribute("programs");
  if (programs == nullptr || programs->kind != shlo::Attribute::Kind::kArray ||
      programs->elements.empty()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   "needs 'programs', a non-empty list of lists of function symbols");
  }
  const size_t num_replicas = programs->elements.size();
  size_t num_partitions = 0;
  std::vector<std::string> names;
  for (const shlo::Attribute& row : programs->elements) {
    if (row.kind != shlo::Attribute::Kind::kArray || row.elements.empty()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     "each row of 'programs' must be a non-empty list of function symbols");
    }
    if (num_partitions == 0) num_partitions = row.elements.size();
    if (row.elements.size() != num_partitions) {
      return OpError(op, StatusCode::kInvalidArgument,
                     "every row of 'programs' must have the same length (one per partition)");
    }
    for (const shlo::Attribute& symbol : row.elements) {
      if (symbol.kind != shlo::Attribute::Kind::kSymbolRef) {
        return OpError(op, StatusCode::kInvalidArgument,
                       "'programs' must hold function symbols (@name)");
      }
      names.push_back(symbol.str);
    }
  }
  const size_t count = names.size();

  std::vector<std::shared_ptr<const CompiledRegion>> compiled;
  for (const std::string& name : names) {
    StatusOr<std::shared_ptr<const CompiledRegion>> body = context.CompileFunction(name);
    if (!body.ok()) return OpError(op, body.status().code(), body.status().message());
    compiled.push_back(*body);
  }

  // How many operands each process takes. The compile context exposes the
  // callees' bodies, not their signatures, so the split is known when every
  // process runs the same function (an even split) or nothing is passed.
  bool same = true;
  for (const std::string& name : names) same = same && name == names[0];
  size_t per_process = 0;
  if (!op.operands.empty()) {
    if (!same) {
      return OpError(op, StatusCode::kUnimplemented,
                     "passing operands to processes that run different functions is not "
                     "implemented (their argument counts are not available here)");
    }
    if (op.operands.size() % count != 0) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(op.operands.size(), " operands do not split evenly over ", count,
                            " processes running the same function"));
    }
    per_process = op.operands.size() / count;
  }
  return std::unique_ptr<CompiledOp>(new RunParallelOp(static_cast<int64_t>(num_replicas),
                                                       static_cast<int64_t>(num_partitions),
                                                       std::move(compiled), per_process));
}

}  // namespace plugrt::cpu
