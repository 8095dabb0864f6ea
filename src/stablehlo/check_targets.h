// plugrt StableHLO: the conformance corpus' checks written as custom calls.
//
// The check dialect's ops have op codes of their own (op_code.h); these are
// the same checks spelled as stablehlo.custom_call targets. The verifier
// checks their operands; the CPU backend registers them only when the
// conformance harness is enabled.
#ifndef PLUGRT_STABLEHLO_CHECK_TARGETS_H_
#define PLUGRT_STABLEHLO_CHECK_TARGETS_H_

#include <string_view>

namespace plugrt::shlo {

inline constexpr std::string_view kCheckExpectEqTarget = "check.expect_eq";
inline constexpr std::string_view kCheckExpectCloseTarget = "check.expect_close";
inline constexpr std::string_view kCheckExpectAlmostEqTarget = "check.expect_almost_eq";
// The older spelling of the quantized corpus: integers compared exactly,
// floats within 1e-4; its result is a tensor<i1> true when the check holds.
inline constexpr std::string_view kCheckEqTarget = "check.eq";
inline constexpr std::string_view kCheckTargets[] = {
    kCheckExpectEqTarget, kCheckExpectCloseTarget, kCheckExpectAlmostEqTarget, kCheckEqTarget};

constexpr bool IsCheckTarget(std::string_view name) {
  for (std::string_view target : kCheckTargets) {
    if (target == name) return true;
  }
  return false;
}

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_CHECK_TARGETS_H_
