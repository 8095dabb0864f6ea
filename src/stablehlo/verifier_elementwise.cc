// plugrt StableHLO verifier: rules of the elementwise ops.
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {

void RegisterElementwiseChecks(CheckTable& table) { (void)table; }

}  // namespace plugrt::shlo::verify
