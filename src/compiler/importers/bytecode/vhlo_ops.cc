// plugrt StableHLO bytecode: the VHLO operations plugrt reads, each with the
// StableHLO versions that define it and the names of its attributes, sorted
// by name: the order in which bytecode stores an op's properties (bytecode
// format 5 and later writes them without names).
#include "compiler/importers/bytecode/vhlo_ops.h"

#include <algorithm>

namespace plugrt::shlo::bytecode {
namespace {

constexpr VhloOpInfo kOps[] = {
    {"abs_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"add_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"after_all_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"all_gather_v1", {0, 9, 0}, {1, 4, 0}, {"all_gather_dim", "channel_id", "replica_groups", "use_global_device_ids"}},
    {"all_gather_v2", {1, 5, 0}, {99, 0, 0}, {"all_gather_dim", "channel_id", "replica_groups", "use_global_device_ids"}},
    {"all_reduce_v1", {0, 9, 0}, {1, 4, 0}, {"channel_id", "replica_groups", "use_global_device_ids"}},
    {"all_reduce_v2", {1, 5, 0}, {99, 0, 0}, {"channel_id", "replica_groups", "use_global_device_ids"}},
    {"all_to_all_v1", {0, 9, 0}, {1, 4, 0}, {"channel_id", "concat_dimension", "replica_groups", "split_count", "split_dimension"}},
    {"all_to_all_v2", {1, 5, 0}, {99, 0, 0}, {"channel_id", "concat_dimension", "replica_groups", "split_count", "split_dimension"}},
    {"and_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"async_done_v1", {1, 15, 0}, {99, 0, 0}, {}},
    {"async_start_v1", {1, 15, 0}, {99, 0, 0}, {}},
    {"atan2_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"batch_norm_grad_v1", {0, 9, 0}, {99, 0, 0}, {"epsilon", "feature_index"}},
    {"batch_norm_inference_v1", {0, 9, 0}, {99, 0, 0}, {"epsilon", "feature_index"}},
    {"batch_norm_training_v1", {0, 9, 0}, {99, 0, 0}, {"epsilon", "feature_index"}},
    {"bitcast_convert_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"broadcast_in_dim_v1", {0, 9, 0}, {99, 0, 0}, {"broadcast_dimensions"}},
    {"broadcast_v1", {0, 9, 0}, {99, 0, 0}, {"broadcast_sizes"}},
    {"call_v1", {0, 9, 0}, {99, 0, 0}, {"callee"}},
    {"case_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"cbrt_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"cbrt_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"ceil_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"cholesky_v1", {0, 9, 0}, {99, 0, 0}, {"lower"}},
    {"clamp_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"collective_broadcast_v1", {0, 16, 0}, {1, 19, 0}, {"channel_id", "replica_groups"}},
    {"collective_broadcast_v2", {1, 20, 0}, {99, 0, 0}, {"channel_id", "has_dynamic_root", "replica_groups"}},
    {"collective_permute_v1", {0, 9, 0}, {99, 0, 0}, {"channel_id", "source_target_pairs"}},
    {"collective_reduce_v1", {1, 19, 0}, {99, 0, 0}, {"channel_id", "has_dynamic_root", "replica_groups", "use_global_device_ids"}},
    {"compare_v1", {0, 9, 0}, {99, 0, 0}, {"compare_type", "comparison_direction"}},
    {"complex_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"composite_v1", {0, 19, 0}, {1, 13, 0}, {"composite_attributes", "decomposition", "name", "version"}},
    {"composite_v2", {1, 14, 0}, {99, 0, 0}, {"composite_attributes", "decomposition", "name", "version"}},
    {"concatenate_v1", {0, 9, 0}, {99, 0, 0}, {"dimension"}},
    {"constant_v1", {0, 9, 0}, {99, 0, 0}, {"value"}},
    {"convert_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"convolution_v1", {0, 9, 0}, {99, 0, 0}, {"batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "padding", "precision_config", "rhs_dilation", "window_reversal", "window_strides"}},
    {"cosine_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"cosine_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"count_leading_zeros_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"create_token_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"cross-replica-sum_v1", {0, 9, 0}, {99, 0, 0}, {"replica_groups"}},
    {"custom_call_v1", {0, 9, 0}, {1, 17, 0}, {"api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect", "operand_layouts", "output_operand_aliases", "result_layouts"}},
    {"custom_call_v2", {1, 18, 0}, {99, 0, 0}, {"api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect", "operand_layouts", "output_operand_aliases", "result_layouts", "result_tilings"}},
    {"divide_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"dot_general_v1", {0, 9, 0}, {1, 5, 0}, {"lhs_batching_dimensions", "lhs_contracting_dimensions", "precision_config", "rhs_batching_dimensions", "rhs_contracting_dimensions"}},
    {"dot_general_v2", {1, 6, 0}, {99, 0, 0}, {"accumulation_type", "allow_imprecise_accumulation", "lhs_batching_dimensions", "lhs_component_count", "lhs_contracting_dimensions", "lhs_precision_type", "num_primitive_operations", "precision_config", "rhs_batching_dimensions", "rhs_component_count", "rhs_contracting_dimensions", "rhs_precision_type"}},
    {"dot_v1", {0, 9, 0}, {99, 0, 0}, {"precision_config"}},
    {"dynamic_broadcast_in_dim_v1", {0, 9, 0}, {99, 0, 0}, {"broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"}},
    {"dynamic_conv_v1", {0, 9, 0}, {0, 19, 0}, {"batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "padding", "precision_config", "rhs_dilation", "window_reversal", "window_strides"}},
    {"dynamic_conv_v2", {0, 20, 0}, {99, 0, 0}, {"batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "precision_config", "rhs_dilation", "window_reversal", "window_strides"}},
    {"dynamic_gather_v1", {0, 9, 0}, {1, 0, 0}, {"collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "start_index_map"}},
    {"dynamic_gather_v2", {1, 1, 0}, {99, 0, 0}, {"collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "operand_batching_dims", "start_index_map", "start_indices_batching_dims"}},
    {"dynamic_iota_v1", {0, 9, 0}, {99, 0, 0}, {"iota_dimension"}},
    {"dynamic_pad_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"dynamic_reshape_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"dynamic_slice_v1", {0, 9, 0}, {99, 0, 0}, {"slice_sizes"}},
    {"dynamic_update_slice_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"einsum_v1", {0, 9, 0}, {99, 0, 0}, {"einsum_config"}},
    {"exponential_minus_one_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"exponential_minus_one_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"exponential_v1", {0, 9, 0}, {1, 8, 0}, {}},
    {"exponential_v2", {1, 9, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"fft_v1", {0, 9, 0}, {99, 0, 0}, {"fft_length", "fft_type"}},
    {"floor_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"func_v1", {0, 9, 0}, {99, 0, 0}, {"arg_attrs", "function_type", "res_attrs", "sym_name", "sym_visibility"}},
    {"gather_v1", {0, 9, 0}, {1, 0, 0}, {"collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "slice_sizes", "start_index_map"}},
    {"gather_v2", {1, 1, 0}, {99, 0, 0}, {"collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "operand_batching_dims", "slice_sizes", "start_index_map", "start_indices_batching_dims"}},
    {"get_dimension_size_v1", {0, 9, 0}, {99, 0, 0}, {"dimension"}},
    {"get_tuple_element_v1", {0, 9, 0}, {99, 0, 0}, {"index"}},
    {"if_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"imag_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"infeed_v1", {0, 9, 0}, {99, 0, 0}, {"infeed_config", "layout"}},
    {"iota_v1", {0, 9, 0}, {99, 0, 0}, {"iota_dimension"}},
    {"is_finite_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"log_plus_one_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"log_plus_one_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"log_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"log_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"logistic_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"logistic_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"map_v1", {0, 9, 0}, {99, 0, 0}, {"dimensions"}},
    {"maximum_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"minimum_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"multiply_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"negate_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"not_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"optimization_barrier_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"or_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"outfeed_v1", {0, 9, 0}, {99, 0, 0}, {"outfeed_config"}},
    {"pad_v1", {0, 9, 0}, {99, 0, 0}, {"edge_padding_high", "edge_padding_low", "interior_padding"}},
    {"partition_id_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"popcnt_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"power_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"real_dynamic_slice_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"real_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"recv_v1", {0, 9, 0}, {1, 11, 0}, {"channel_id", "channel_type", "is_host_transfer"}},
    {"recv_v2", {1, 12, 0}, {99, 0, 0}, {"channel_id", "channel_type", "is_host_transfer", "source_target_pairs"}},
    {"reduce_precision_v1", {0, 9, 0}, {99, 0, 0}, {"exponent_bits", "mantissa_bits"}},
    {"reduce_scatter_v1", {0, 9, 0}, {99, 0, 0}, {"channel_id", "replica_groups", "scatter_dimension", "use_global_device_ids"}},
    {"reduce_v1", {0, 9, 0}, {99, 0, 0}, {"dimensions"}},
    {"reduce_window_v1", {0, 9, 0}, {99, 0, 0}, {"base_dilations", "padding", "window_dilations", "window_dimensions", "window_strides"}},
    {"remainder_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"replica_id_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"reshape_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"return_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"reverse_v1", {0, 9, 0}, {99, 0, 0}, {"dimensions"}},
    {"rng_bit_generator_v1", {0, 9, 0}, {99, 0, 0}, {"rng_algorithm"}},
    {"rng_v1", {0, 9, 0}, {99, 0, 0}, {"rng_distribution"}},
    {"round_nearest_afz_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"round_nearest_even_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"rsqrt_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"rsqrt_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"scatter_v1", {0, 9, 0}, {1, 0, 0}, {"index_vector_dim", "indices_are_sorted", "inserted_window_dims", "scatter_dims_to_operand_dims", "unique_indices", "update_window_dims"}},
    {"scatter_v2", {1, 1, 0}, {99, 0, 0}, {"index_vector_dim", "indices_are_sorted", "input_batching_dims", "inserted_window_dims", "scatter_dims_to_operand_dims", "scatter_indices_batching_dims", "unique_indices", "update_window_dims"}},
    {"select_and_scatter_v1", {0, 9, 0}, {99, 0, 0}, {"padding", "window_dimensions", "window_strides"}},
    {"select_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"send_v1", {0, 9, 0}, {1, 11, 0}, {"channel_id", "channel_type", "is_host_transfer"}},
    {"send_v2", {1, 12, 0}, {99, 0, 0}, {"channel_id", "channel_type", "is_host_transfer", "source_target_pairs"}},
    {"set_dimension_size_v1", {0, 9, 0}, {99, 0, 0}, {"dimension"}},
    {"shift_left_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"shift_right_arithmetic_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"shift_right_logical_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"sign_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"sine_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"sine_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"slice_v1", {0, 9, 0}, {99, 0, 0}, {"limit_indices", "start_indices", "strides"}},
    {"sort_v1", {0, 9, 0}, {99, 0, 0}, {"dimension", "is_stable"}},
    {"sqrt_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"sqrt_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"subtract_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"tan_v1", {1, 4, 0}, {1, 9, 0}, {}},
    {"tan_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"tanh_v1", {0, 9, 0}, {1, 9, 0}, {}},
    {"tanh_v2", {1, 10, 0}, {99, 0, 0}, {"result_accuracy"}},
    {"torch_index_select_v1", {0, 9, 0}, {99, 0, 0}, {"batch_dims", "dim"}},
    {"transpose_v1", {0, 9, 0}, {99, 0, 0}, {"permutation"}},
    {"triangular_solve_v1", {0, 9, 0}, {99, 0, 0}, {"left_side", "lower", "transpose_a", "unit_diagonal"}},
    {"tuple_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"unary_einsum_v1", {0, 9, 0}, {99, 0, 0}, {"einsum_config"}},
    {"uniform_dequantize_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"uniform_quantize_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"while_v1", {0, 9, 0}, {99, 0, 0}, {}},
    {"xor_v1", {0, 9, 0}, {99, 0, 0}, {}},
};

}  // namespace

const VhloOpInfo* FindVhloOp(std::string_view name) {
  auto it = std::lower_bound(std::begin(kOps), std::end(kOps), name,
                             [](const VhloOpInfo& op, std::string_view n) { return op.name < n; });
  if (it == std::end(kOps) || it->name != name) return nullptr;
  return &*it;
}

const VhloOpInfo* FindVhloOpAt(std::string_view base, VhloVersion version,
                               const VhloOpInfo** first) {
  if (first != nullptr) *first = nullptr;
  for (const VhloOpInfo& op : kOps) {
    std::string_view n = op.name;
    size_t v = n.rfind("_v");
    if (v == std::string_view::npos || n.substr(0, v) != base) continue;
    if (first != nullptr && (*first == nullptr || op.min < (*first)->min)) *first = &op;
    // A patch release (1.16.2) has its minor release's op versions.
    if (op.min <= version && VhloVersion{version.major, version.minor, 0} <= op.max) return &op;
  }
  return nullptr;
}

}  // namespace plugrt::shlo::bytecode
