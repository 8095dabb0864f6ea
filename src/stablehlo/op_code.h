// plugrt StableHLO: every op the IR knows by code. The parser resolves an
// op's name to its code once, so later stages switch on codes, never on
// strings. Ops outside this list (e.g. chlo.*, which the CHLO lowering
// rewrites by name at compile time) get OpCode::kUnknown and keep their name.
#ifndef PLUGRT_STABLEHLO_OP_CODE_H_
#define PLUGRT_STABLEHLO_OP_CODE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace plugrt::shlo {

// X(Code, "dialect.name")
#define PLUGRT_SHLO_OPS(X)                                          \
  X(FuncReturn, "func.return")                                      \
  X(FuncCall, "func.call")                                          \
  X(Abs, "stablehlo.abs")                                           \
  X(Add, "stablehlo.add")                                           \
  X(AfterAll, "stablehlo.after_all")                                \
  X(AllGather, "stablehlo.all_gather")                              \
  X(AllReduce, "stablehlo.all_reduce")                              \
  X(AllToAll, "stablehlo.all_to_all")                               \
  X(And, "stablehlo.and")                                           \
  X(Atan2, "stablehlo.atan2")                                       \
  X(BatchNormGrad, "stablehlo.batch_norm_grad")                     \
  X(BatchNormInference, "stablehlo.batch_norm_inference")           \
  X(BatchNormTraining, "stablehlo.batch_norm_training")             \
  X(BitcastConvert, "stablehlo.bitcast_convert")                    \
  X(Broadcast, "stablehlo.broadcast")                               \
  X(BroadcastInDim, "stablehlo.broadcast_in_dim")                   \
  X(Case, "stablehlo.case")                                         \
  X(Cbrt, "stablehlo.cbrt")                                         \
  X(Ceil, "stablehlo.ceil")                                         \
  X(Cholesky, "stablehlo.cholesky")                                 \
  X(Clamp, "stablehlo.clamp")                                       \
  X(CollectiveBroadcast, "stablehlo.collective_broadcast")          \
  X(CollectivePermute, "stablehlo.collective_permute")              \
  X(Compare, "stablehlo.compare")                                   \
  X(Complex, "stablehlo.complex")                                   \
  X(Composite, "stablehlo.composite")                               \
  X(Concatenate, "stablehlo.concatenate")                           \
  X(Constant, "stablehlo.constant")                                 \
  X(Convert, "stablehlo.convert")                                   \
  X(Convolution, "stablehlo.convolution")                           \
  X(Cosine, "stablehlo.cosine")                                     \
  X(CountLeadingZeros, "stablehlo.count_leading_zeros")             \
  X(CreateToken, "stablehlo.create_token")                          \
  X(CrossReplicaSum, "stablehlo.cross-replica-sum")                 \
  X(CustomCall, "stablehlo.custom_call")                            \
  X(Divide, "stablehlo.divide")                                     \
  X(Dot, "stablehlo.dot")                                           \
  X(DotGeneral, "stablehlo.dot_general")                            \
  X(DynamicBroadcastInDim, "stablehlo.dynamic_broadcast_in_dim")    \
  X(DynamicConv, "stablehlo.dynamic_conv")                          \
  X(DynamicGather, "stablehlo.dynamic_gather")                      \
  X(DynamicIota, "stablehlo.dynamic_iota")                          \
  X(DynamicPad, "stablehlo.dynamic_pad")                            \
  X(DynamicReshape, "stablehlo.dynamic_reshape")                    \
  X(DynamicSlice, "stablehlo.dynamic_slice")                        \
  X(DynamicUpdateSlice, "stablehlo.dynamic_update_slice")           \
  X(Einsum, "stablehlo.einsum")                                     \
  X(Exponential, "stablehlo.exponential")                           \
  X(ExponentialMinusOne, "stablehlo.exponential_minus_one")         \
  X(Fft, "stablehlo.fft")                                           \
  X(Floor, "stablehlo.floor")                                       \
  X(Gather, "stablehlo.gather")                                     \
  X(GetDimensionSize, "stablehlo.get_dimension_size")               \
  X(GetTupleElement, "stablehlo.get_tuple_element")                 \
  X(If, "stablehlo.if")                                             \
  X(Imag, "stablehlo.imag")                                         \
  X(Infeed, "stablehlo.infeed")                                     \
  X(Iota, "stablehlo.iota")                                         \
  X(IsFinite, "stablehlo.is_finite")                                \
  X(Log, "stablehlo.log")                                           \
  X(LogPlusOne, "stablehlo.log_plus_one")                           \
  X(Logistic, "stablehlo.logistic")                                 \
  X(Map, "stablehlo.map")                                           \
  X(Maximum, "stablehlo.maximum")                                   \
  X(Minimum, "stablehlo.minimum")                                   \
  X(Multiply, "stablehlo.multiply")                                 \
  X(Negate, "stablehlo.negate")                                     \
  X(Not, "stablehlo.not")                                           \
  X(OptimizationBarrier, "stablehlo.optimization_barrier")          \
  X(Or, "stablehlo.or")                                             \
  X(Outfeed, "stablehlo.outfeed")                                   \
  X(Pad, "stablehlo.pad")                                           \
  X(PartitionId, "stablehlo.partition_id")                          \
  X(Popcnt, "stablehlo.popcnt")                                     \
  X(Power, "stablehlo.power")                                       \
  X(Real, "stablehlo.real")                                         \
  X(RealDynamicSlice, "stablehlo.real_dynamic_slice")               \
  X(Recv, "stablehlo.recv")                                         \
  X(Reduce, "stablehlo.reduce")                                     \
  X(ReducePrecision, "stablehlo.reduce_precision")                  \
  X(ReduceScatter, "stablehlo.reduce_scatter")                      \
  X(ReduceWindow, "stablehlo.reduce_window")                        \
  X(Remainder, "stablehlo.remainder")                               \
  X(ReplicaId, "stablehlo.replica_id")                              \
  X(Reshape, "stablehlo.reshape")                                   \
  X(Return, "stablehlo.return")                                     \
  X(Reverse, "stablehlo.reverse")                                   \
  X(Rng, "stablehlo.rng")                                           \
  X(RngBitGenerator, "stablehlo.rng_bit_generator")                 \
  X(RoundNearestAfz, "stablehlo.round_nearest_afz")                 \
  X(RoundNearestEven, "stablehlo.round_nearest_even")               \
  X(Rsqrt, "stablehlo.rsqrt")                                       \
  X(Scatter, "stablehlo.scatter")                                   \
  X(Select, "stablehlo.select")                                     \
  X(SelectAndScatter, "stablehlo.select_and_scatter")               \
  X(Send, "stablehlo.send")                                         \
  X(SetDimensionSize, "stablehlo.set_dimension_size")               \
  X(ShiftLeft, "stablehlo.shift_left")                              \
  X(ShiftRightArithmetic, "stablehlo.shift_right_arithmetic")       \
  X(ShiftRightLogical, "stablehlo.shift_right_logical")             \
  X(Sign, "stablehlo.sign")                                         \
  X(Sine, "stablehlo.sine")                                         \
  X(Slice, "stablehlo.slice")                                       \
  X(Sort, "stablehlo.sort")                                         \
  X(Sqrt, "stablehlo.sqrt")                                         \
  X(Subtract, "stablehlo.subtract")                                 \
  X(Tan, "stablehlo.tan")                                           \
  X(Tanh, "stablehlo.tanh")                                         \
  X(TorchIndexSelect, "stablehlo.torch_index_select")               \
  X(Transpose, "stablehlo.transpose")                               \
  X(TriangularSolve, "stablehlo.triangular_solve")                  \
  X(Tuple, "stablehlo.tuple")                                       \
  X(UnaryEinsum, "stablehlo.unary_einsum")                          \
  X(UniformDequantize, "stablehlo.uniform_dequantize")              \
  X(UniformQuantize, "stablehlo.uniform_quantize")                  \
  X(While, "stablehlo.while")                                       \
  X(Xor, "stablehlo.xor")                                           \
  /* checks of the conformance corpus (the check dialect) */        \
  X(CheckExpectEq, "check.expect_eq")                               \
  X(CheckExpectEqConst, "check.expect_eq_const")                    \
  X(CheckExpectAlmostEq, "check.expect_almost_eq")                  \
  X(CheckExpectAlmostEqConst, "check.expect_almost_eq_const")       \
  X(CheckExpectClose, "check.expect_close")                         \
  X(CheckExpectSerializedEq, "check.expect_serialized_eq")

enum class OpCode : uint16_t {
  kUnknown = 0,
#define PLUGRT_SHLO_OP_ENUM_(code, name) k##code,
  PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_ENUM_)
#undef PLUGRT_SHLO_OP_ENUM_
};

// One more than the largest code: the size of tables indexed by OpCode.
inline constexpr size_t kNumOpCodes = 1
#define PLUGRT_SHLO_OP_COUNT_(code, name) +1
    PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_COUNT_);
#undef PLUGRT_SHLO_OP_COUNT_

// The code of the op called `name` ("return" and "call" without a dialect
// prefix are func's); kUnknown for anything else.
OpCode LookupOpCode(std::string_view name);
// The canonical name of `code` ("" for kUnknown).
std::string_view OpCodeName(OpCode code);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_OP_CODE_H_
