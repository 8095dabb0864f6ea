// plugrt StableHLO verifier: rules of the shape ops.
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {

void RegisterShapeChecks(CheckTable& table) { (void)table; }

}  // namespace plugrt::shlo::verify
