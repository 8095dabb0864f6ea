#include "cpu/kernels/convolution_epilogue.h"

#include "common/status.h"

namespace plugrt::cpu {

std::string ConvolutionEpilogue::ToString() const {
  std::string out;
  for (const Step& step : steps) {
    if (!out.empty()) out += ", ";
    switch (step.kind) {
      case Kind::kAdd: out += "add("; break;
      case Kind::kSubtract: out += "sub("; break;
      case Kind::kMultiply: out += "mul("; break;
      case Kind::kMaximum: out += "max("; break;
      case Kind::kMinimum: out += "min("; break;
    }
    if (step.input < 0) {
      out += StrCat(step.value);
    } else {
      switch (inputs[static_cast<size_t>(step.input)]) {
        case Operand::kPerChannel: out += "per-channel "; break;
        case Operand::kFull: out += "tensor "; break;
        case Operand::kScalar: out += "scalar "; break;
      }
      out += StrCat(step.input);
    }
    out += ")";
  }
  return out;
}

}  // namespace plugrt::cpu
