// plugrt CPU executor: tensors from dense literals, and tensor/type checks.
#ifndef PLUGRT_CPU_EXEC_LITERAL_H_
#define PLUGRT_CPU_EXEC_LITERAL_H_

#include <string>

#include "common/status.h"
#include "cpu/kernels/tensor.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

// The tensor a kDenseElements attribute holds (splats expanded).
StatusOr<Tensor> TensorFromAttribute(const shlo::Attribute& attr);

// Whether `tensor` has exactly the element type and static shape of `type`.
bool TensorMatchesType(const Tensor& tensor, const shlo::Type& type);
// "tensor<2x3xf32>" for a runtime tensor.
std::string TensorTypeString(const Tensor& tensor);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_LITERAL_H_
