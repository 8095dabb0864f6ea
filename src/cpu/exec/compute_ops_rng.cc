// plugrt CPU executor: rng and rng_bit_generator.
#include <atomic>

#include "cpu/exec/compute_ops_util.h"
#include "cpu/kernels/rng.h"

namespace plugrt::cpu::compute {

CompileResult CompileRng(const shlo::Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 3, 1));
  PLUGRT_ASSIGN_OR_RETURN(std::string distribution, EnumAttr(op, "rng_distribution", ""));
  const bool normal = distribution == "NORMAL";
  if (!normal && distribution != "UNIFORM") {
    return Invalid(op, StrCat("unknown rng_distribution '", distribution, "'"));
  }
  const shlo::Type& type = op.result(0)->type;
  if (!type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented, "rng with a dynamic result shape");
  }
  // Each execution draws a fresh stream, deterministically per compiled op.
  auto calls = std::make_shared<std::atomic<uint64_t>>(0);
  return MakeOp([op = TagOf(op), normal, element = type.element_type(), dims = type.dims(),
                 calls](const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    const uint64_t seed = 0x5EED0000u + calls->fetch_add(1);
    auto r = normal ? RngNormal(t[0], t[1], element, dims, seed)
                    : RngUniform(t[0], t[1], element, dims, seed);
    if (!r.ok()) return Annotated(op, r.status());
    return Wrap({std::move(r).value()});
  });
}

CompileResult CompileRngBitGenerator(const shlo::Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 1, 2));
  std::string name = "DEFAULT";
  if (op.attribute("rng_algorithm") != nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(name, EnumAttr(op, "rng_algorithm", "DEFAULT"));
  } else {
    PLUGRT_ASSIGN_OR_RETURN(name, EnumAttr(op, "algorithm", "DEFAULT"));
  }
  RngAlgorithm algorithm;
  if (name == "DEFAULT") {
    algorithm = RngAlgorithm::kDefault;
  } else if (name == "THREE_FRY") {
    algorithm = RngAlgorithm::kThreeFry;
  } else if (name == "PHILOX") {
    algorithm = RngAlgorithm::kPhilox;
  } else {
    return Invalid(op, StrCat("unknown rng_algorithm '", name, "'"));
  }
  const shlo::Type& type = op.result(1)->type;
  if (!type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented, "rng_bit_generator with a dynamic shape");
  }
  return MakeOp([op = TagOf(op), algorithm, element = type.element_type(), dims = type.dims()](
                    const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    auto r = RngBitGenerator(t[0], algorithm, element, dims);
    if (!r.ok()) return Annotated(op, r.status());
    return Wrap({std::move(r->state), std::move(r->bits)});
  });
}

}  // namespace plugrt::cpu::compute
