#include "cpu/kernels/gather_scatter.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/index_values.h"
#include "cpu/kernels/strided_copy.h"

namespace plugrt::cpu {
namespace {

std::string ListString(const std::vector<int64_t>& list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + std::to_string(list[i]);
  return s + "]";
}

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Every entry in [0, bound) and no entry twice.
Status CheckDimList(const char* name, const std::vector<int64_t>& list, int64_t bound) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(bound, 0)), false);
  for (int64_t d : list) {
    if (d < 0 || d >= bound || seen[d]) {
      return InvalidArgument(name, " ", ListString(list), " must be distinct values in [0, ",
                             bound, ")");
    }
    seen[d] = true;
  }
  return OkStatus();
}

Status CheckSortedDimList(const char* name, const std::vector<int64_t>& list, int64_t bound) {
  PLUGRT_RETURN_IF_ERROR(CheckDimList(name, list, bound));
  if (!std::is_sorted(list.begin(), list.end())) {
    return InvalidArgument(name, " ", ListString(list), " must be sorted");
  }
  return OkStatus();
}

// The dims of `rank` not listed in `a` or `b`, ascending.
std::vector<int64_t> RemainingDims(int64_t rank, const std::vector<int64_t>& a,
                                   const std::vector<int64_t>& b = {}) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(a, d) && !Contains(b, d)) out.push_back(d);
  }
  return out;
}

// What gather and scatter share about their index tensor: the dims that
// enumerate index vectors ("batch" dims, every dim but index_vector_dim) and
// the checks of the index-to-operand mapping.
struct IndexLayout {
  std::vector<int64_t> batch_dims;  // dims of the index tensor, ascending
  int64_t vector_size = 1;
  int64_t vector_stride = 0;  // elements between entries of one index vector
};

StatusOr<IndexLayout> MakeIndexLayout(const std::vector<int64_t>& index_dims,
                                      int64_t index_vector_dim) {
  const int64_t rank = static_cast<int64_t>(index_dims.size());
  if (index_vector_dim < 0 || index_vector_dim > rank) {
    return InvalidArgument("index_vector_dim ", index_vector_dim, " is outside [0, ", rank, "]");
  }
  IndexLayout layout;
  std::vector<int64_t> strides = RowMajorStrides(index_dims);
  for (int64_t d = 0; d < rank; ++d) {
    if (d != index_vector_dim) layout.batch_dims.push_back(d);
  }
  if (index_vector_dim < rank) {
    layout.vector_size = index_dims[index_vector_dim];
    layout.vector_stride = strides[index_vector_dim];
  }
  return layout;
}

// Checks the map from index-vector entries to operand dims and the pairing of
// batching dims; shared by gather (start_index_map, operand/start_indices
// batching dims) and scatter (scatter_dims_to_operand_dims, input/scatter
// indices batching dims).
Status CheckIndexMapping(const std::vector<int64_t>& operand_dims,
                         const std::vector<int64_t>& index_dims, int64_t index_vector_dim,
                         const IndexLayout& layout, const char* map_name,
                         const std::vector<int64_t>& index_map, const char* operand_batch_name,
                         const std::vector<int64_t>& operand_batching_dims,
                         const char* index_batch_name,
                         const std::vector<int64_t>& index_batching_dims) {
  const int64_t operand_rank = static_cast<int64_t>(operand_dims.size());
  const int64_t index_rank = static_cast<int64_t>(index_dims.size());
  PLUGRT_RETURN_IF_ERROR(CheckDimList(map_name, index_map, operand_rank));
  if (static_cast<int64_t>(index_map.size()) != layout.vector_size) {
    return InvalidArgument(map_name, " has ", index_map.size(),
                           " entries but index vectors have ", layout.vector_size);
  }
  PLUGRT_RETURN_IF_ERROR(CheckDimList(operand_batch_name, operand_batching_dims, operand_rank));
  PLUGRT_RETURN_IF_ERROR(CheckDimList(index_batch_name, index_batching_dims, index_rank));
  for (int64_t d : index_map) {
    if (Contains(operand_batching_dims, d)) {
      return InvalidArgument(map_name, " and ", operand_batch_name, " share dimension ", d);
    }
  }
  if (Contains(index_batching_dims, index_vector_dim)) {
    return InvalidArgument(index_batch_name, " contains index_vector_dim ", index_vector_dim);
  }
  if (operand_batching_dims.size() != index_batching_dims.size()) {
    return InvalidArgument(operand_batch_name, " and ", index_batch_name,
                           " must have the same length");
  }
  for (size_t i = 0; i < operand_batching_dims.size(); ++i) {
    if (operand_dims[operand_batching_dims[i]] != index_dims[index_batching_dims[i]]) {
      return InvalidArgument("batching dimension sizes differ: operand dimension ",
                             operand_batching_dims[i], " has ",
                             operand_dims[operand_batching_dims[i]], ", index dimension ",
                             index_batching_dims[i], " has ", index_dims[index_batching_dims[i]]);
    }
  }
  return OkStatus();
}

// For each entry of `index_batching_dims`, its position among the layout's
// batch dims (which is where the loop counters keep it).
std::vector<size_t> BatchingPositions(const IndexLayout& layout,
                                      const std::vector<int64_t>& index_batching_dims) {
  std::vector<size_t> out;
  for (int64_t d : index_batching_dims) {
    out.push_back(static_cast<size_t>(
        std::find(layout.batch_dims.begin(), layout.batch_dims.end(), d) -
        layout.batch_dims.begin()));
  }
  return out;
}

}  // namespace

StatusOr<std::vector<int64_t>> GatherResultDims(const std::vector<int64_t>& operand_dims,
                                                const std::vector<int64_t>& start_indices_dims,
                                                const GatherDimensionNumbers& dnums,
                                                const std::vector<int64_t>& slice_sizes) {
  const int64_t operand_rank = static_cast<int64_t>(operand_dims.size());
  PLUGRT_ASSIGN_OR_RETURN(IndexLayout layout,
                          MakeIndexLayout(start_indices_dims, dnums.index_vector_dim));
  if (static_cast<int64_t>(slice_sizes.size()) != operand_rank) {
    return InvalidArgument("slice_sizes has ", slice_sizes.size(), " entries, the operand rank is ",
                           operand_rank);
  }
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand_dims[d]) {
      return InvalidArgument("slice size ", slice_sizes[d], " of dimension ", d,
                             " is outside [0, ", operand_dims[d], "]");
    }
  }
  PLUGRT_RETURN_IF_ERROR(
      CheckDimList("collapsed_slice_dims", dnums.collapsed_slice_dims, operand_rank));
  PLUGRT_RETURN_IF_ERROR(CheckIndexMapping(
      operand_dims, start_indices_dims, dnums.index_vector_dim, layout, "start_index_map",
      dnums.start_index_map, "operand_batching_dims", dnums.operand_batching_dims,
      "start_indices_batching_dims", dnums.start_indices_batching_dims));
  for (int64_t d : dnums.collapsed_slice_dims) {
    if (Contains(dnums.operand_batching_dims, d)) {
      return InvalidArgument("collapsed_slice_dims and operand_batching_dims share dimension ", d);
    }
    if (slice_sizes[d] != 1) {
      return InvalidArgument("collapsed dimension ", d, " must have slice size 1");
    }
  }
  for (int64_t d : dnums.operand_batching_dims) {
    if (slice_sizes[d] != 1) {
      return InvalidArgument("batching dimension ", d, " must have slice size 1");
    }
  }
  std::vector<int64_t> window =
      RemainingDims(operand_rank, dnums.collapsed_slice_dims, dnums.operand_batching_dims);
  const int64_t result_rank =
      static_cast<int64_t>(layout.batch_dims.size() + dnums.offset_dims.size());
  PLUGRT_RETURN_IF_ERROR(CheckSortedDimList("offset_dims", dnums.offset_dims, result_rank));
  if (dnums.offset_dims.size() != window.size()) {
    return InvalidArgument("offset_dims has ", dnums.offset_dims.size(), " entries, expected ",
                           window.size(), " (operand rank minus collapsed and batching dims)");
  }
  std::vector<int64_t> dims(static_cast<size_t>(result_rank));
  size_t next_offset = 0, next_batch = 0;
  for (int64_t d = 0; d < result_rank; ++d) {
    if (next_offset < dnums.offset_dims.size() && dnums.offset_dims[next_offset] == d) {
      dims[d] = slice_sizes[window[next_offset++]];
    } else {
      dims[d] = start_indices_dims[layout.batch_dims[next_batch++]];
    }
  }
  return dims;
}

StatusOr<Tensor> Gather(const Tensor& operand, const Tensor& start_indices,
                        const GatherDimensionNumbers& dnums,
                        const std::vector<int64_t>& slice_sizes) {
  PLUGRT_ASSIGN_OR_RETURN(
      std::vector<int64_t> result_dims,
      GatherResultDims(operand.dims(), start_indices.dims(), dnums, slice_sizes));
  PLUGRT_RETURN_IF_ERROR(CheckedElementCount(result_dims).status());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> indices, IndexValues(start_indices));
  Tensor result(operand.type(), result_dims);
  if (result.num_elements() == 0) return result;

  IndexLayout layout = MakeIndexLayout(start_indices.dims(), dnums.index_vector_dim).value();
  const std::vector<int64_t> operand_strides = operand.Strides();
  const std::vector<int64_t> result_strides = result.Strides();
  const std::vector<int64_t> index_strides = start_indices.Strides();
  const int eb = shlo::StorageBytes(operand.type());

  // The slice, as a box copied from the operand into the result's offset dims.
  std::vector<int64_t> window = RemainingDims(operand.rank(), dnums.collapsed_slice_dims,
                                              dnums.operand_batching_dims);
  std::vector<int64_t> window_sizes, window_src_strides, window_dst_strides;
  int64_t window_elements = 1;
  for (size_t k = 0; k < window.size(); ++k) {
    window_sizes.push_back(slice_sizes[window[k]]);
    window_src_strides.push_back(operand_strides[window[k]]);
    window_dst_strides.push_back(result_strides[dnums.offset_dims[k]]);
    window_elements *= slice_sizes[window[k]];
  }
  // Result dims that enumerate index vectors, in the order of layout.batch_dims.
  std::vector<int64_t> result_batch_dims =
      RemainingDims(static_cast<int64_t>(result_dims.size()), dnums.offset_dims);
  std::vector<int64_t> batch_sizes;
  for (int64_t d : layout.batch_dims) batch_sizes.push_back(start_indices.dims()[d]);
  std::vector<size_t> batching_positions =
      BatchingPositions(layout, dnums.start_indices_batching_dims);

  std::vector<int64_t> counter(batch_sizes.size(), 0);
  do {
    int64_t index_offset = 0, dst = 0;
    for (size_t j = 0; j < counter.size(); ++j) {
      index_offset += counter[j] * index_strides[layout.batch_dims[j]];
      dst += counter[j] * result_strides[result_batch_dims[j]];
    }
    int64_t src = 0;
    for (size_t k = 0; k < dnums.start_index_map.size(); ++k) {
      const int64_t d = dnums.start_index_map[k];
      const int64_t start = indices[index_offset + static_cast<int64_t>(k) * layout.vector_stride];
      src += std::clamp<int64_t>(start, 0, operand.dims()[d] - slice_sizes[d]) * operand_strides[d];
    }
    for (size_t i = 0; i < batching_positions.size(); ++i) {
      src += counter[batching_positions[i]] * operand_strides[dnums.operand_batching_dims[i]];
    }
    if (window_elements == 1) {
      std::memcpy(result.MutableData() + dst * eb, operand.data() + src * eb, eb);
    } else {
      StridedCopy(operand.data() + src * eb, window_src_strides, result.MutableData() + dst * eb,
                  window_dst_strides, window_sizes, eb);
    }
  } while (NextIndex(counter, batch_sizes));
  return result;
}

Status CheckScatter(const std::vector<int64_t>& input_dims,
                    const std::vector<int64_t>& scatter_indices_dims,
                    const std::vector<int64_t>& updates_dims,
                    const ScatterDimensionNumbers& dnums) {
  const int64_t input_rank = static_cast<int64_t>(input_dims.size());
  const int64_t updates_rank = static_cast<int64_t>(updates_dims.size());
  PLUGRT_ASSIGN_OR_RETURN(IndexLayout layout,
                          MakeIndexLayout(scatter_indices_dims, dnums.index_vector_dim));
  PLUGRT_RETURN_IF_ERROR(
      CheckSortedDimList("update_window_dims", dnums.update_window_dims, updates_rank));
  PLUGRT_RETURN_IF_ERROR(
      CheckDimList("inserted_window_dims", dnums.inserted_window_dims, input_rank));
  PLUGRT_RETURN_IF_ERROR(CheckIndexMapping(
      input_dims, scatter_indices_dims, dnums.index_vector_dim, layout,
      "scatter_dims_to_operand_dims", dnums.scatter_dims_to_operand_dims, "input_batching_dims",
      dnums.input_batching_dims, "scatter_indices_batching_dims",
      dnums.scatter_indices_batching_dims));
  for (int64_t d : dnums.inserted_window_dims) {
    if (Contains(dnums.input_batching_dims, d)) {
      return InvalidArgument("inserted_window_dims and input_batching_dims share dimension ", d);
    }
  }
  std::vector<int64_t> window =
      RemainingDims(input_rank, dnums.inserted_window_dims, dnums.input_batching_dims);
  if (window.size() != dnums.update_window_dims.size()) {
    return InvalidArgument("update_window_dims has ", dnums.update_window_dims.size(),
                           " entries, expected ", window.size(),
                           " (input rank minus inserted and batching dims)");
  }
  for (size_t k = 0; k < window.size(); ++k) {
    if (updates_dims[dnums.update_window_dims[k]] > input_dims[window[k]]) {
      return InvalidArgument("update window dimension ", dnums.update_window_dims[k], " (size ",
                             updates_dims[dnums.update_window_dims[k]],
                             ") is larger than input dimension ", window[k]);
    }
  }
  std::vector<int64_t> update_scatter_dims = RemainingDims(updates_rank, dnums.update_window_dims);
  if (update_scatter_dims.size() != layout.batch_dims.size()) {
    return InvalidArgument("updates have ", update_scatter_dims.size(),
                           " scatter dimensions, the indices enumerate ",
                           layout.batch_dims.size());
  }
  for (size_t j = 0; j < update_scatter_dims.size(); ++j) {
    if (updates_dims[update_scatter_dims[j]] != scatter_indices_dims[layout.batch_dims[j]]) {
      return InvalidArgument("updates dimension ", update_scatter_dims[j], " (size ",
                             updates_dims[update_scatter_dims[j]],
                             ") must match scatter_indices dimension ", layout.batch_dims[j],
                             " (size ", scatter_indices_dims[layout.batch_dims[j]], ")");
    }
  }
  return OkStatus();
}

StatusOr<std::vector<Tensor>> Scatter(const std::vector<Tensor>& inputs,
                                      const Tensor& scatter_indices,
                                      const std::vector<Tensor>& updates,
                                      const ScatterDimensionNumbers& dnums,
                                      const ScatterCombiner& combine) {
  if (inputs.empty() || inputs.size() != updates.size()) {
    return InvalidArgument("scatter needs as many updates as inputs (at least one), got ",
                           inputs.size(), " inputs and ", updates.size(), " updates");
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dims() != inputs[0].dims() || updates[i].dims() != updates[0].dims()) {
      return InvalidArgument("scatter inputs (and updates) must all have the same shape");
    }
    if (inputs[i].type() != updates[i].type()) {
      return InvalidArgument("scatter input ", i, " and its updates differ in element type");
    }
  }
  const std::vector<int64_t>& input_dims = inputs[0].dims();
  const std::vector<int64_t>& updates_dims = updates[0].dims();
  PLUGRT_RETURN_IF_ERROR(CheckScatter(input_dims, scatter_indices.dims(), updates_dims, dnums));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> indices, IndexValues(scatter_indices));

  std::vector<Tensor> results;
  results.reserve(inputs.size());
  for (const Tensor& input : inputs) results.push_back(input.Clone());
  if (updates[0].num_elements() == 0) return results;

  const int64_t input_rank = static_cast<int64_t>(input_dims.size());
  IndexLayout layout = MakeIndexLayout(scatter_indices.dims(), dnums.index_vector_dim).value();
  const std::vector<int64_t> input_strides = RowMajorStrides(input_dims);
  const std::vector<int64_t> update_strides = RowMajorStrides(updates_dims);
  const std::vector<int64_t> index_strides = scatter_indices.Strides();

  std::vector<int64_t> window =
      RemainingDims(input_rank, dnums.inserted_window_dims, dnums.input_batching_dims);
  // Per input dim: how far a window reaches (1 for inserted and batching dims).
  std::vector<int64_t> window_extent(static_cast<size_t>(input_rank), 1);
  std::vector<int64_t> window_sizes, window_input_strides, window_update_strides;
  for (size_t k = 0; k < window.size(); ++k) {
    const int64_t size = updates_dims[dnums.update_window_dims[k]];
    window_extent[window[k]] = size;
    window_sizes.push_back(size);
    window_input_strides.push_back(input_strides[window[k]]);
    window_update_strides.push_back(update_strides[dnums.update_window_dims[k]]);
  }
  std::vector<int64_t> update_scatter_dims =
      RemainingDims(static_cast<int64_t>(updates_dims.size()), dnums.update_window_dims);
  std::vector<int64_t> scatter_sizes;
  for (int64_t d : update_scatter_dims) scatter_sizes.push_back(updates_dims[d]);
  std::vector<size_t> batching_positions =
      BatchingPositions(layout, dnums.scatter_indices_batching_dims);

  std::vector<int64_t> counter(scatter_sizes.size(), 0);
  std::vector<int64_t> window_counter(window_sizes.size(), 0);
  do {
    int64_t index_offset = 0, update_base = 0;
    for (size_t j = 0; j < counter.size(); ++j) {
      index_offset += counter[j] * index_strides[layout.batch_dims[j]];
      update_base += counter[j] * update_strides[update_scatter_dims[j]];
    }
    int64_t result_base = 0;
    bool in_bounds = true;
    for (size_t k = 0; k < dnums.scatter_dims_to_operand_dims.size() && in_bounds; ++k) {
      const int64_t d = dnums.scatter_dims_to_operand_dims[k];
      const int64_t start = indices[index_offset + static_cast<int64_t>(k) * layout.vector_stride];
      in_bounds = start >= 0 && start <= input_dims[d] - window_extent[d];
      if (in_bounds) result_base += start * input_strides[d];
    }
    if (!in_bounds) continue;
    for (size_t i = 0; i < batching_positions.size(); ++i) {
      result_base += counter[batching_positions[i]] * input_strides[dnums.input_batching_dims[i]];
    }
    std::fill(window_counter.begin(), window_counter.end(), 0);
    do {
      int64_t result_offset = result_base, update_offset = update_base;
      for (size_t k = 0; k < window_counter.size(); ++k) {
        result_offset += window_counter[k] * window_input_strides[k];
        update_offset += window_counter[k] * window_update_strides[k];
      }
      PLUGRT_RETURN_IF_ERROR(combine(results, result_offset, updates, update_offset));
    } while (NextIndex(window_counter, window_sizes));
  } while (NextIndex(counter, scatter_sizes));
  return results;
}

ScatterCombiner ScatterReplaceCombiner() {
  return [](std::vector<Tensor>& results, int64_t result_offset,
            const std::vector<Tensor>& updates, int64_t update_offset) -> Status {
    for (size_t i = 0; i < results.size(); ++i) {
      const int eb = shlo::StorageBytes(results[i].type());
      std::memcpy(results[i].MutableData() + result_offset * eb,
                  updates[i].data() + update_offset * eb, eb);
    }
    return OkStatus();
  };
}

StatusOr<Tensor> TorchIndexSelect(const Tensor& operand, const Tensor& index, int64_t dim,
                                  int64_t batch_dims) {
  if (batch_dims < 0 || batch_dims > index.rank() || dim < batch_dims || dim >= operand.rank()) {
    return InvalidArgument("torch_index_select needs 0 <= batch_dims (", batch_dims,
                           ") <= dim (", dim, ") < operand rank (", operand.rank(),
                           ") and batch_dims <= index rank (", index.rank(), ")");
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (operand.dims()[d] != index.dims()[d]) {
      return InvalidArgument("batch dimension ", d, " differs between operand (",
                             operand.dims()[d], ") and index (", index.dims()[d], ")");
    }
  }
  std::vector<int64_t> result_dims(operand.dims().begin(), operand.dims().begin() + dim);
  result_dims.insert(result_dims.end(), index.dims().begin() + batch_dims, index.dims().end());
  result_dims.insert(result_dims.end(), operand.dims().begin() + dim + 1, operand.dims().end());
  PLUGRT_RETURN_IF_ERROR(CheckedElementCount(result_dims).status());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> values, IndexValues(index));
  Tensor result(operand.type(), result_dims);
  if (result.num_elements() == 0) return result;
  if (operand.dims()[dim] == 0) {
    return InvalidArgument("torch_index_select from an empty dimension ", dim);
  }

  // operand = [prefix..., selected, suffix...]; the index's leading batch_dims
  // dims are the prefix's leading ones.
  auto product = [](auto begin, auto end) {
    int64_t n = 1;
    for (auto it = begin; it != end; ++it) n *= *it;
    return n;
  };
  const int64_t prefix = product(operand.dims().begin(), operand.dims().begin() + dim);
  const int64_t per_batch =
      product(operand.dims().begin() + batch_dims, operand.dims().begin() + dim);
  const int64_t selected = operand.dims()[dim];
  const int64_t suffix = product(operand.dims().begin() + dim + 1, operand.dims().end());
  const int64_t picks = product(index.dims().begin() + batch_dims, index.dims().end());
  const int64_t eb = shlo::StorageBytes(operand.type());
  const size_t run = static_cast<size_t>(suffix * eb);
  std::byte* out = result.MutableData();
  for (int64_t p = 0; p < prefix; ++p) {
    const int64_t* batch_values = values.data() + (p / per_batch) * picks;
    for (int64_t m = 0; m < picks; ++m) {
      const int64_t v = std::clamp<int64_t>(batch_values[m], 0, selected - 1);
      std::memcpy(out + ((p * picks + m) * suffix) * eb,
                  operand.data() + ((p * selected + v) * suffix) * eb, run);
    }
  }
  return result;
}

}  // namespace plugrt::cpu
