// plugrt CPU kernels: a fused f32 loop, the kernel behind elementwise fusion.
//
// A fused kernel is a short program of f32 operations over "registers". It
// runs tile by tile: a tile is a slice of one row of the group's iteration
// space [rows, cols] (cols = the last dim); every instruction runs over the
// whole tile before the next one starts, so intermediate values stay in the
// L1/L2 cache and never reach memory. Inputs are read in place (no copy);
// only the group's outputs are written. Row reductions (reduce over the last
// dim) make a tile one whole row: their results are per-row scalars that
// later instructions can use, which is how softmax and layer norm run in one
// pass over memory.
//
// Runs of vector instructions are compiled to machine code where the CPU
// has AVX-512 (fused_jit.h): one loop over the tile with every value in a
// register. The interpreted loop stays for the rest and for other CPUs.
//
// Register kinds: a "vector" register holds one value per tile element; a
// "uniform" register one value for the whole tile (constants, per-row
// scalars, reduction results). Predicates (compare results) are f32 0/1.
#ifndef PLUGRT_CPU_KERNELS_FUSED_LOOP_H_
#define PLUGRT_CPU_KERNELS_FUSED_LOOP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu::fused {

enum class Op : uint8_t {
  // Loads and constants.
  kLoad,   // a = input index
  kConst,  // imm
  // Unary.
  kNeg, kAbs, kExp, kLog, kTanh, kLogistic, kSqrt, kRsqrt, kFloor, kCeil, kSign, kRoundEven,
  kSin, kCos,
  kCopy,
  kNot,  // predicate negation
  // Binary.
  kAdd, kSub, kMul, kDiv, kMax, kMin, kPow,
  kCmpEq, kCmpNe, kCmpLt, kCmpLe, kCmpGt, kCmpGe,
  kAnd, kOr,  // predicates
  // Ternary.
  kSelect,  // a ? b : c
  // Row reductions over the whole tile (a row): imm is the init value.
  kRowSum, kRowMax, kRowMin,
};

// Where an input's value for tile element (row r, col c) comes from.
enum class Source : uint8_t {
  kFull,       // input[r * cols + c]: same shape as the iteration space
  kColumn,     // input[c]: a vector along the last dim, the same for every row
  kRowScalar,  // input[r]: one value per row
  kScalar,     // input[0]
};

struct Input {
  Source source = Source::kFull;
  ElementType type = ElementType::kF32;  // f32, bf16, i1 or s32 (converted to f32 on load)
  // kRowScalar: row r reads input[(r / row_divisor) % row_period], a vector
  // along some of the dims the rows flatten (a per-channel vector of NCHW
  // data over rows of [N, C]: divisor 1, period C); period 0: input[r].
  int64_t row_divisor = 1;
  int64_t row_period = 0;
};

struct Instr {
  Op op = Op::kCopy;
  int out = -1;
  int a = -1, b = -1, c = -1;
  float imm = 0;
};

struct Output {
  int reg = -1;
  // f32, bf16, i1, or s8/u8 (stored as stablehlo.convert does: toward zero,
  // NaN as 0, saturating).
  ElementType type = ElementType::kF32;
  std::vector<int64_t> dims;             // rows*cols elements, or rows for a row scalar
};

struct Kernel {
  std::vector<Input> inputs;
  std::vector<Instr> code;
  std::vector<Output> outputs;
  int num_registers = 0;

  // Which ops the kernel runs (for errors and tests).
  std::string ToString() const;
};

// True when `op` is a row reduction.
inline bool IsRowReduction(Op op) { return op == Op::kRowSum || op == Op::kRowMax || op == Op::kRowMin; }

// What a kernel is turned into once, before it runs: the order of its
// instructions, which runs of them are generated code (fused_jit.h), where
// each value lives. Immutable; shared by the threads that run the kernel.
struct Plan;
// `generate_code`: runs of vector instructions become machine code where
// JitAvailable(); false keeps every instruction interpreted.
std::shared_ptr<const Plan> Prepare(const Kernel& kernel, bool generate_code = true);
// How many generated segments `plan` has (0 where the JIT is unavailable).
int GeneratedSegments(const Plan& plan);

// Runs `kernel` (prepared as `plan`) over [rows, cols] with one tensor per
// kernel input (sizes checked against the sources), using up to `threads`
// threads. Returns the outputs in kernel order.
//
// `overwritable` (empty, or one per input): inputs whose memory the caller
// gives up (their values die here). An f32 output may then be computed
// straight into such an f32 full-size input where the plan reads every
// element of that input before writing the output's element (Prepare
// works out which pairs qualify). `in_place` (may be null) counts them.
StatusOr<std::vector<Tensor>> Run(const Kernel& kernel, const Plan& plan, int64_t rows,
                                  int64_t cols, const std::vector<Tensor>& inputs, int threads,
                                  const std::vector<bool>& overwritable = {},
                                  int* in_place = nullptr);

}  // namespace plugrt::cpu::fused

#endif  // PLUGRT_CPU_KERNELS_FUSED_LOOP_H_
