// plugrt passes: shape refinement. A shape-polymorphic program (JAX's
// `jax.uses_shape_polymorphism` exports: '?' dims, dimension sizes passed as
// scalar integer arguments, dynamic ops whose shapes are operands) becomes a
// static one for concrete argument shapes and dimension values:
//
//  - the entry function's parameters take the given types; every op's '?'
//    result dims follow from its operands (stablehlo/type_inference.h), private
//    functions are specialised per distinct call (argument types and known
//    integer argument values), while/case/if take their regions' types;
//  - integer computations on known values (the dimension arguments,
//    get_dimension_size, constants) are evaluated and become constants
//    (shape_folding.h);
//  - the dynamic ops take their static forms: dynamic_broadcast_in_dim ->
//    broadcast_in_dim, dynamic_reshape -> reshape, dynamic_iota -> iota,
//    dynamic_pad -> pad, dynamic_gather -> gather, dynamic_conv ->
//    convolution, real_dynamic_slice -> slice, get_dimension_size -> a
//    constant, set_dimension_size of the size the operand has -> its operand,
//    and JAX's custom calls stablehlo.dynamic_reduce_window -> reduce_window,
//    stablehlo.dynamic_rng_bit_generator -> rng_bit_generator,
//    stablehlo.dynamic_top_k -> chlo.top_k, stablehlo.dynamic_approx_top_k ->
//    custom_call @ApproxTopK with top_k in its backend config;
//  - custom_call @shape_assertion is checked and removed; a false one is an
//    INVALID_ARGUMENT with its error_message, {0}, {1}... replaced by the
//    values of its error_message_inputs (the operands after the predicate).
//
// The refined module is meant to pass the verifier as a static program;
// functions no longer reachable from the entry are dropped.
#ifndef PLUGRT_COMPILER_PASSES_REFINE_SHAPES_H_
#define PLUGRT_COMPILER_PASSES_REFINE_SHAPES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

struct EntryRefinement {
  // One static tensor type per parameter of the entry function.
  std::vector<shlo::Type> argument_types;
  // Per parameter (or empty): the value of a scalar integer argument the
  // program may use as a constant (the dimension arguments).
  std::vector<std::optional<int64_t>> argument_values;
};

// Whether any type in the module (signatures, block arguments, op results)
// has a '?' dim.
bool IsShapePolymorphic(const shlo::Module& module);

// The entry function's dimension arguments, as JAX writes them: the leading
// parameters that are scalar integer tensors without argument attributes
// (real arguments carry mhlo.sharding, jax.arg_info, ...). Empty unless the
// module is shape-polymorphic.
std::vector<size_t> DimensionArguments(const shlo::Module& module);

// Refines `module` in place (see above). INVALID_ARGUMENT when the given
// types contradict the program (naming the argument and both types), when a
// refined shape contradicts a declared static one (naming the op and both
// types) or a shape assertion fails; UNIMPLEMENTED for a '?' no rule refines.
Status RefineShapes(shlo::Module& module, const EntryRefinement& refinement);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_REFINE_SHAPES_H_
