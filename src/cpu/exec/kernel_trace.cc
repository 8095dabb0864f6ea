#include "cpu/exec/kernel_trace.h"

#include "compiler/passes/cost_analysis.h"
#include "stablehlo/element_type.h"
#include "stablehlo/op_code.h"
#include "stablehlo/source_location.h"

namespace plugrt::cpu {

namespace stat = profiler::stat;

std::string ShapeText(const shlo::Type& type) {
  switch (type.kind()) {
    case shlo::Type::Kind::kTensor: {
      std::string out(shlo::ElementTypeName(type.element_type()));
      if (type.quant() != nullptr) out = "!quant(" + out + ")";
      out += "[";
      for (size_t i = 0; i < type.dims().size(); ++i) {
        if (i > 0) out += ",";
        const int64_t d = type.dims()[i];
        out += d == shlo::kDynamicSize ? "?" : std::to_string(d);
      }
      return out + "]";
    }
    case shlo::Type::Kind::kElement:
      return std::string(shlo::ElementTypeName(type.element_type()));
    case shlo::Type::Kind::kTuple: {
      std::string out = "(";
      const auto& elements = type.tuple_elements();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += ShapeText(elements[i]);
      }
      return out + ")";
    }
    case shlo::Type::Kind::kToken:
      return "token";
    default:
      return type.ToString();
  }
}

std::string KernelLocation(const shlo::Operation& op) {
  if (op.location.source != nullptr) {
    std::string source = op.location.source->ToString();
    if (!source.empty()) return source;
  }
  if (op.location.file == nullptr || op.location.line == 0) return "";
  return *op.location.file + ":" + std::to_string(op.location.line) + ":" +
         std::to_string(op.location.column);
}

namespace {

std::string ShapesOf(std::span<const shlo::Value* const> values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += ShapeText(values[i]->type);
  }
  return out;
}

int64_t BytesOf(std::span<const shlo::Value* const> values) {
  double total = 0;
  for (const shlo::Value* v : values) total += shlo::TypeBytes(v->type);
  return static_cast<int64_t>(total);
}

}  // namespace

KernelDescription DescribeKernel(const shlo::Module& module, const shlo::Operation& op,
                                 std::span<const shlo::Operation* const> fused,
                                 std::span<const shlo::Value* const> inputs,
                                 std::span<const shlo::Value* const> outputs) {
  KernelDescription d;
  std::vector<profiler::Stat> stats;
  const shlo::OpTraits& traits = shlo::TraitsOf(op.code);
  d.traces_regions = traits.group == shlo::OpGroup::kControl && !op.regions.empty();
  // A custom call is named by its target: what takes the time is the target.
  std::string ops;
  double flops = 0, transcendentals = 0;
  auto add_op = [&](const shlo::Operation& member) {
    if (!ops.empty()) ops += ",";
    ops += member.name;
    StatusOr<shlo::CostEstimate> cost = shlo::EstimateOpCost(module, member);
    if (cost.ok()) {
      flops += cost->flops;
      transcendentals += cost->transcendentals;
    }
  };
  if (fused.empty()) {
    add_op(op);
    d.name = op.name;
    if (op.code == shlo::OpCode::kCustomCall) {
      if (const shlo::Attribute* target = op.attribute("call_target_name")) {
        d.name += " @" + target->str;
      }
    }
  } else {
    for (const shlo::Operation* member : fused) add_op(*member);
    // A convolution with the group after it as its epilogue is named for it.
    d.name = fused.front() == &op && traits.fusion == shlo::OpFusion::kNone
                 ? op.name + "+fusion"
                 : "fusion";
  }
  stats.push_back({std::string(stat::kOps), ops});
  const std::string location = KernelLocation(op);
  if (!location.empty()) stats.push_back({std::string(stat::kLocation), location});
  stats.push_back({std::string(stat::kShapes),
                   (inputs.empty() ? "" : ShapesOf(inputs) + " ") + "-> " + ShapesOf(outputs)});
  stats.push_back({std::string(stat::kFlops), flops});
  if (transcendentals > 0) stats.push_back({"transcendentals", transcendentals});
  // A reshape is a view of its operand's storage: it moves no bytes.
  const bool view = fused.empty() && op.code == shlo::OpCode::kReshape;
  stats.push_back({std::string(stat::kBytesRead), view ? int64_t{0} : BytesOf(inputs)});
  stats.push_back({std::string(stat::kBytesWritten), view ? int64_t{0} : BytesOf(outputs)});
  d.stats = std::make_shared<const std::vector<profiler::Stat>>(std::move(stats));
  return d;
}

void RecordKernel(KernelRun run) {
  profiler::TraceEvent event;
  event.name = run.description->name;
  event.category = std::string(profiler::category::kKernel);
  event.start_ns = run.start_ns;
  event.end_ns = profiler::NowNs();
  const int64_t cpu_ns = profiler::ProcessCpuNs() - run.start_cpu_ns;
  event.flow_id = run.flow_id;
  event.shared_stats = run.description->stats;
  event.stats.push_back({std::string(stat::kLiveBytes), run.live_bytes});
  event.stats.push_back({std::string(stat::kProcessCpuNs), cpu_ns});
  if (run.blocks > 0) {
    event.stats.push_back({std::string(stat::kAllocations), run.blocks});
    event.stats.push_back({std::string(stat::kAllocatedBytes), run.bytes});
    if (run.fresh_bytes > 0) event.stats.push_back({"fresh_allocated_bytes", run.fresh_bytes});
  }
  // The thread budget, for kernels that named the library code they ran
  // (oneDNN, fused loops): what their own threads could use.
  if (run.threads > 0 && !run.notes.empty()) {
    event.stats.push_back({std::string(stat::kThreads), int64_t{run.threads}});
  }
  for (profiler::Stat& note : run.notes) event.stats.push_back(std::move(note));
  profiler::Record(std::move(event));
}

}  // namespace plugrt::cpu
