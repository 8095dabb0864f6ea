// plugrt CPU executor: how one IR op becomes executable.
//
// Compilation turns each shlo::Operation into a CompiledOp once: attributes
// are decoded, shapes checked and kernels chosen at compile time, so Execute
// does no string or attribute look-ups. Ops with regions (reduce, sort, map,
// scatter, while, ...) get their regions compiled into CompiledRegions they
// call at run time.
#ifndef PLUGRT_CPU_EXEC_COMPILED_OP_H_
#define PLUGRT_CPU_EXEC_COMPILED_OP_H_

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "common/typed_user_data.h"
#include "compiler/pass_config.h"
#include "compiler/pipeline.h"
#include "cpu/exec/value.h"
#include "stablehlo/ir.h"

namespace plugrt::kernels_abi {
class KernelPlugins;  // a client's kernel plugins (kernels_abi/kernel_plugins.h)
}  // namespace plugrt::kernels_abi

namespace plugrt::cpu {

class CollectiveHub;  // rendezvous of the devices of one execution
class OpRegistry;     // the compile function of each op (op_registry.h)
struct FeedQueues;    // infeed data and outfeed records (feed_ops.cc)
class HostChannels;   // stablehlo.send / recv to the host (host_channels.h)
struct JobNodes;      // the OS processes of a multi-process job (remote_exchange.h)

// How a program is compiled. The CPU plugin fills it from its options
// (cpu_options.h); the executor reads nothing from the environment.
struct ProgramOptions {
  // oneDNN dot_general / convolution, elementwise fusion, vectorized
  // reductions; false leaves every op on its reference kernel (same results
  // up to rounding).
  bool fast_paths = true;
  // Fused loops as generated machine code where the CPU can run it; false
  // keeps them interpreted.
  bool jit = true;
  // The program may use the conformance corpus' test-harness ops (check.*,
  // interpreter.run_parallel / probe, feeds): OpRegistry::ConformanceHarness().
  bool conformance_harness = false;
  // The thread budget executions will give the kernels (the client's
  // "threads"; 0: the number of cores): oneDNN plans prepare for it.
  int kernel_threads = 0;
  // The client's kernel plugins: custom-call targets not built in are looked
  // up here (null: none loaded). Compiled calls keep the set alive.
  std::shared_ptr<kernels_abi::KernelPlugins> kernel_plugins = nullptr;
  // Which built-in passes run (compiler/pass_config.h), as the compile's
  // pipeline resolved them: the planning ones (dead-code elimination,
  // constant folding, elementwise fusion, in-place reuse) are read here.
  passes::PassConfig passes = {};
  // The client's optimizer plugins and pass switches, which each compile
  // resolves into `passes`.
  compiler::PipelineOptions pipeline = {};
};

// How often an execution took each fast path (tests and benchmarks read
// these to know which kernels ran).
struct KernelCounters {
  int64_t fused_loops = 0;   // elementwise groups run as one fused loop
  int64_t jit_segments = 0;  // generated code segments those loops ran
  int64_t onednn_calls = 0;  // dot_general / convolution run on oneDNN
  // Convolutions that ran with the fused group after them as oneDNN
  // post-ops (exec/convolution_epilogue.h).
  int64_t convolution_epilogues = 0;
  // Results written into the memory of an operand whose value died at that
  // step (a donated input, or an intermediate at its last use).
  int64_t in_place_outputs = 0;
};

// What one execution on one device knows about itself.
struct ExecContext {
  int64_t replica_id = 0;
  int64_t partition_id = 0;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  CollectiveHub* collectives = nullptr;  // null when running on one device
  // Where host transfers go (a PJRT launch's host callbacks, or the
  // harness's queues); null when the run has none. And this device's
  // position among the launch's devices (the index of its argument list).
  HostChannels* host_channels = nullptr;
  int64_t device_index = 0;
  // The id of the device running this execution (-1: not said; kernel
  // plugins then see device_index).
  int64_t device_id = -1;
  // The id of the logical execution: the same on every device of one launch
  // (XLA FFI's RunId). 0 when the run is not a launch.
  int64_t run_id = 0;
  // User data the caller attached to the execution (PJRT_ExecuteContext),
  // for XLA FFI handlers; null when none.
  const TypedUserData* user_data = nullptr;
  // Where stablehlo.infeed reads and stablehlo.outfeed writes; null when
  // the run has no feeds (PJRT launches).
  FeedQueues* feeds = nullptr;
  // The interpreter's innermost running frame, through which nested regions
  // read values they capture from enclosing regions. Internal to the
  // interpreter; ops pass the context through unchanged.
  const void* frame = nullptr;
  // Values recorded by interpreter.probe in this run, by probe id, one per
  // time the probe ran (for check.expect_serialized_eq). Program::Run
  // provides one when unset.
  std::map<std::string, std::vector<Tensor>, std::less<>>* probes = nullptr;
  // Counted into when set.
  KernelCounters* counters = nullptr;
  // The OS processes of the job this run belongs to; null in a
  // single-process client.
  const JobNodes* job = nullptr;
  // Threads one large kernel may use (the client's "threads" option; 0: the
  // number of cores). Passed down, not kept per thread: nested regions and
  // harness sub-runs copy the context.
  int kernel_threads = 0;
  // Profiling (profiler/recorder.h): set by Program::Run while a session
  // records. `trace_flow` ties this run's kernel events to its execute
  // event; `trace_kernels` is cleared inside ops whose regions are per-element
  // computations (reduce bodies, comparators), which are not kernels.
  uint64_t trace_flow = 0;
  bool trace_kernels = false;
};

class CompiledOp;

// A region that applies one op to its arguments and returns the op's one
// tensor result, an op that can write into memory it is given: such a
// program (one elementwise op, as an eager runtime sends op by op) runs
// straight from the argument buffers into the output buffer.
struct SingleOpRegion {
  const CompiledOp* op = nullptr;
  const shlo::Operation* ir = nullptr;  // for error locations
  std::vector<int> arguments;           // the region argument of each operand
};

// A compiled region (one block): run it with the block's arguments, get the
// operands of its terminator (stablehlo.return / func.return).
class CompiledRegion {
 public:
  virtual ~CompiledRegion() = default;
  virtual StatusOr<std::vector<RtValue>> Run(std::vector<RtValue> arguments,
                                             ExecContext& context) const = 0;
  // Set when the region is a SingleOpRegion.
  virtual const SingleOpRegion* single_op() const { return nullptr; }
  // The most bytes the region's values hold at once by the buffer plan
  // (arguments, results, temporaries from their step to their last use),
  // for the profiler's memory view; computed on first use.
  virtual int64_t planned_peak_bytes() const { return 0; }
  // Convenience for scalar bodies (reduce, sort comparators, scatter
  // updates): every argument and result is a tensor.
  StatusOr<std::vector<Tensor>> RunTensors(const std::vector<Tensor>& arguments,
                                           ExecContext& context) const;
};

class CompiledOp {
 public:
  virtual ~CompiledOp() = default;
  // One RtValue per op result.
  virtual StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                                 ExecContext& context) const = 0;
  // Ops of one tensor result that can compute it into a tensor the caller
  // provides, of the result's type and shape (ExecuteInto then does what
  // Execute does, with the same checks of the operands).
  virtual bool writes_into() const { return false; }
  virtual Status ExecuteInto(std::span<const Tensor* const> operands, Tensor& out,
                             ExecContext& context) const {
    (void)operands, (void)out, (void)context;
    return Unimplemented("this op cannot write into a given tensor");
  }
};

// A CompiledOp from a lambda, for ops whose whole state fits in a capture.
class LambdaOp final : public CompiledOp {
 public:
  using Fn = std::function<StatusOr<std::vector<RtValue>>(const std::vector<RtValue>&,
                                                          ExecContext&)>;
  explicit LambdaOp(Fn fn) : fn_(std::move(fn)) {}
  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    return fn_(operands, context);
  }

 private:
  Fn fn_;
};

inline std::unique_ptr<CompiledOp> MakeOp(LambdaOp::Fn fn) {
  return std::make_unique<LambdaOp>(std::move(fn));
}

// Handed to the per-group compile functions.
class CompileContext {
 public:
  virtual ~CompileContext() = default;
  virtual StatusOr<std::shared_ptr<const CompiledRegion>> CompileRegion(
      const shlo::Region& region) = 0;
  // Function bodies, for func.call.
  virtual StatusOr<std::shared_ptr<const CompiledRegion>> CompileFunction(
      std::string_view name) = 0;
  // The function called `name` (its signature), or null.
  virtual const shlo::Function* FindFunction(std::string_view name) const {
    (void)name;
    return nullptr;
  }
  // How the program is being compiled.
  virtual const ProgramOptions& options() const {
    static const ProgramOptions defaults;
    return defaults;
  }
  // The ops (and custom-call targets) this compilation may use.
  virtual const OpRegistry& registry() const = 0;
};

// An error for op `op` that names its location and name:
// "file:3:7: stablehlo.add: <message>".
Status OpError(const shlo::Operation& op, StatusCode code, const std::string& message);

// Compiles one op (op_registry.h has the table of these, one per op code).
using CompileOpFn = StatusOr<std::unique_ptr<CompiledOp>> (*)(const shlo::Operation& op,
                                                              CompileContext& context);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_COMPILED_OP_H_
