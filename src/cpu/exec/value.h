// plugrt CPU executor: the runtime value of one SSA value.
#ifndef PLUGRT_CPU_EXEC_VALUE_H_
#define PLUGRT_CPU_EXEC_VALUE_H_

#include <vector>

#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// A tensor, a tuple of values, or a token.
struct RtValue {
  enum class Kind : uint8_t { kTensor, kTuple, kToken };
  Kind kind = Kind::kToken;
  Tensor tensor;               // kTensor
  std::vector<RtValue> tuple;  // kTuple

  static RtValue Of(Tensor t) {
    RtValue v;
    v.kind = Kind::kTensor;
    v.tensor = std::move(t);
    return v;
  }
  static RtValue Tuple(std::vector<RtValue> elements) {
    RtValue v;
    v.kind = Kind::kTuple;
    v.tuple = std::move(elements);
    return v;
  }
  static RtValue Token() { return RtValue(); }
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_VALUE_H_
