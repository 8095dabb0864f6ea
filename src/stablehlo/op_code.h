// plugrt StableHLO: every op the IR knows, by code, with its traits. This
// table is the one place that says what an op is: the parser resolves names
// to codes, and dead-code removal, folding, fusion, cost analysis and the
// executor's compile table read the traits below instead of keeping their
// own lists. Ops outside it (e.g. chlo.*, which the CHLO lowering rewrites by
// name at compile time) get OpCode::kUnknown and keep their name.
//
// Adding an op: one row here, then its functions in each stage (a verifier
// check, an executor compile function, a cost formula where the cost class
// is kFormula); tests/cpu/op_registry_test.cc fails until every stage has one.
// See "How to add an op" in docs/architecture.md.
#ifndef PLUGRT_STABLEHLO_OP_CODE_H_
#define PLUGRT_STABLEHLO_OP_CODE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace plugrt::shlo {

// Which executor group compiles the op (the file that registers its
// compile function; docs/architecture.md lists them).
enum class OpGroup : uint8_t {
  kControl,       // control flow, calls, tuples, constants, tokens, ids (control_flow_ops.cc)
  kElementwise,   // elementwise math, compare, convert, iota (elementwise_ops.cc)
  kDataMovement,  // broadcast, reshape, slices, gather, scatter (data_movement_ops.cc)
  kCompute,       // reductions, sort, dot, convolution, fft, linalg, rng (compute_ops*.cc)
  kCollective,    // collectives over the devices of one execution (collective_ops.cc)
  kCustomCall,    // stablehlo.custom_call: targets resolved by name (custom_calls.cc)
  kFeed,          // infeed/outfeed over the run's feed queues (feed_ops.cc)
  kHostTransfer,  // send/recv to host callbacks (host_callback_ops.cc)
  kHarness,       // conformance-harness ops: compiled only with the harness enabled
};

// Whether each result element depends only on the operand elements at the
// same index (the op maps elementwise).
enum class OpForm : uint8_t { kElementwise, kOther };

// What the op does besides computing its results from its operands. Only
// kNone ops may be removed when unused or evaluated at compile time.
enum class OpEffect : uint8_t {
  kNone,        // a pure function of its operands
  kNested,      // has the effects of the regions or functions it runs (kept whole)
  kState,       // reads or orders state outside its operands (ids, rng, tokens, barriers)
  kIO,          // talks to the world: collectives, feeds, host transfers, custom calls, checks
  kTerminator,  // ends a block (stablehlo.return, func.return)
};

// How cost analysis (cost_analysis.cc) estimates the op.
enum class OpCost : uint8_t {
  kNone,             // no bytes or flops of its own (terminators, constants, tuples)
  kCall,             // the callee's cost (func.call, composite)
  kLoop,             // (cond + body) x trip count
  kBranches,         // the most expensive region
  kArith,            // one flop per result element (more for complex values)
  kTranscendental,   // one transcendental per result element
  kPower,            // kArith on integers, kTranscendental otherwise
  kBytes,            // bytes moved only (and any regions once)
  kFormula,          // an op-specific formula in cost_analysis.cc
};

// How the fusion planner (src/cpu/exec/fusion.cc) may take the op into a
// fused elementwise loop (f32 values; the planner checks types and shapes).
enum class OpFusion : uint8_t {
  kNone,       // never fused
  kUnary,      // one f32 operand
  kBinary,     // two f32 operands
  kCompare,    // f32 operands, i1 result (FLOAT comparisons)
  kSelect,     // i1 predicate, f32 branches
  kLogic,      // i1 operands and result (not, and, or)
  kConvert,    // f32, i1, bf16 or s32 to f32; f32 to s8/u8 (a group output only)
  kClamp,      // clamp of f32 (a max, then a min)
  kBroadcast,  // broadcast_in_dim of scalars, rows and columns
  kRowReduce,  // a reduce over the last dim with an add/max/min body
};

// X(Code, "dialect.name", OpGroup, OpForm, OpEffect, OpCost, OpFusion): one row per op,
// wider than the rest of the code so that each op's traits read as one line.
#define PLUGRT_SHLO_OPS(X) \
  X(FuncReturn,               "func.return",                        kControl,      kOther,       kTerminator, kNone,           kNone)      \
  X(FuncCall,                 "func.call",                          kControl,      kOther,       kNested,     kCall,           kNone)      \
  X(Abs,                      "stablehlo.abs",                      kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Add,                      "stablehlo.add",                      kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(AfterAll,                 "stablehlo.after_all",                kControl,      kOther,       kState,      kBytes,          kNone)      \
  X(AllGather,                "stablehlo.all_gather",               kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(AllReduce,                "stablehlo.all_reduce",               kCollective,   kOther,       kIO,         kFormula,        kNone)      \
  X(AllToAll,                 "stablehlo.all_to_all",               kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(And,                      "stablehlo.and",                      kElementwise,  kElementwise, kNone,       kArith,          kLogic)     \
  X(Atan2,                    "stablehlo.atan2",                    kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(BatchNormGrad,            "stablehlo.batch_norm_grad",          kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(BatchNormInference,       "stablehlo.batch_norm_inference",     kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(BatchNormTraining,        "stablehlo.batch_norm_training",      kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(BitcastConvert,           "stablehlo.bitcast_convert",          kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(Broadcast,                "stablehlo.broadcast",                kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(BroadcastInDim,           "stablehlo.broadcast_in_dim",         kDataMovement, kOther,       kNone,       kBytes,          kBroadcast) \
  X(Case,                     "stablehlo.case",                     kControl,      kOther,       kNested,     kBranches,       kNone)      \
  X(Cbrt,                     "stablehlo.cbrt",                     kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(Ceil,                     "stablehlo.ceil",                     kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Cholesky,                 "stablehlo.cholesky",                 kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Clamp,                    "stablehlo.clamp",                    kElementwise,  kElementwise, kNone,       kArith,          kClamp)     \
  X(CollectiveBroadcast,      "stablehlo.collective_broadcast",     kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(CollectivePermute,        "stablehlo.collective_permute",       kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(CollectiveReduce,         "stablehlo.collective_reduce",        kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(Compare,                  "stablehlo.compare",                  kElementwise,  kElementwise, kNone,       kArith,          kCompare)   \
  X(Complex,                  "stablehlo.complex",                  kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(Composite,                "stablehlo.composite",                kControl,      kOther,       kNested,     kCall,           kNone)      \
  X(Concatenate,              "stablehlo.concatenate",              kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Constant,                 "stablehlo.constant",                 kControl,      kOther,       kNone,       kNone,           kNone)      \
  X(Convert,                  "stablehlo.convert",                  kElementwise,  kElementwise, kNone,       kBytes,          kConvert)   \
  X(Convolution,              "stablehlo.convolution",              kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Cosine,                   "stablehlo.cosine",                   kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(CountLeadingZeros,        "stablehlo.count_leading_zeros",      kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(CreateToken,              "stablehlo.create_token",             kControl,      kOther,       kState,      kBytes,          kNone)      \
  X(CrossReplicaSum,          "stablehlo.cross-replica-sum",        kCollective,   kOther,       kIO,         kBytes,          kNone)      \
  X(CustomCall,               "stablehlo.custom_call",              kCustomCall,   kOther,       kIO,         kFormula,        kNone)      \
  X(Divide,                   "stablehlo.divide",                   kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(Dot,                      "stablehlo.dot",                      kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(DotGeneral,               "stablehlo.dot_general",              kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(DynamicBroadcastInDim,    "stablehlo.dynamic_broadcast_in_dim", kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicConv,              "stablehlo.dynamic_conv",             kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(DynamicGather,            "stablehlo.dynamic_gather",           kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicIota,              "stablehlo.dynamic_iota",             kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicPad,               "stablehlo.dynamic_pad",              kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicReshape,           "stablehlo.dynamic_reshape",          kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicSlice,             "stablehlo.dynamic_slice",            kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(DynamicUpdateSlice,       "stablehlo.dynamic_update_slice",     kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Einsum,                   "stablehlo.einsum",                   kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Exponential,              "stablehlo.exponential",              kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(ExponentialMinusOne,      "stablehlo.exponential_minus_one",    kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(Fft,                      "stablehlo.fft",                      kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Floor,                    "stablehlo.floor",                    kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Gather,                   "stablehlo.gather",                   kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(GetDimensionSize,         "stablehlo.get_dimension_size",       kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(GetTupleElement,          "stablehlo.get_tuple_element",        kControl,      kOther,       kNone,       kNone,           kNone)      \
  X(If,                       "stablehlo.if",                       kControl,      kOther,       kNested,     kBranches,       kNone)      \
  X(Imag,                     "stablehlo.imag",                     kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(Infeed,                   "stablehlo.infeed",                   kFeed,         kOther,       kIO,         kBytes,          kNone)      \
  X(Iota,                     "stablehlo.iota",                     kElementwise,  kOther,       kNone,       kBytes,          kNone)      \
  X(IsFinite,                 "stablehlo.is_finite",                kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(Log,                      "stablehlo.log",                      kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(LogPlusOne,               "stablehlo.log_plus_one",             kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(Logistic,                 "stablehlo.logistic",                 kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(Map,                      "stablehlo.map",                      kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Maximum,                  "stablehlo.maximum",                  kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(Minimum,                  "stablehlo.minimum",                  kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(Multiply,                 "stablehlo.multiply",                 kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(Negate,                   "stablehlo.negate",                   kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Not,                      "stablehlo.not",                      kElementwise,  kElementwise, kNone,       kArith,          kLogic)     \
  X(OptimizationBarrier,      "stablehlo.optimization_barrier",     kControl,      kOther,       kState,      kNone,           kNone)      \
  X(Or,                       "stablehlo.or",                       kElementwise,  kElementwise, kNone,       kArith,          kLogic)     \
  X(Outfeed,                  "stablehlo.outfeed",                  kFeed,         kOther,       kIO,         kBytes,          kNone)      \
  X(Pad,                      "stablehlo.pad",                      kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(PartitionId,              "stablehlo.partition_id",             kControl,      kOther,       kState,      kBytes,          kNone)      \
  X(Popcnt,                   "stablehlo.popcnt",                   kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(Power,                    "stablehlo.power",                    kElementwise,  kElementwise, kNone,       kPower,          kBinary)    \
  X(Real,                     "stablehlo.real",                     kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(RealDynamicSlice,         "stablehlo.real_dynamic_slice",       kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Recv,                     "stablehlo.recv",                     kHostTransfer, kOther,       kIO,         kBytes,          kNone)      \
  X(Reduce,                   "stablehlo.reduce",                   kCompute,      kOther,       kNone,       kFormula,        kRowReduce) \
  X(ReducePrecision,          "stablehlo.reduce_precision",         kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(ReduceScatter,            "stablehlo.reduce_scatter",           kCollective,   kOther,       kIO,         kFormula,        kNone)      \
  X(ReduceWindow,             "stablehlo.reduce_window",            kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Remainder,                "stablehlo.remainder",                kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(ReplicaId,                "stablehlo.replica_id",               kControl,      kOther,       kState,      kBytes,          kNone)      \
  X(Reshape,                  "stablehlo.reshape",                  kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Return,                   "stablehlo.return",                   kControl,      kOther,       kTerminator, kNone,           kNone)      \
  X(Reverse,                  "stablehlo.reverse",                  kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Rng,                      "stablehlo.rng",                      kCompute,      kOther,       kState,      kArith,          kNone)      \
  X(RngBitGenerator,          "stablehlo.rng_bit_generator",        kCompute,      kOther,       kState,      kArith,          kNone)      \
  X(RoundNearestAfz,          "stablehlo.round_nearest_afz",        kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(RoundNearestEven,         "stablehlo.round_nearest_even",       kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Rsqrt,                    "stablehlo.rsqrt",                    kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(Scatter,                  "stablehlo.scatter",                  kDataMovement, kOther,       kNone,       kFormula,        kNone)      \
  X(Select,                   "stablehlo.select",                   kElementwise,  kElementwise, kNone,       kArith,          kSelect)    \
  X(SelectAndScatter,         "stablehlo.select_and_scatter",       kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Send,                     "stablehlo.send",                     kHostTransfer, kOther,       kIO,         kBytes,          kNone)      \
  X(SetDimensionSize,         "stablehlo.set_dimension_size",       kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(ShiftLeft,                "stablehlo.shift_left",               kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(ShiftRightArithmetic,     "stablehlo.shift_right_arithmetic",   kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(ShiftRightLogical,        "stablehlo.shift_right_logical",      kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  X(Sign,                     "stablehlo.sign",                     kElementwise,  kElementwise, kNone,       kArith,          kUnary)     \
  X(Sine,                     "stablehlo.sine",                     kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(Slice,                    "stablehlo.slice",                    kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Sort,                     "stablehlo.sort",                     kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Sqrt,                     "stablehlo.sqrt",                     kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(Subtract,                 "stablehlo.subtract",                 kElementwise,  kElementwise, kNone,       kArith,          kBinary)    \
  X(Tan,                      "stablehlo.tan",                      kElementwise,  kElementwise, kNone,       kTranscendental, kNone)      \
  X(Tanh,                     "stablehlo.tanh",                     kElementwise,  kElementwise, kNone,       kTranscendental, kUnary)     \
  X(TorchIndexSelect,         "stablehlo.torch_index_select",       kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(Transpose,                "stablehlo.transpose",                kDataMovement, kOther,       kNone,       kBytes,          kNone)      \
  X(TriangularSolve,          "stablehlo.triangular_solve",         kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(Tuple,                    "stablehlo.tuple",                    kControl,      kOther,       kNone,       kNone,           kNone)      \
  X(UnaryEinsum,              "stablehlo.unary_einsum",             kCompute,      kOther,       kNone,       kFormula,        kNone)      \
  X(UniformDequantize,        "stablehlo.uniform_dequantize",       kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(UniformQuantize,          "stablehlo.uniform_quantize",         kElementwise,  kElementwise, kNone,       kBytes,          kNone)      \
  X(While,                    "stablehlo.while",                    kControl,      kOther,       kNested,     kLoop,           kNone)      \
  X(Xor,                      "stablehlo.xor",                      kElementwise,  kElementwise, kNone,       kArith,          kNone)      \
  /* the conformance harness (registered only when it is enabled) */                                                                       \
  X(CheckExpectEq,            "check.expect_eq",                    kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(CheckExpectEqConst,       "check.expect_eq_const",              kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(CheckExpectAlmostEq,      "check.expect_almost_eq",             kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(CheckExpectAlmostEqConst, "check.expect_almost_eq_const",       kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(CheckExpectClose,         "check.expect_close",                 kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(CheckExpectSerializedEq,  "check.expect_serialized_eq",         kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(InterpreterProbe,         "interpreter.probe",                  kHarness,      kOther,       kIO,         kBytes,          kNone)      \
  X(InterpreterRunParallel,   "interpreter.run_parallel",           kHarness,      kOther,       kNested,     kBytes,          kNone)

enum class OpCode : uint16_t {
  kUnknown = 0,
#define PLUGRT_SHLO_OP_ENUM_(code, name, ...) k##code,
  PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_ENUM_)
#undef PLUGRT_SHLO_OP_ENUM_
};

// One more than the largest code: the size of tables indexed by OpCode.
inline constexpr size_t kNumOpCodes = 1
#define PLUGRT_SHLO_OP_COUNT_(code, name, ...) +1
    PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_COUNT_);
#undef PLUGRT_SHLO_OP_COUNT_

struct OpTraits {
  std::string_view name;  // "" for kUnknown
  OpGroup group;
  OpForm form;
  OpEffect effect;
  OpCost cost;
  OpFusion fusion;
};

namespace internal {
// kUnknown: an op this table does not know (its dialect's own stage, e.g.
// the CHLO lowering, handles it by name): kept, never fused, costed by name.
inline constexpr OpTraits kOpTraits[kNumOpCodes] = {
    {"", OpGroup::kControl, OpForm::kOther, OpEffect::kIO, OpCost::kFormula, OpFusion::kNone},
#define PLUGRT_SHLO_OP_TRAITS_(code, name, group, form, effect, cost, fusion) \
  {name, OpGroup::group, OpForm::form, OpEffect::effect, OpCost::cost, OpFusion::fusion},
    PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_TRAITS_)
#undef PLUGRT_SHLO_OP_TRAITS_
};
}  // namespace internal

// The traits of `code` (compile-time constant for a constant code).
constexpr const OpTraits& TraitsOf(OpCode code) {
  return internal::kOpTraits[static_cast<size_t>(code)];
}
// Dead-code removal may drop the op when nothing reads its results.
constexpr bool MayRemove(OpCode code) { return TraitsOf(code).effect == OpEffect::kNone; }
// The op may be evaluated at compile time when its operands are constants.
constexpr bool MayFold(OpCode code) { return TraitsOf(code).effect == OpEffect::kNone; }
constexpr bool IsElementwise(OpCode code) { return TraitsOf(code).form == OpForm::kElementwise; }
constexpr bool IsTerminator(OpCode code) { return TraitsOf(code).effect == OpEffect::kTerminator; }

// The code of the op called `name` ("return" and "call" without a dialect
// prefix are func's); kUnknown for anything else.
OpCode LookupOpCode(std::string_view name);
// The canonical name of `code` ("" for kUnknown).
std::string_view OpCodeName(OpCode code);
// "elementwise", "data movement", ... for messages and tests.
std::string_view OpGroupName(OpGroup group);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_OP_CODE_H_
