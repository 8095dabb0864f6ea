// plugrt StableHLO: every op the IR knows, by code, with its traits. This
// table is the one place that says what an op is: the parser resolves names
// to codes, and dead-code removal, folding, fusion, cost analysis and the
// executor's compile table read the traits below instead of keeping their
// own lists. Ops outside it (e.g. chlo.*, which the CHLO lowering rewrites by
// name at compile time) get OpCode::kUnknown and keep their name.
//
// Adding an op: one row here (its traits, operand and result counts, shape
// rule and required attributes), then its functions in each stage (a
// verifier check, an executor compile function, a cost formula where the
// cost class is kFormula); tests/cpu/op_registry_test.cc fails until every
// stage has one.
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
// same index (the op maps elementwise), and whether its two operands may be
// swapped (kCommutative ops are elementwise too).
enum class OpForm : uint8_t { kElementwise, kCommutative, kOther };

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

// Which rule gives the op's result shapes from its operands and attributes
// (stablehlo/type_inference.cc applies it, with the shape functions of
// stablehlo/shape_rules.h; the verifier, shape refinement, the eager ops and
// the kernels use the same functions).
enum class OpShape : uint8_t {
  kLikeOperands,    // elementwise: the operands' type (shape and element type)
  kSameShape,       // elementwise: the operands' shape, an element type of its own
  kLikeOperand0,    // the first operand's shape
  kLikeOperand1,    // the second operand's shape
  kLikeInput,       // result i has input i's shape (sort, scatter, optimization_barrier)
  kBroadcastInDim,  // the declared shape, '?' dims from operand dims that are not 1
  kBroadcast,       // broadcast_sizes + shape(operand)
  kReshape,         // the declared shape, one '?' from the element count
  kTranspose,       // dim(operand, permutation...)
  kSlice,           // ceil((limit - start) / strides)
  kSliceSizes,      // slice_sizes (dynamic_slice)
  kConcatenate,     // the inputs' shape, summed along dimension
  kPad,             // low + size + interior gaps + high
  kReduce,          // result i: input i without dimensions
  kReduceWindow,    // the windows per dimension
  kDotGeneral,      // batch, lhs free, rhs free dims
  kDot,             // matrix/vector products
  kConvolution,     // batch / groups, output features, windows per spatial dim
  kGather,          // index batch dims and slice dims at offset_dims
  kBatchNorm,       // result 0: the operand's shape; others: [feature]
  kFft,             // the operand's shape, last dim by fft_type and fft_length
  kBitcastConvert,  // the operand's shape, a last dim added or dropped by bit widths
  kTuple,           // tuple of the operands' types
  kTupleElement,    // the element of the operand's tuple type at index
  kRegions,         // follows regions or callees (while, if, case, calls)
  kDeclared,        // as declared (iota, rng, custom calls, collectives, ...)
};

// The operand or result count of an op that takes any number (variadic).
inline constexpr int8_t kN = -1;

// X(Code, "dialect.name", OpGroup, OpForm, OpEffect, OpCost, OpFusion, operands, results,
//   OpShape, "required attributes"): one row per op, wider than the rest of the code so
// that each op's facts read as one line. operands/results: a count, or kN for any
// number. The required attributes are named once here, separated by spaces; the
// verifier refuses an op without one of them (optional attributes are not listed).
#define PLUGRT_SHLO_OPS(X) \
  X(FuncReturn,               "func.return",                        kControl,      kOther,       kTerminator, kNone,           kNone,      kN, 0,  kDeclared,        "")                                             \
  X(FuncCall,                 "func.call",                          kControl,      kOther,       kNested,     kCall,           kNone,      kN, kN, kRegions,         "callee")                                       \
  X(Abs,                      "stablehlo.abs",                      kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Add,                      "stablehlo.add",                      kElementwise,  kCommutative, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(AfterAll,                 "stablehlo.after_all",                kControl,      kOther,       kState,      kBytes,          kNone,      kN, 1,  kDeclared,        "")                                             \
  X(AllGather,                "stablehlo.all_gather",               kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "all_gather_dim")                               \
  X(AllReduce,                "stablehlo.all_reduce",               kCollective,   kOther,       kIO,         kFormula,        kNone,      kN, kN, kDeclared,        "")                                             \
  X(AllToAll,                 "stablehlo.all_to_all",               kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "split_dimension concat_dimension split_count") \
  X(And,                      "stablehlo.and",                      kElementwise,  kCommutative, kNone,       kArith,          kLogic,     2,  1,  kLikeOperands,    "")                                             \
  X(Atan2,                    "stablehlo.atan2",                    kElementwise,  kElementwise, kNone,       kTranscendental, kNone,      2,  1,  kLikeOperands,    "")                                             \
  X(BatchNormGrad,            "stablehlo.batch_norm_grad",          kCompute,      kOther,       kNone,       kFormula,        kNone,      5,  3,  kBatchNorm,       "epsilon feature_index")                        \
  X(BatchNormInference,       "stablehlo.batch_norm_inference",     kCompute,      kOther,       kNone,       kFormula,        kNone,      5,  1,  kBatchNorm,       "epsilon feature_index")                        \
  X(BatchNormTraining,        "stablehlo.batch_norm_training",      kCompute,      kOther,       kNone,       kFormula,        kNone,      3,  3,  kBatchNorm,       "epsilon feature_index")                        \
  X(BitcastConvert,           "stablehlo.bitcast_convert",          kElementwise,  kElementwise, kNone,       kBytes,          kNone,      1,  1,  kBitcastConvert,  "")                                             \
  X(Broadcast,                "stablehlo.broadcast",                kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kBroadcast,       "broadcast_sizes")                              \
  X(BroadcastInDim,           "stablehlo.broadcast_in_dim",         kDataMovement, kOther,       kNone,       kBytes,          kBroadcast, 1,  1,  kBroadcastInDim,  "broadcast_dimensions")                         \
  X(Case,                     "stablehlo.case",                     kControl,      kOther,       kNested,     kBranches,       kNone,      1,  kN, kRegions,         "")                                             \
  X(Cbrt,                     "stablehlo.cbrt",                     kElementwise,  kElementwise, kNone,       kTranscendental, kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(Ceil,                     "stablehlo.ceil",                     kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Cholesky,                 "stablehlo.cholesky",                 kCompute,      kOther,       kNone,       kFormula,        kNone,      1,  1,  kLikeOperand0,    "")                                             \
  X(Clamp,                    "stablehlo.clamp",                    kElementwise,  kElementwise, kNone,       kArith,          kClamp,     3,  1,  kLikeOperands,    "")                                             \
  X(CollectiveBroadcast,      "stablehlo.collective_broadcast",     kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CollectivePermute,        "stablehlo.collective_permute",       kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "source_target_pairs")                          \
  X(CollectiveReduce,         "stablehlo.collective_reduce",        kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(Compare,                  "stablehlo.compare",                  kElementwise,  kElementwise, kNone,       kArith,          kCompare,   2,  1,  kSameShape,       "comparison_direction")                         \
  X(Complex,                  "stablehlo.complex",                  kElementwise,  kElementwise, kNone,       kBytes,          kNone,      2,  1,  kSameShape,       "")                                             \
  X(Composite,                "stablehlo.composite",                kControl,      kOther,       kNested,     kCall,           kNone,      kN, kN, kRegions,         "name decomposition")                           \
  X(Concatenate,              "stablehlo.concatenate",              kDataMovement, kOther,       kNone,       kBytes,          kNone,      kN, 1,  kConcatenate,     "dimension")                                    \
  X(Constant,                 "stablehlo.constant",                 kControl,      kOther,       kNone,       kNone,           kNone,      0,  1,  kDeclared,        "value")                                        \
  X(Convert,                  "stablehlo.convert",                  kElementwise,  kElementwise, kNone,       kBytes,          kConvert,   1,  1,  kSameShape,       "")                                             \
  X(Convolution,              "stablehlo.convolution",              kCompute,      kOther,       kNone,       kFormula,        kNone,      2,  1,  kConvolution,     "dimension_numbers")                            \
  X(Cosine,                   "stablehlo.cosine",                   kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(CountLeadingZeros,        "stablehlo.count_leading_zeros",      kElementwise,  kElementwise, kNone,       kArith,          kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(CreateToken,              "stablehlo.create_token",             kControl,      kOther,       kState,      kBytes,          kNone,      0,  1,  kDeclared,        "")                                             \
  X(CrossReplicaSum,          "stablehlo.cross-replica-sum",        kCollective,   kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CustomCall,               "stablehlo.custom_call",              kCustomCall,   kOther,       kIO,         kFormula,        kNone,      kN, kN, kDeclared,        "call_target_name")                             \
  X(Divide,                   "stablehlo.divide",                   kElementwise,  kElementwise, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Dot,                      "stablehlo.dot",                      kCompute,      kOther,       kNone,       kFormula,        kNone,      2,  1,  kDot,             "")                                             \
  X(DotGeneral,               "stablehlo.dot_general",              kCompute,      kOther,       kNone,       kFormula,        kNone,      2,  1,  kDotGeneral,      "dot_dimension_numbers")                        \
  X(DynamicBroadcastInDim,    "stablehlo.dynamic_broadcast_in_dim", kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kDeclared,        "broadcast_dimensions")                         \
  X(DynamicConv,              "stablehlo.dynamic_conv",             kCompute,      kOther,       kNone,       kFormula,        kNone,      3,  1,  kConvolution,     "dimension_numbers")                            \
  X(DynamicGather,            "stablehlo.dynamic_gather",           kDataMovement, kOther,       kNone,       kBytes,          kNone,      3,  1,  kDeclared,        "dimension_numbers")                            \
  X(DynamicIota,              "stablehlo.dynamic_iota",             kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kDeclared,        "iota_dimension")                               \
  X(DynamicPad,               "stablehlo.dynamic_pad",              kDataMovement, kOther,       kNone,       kBytes,          kNone,      5,  1,  kDeclared,        "")                                             \
  X(DynamicReshape,           "stablehlo.dynamic_reshape",          kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kDeclared,        "")                                             \
  X(DynamicSlice,             "stablehlo.dynamic_slice",            kDataMovement, kOther,       kNone,       kBytes,          kNone,      kN, 1,  kSliceSizes,      "slice_sizes")                                  \
  X(DynamicUpdateSlice,       "stablehlo.dynamic_update_slice",     kDataMovement, kOther,       kNone,       kBytes,          kNone,      kN, 1,  kLikeOperand0,    "")                                             \
  X(Einsum,                   "stablehlo.einsum",                   kCompute,      kOther,       kNone,       kFormula,        kNone,      2,  1,  kDeclared,        "einsum_config")                                \
  X(Exponential,              "stablehlo.exponential",              kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(ExponentialMinusOne,      "stablehlo.exponential_minus_one",    kElementwise,  kElementwise, kNone,       kTranscendental, kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(Fft,                      "stablehlo.fft",                      kCompute,      kOther,       kNone,       kFormula,        kNone,      1,  1,  kFft,             "fft_type fft_length")                          \
  X(Floor,                    "stablehlo.floor",                    kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Gather,                   "stablehlo.gather",                   kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kGather,          "dimension_numbers slice_sizes")                \
  X(GetDimensionSize,         "stablehlo.get_dimension_size",       kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kDeclared,        "dimension")                                    \
  X(GetTupleElement,          "stablehlo.get_tuple_element",        kControl,      kOther,       kNone,       kNone,           kNone,      1,  1,  kTupleElement,    "index")                                        \
  X(If,                       "stablehlo.if",                       kControl,      kOther,       kNested,     kBranches,       kNone,      1,  kN, kRegions,         "")                                             \
  X(Imag,                     "stablehlo.imag",                     kElementwise,  kElementwise, kNone,       kBytes,          kNone,      1,  1,  kSameShape,       "")                                             \
  X(Infeed,                   "stablehlo.infeed",                   kFeed,         kOther,       kIO,         kBytes,          kNone,      1,  kN, kDeclared,        "")                                             \
  X(Iota,                     "stablehlo.iota",                     kElementwise,  kOther,       kNone,       kBytes,          kNone,      0,  1,  kDeclared,        "iota_dimension")                               \
  X(IsFinite,                 "stablehlo.is_finite",                kElementwise,  kElementwise, kNone,       kArith,          kNone,      1,  1,  kSameShape,       "")                                             \
  X(Log,                      "stablehlo.log",                      kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(LogPlusOne,               "stablehlo.log_plus_one",             kElementwise,  kElementwise, kNone,       kTranscendental, kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(Logistic,                 "stablehlo.logistic",                 kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Map,                      "stablehlo.map",                      kCompute,      kOther,       kNone,       kFormula,        kNone,      kN, 1,  kLikeOperand0,    "dimensions")                                   \
  X(Maximum,                  "stablehlo.maximum",                  kElementwise,  kCommutative, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Minimum,                  "stablehlo.minimum",                  kElementwise,  kCommutative, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Multiply,                 "stablehlo.multiply",                 kElementwise,  kCommutative, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Negate,                   "stablehlo.negate",                   kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Not,                      "stablehlo.not",                      kElementwise,  kElementwise, kNone,       kArith,          kLogic,     1,  1,  kLikeOperands,    "")                                             \
  X(OptimizationBarrier,      "stablehlo.optimization_barrier",     kControl,      kOther,       kState,      kNone,           kNone,      kN, kN, kLikeInput,       "")                                             \
  X(Or,                       "stablehlo.or",                       kElementwise,  kCommutative, kNone,       kArith,          kLogic,     2,  1,  kLikeOperands,    "")                                             \
  X(Outfeed,                  "stablehlo.outfeed",                  kFeed,         kOther,       kIO,         kBytes,          kNone,      kN, 1,  kDeclared,        "")                                             \
  X(Pad,                      "stablehlo.pad",                      kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kPad,             "edge_padding_low edge_padding_high")           \
  X(PartitionId,              "stablehlo.partition_id",             kControl,      kOther,       kState,      kBytes,          kNone,      0,  1,  kDeclared,        "")                                             \
  X(Popcnt,                   "stablehlo.popcnt",                   kElementwise,  kElementwise, kNone,       kArith,          kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(Power,                    "stablehlo.power",                    kElementwise,  kElementwise, kNone,       kPower,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Real,                     "stablehlo.real",                     kElementwise,  kElementwise, kNone,       kBytes,          kNone,      1,  1,  kSameShape,       "")                                             \
  X(RealDynamicSlice,         "stablehlo.real_dynamic_slice",       kDataMovement, kOther,       kNone,       kBytes,          kNone,      4,  1,  kDeclared,        "")                                             \
  X(Recv,                     "stablehlo.recv",                     kHostTransfer, kOther,       kIO,         kBytes,          kNone,      1,  kN, kDeclared,        "")                                             \
  X(Reduce,                   "stablehlo.reduce",                   kCompute,      kOther,       kNone,       kFormula,        kRowReduce, kN, kN, kReduce,          "dimensions")                                   \
  X(ReducePrecision,          "stablehlo.reduce_precision",         kElementwise,  kElementwise, kNone,       kArith,          kNone,      1,  1,  kLikeOperands,    "exponent_bits mantissa_bits")                  \
  X(ReduceScatter,            "stablehlo.reduce_scatter",           kCollective,   kOther,       kIO,         kFormula,        kNone,      kN, kN, kDeclared,        "scatter_dimension")                            \
  X(ReduceWindow,             "stablehlo.reduce_window",            kCompute,      kOther,       kNone,       kFormula,        kNone,      kN, kN, kReduceWindow,    "window_dimensions")                            \
  X(Remainder,                "stablehlo.remainder",                kElementwise,  kElementwise, kNone,       kArith,          kNone,      2,  1,  kLikeOperands,    "")                                             \
  X(ReplicaId,                "stablehlo.replica_id",               kControl,      kOther,       kState,      kBytes,          kNone,      0,  1,  kDeclared,        "")                                             \
  X(Reshape,                  "stablehlo.reshape",                  kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kReshape,         "")                                             \
  X(Return,                   "stablehlo.return",                   kControl,      kOther,       kTerminator, kNone,           kNone,      kN, 0,  kDeclared,        "")                                             \
  X(Reverse,                  "stablehlo.reverse",                  kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kLikeOperand0,    "dimensions")                                   \
  X(Rng,                      "stablehlo.rng",                      kCompute,      kOther,       kState,      kArith,          kNone,      3,  1,  kDeclared,        "rng_distribution")                             \
  X(RngBitGenerator,          "stablehlo.rng_bit_generator",        kCompute,      kOther,       kState,      kArith,          kNone,      1,  2,  kDeclared,        "rng_algorithm")                                \
  X(RoundNearestAfz,          "stablehlo.round_nearest_afz",        kElementwise,  kElementwise, kNone,       kArith,          kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(RoundNearestEven,         "stablehlo.round_nearest_even",       kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Rsqrt,                    "stablehlo.rsqrt",                    kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Scatter,                  "stablehlo.scatter",                  kDataMovement, kOther,       kNone,       kFormula,        kNone,      kN, kN, kLikeInput,       "scatter_dimension_numbers")                    \
  X(Select,                   "stablehlo.select",                   kElementwise,  kElementwise, kNone,       kArith,          kSelect,    3,  1,  kLikeOperands,    "")                                             \
  X(SelectAndScatter,         "stablehlo.select_and_scatter",       kCompute,      kOther,       kNone,       kFormula,        kNone,      3,  1,  kLikeOperand0,    "")                                             \
  X(Send,                     "stablehlo.send",                     kHostTransfer, kOther,       kIO,         kBytes,          kNone,      kN, 1,  kDeclared,        "")                                             \
  X(SetDimensionSize,         "stablehlo.set_dimension_size",       kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kDeclared,        "dimension")                                    \
  X(ShiftLeft,                "stablehlo.shift_left",               kElementwise,  kElementwise, kNone,       kArith,          kNone,      2,  1,  kLikeOperands,    "")                                             \
  X(ShiftRightArithmetic,     "stablehlo.shift_right_arithmetic",   kElementwise,  kElementwise, kNone,       kArith,          kNone,      2,  1,  kLikeOperands,    "")                                             \
  X(ShiftRightLogical,        "stablehlo.shift_right_logical",      kElementwise,  kElementwise, kNone,       kArith,          kNone,      2,  1,  kLikeOperands,    "")                                             \
  X(Sign,                     "stablehlo.sign",                     kElementwise,  kElementwise, kNone,       kArith,          kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Sine,                     "stablehlo.sine",                     kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Slice,                    "stablehlo.slice",                    kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kSlice,           "start_indices limit_indices")                  \
  X(Sort,                     "stablehlo.sort",                     kCompute,      kOther,       kNone,       kFormula,        kNone,      kN, kN, kLikeInput,       "")                                             \
  X(Sqrt,                     "stablehlo.sqrt",                     kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(Subtract,                 "stablehlo.subtract",                 kElementwise,  kElementwise, kNone,       kArith,          kBinary,    2,  1,  kLikeOperands,    "")                                             \
  X(Tan,                      "stablehlo.tan",                      kElementwise,  kElementwise, kNone,       kTranscendental, kNone,      1,  1,  kLikeOperands,    "")                                             \
  X(Tanh,                     "stablehlo.tanh",                     kElementwise,  kElementwise, kNone,       kTranscendental, kUnary,     1,  1,  kLikeOperands,    "")                                             \
  X(TorchIndexSelect,         "stablehlo.torch_index_select",       kDataMovement, kOther,       kNone,       kBytes,          kNone,      2,  1,  kDeclared,        "dim")                                          \
  X(Transpose,                "stablehlo.transpose",                kDataMovement, kOther,       kNone,       kBytes,          kNone,      1,  1,  kTranspose,       "permutation")                                  \
  X(TriangularSolve,          "stablehlo.triangular_solve",         kCompute,      kOther,       kNone,       kFormula,        kNone,      2,  1,  kLikeOperand1,    "left_side lower unit_diagonal transpose_a")    \
  X(Tuple,                    "stablehlo.tuple",                    kControl,      kOther,       kNone,       kNone,           kNone,      kN, 1,  kTuple,           "")                                             \
  X(UnaryEinsum,              "stablehlo.unary_einsum",             kCompute,      kOther,       kNone,       kFormula,        kNone,      1,  1,  kDeclared,        "einsum_config")                                \
  X(UniformDequantize,        "stablehlo.uniform_dequantize",       kElementwise,  kElementwise, kNone,       kBytes,          kNone,      1,  1,  kSameShape,       "")                                             \
  X(UniformQuantize,          "stablehlo.uniform_quantize",         kElementwise,  kElementwise, kNone,       kBytes,          kNone,      1,  1,  kSameShape,       "")                                             \
  X(While,                    "stablehlo.while",                    kControl,      kOther,       kNested,     kLoop,           kNone,      kN, kN, kRegions,         "")                                             \
  X(Xor,                      "stablehlo.xor",                      kElementwise,  kCommutative, kNone,       kArith,          kNone,      2,  1,  kLikeOperands,    "")                                             \
  /* the conformance harness (registered only when it is enabled) */                                                                                                                                                 \
  X(CheckExpectEq,            "check.expect_eq",                    kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CheckExpectEqConst,       "check.expect_eq_const",              kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CheckExpectAlmostEq,      "check.expect_almost_eq",             kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CheckExpectAlmostEqConst, "check.expect_almost_eq_const",       kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CheckExpectClose,         "check.expect_close",                 kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(CheckExpectSerializedEq,  "check.expect_serialized_eq",         kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(InterpreterProbe,         "interpreter.probe",                  kHarness,      kOther,       kIO,         kBytes,          kNone,      kN, kN, kDeclared,        "")                                             \
  X(InterpreterRunParallel,   "interpreter.run_parallel",           kHarness,      kOther,       kNested,     kBytes,          kNone,      kN, kN, kDeclared,        "")

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
  int8_t operands;  // kN: any number
  int8_t results;   // kN: any number
  OpShape shape;
  std::string_view attributes;  // required attribute names, space-separated
};

namespace internal {
// kUnknown: an op this table does not know (its dialect's own stage, e.g.
// the CHLO lowering, handles it by name): kept, never fused, costed by name.
inline constexpr OpTraits kOpTraits[kNumOpCodes] = {
    {"", OpGroup::kControl, OpForm::kOther, OpEffect::kIO, OpCost::kFormula, OpFusion::kNone, kN, kN,
     OpShape::kDeclared, ""},
#define PLUGRT_SHLO_OP_TRAITS_(code, name, group, form, effect, cost, fusion, operands, results, \
                               shape, attributes)                                              \
  {name,     OpGroup::group, OpForm::form, OpEffect::effect, OpCost::cost, OpFusion::fusion,   \
   operands, results,        OpShape::shape, attributes},
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
constexpr bool IsElementwise(OpCode code) { return TraitsOf(code).form != OpForm::kOther; }
constexpr bool IsCommutative(OpCode code) { return TraitsOf(code).form == OpForm::kCommutative; }
// The op has no required attributes: its operands alone define it.
constexpr bool TakesNoAttributes(OpCode code) { return TraitsOf(code).attributes.empty(); }
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
