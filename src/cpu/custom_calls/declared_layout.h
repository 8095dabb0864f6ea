// plugrt CPU custom calls: buffers in the layout a custom call declares.
//
// A custom call may declare the memory layout of each operand and result
// (operand_layouts / result_layouts: minor_to_major per value); the kernel
// behind it reads and writes its buffers in that layout (jaxlib's LAPACK
// targets declare column-major matrices). The CPU backend keeps every
// tensor row-major, so calls with such layouts copy their operands into the
// declared layout and their results back.
#ifndef PLUGRT_CPU_CUSTOM_CALLS_DECLARED_LAYOUT_H_
#define PLUGRT_CPU_CUSTOM_CALLS_DECLARED_LAYOUT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// rank-1 ... 0.
std::vector<int64_t> RowMajorOrder(size_t rank);
bool IsRowMajorOrder(std::span<const int64_t> minor_to_major);
// True when `minor_to_major` stores each matrix (the last two dims)
// column-major and the dims before them row-major: jaxlib's layout for
// batched matrices.
bool IsColumnMajorMatrices(std::span<const int64_t> minor_to_major);
// True when `minor_to_major` is a permutation of 0 .. rank-1.
bool IsDimensionOrder(std::span<const int64_t> minor_to_major, size_t rank);

// A tensor of `row_major`'s type and dims whose storage holds its elements in
// the order `minor_to_major` (a permutation of its dimensions).
Tensor ToDeclaredLayout(const Tensor& row_major, std::span<const int64_t> minor_to_major);
// The reverse: `declared`'s storage is in the order `minor_to_major`; the
// result is row-major.
Tensor FromDeclaredLayout(const Tensor& declared, std::span<const int64_t> minor_to_major);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CUSTOM_CALLS_DECLARED_LAYOUT_H_
