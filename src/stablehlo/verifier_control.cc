// plugrt StableHLO verifier: rules of the control ops.
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {

void RegisterControlChecks(CheckTable& table) { (void)table; }

}  // namespace plugrt::shlo::verify
