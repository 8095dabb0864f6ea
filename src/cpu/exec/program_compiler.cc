#include "cpu/exec/program_compiler.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "common/scratch.h"
#include "cpu/exec/convolution_epilogue.h"
#include "cpu/exec/fusion.h"
#include "cpu/exec/kernel_trace.h"
#include "cpu/exec/constant_folding.h"
#include "cpu/kernels/host_memory.h"
#include "cpu/kernels/parallel.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/cost_analysis.h"

namespace plugrt::cpu {

namespace {

using shlo::OpCode;

// Where an operand lives at run time: `depth` frames up, in `slot`.
struct ValueRef {
  int depth = 0;
  int slot = 0;
};

struct Step {
  const shlo::Operation* ir = nullptr;
  std::unique_ptr<CompiledOp> op;
  std::vector<ValueRef> operands;
  // Per operand: its slot dies at this step and nothing else here reads it,
  // so the value is moved to the op instead of copied (the op may then hold
  // the only reference to its storage).
  std::vector<bool> move;
  std::vector<int> results;
  std::vector<int> release;  // slots dead after this step
  // For the profiler: a fused group's members (empty for a plain op), and
  // the values the step reads and writes.
  std::vector<const shlo::Operation*> fused;
  std::vector<const shlo::Value*> inputs;
  std::vector<const shlo::Value*> outputs;
};

struct Frame {
  explicit Frame(size_t num_slots) : slots(*storage) { slots.resize(num_slots); }
  ScratchVector<RtValue> storage;  // reused across runs on this thread
  std::vector<RtValue>& slots;
  const Frame* parent = nullptr;
};

class RegionImpl final : public CompiledRegion {
 public:
  // `move_dying`: operands whose slot dies at a step are moved to its op,
  // which may then write its result into their memory (in-place reuse).
  RegionImpl(const shlo::Module& module, const shlo::Block& block, int num_slots,
             std::vector<Step> steps, std::vector<ValueRef> returns, bool move_dying)
      : module_(module),
        block_(block),
        num_arguments_(block.arguments.size()),
        num_slots_(num_slots),
        steps_(std::move(steps)),
        returns_(std::move(returns)) {
    for (Step& step : steps_) {
      max_operands_ = std::max(max_operands_, step.operands.size());
      step.move.assign(step.operands.size(), false);
      for (size_t i = 0; i < step.operands.size(); ++i) {
        const int slot = step.operands[i].slot;
        step.move[i] = move_dying && OwnSlotOnce(step.operands, step.operands[i]) &&
                       std::find(step.release.begin(), step.release.end(), slot) !=
                           step.release.end();
      }
    }
    // A returned slot of this frame is moved out unless returned twice.
    returns_move_.assign(returns_.size(), false);
    for (size_t i = 0; i < returns_.size(); ++i) {
      returns_move_[i] = OwnSlotOnce(returns_, returns_[i]);
    }
    FindSingleOp();
  }

  const SingleOpRegion* single_op() const override {
    return single_op_.op != nullptr ? &single_op_ : nullptr;
  }

  int64_t planned_peak_bytes() const override {
    std::call_once(describe_once_, [this] { Describe(); });
    return peak_live_bytes_;
  }

  StatusOr<std::vector<RtValue>> Run(std::vector<RtValue> arguments,
                                     ExecContext& context) const override {
    if (arguments.size() != num_arguments_) {
      return InvalidArgument("region expects ", num_arguments_, " arguments, got ",
                             arguments.size());
    }
    Frame frame(num_slots_);
    frame.parent = static_cast<const Frame*>(context.frame);
    for (size_t i = 0; i < arguments.size(); ++i) frame.slots[i] = std::move(arguments[i]);

    const void* saved = context.frame;
    context.frame = &frame;
    Status status = RunSteps(frame, context);
    context.frame = saved;
    if (!status.ok()) return status;

    std::vector<RtValue> results;
    results.reserve(returns_.size());
    for (size_t i = 0; i < returns_.size(); ++i) {
      if (returns_move_[i]) {
        results.push_back(std::move(frame.slots[returns_[i].slot]));
      } else {
        results.push_back(Lookup(frame, returns_[i]));
      }
    }
    return results;
  }

 private:
  // `ref` is a slot of this frame that `refs` names only once: its value can
  // be moved out where the slot is not read again.
  static bool OwnSlotOnce(const std::vector<ValueRef>& refs, const ValueRef& ref) {
    return ref.depth == 0 && std::count_if(refs.begin(), refs.end(), [&](const ValueRef& other) {
                               return other.depth == 0 && other.slot == ref.slot;
                             }) == 1;
  }

  // Runs one step; memory the op could not get becomes its error (kernels
  // throw for it, from any depth: nested regions, OpenMP chunks, oneDNN).
  static StatusOr<std::vector<RtValue>> ExecuteStep(const Step& step,
                                                    const std::vector<RtValue>& operands,
                                                    ExecContext& context) {
    try {
      return step.op->Execute(operands, context);
    } catch (const std::bad_alloc& e) {
      const Status error = OutOfMemory(e);
      return OpError(*step.ir, error.code(), error.message());
    }
  }

  // Builds the profiler's view of every step, once: descriptions and the
  // buffer plan's live bytes at each step (arguments, plus each result from
  // its step until the step that releases its slot).
  void Describe() const {
    descriptions_.reserve(steps_.size());
    live_bytes_.reserve(steps_.size());
    std::vector<int64_t> slot_bytes(static_cast<size_t>(num_slots_), 0);
    int64_t live = 0;
    for (size_t i = 0; i < num_arguments_ && i < slot_bytes.size(); ++i) {
      slot_bytes[i] = static_cast<int64_t>(shlo::TypeBytes(block_.arguments[i]->type));
      live += slot_bytes[i];
    }
    peak_live_bytes_ = live;
    for (const Step& step : steps_) {
      descriptions_.push_back(DescribeKernel(module_, *step.ir, step.fused, step.inputs, step.outputs));
      for (size_t k = 0; k < step.results.size() && k < step.outputs.size(); ++k) {
        const int64_t bytes = static_cast<int64_t>(shlo::TypeBytes(step.outputs[k]->type));
        slot_bytes[static_cast<size_t>(step.results[k])] = bytes;
        live += bytes;
      }
      live_bytes_.push_back(live);
      peak_live_bytes_ = std::max(peak_live_bytes_, live);
      for (int slot : step.release) live -= slot_bytes[static_cast<size_t>(slot)];
    }
  }

  // ExecuteStep under the profiler: one kernel event for the step, with the
  // allocations it made (here and on pool threads working for it).
  StatusOr<std::vector<RtValue>> TracedStep(size_t index, const std::vector<RtValue>& operands,
                                            ExecContext& context) const {
    const KernelDescription& description = descriptions_[index];
    KernelRun run;
    run.description = &description;
    run.flow_id = context.trace_flow;
    run.live_bytes = live_bytes_[index];
    run.threads = ThreadBudget(context.kernel_threads);
    const bool saved = context.trace_kernels;
    context.trace_kernels = description.traces_regions;
    const HostAllocations before = ThreadHostAllocations();
    run.start_cpu_ns = profiler::ProcessCpuNs();
    run.start_ns = profiler::NowNs();
    std::optional<StatusOr<std::vector<RtValue>>> results;
    {
      profiler::KernelScope scope(&description.name, context.trace_flow, &run.notes);
      results.emplace(ExecuteStep(steps_[index], operands, context));
      const HostAllocations after = ThreadHostAllocations();
      run.blocks = after.blocks - before.blocks + scope.context().pool_blocks.load();
      run.bytes = after.bytes - before.bytes + scope.context().pool_bytes.load();
      run.fresh_bytes = after.fresh_bytes - before.fresh_bytes;
    }
    context.trace_kernels = saved;
    RecordKernel(std::move(run));
    return *std::move(results);
  }

  static const RtValue& Lookup(const Frame& frame, const ValueRef& ref) {
    const Frame* f = &frame;
    for (int i = 0; i < ref.depth; ++i) f = f->parent;
    return f->slots[ref.slot];
  }

  Status RunSteps(Frame& frame, ExecContext& context) const {
    ScratchVector<RtValue> scratch;  // reused across runs on this thread
    std::vector<RtValue>& operands = *scratch;
    operands.reserve(max_operands_);
    const bool trace = context.trace_kernels && profiler::Enabled();
    if (trace) std::call_once(describe_once_, [this] { Describe(); });
    for (size_t index = 0; index < steps_.size(); ++index) {
      const Step& step = steps_[index];
      operands.clear();
      for (size_t i = 0; i < step.operands.size(); ++i) {
        if (step.move[i]) {
          operands.push_back(std::move(frame.slots[step.operands[i].slot]));
        } else {
          operands.push_back(Lookup(frame, step.operands[i]));
        }
      }
      StatusOr<std::vector<RtValue>> results =
          trace ? TracedStep(index, operands, context) : ExecuteStep(step, operands, context);
      operands.clear();  // values moved in die with the step
      if (!results.ok()) {
        const Status& error = results.status();
        // Errors from kernels carry no location: add the op's.
        const std::string location = step.ir->location.ToString();
        if (error.message().rfind(location, 0) == 0) return error;
        return Status(error.code(),
                      StrCat(location, ": ", step.ir->name, ": ", error.message()));
      }
      if (results->size() != step.results.size()) {
        return OpError(*step.ir, StatusCode::kInternal,
                       StrCat("produced ", results->size(), " results, expected ",
                              step.results.size()));
      }
      for (size_t i = 0; i < step.results.size(); ++i) {
        frame.slots[step.results[i]] = std::move((*results)[i]);
      }
      for (int slot : step.release) frame.slots[slot] = RtValue();
    }
    return OkStatus();
  }

  // One step over this region's arguments whose one result is all the
  // region returns.
  void FindSingleOp() {
    if (steps_.size() != 1 || returns_.size() != 1) return;
    const Step& step = steps_[0];
    if (!step.op->writes_into() || step.results.size() != 1) return;
    if (returns_[0].depth != 0 || returns_[0].slot != step.results[0]) return;
    std::vector<int> arguments;
    for (const ValueRef& ref : step.operands) {
      if (ref.depth != 0 || ref.slot < 0 || static_cast<size_t>(ref.slot) >= num_arguments_) {
        return;
      }
      arguments.push_back(ref.slot);
    }
    single_op_ = SingleOpRegion{step.op.get(), step.ir, std::move(arguments)};
  }

  const shlo::Module& module_;
  const shlo::Block& block_;
  size_t num_arguments_;
  size_t max_operands_ = 0;  // the most operands of one step
  int num_slots_;
  std::vector<Step> steps_;
  std::vector<ValueRef> returns_;
  std::vector<bool> returns_move_;
  SingleOpRegion single_op_;
  // The profiler's view (Describe), built the first time it is needed.
  mutable std::once_flag describe_once_;
  mutable std::vector<KernelDescription> descriptions_;
  mutable std::vector<int64_t> live_bytes_;
  mutable int64_t peak_live_bytes_ = 0;
};

// A step that hands out values computed at compile time (as shared
// storage, as constants are).
class ConstantValuesOp final : public CompiledOp {
 public:
  explicit ConstantValuesOp(std::vector<RtValue> values) : values_(std::move(values)) {
    for (RtValue& value : values_) {
      if (value.kind == RtValue::Kind::kTensor) value.tensor = value.tensor.AsShared();
    }
  }
  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>&,
                                         ExecContext&) const override {
    return values_;
  }

 private:
  std::vector<RtValue> values_;
};

// Constants are recorded in `constants`; a foldable op whose operands are
// all there runs now and becomes a ConstantValuesOp (its results recorded
// too, and in `index_values` when it is an iota or read index values only).
// Anything else, or an op that fails now (it will fail the same way at run
// time), comes back as an error and is compiled as it is.
StatusOr<std::unique_ptr<CompiledOp>> Fold(
    const shlo::Operation& op, const CompiledOp& compiled,
    std::unordered_map<const shlo::Value*, RtValue>& constants,
    std::unordered_set<const shlo::Value*>& index_values) {
  const bool constant = op.code == OpCode::kConstant;
  bool reads_index_values = op.code == OpCode::kIota || !op.operands.empty();
  for (const shlo::Value* v : op.operands) reads_index_values &= index_values.count(v) > 0;
  if (!constant && !IsFoldable(op, reads_index_values)) return Unimplemented("not foldable");
  std::vector<RtValue> operands;
  for (const shlo::Value* v : op.operands) {
    auto it = constants.find(v);
    if (it == constants.end()) return Unimplemented("operand not constant");
    operands.push_back(it->second);
  }
  ExecContext context;
  StatusOr<std::vector<RtValue>> executed = Unimplemented("not folded");
  try {
    executed = compiled.Execute(operands, context);
  } catch (const std::bad_alloc&) {
    // Left for run time, which reports it with the op's location.
    return Unimplemented("no memory to fold");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<RtValue> values, std::move(executed));
  if (values.size() != op.results.size()) return Internal("result count");
  for (size_t i = 0; i < values.size(); ++i) {
    constants[op.result(i)] = values[i];
    if (reads_index_values) index_values.insert(op.result(i));
  }
  if (constant) return Unimplemented("already a constant");
  return std::unique_ptr<CompiledOp>(std::make_unique<ConstantValuesOp>(std::move(values)));
}

// Every value an op of `region` (nested regions included) reads.
void CollectReads(const shlo::Region& region, std::unordered_set<const shlo::Value*>& reads) {
  for (const auto& block : region.blocks) {
    for (const auto& op : block->operations) {
      reads.insert(op->operands.begin(), op->operands.end());
      for (const auto& nested : op->regions) CollectReads(*nested, reads);
    }
  }
}

// The pure ops of `block` outside every fused group whose results are read
// by fused groups only, none of which takes them as an input (a group holds
// a one-element or splat constant as an immediate).
std::unordered_set<const shlo::Operation*> AbsorbedByFusion(
    const shlo::Block& block, const std::unordered_set<const shlo::Operation*>& dead,
    const FusionPlan& fusion) {
  std::unordered_set<const shlo::Operation*> absorbed;
  if (fusion.groups.empty()) return absorbed;
  std::unordered_set<const shlo::Value*> read;  // at run time, outside the groups' immediates
  std::unordered_set<const shlo::Value*> in_groups;  // what group members read in the IR
  for (const auto& op : block.operations) {
    if (dead.count(op.get()) > 0) continue;
    if (auto it = fusion.group_of.find(op.get()); it != fusion.group_of.end()) {
      const FusionGroup& group = fusion.groups[it->second];
      read.insert(group.inputs.begin(), group.inputs.end());
      read.insert(group.outputs.begin(), group.outputs.end());
      in_groups.insert(op->operands.begin(), op->operands.end());
    } else {
      read.insert(op->operands.begin(), op->operands.end());
    }
    for (const auto& nested : op->regions) CollectReads(*nested, read);
  }
  for (const auto& op : block.operations) {
    if (dead.count(op.get()) > 0 || fusion.group_of.count(op.get()) > 0 ||
        !passes::IsPureOp(*op) || op->results.empty()) {
      continue;
    }
    // Ops nothing reads at all are dead-code elimination's to drop (or keep).
    bool unread = true, absorbed_by_group = false;
    for (const auto& result : op->results) {
      unread = unread && read.count(result.get()) == 0;
      absorbed_by_group = absorbed_by_group || in_groups.count(result.get()) > 0;
    }
    if (unread && absorbed_by_group) absorbed.insert(op.get());
  }
  return absorbed;
}

// Why `op` has no compile function in this program's registry.
Status NotRegistered(const shlo::Operation& op) {
  const shlo::OpTraits& traits = shlo::TraitsOf(op.code);
  if (op.code == OpCode::kUnknown) {
    if (op.name.rfind("chlo.", 0) == 0) {
      return OpError(op, StatusCode::kUnimplemented,
                     "CHLO ops must be lowered to StableHLO before execution; this op has no "
                     "lowering yet");
    }
    return OpError(op, StatusCode::kUnimplemented, "unknown operation");
  }
  if (traits.group == shlo::OpGroup::kHarness) {
    return OpError(op, StatusCode::kUnimplemented,
                   "is an op of the conformance test harness; it runs only under `plugrt "
                   "conformance` (create option conformance_harness=true)");
  }
  if (traits.group == shlo::OpGroup::kFeed) {
    return OpError(op, StatusCode::kUnimplemented,
                   "PJRT has no infeed or outfeed queues; only the conformance test harness "
                   "(interpreter.run_parallel, under `plugrt conformance`) provides them");
  }
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("is not implemented by the CPU backend (", shlo::OpGroupName(traits.group),
                        " op without a compile function)"));
}

}  // namespace

StatusOr<std::shared_ptr<const CompiledRegion>> ProgramCompiler::CompileRegion(
    const shlo::Region& region) {
  if (region.blocks.size() != 1) {
    return InvalidArgument("regions must have exactly one block, found ", region.blocks.size());
  }
  return CompileBlock(region.front(), /*isolated=*/false);
}

StatusOr<std::shared_ptr<const CompiledRegion>> ProgramCompiler::CompileFunction(
    std::string_view name) {
  if (auto it = functions_.find(name); it != functions_.end()) return it->second;
  const shlo::Function* function = module_.FindFunction(name);
  if (function == nullptr) return NotFound("no function @", name, " in the module");
  if (in_progress_.count(name) > 0) {
    return InvalidArgument(function->location.ToString(), ": function @", name,
                           " calls itself; recursion is not allowed in StableHLO");
  }
  if (function->body == nullptr || function->body->blocks.size() != 1) {
    return InvalidArgument(function->location.ToString(), ": function @", name,
                           " must have a body of exactly one block");
  }
  in_progress_.insert(std::string(name));
  StatusOr<std::shared_ptr<const CompiledRegion>> compiled =
      CompileBlock(function->body->front(), /*isolated=*/true);
  in_progress_.erase(in_progress_.find(name));
  if (!compiled.ok()) return compiled.status();
  functions_.emplace(std::string(name), *compiled);
  return compiled;
}

StatusOr<std::shared_ptr<const CompiledRegion>> ProgramCompiler::CompileBlock(
    const shlo::Block& block, bool isolated) {
  Scope scope;
  scope.isolated = isolated;
  for (const auto& argument : block.arguments) scope.slots[argument.get()] = scope.next_slot++;

  // Finds `value` in this scope or an enclosing one (marking captures).
  auto resolve = [this](const shlo::Value* value) -> StatusOr<ValueRef> {
    for (int depth = 0; depth < static_cast<int>(scopes_.size()); ++depth) {
      Scope* s = scopes_[scopes_.size() - 1 - depth];
      if (auto it = s->slots.find(value); it != s->slots.end()) {
        if (depth > 0) s->captured[it->second] = true;
        return ValueRef{depth, it->second};
      }
      if (s->isolated) break;
    }
    return InvalidArgument("value %", value->name, " is used but not defined in scope");
  };

  scopes_.push_back(&scope);
  struct PopScope {
    std::vector<Scope*>& scopes;
    ~PopScope() { scopes.pop_back(); }
  } pop{scopes_};

  std::vector<Step> steps;
  std::vector<ValueRef> returns;
  std::vector<int> last_use;  // per slot: index of the last step reading it
  bool terminated = false;
  // Pure ops nothing live reads are dropped; elementwise groups run as one
  // fused step at their last member; small pure ops over constants are
  // evaluated here, once.
  const std::unordered_set<const shlo::Operation*> dead =
      options_.passes.on(passes::BuiltinPass::dead_code_elimination)
          ? passes::DeadOps(block)
          : std::unordered_set<const shlo::Operation*>();
  const FusionPlan fusion =
      options_.fast_paths && options_.passes.on(passes::BuiltinPass::elementwise_fusion)
          ? PlanFusion(block, dead)
          : FusionPlan();
  // A pure op outside the groups whose results only groups read, as the
  // constants their loops hold as immediates (the splats lowerings write),
  // is not compiled: nothing would read what it computes.
  const std::unordered_set<const shlo::Operation*> absorbed = AbsorbedByFusion(block, dead, fusion);
  // Convolutions whose result only a group reads, with that group's loop as
  // their epilogue: they run at the group's place, as one step.
  std::unordered_map<int, std::pair<const ConvolutionWithEpilogue*, std::unique_ptr<CompiledOp>>>
      epilogue_steps;  // by group
  std::unordered_set<const shlo::Operation*> moved_convolutions;
  const std::vector<ConvolutionWithEpilogue> epilogues =
      options_.fast_paths && options_.passes.on(passes::BuiltinPass::convolution_epilogue)
          ? FindConvolutionEpilogues(block, dead, fusion)
          : std::vector<ConvolutionWithEpilogue>();
  for (const ConvolutionWithEpilogue& match : epilogues) {
    StatusOr<std::unique_ptr<CompiledOp>> compiled =
        CompileConvolutionWithEpilogue(match, fusion.groups[match.group], *this);
    if (!compiled.ok()) continue;  // the two run apart
    epilogue_steps[match.group] = {&match, std::move(*compiled)};
    moved_convolutions.insert(match.convolution);
    if (match.side != nullptr) moved_convolutions.insert(match.side);
  }
  std::unordered_map<const shlo::Value*, RtValue> constants;
  std::unordered_set<const shlo::Value*> index_values;  // Fold's
  for (const auto& op_ptr : block.operations) {
    const shlo::Operation& op = *op_ptr;
    if (terminated) {
      return OpError(op, StatusCode::kInvalidArgument, "operation after the block's terminator");
    }
    if (dead.count(&op) > 0 || absorbed.count(&op) > 0 || moved_convolutions.count(&op) > 0) {
      continue;
    }
    const FusionGroup* group = nullptr;
    std::unique_ptr<CompiledOp>* with_convolution = nullptr;
    const ConvolutionWithEpilogue* epilogue = nullptr;
    if (auto it = fusion.group_of.find(&op); it != fusion.group_of.end()) {
      group = &fusion.groups[it->second];
      if (group->members.back() != &op) continue;  // runs with the group's last member
      if (auto e = epilogue_steps.find(it->second); e != epilogue_steps.end()) {
        epilogue = e->second.first;
        with_convolution = &e->second.second;
      }
    }
    std::vector<const shlo::Value*> reads(op.operands.begin(), op.operands.end());
    if (group != nullptr) reads = group->inputs;
    if (epilogue != nullptr) reads = ConvolutionWithEpilogueInputs(*epilogue, *group);
    std::vector<ValueRef> operands;
    for (const shlo::Value* operand : reads) {
      StatusOr<ValueRef> ref = resolve(operand);
      if (!ref.ok()) return OpError(op, StatusCode::kInvalidArgument, ref.status().message());
      operands.push_back(*ref);
    }
    if (shlo::IsTerminator(op.code)) {
      returns = std::move(operands);
      terminated = true;
      continue;
    }
    scope.captured.resize(scope.next_slot, false);
    StatusOr<std::unique_ptr<CompiledOp>> compiled =
        with_convolution != nullptr
            ? StatusOr<std::unique_ptr<CompiledOp>>(std::move(*with_convolution))
        : group != nullptr
            ? StatusOr<std::unique_ptr<CompiledOp>>(MakeFusedOp(*group, options_.jit))
            : CompileAnyOp(op, *this);
    if (!compiled.ok()) return compiled.status();
    if (group == nullptr && options_.passes.on(passes::BuiltinPass::constant_folding)) {
      StatusOr<std::unique_ptr<CompiledOp>> folded = Fold(op, **compiled, constants, index_values);
      if (folded.ok()) *compiled = std::move(*folded);
    }

    Step step;
    step.ir = epilogue != nullptr ? epilogue->convolution : &op;
    step.op = std::move(*compiled);
    step.operands = std::move(operands);
    std::vector<const shlo::Value*> results;
    if (group != nullptr) {
      results = group->outputs;
      if (epilogue != nullptr) {
        step.fused.push_back(epilogue->convolution);
        if (epilogue->side != nullptr) step.fused.push_back(epilogue->side);
      }
      step.fused.insert(step.fused.end(), group->members.begin(), group->members.end());
    } else {
      for (const auto& result : op.results) results.push_back(result.get());
    }
    step.inputs = std::move(reads);
    step.outputs = results;
    for (const shlo::Value* result : results) {
      int slot = scope.next_slot++;
      scope.slots[result] = slot;
      step.results.push_back(slot);
    }
    const int index = static_cast<int>(steps.size());
    last_use.resize(scope.next_slot, -1);
    for (const ValueRef& ref : step.operands) {
      if (ref.depth == 0) last_use[ref.slot] = index;
    }
    for (int slot : step.results) last_use[slot] = index;
    steps.push_back(std::move(step));
  }
  if (!terminated) {
    return InvalidArgument("a block ends without a return (stablehlo.return / func.return)");
  }

  // Free each slot after its last reader, unless a nested region captures it
  // or the block returns it.
  scope.captured.resize(scope.next_slot, false);
  last_use.resize(scope.next_slot, -1);
  std::vector<bool> keep(scope.next_slot, false);
  for (const ValueRef& ref : returns) {
    if (ref.depth == 0) keep[ref.slot] = true;
  }
  for (int slot = 0; slot < scope.next_slot; ++slot) {
    if (keep[slot] || scope.captured[slot] || last_use[slot] < 0) continue;
    steps[last_use[slot]].release.push_back(slot);
  }
  return std::shared_ptr<const CompiledRegion>(std::make_shared<RegionImpl>(
      module_, block, scope.next_slot, std::move(steps), std::move(returns),
      options_.passes.on(passes::BuiltinPass::in_place_reuse)));
}

StatusOr<std::unique_ptr<CompiledOp>> CompileAnyOp(const shlo::Operation& op,
                                                   CompileContext& context) {
  for (const auto& result : op.results) {
    if (result->type.kind() == shlo::Type::Kind::kUnsupported) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("type ", result->type.unsupported_text(),
                            " is not supported"));
    }
  }
  if (CompileOpFn compile = context.registry().Find(op.code)) return compile(op, context);
  return NotRegistered(op);
}

}  // namespace plugrt::cpu
