// plugrt autodiff (internal): the built-in VJPs and JVPs, added to the
// registries when they are first used (explicit calls: a static library
// drops self-registering objects nothing refers to).
#ifndef PLUGRT_AUTODIFF_BUILTIN_RULES_H_
#define PLUGRT_AUTODIFF_BUILTIN_RULES_H_

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "autodiff/jvp_registry.h"
#include "autodiff/vjp_registry.h"

namespace plugrt::autodiff::internal {

using AddVjp = std::function<void(std::string, VjpFunction)>;
using AddJvp = std::function<void(std::string, JvpFunction)>;

void AddElementwiseVjps(const AddVjp& add);  // vjps_elementwise.cc
void AddStructuralVjps(const AddVjp& add);   // vjps_structural.cc
void AddReductionVjps(const AddVjp& add);    // vjps_reduction.cc
void AddIndexingVjps(const AddVjp& add);     // vjps_indexing.cc
void AddConvolutionVjp(const AddVjp& add);   // vjps_convolution.cc
void AddBuiltinJvps(const AddJvp& add);      // jvps.cc

// Shared by the rules.
using Grads = std::vector<Tensor>;

inline bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The permutation that undoes `perm` (transpose's: result dim i = operand
// dim perm[i]).
inline std::vector<int64_t> Inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
  return inverse;
}

inline eager::AttrReader Attrs(const VjpCall& c) {
  return eager::AttrReader(c.op.name(), c.op.attrs());
}

// Any op's JVP from its VJP, J^T u being linear in u: J v is the gradient,
// with respect to u, of <J^T u, v> (jvps.cc).
StatusOr<std::vector<Tensor>> JvpByTransposedVjp(const JvpCall& call);

}  // namespace plugrt::autodiff::internal

#endif  // PLUGRT_AUTODIFF_BUILTIN_RULES_H_
