// plugrt CPU kernels: machine code for runs of a fused kernel's vector
// instructions (x86-64 AVX-512, generated with Xbyak).
//
// The fused loop (fused_loop.h) runs a kernel tile by tile. Interpreted, each
// instruction is its own pass over the tile, which stores every intermediate
// value to L1 and loads it back: for long chains of cheap ops the stores, not
// the arithmetic, set the speed. A JIT segment is one loop over the tile for a
// run of consecutive vector instructions: 16 elements at a time, every value
// in a vector register, only the values needed after the segment stored.
//
// Semantics match the interpreted loop (vector_math.h): NaN propagates
// through max/min (+0 above -0), compares are ordered except !=, predicates
// are f32 0/1; exp, tanh and logistic are within a few ulp of the correctly
// rounded result over the whole float range.
#ifndef PLUGRT_CPU_KERNELS_FUSED_JIT_H_
#define PLUGRT_CPU_KERNELS_FUSED_JIT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/kernels/fused_loop.h"

namespace plugrt::cpu::fused {

// A generated segment: ptr[reg] is the tile's data of vector register reg
// (read for values from before the segment, written for the values it
// stores), val[reg] the value of uniform register reg, n the tile length,
// ahead the distance in bytes from a prefetched input's tile to the data to
// prefetch (the next row's).
using SegmentFn = void (*)(const float* const* ptr, const float* val, int64_t n, int64_t ahead);

class JitSegment {
 public:
  virtual ~JitSegment() = default;
  virtual SegmentFn fn() const = 0;
};

// True when this CPU runs the generated code (AVX-512F and DQ). Whether a
// program uses it is the program's option (ProgramOptions::jit).
bool JitAvailable();

// Orders this thread's streaming stores before its later stores (sfence):
// call once after the last segment call whose results other threads read.
void StreamFence();

// True when `op` can be part of a segment (as a vector instruction).
bool JitSupports(Op op);

// The most values a segment keeps in registers at once.
constexpr int kJitMaxLive = 22;

// Generates the loop for kernel.code[instrs...] (in that order, all vector
// instructions the JIT supports). `uniform` marks the kernel's uniform
// registers, `store` the registers the segment must write to ptr[reg], and
// `stream` those of them written with non-temporal stores (large outputs
// nothing reads soon; their ptr must be 64-byte aligned; the caller fences
// them, StreamFence, before others read them), and `prefetch` the registers
// (inputs read from memory) whose data `ahead` bytes further on the loop
// prefetches while it reads theirs. Returns null when the segment needs
// more than kJitMaxLive registers.
std::unique_ptr<JitSegment> GenerateSegment(const Kernel& kernel, const std::vector<int>& instrs,
                                            const std::vector<bool>& uniform,
                                            const std::vector<bool>& store,
                                            const std::vector<bool>& stream,
                                            const std::vector<bool>& prefetch);

}  // namespace plugrt::cpu::fused

#endif  // PLUGRT_CPU_KERNELS_FUSED_JIT_H_
