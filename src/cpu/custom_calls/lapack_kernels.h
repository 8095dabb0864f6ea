// plugrt CPU custom calls: jaxlib's LAPACK targets, on the system's LAPACK.
//
// Each kernel takes the call's operands and results as jaxlib's kernel of the
// same name does: buffers in the call's declared layouts (column-major
// matrices), leading dimensions a batch, info codes as int32 arrays, the
// attributes of mhlo.backend_config. lapack_custom_calls.cc turns a
// stablehlo.custom_call into such a call.
#ifndef PLUGRT_CPU_CUSTOM_CALLS_LAPACK_KERNELS_H_
#define PLUGRT_CPU_CUSTOM_CALLS_LAPACK_KERNELS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"
#include "kernels_abi/lapack_targets.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

// The attributes jaxlib's targets read, LAPACK's characters as their ASCII
// codes ('L' = 76), 0 where the call does not give one.
struct LapackAttrs {
  char uplo = 0;           // potrf, syevd/heevd, sytrd/hetrd, trsm: 'L' / 'U'
  char mode = 0;           // gesdd/gesvd: 'A' / 'S' / 'N'; syevd, gees: 'V' / 'N'
  char compute_left = 0;   // geev: 'V' / 'N'
  char compute_right = 0;  // geev: 'V' / 'N'
  char sort = 0;           // gees: 'N' ('S' needs a select function jaxlib has not)
  char side = 0;           // trsm: 'L' / 'R'
  char trans_x = 0;        // trsm: 'N' / 'T' / 'C'
  char diag = 0;           // trsm: 'N' / 'U'
  int32_t low = 0;         // gehrd: ilo, 1-based
  int32_t high = 0;        // gehrd: ihi
  // Not an attribute: potrf reads and writes its matrix row-major (the
  // other triangle of the column-major view, the same factor) instead of in
  // its declared column-major layout, which saves both layout copies.
  bool row_major_triangle = false;
  // Not an attribute: the thread budget of this execution (ExecContext's
  // kernel_threads), set per run; batches of matrices are split over it.
  int threads = 1;
};

// The attribute names each family reads, all required.
std::vector<std::string_view> LapackAttrNames(kernels_abi::LapackFamily family);

// Checks a call's operand and result types against what the target takes,
// and its attributes' values: INVALID_ARGUMENT naming what differs
// (UNIMPLEMENTED for a mode jaxlib's kernel refuses too).
Status CheckLapackCall(kernels_abi::LapackTarget target, std::string_view name,
                       std::span<const shlo::Type* const> operands,
                       std::span<const shlo::Type* const> results, const LapackAttrs& attrs);

// Runs the target. `operands` are the call's operands in their declared
// layouts, owned by the call (kernels may overwrite them); `results` arrive
// zero-filled in the result types and leave in their declared layouts (a
// kernel may replace one by an operand it computed in place).
using LapackKernel = Status (*)(const LapackAttrs& attrs, std::span<Tensor> operands,
                                std::span<Tensor> results);
LapackKernel GetLapackKernel(kernels_abi::LapackTarget target);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CUSTOM_CALLS_LAPACK_KERNELS_H_
