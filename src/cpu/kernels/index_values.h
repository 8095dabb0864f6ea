// plugrt CPU kernels: integer tensors read as positions (start indices of
// dynamic slices, gather/scatter indices, runtime shapes and paddings).
#ifndef PLUGRT_CPU_KERNELS_INDEX_VALUES_H_
#define PLUGRT_CPU_KERNELS_INDEX_VALUES_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// Every element of an integer (or i1) tensor as int64, row-major; unsigned
// values above INT64_MAX saturate. INVALID_ARGUMENT for other element types.
StatusOr<std::vector<int64_t>> IndexValues(const Tensor& tensor);

// The single element of a one-element integer tensor.
StatusOr<int64_t> ScalarIndexValue(const Tensor& tensor);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_INDEX_VALUES_H_
