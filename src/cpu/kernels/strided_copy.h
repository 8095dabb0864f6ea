// plugrt CPU kernels: the byte mover under every data-movement op. A copy
// between two strided views of the same box of elements; broadcasts (stride
// 0), transposes (permuted strides), slices and reversals (offsets, scaled or
// negative strides), pads and concatenations (strided destinations) all
// reduce to it. Works on element byte sizes, so one instantiation per size
// serves every element type.
#ifndef PLUGRT_CPU_KERNELS_STRIDED_COPY_H_
#define PLUGRT_CPU_KERNELS_STRIDED_COPY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status.h"

namespace plugrt::cpu {

// Copies the box `dims` from `src` to `dst`; element (i0, i1, ...) is read at
// src + sum(ik * src_strides[k]) and written at dst + sum(ik * dst_strides[k])
// (strides in elements, possibly zero or negative). The caller guarantees
// every address is inside its buffer and that the views do not overlap.
void StridedCopy(const std::byte* src, const std::vector<int64_t>& src_strides, std::byte* dst,
                 const std::vector<int64_t>& dst_strides, const std::vector<int64_t>& dims,
                 int element_bytes);

// StridedCopy by up to `threads` threads, each copying a band of the
// outermost dim (bands of at least 64k elements; one thread below that).
void StridedCopyInBands(const std::byte* src, const std::vector<int64_t>& src_strides,
                        std::byte* dst, const std::vector<int64_t>& dst_strides,
                        const std::vector<int64_t>& dims, int element_bytes, int threads);

// Writes `count` copies of the element at `value` to the contiguous `dst`.
void FillElements(std::byte* dst, int64_t count, const std::byte* value, int element_bytes);

// The element count of `dims`, or INVALID_ARGUMENT for a negative size and
// RESOURCE_EXHAUSTED for a count no host buffer could hold.
StatusOr<int64_t> CheckedElementCount(const std::vector<int64_t>& dims);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_STRIDED_COPY_H_
