#include "tools/bench_eager.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "eager/context.h"
#include "compiler/importers/mlir/parser.h"
#include "tools/bench_program.h"

namespace plugrt::tools {

namespace {

// One op of @main's body: operands and results as indices into a value
// table (@main's arguments first, then each op's results in order).
struct Step {
  std::string op;
  std::vector<size_t> operands;
  std::vector<size_t> results;
};

struct Plan {
  size_t values = 0;
  std::vector<Step> steps;
  std::vector<size_t> returned;
};

StatusOr<Plan> PlanOf(std::string_view text, const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::ParseModule(text, path));
  const shlo::Function* main = module->FindFunction("main");
  if (main == nullptr) return NotFound(path, ": no function @main");
  const shlo::Block& body = main->body->front();
  std::unordered_map<const shlo::Value*, size_t> index;
  Plan plan;
  for (const auto& argument : body.arguments) index[argument.get()] = plan.values++;
  for (const auto& operation : body.operations) {
    const shlo::Operation& op = *operation;
    std::vector<size_t> operands;
    for (const shlo::Value* operand : op.operands) {
      auto it = index.find(operand);
      if (it == index.end()) return Internal(path, ": ", op.name, " uses an unknown value");
      operands.push_back(it->second);
    }
    if (op.name == "func.return") {
      plan.returned = std::move(operands);
      continue;
    }
    if (!op.attributes.empty() || !op.regions.empty()) {
      return Unimplemented(op.location.ToString(), ": ", op.name,
                           " has attributes or regions; kind=eager workloads replay only ops "
                           "without them (elementwise ones)");
    }
    Step step{op.name, std::move(operands), {}};
    for (const auto& result : op.results) {
      index[result.get()] = plan.values;
      step.results.push_back(plan.values++);
    }
    plan.steps.push_back(std::move(step));
  }
  if (plan.steps.empty()) return InvalidArgument(path, ": @main has no ops to run eagerly");
  return plan;
}

// The body op by op, as an eager user writes it: a new Op per op, its
// inputs, Execute (the sync executor returns once the device is done);
// then the returned tensors awaited.
Status RunEagerly(eager::Context& context, const Plan& plan, std::vector<eager::Tensor>& values) {
  for (const Step& step : plan.steps) {
    eager::Op op(context, step.op);
    for (size_t operand : step.operands) PLUGRT_RETURN_IF_ERROR(op.AddInput(values[operand]));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<eager::Tensor> outputs, op.Execute());
    if (outputs.size() != step.results.size()) {
      return Internal(step.op, ": ", outputs.size(), " eager results for ", step.results.size(),
                      " in the program");
    }
    for (size_t i = 0; i < outputs.size(); ++i) values[step.results[i]] = std::move(outputs[i]);
  }
  for (size_t r : plan.returned) PLUGRT_RETURN_IF_ERROR(values[r].Await());
  return OkStatus();
}

// One execute of the compiled program, until its outputs are ready and the
// device is done.
Status RunFused(const LoadedExecutable& executable, const std::vector<std::vector<Buffer*>>& args,
                const ExecuteOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, executable.ExecuteAsync(args, options));
  for (OutputList& outputs : result.outputs) {
    for (Buffer& output : outputs) {
      PLUGRT_ASSIGN_OR_RETURN(Future ready, output.ReadyFuture());
      PLUGRT_RETURN_IF_ERROR(ready.Await());
    }
  }
  for (Future& done : result.device_complete) PLUGRT_RETURN_IF_ERROR(done.Await());
  return OkStatus();
}

// `policy` over samples of `iterations` runs each; ms per run.
StatusOr<TimeSummary> TimePerRun(const RepeatPolicy& policy, int64_t iterations,
                                 const std::function<Status()>& run) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<double> times,
                          TimeRepeated(policy, [&]() -> StatusOr<double> {
                            const long long start = NowNanoseconds();
                            for (int64_t i = 0; i < iterations; ++i) {
                              PLUGRT_RETURN_IF_ERROR(run());
                            }
                            return MillisecondsSince(start) / static_cast<double>(iterations);
                          }));
  return Summarize(std::move(times));
}

}  // namespace

StatusOr<EagerResult> MeasureEager(const Client& client, std::string_view text,
                                   const std::string& path, const RepeatPolicy& policy,
                                   int64_t iterations) {
  PLUGRT_ASSIGN_OR_RETURN(Plan plan, PlanOf(text, path));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<ArgumentSpec> specs, ReadMainArguments(text, path));
  // The bench's client, borrowed (the context ends before it).
  std::shared_ptr<Client> borrowed(std::shared_ptr<Client>(), const_cast<Client*>(&client));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<eager::Context> context,
                          eager::Context::Create(std::move(borrowed)));

  std::vector<eager::Tensor> values(plan.values);
  std::vector<std::vector<Buffer*>> fused_args(1);
  ExecuteOptions options;  // the inputs serve every run: none is donated
  for (size_t i = 0; i < specs.size(); ++i) {
    StatusOr<std::vector<std::byte>> data = RandomArgumentData(specs[i], 0x5EEDull + i);
    if (!data.ok()) {
      return Status(data.status().code(),
                    StrCat(path, ": argument ", i, ": ", data.status().message()));
    }
    PLUGRT_ASSIGN_OR_RETURN(values[i], context->FromHost(data->data(), specs[i].type, specs[i].dims));
    fused_args[0].push_back(const_cast<Buffer*>(&values[i].state()->buffer()));
    options.non_donatable_input_indices.push_back(static_cast<int64_t>(i));
  }

  const long long compile_start = NowNanoseconds();
  StatusOr<LoadedExecutable> fused = client.Compile(text);
  const double compile_ms = MillisecondsSince(compile_start);
  if (!fused.ok()) {
    return Status(fused.status().code(),
                  StrCat(path, ": compile failed: ", fused.status().message()));
  }

  EagerResult result;
  result.ops = static_cast<int64_t>(plan.steps.size());
  result.iterations = iterations;
  result.fused_compile_ms = compile_ms;
  auto eager_run = [&]() -> Status {
    Status status = RunEagerly(*context, plan, values);
    if (!status.ok()) {
      return Status(status.code(), StrCat(path, ": eager run failed: ", status.message()));
    }
    return OkStatus();
  };
  auto fused_run = [&]() -> Status {
    Status status = RunFused(*fused, fused_args, options);
    if (!status.ok()) {
      return Status(status.code(), StrCat(path, ": execution failed: ", status.message()));
    }
    return OkStatus();
  };
  PLUGRT_ASSIGN_OR_RETURN(result.eager, TimePerRun(policy, iterations, eager_run));
  PLUGRT_ASSIGN_OR_RETURN(result.fused, TimePerRun(policy, iterations, fused_run));
  if (result.fused.median > 0) result.eager_vs_fused = result.eager.median / result.fused.median;
  return result;
}

}  // namespace plugrt::tools
