// plugrt StableHLO verifier: rules of the compute ops.
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {

void RegisterComputeChecks(CheckTable& table) { (void)table; }

}  // namespace plugrt::shlo::verify
