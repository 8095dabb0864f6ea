// plugrt autodiff (internal): the built-in VJPs and JVPs, added to the
// registries when they are first used (explicit calls: a static library
// drops self-registering objects nothing refers to).
#ifndef PLUGRT_AUTODIFF_BUILTIN_RULES_H_
#define PLUGRT_AUTODIFF_BUILTIN_RULES_H_

#include <functional>
#include <string>

#include "autodiff/jvp_registry.h"
#include "autodiff/vjp_registry.h"

namespace plugrt::autodiff::internal {

using AddVjp = std::function<void(std::string, VjpFunction)>;
using AddJvp = std::function<void(std::string, JvpFunction)>;

void AddElementwiseVjps(const AddVjp& add);  // vjps_elementwise.cc
void AddStructuralVjps(const AddVjp& add);   // vjps_structural.cc
void AddConvolutionVjp(const AddVjp& add);   // vjps_convolution.cc
void AddBuiltinJvps(const AddJvp& add);      // jvps.cc

// Any op's JVP from its VJP, J^T u being linear in u: J v is the gradient,
// with respect to u, of <J^T u, v> (jvps.cc).
StatusOr<std::vector<Tensor>> JvpByTransposedVjp(const JvpCall& call);

}  // namespace plugrt::autodiff::internal

#endif  // PLUGRT_AUTODIFF_BUILTIN_RULES_H_
