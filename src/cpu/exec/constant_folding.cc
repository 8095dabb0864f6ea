#include "cpu/exec/constant_folding.h"

namespace plugrt::cpu {

using shlo::OpCode;

bool IsFoldable(const shlo::Operation& op, bool index_values) {
  if (op.code == OpCode::kConstant || !shlo::MayFold(op.code) || op.results.empty()) {
    return false;
  }
  int64_t elements = 0;
  for (const auto& result : op.results) {
    const shlo::Type& type = result->type;
    if (!type.is_tensor() || !type.has_static_shape()) return false;
    elements += type.num_elements();
  }
  return elements <= (index_values ? kMaxFoldedIndexElements : kMaxFoldedElements);
}

}  // namespace plugrt::cpu
