#include "cpu/kernels/convolution_epilogue.h"

#include "common/status.h"

namespace plugrt::cpu {

fused::Kernel EpilogueTailKernel(const ConvolutionEpilogue& epilogue, size_t first_step,
                                 const std::vector<int64_t>& result_dims) {
  fused::Kernel kernel;
  kernel.inputs.push_back({fused::Source::kFull, ElementType::kF32});
  for (ConvolutionEpilogue::Operand operand : epilogue.inputs) {
    fused::Source source = fused::Source::kFull;
    if (operand == ConvolutionEpilogue::Operand::kPerChannel) source = fused::Source::kColumn;
    if (operand == ConvolutionEpilogue::Operand::kScalar) source = fused::Source::kScalar;
    kernel.inputs.push_back({source, ElementType::kF32});
  }
  int next = 0;
  int value = next++;
  kernel.code.push_back({fused::Op::kLoad, value, 0});
  for (size_t s = first_step; s < epilogue.steps.size(); ++s) {
    const ConvolutionEpilogue::Step& step = epilogue.steps[s];
    const int operand = next++;
    if (step.input >= 0) {
      kernel.code.push_back({fused::Op::kLoad, operand, step.input + 1});
    } else {
      fused::Instr constant{fused::Op::kConst, operand};
      constant.imm = step.value;
      kernel.code.push_back(constant);
    }
    fused::Op op = fused::Op::kAdd;
    switch (step.kind) {
      case ConvolutionEpilogue::Kind::kAdd: op = fused::Op::kAdd; break;
      case ConvolutionEpilogue::Kind::kSubtract: op = fused::Op::kSub; break;
      case ConvolutionEpilogue::Kind::kMultiply: op = fused::Op::kMul; break;
      case ConvolutionEpilogue::Kind::kMaximum: op = fused::Op::kMax; break;
      case ConvolutionEpilogue::Kind::kMinimum: op = fused::Op::kMin; break;
    }
    const int out = next++;
    kernel.code.push_back({op, out, value, operand});
    value = out;
  }
  kernel.outputs.push_back({value, ElementType::kF32, result_dims});
  kernel.num_registers = next;
  return kernel;
}

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
