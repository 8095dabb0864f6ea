// plugrt CPU kernels: gather, scatter and torch_index_select, with the index
// arithmetic of the StableHLO spec (batching dimensions included). Like the
// other movers they work on element bytes; scatter leaves the combining of
// values to a caller-supplied function (the op's update computation).
#ifndef PLUGRT_CPU_KERNELS_GATHER_SCATTER_H_
#define PLUGRT_CPU_KERNELS_GATHER_SCATTER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  // == rank(start_indices): each index is a scalar (an implicit trailing 1).
  int64_t index_vector_dim = 0;
};

// The result dims of a gather, or INVALID_ARGUMENT naming the first rule the
// dimension numbers or slice sizes break.
StatusOr<std::vector<int64_t>> GatherResultDims(const std::vector<int64_t>& operand_dims,
                                                const std::vector<int64_t>& start_indices_dims,
                                                const GatherDimensionNumbers& dnums,
                                                const std::vector<int64_t>& slice_sizes);

// Slices of `slice_sizes` at the positions `start_indices` name; starts are
// clamped so every slice lies inside the operand.
StatusOr<Tensor> Gather(const Tensor& operand, const Tensor& start_indices,
                        const GatherDimensionNumbers& dnums,
                        const std::vector<int64_t>& slice_sizes);

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};

// Checks scatter operands and dimension numbers (shapes only).
Status CheckScatter(const std::vector<int64_t>& input_dims,
                    const std::vector<int64_t>& scatter_indices_dims,
                    const std::vector<int64_t>& updates_dims,
                    const ScatterDimensionNumbers& dnums);

// Combines one update element into one result element of every result:
// results[i] element `result_offset` = f(that element, updates[i] element
// `update_offset`). Offsets count elements, row-major.
using ScatterCombiner = std::function<Status(std::vector<Tensor>& results, int64_t result_offset,
                                             const std::vector<Tensor>& updates,
                                             int64_t update_offset)>;

// Copies of `inputs` with every update element combined into the element its
// index names, in row-major order of the updates. An update window that does
// not lie wholly inside the inputs is skipped as a whole: that is what XLA and
// JAX (whose results the conformance corpus records) do. The spec's reference
// skips only the out-of-bounds elements of such a window; the two agree for
// every window that is wholly inside or wholly outside.
StatusOr<std::vector<Tensor>> Scatter(const std::vector<Tensor>& inputs,
                                      const Tensor& scatter_indices,
                                      const std::vector<Tensor>& updates,
                                      const ScatterDimensionNumbers& dnums,
                                      const ScatterCombiner& combine);

// The combiner that overwrites (update computation `return %update`).
ScatterCombiner ScatterReplaceCombiner();

// torch_index_select: result dims are operand[:dim] ++ index[batch_dims:] ++
// operand[dim+1:]; each result element reads the operand at the index value
// found in `index` (the first batch_dims dims shared with the operand);
// index values are clamped into the operand.
StatusOr<Tensor> TorchIndexSelect(const Tensor& operand, const Tensor& index, int64_t dim,
                                  int64_t batch_dims);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_GATHER_SCATTER_H_
