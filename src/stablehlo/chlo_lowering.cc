// Placeholder until the CHLO engineer's pass lands: reports the first CHLO op.
#include "stablehlo/chlo_lowering.h"

namespace plugrt::shlo {
namespace {
Status FindChlo(const Region& region) {
  for (const auto& block : region.blocks) {
    for (const auto& op : block->operations) {
      if (op->name.rfind("chlo.", 0) == 0) {
        return Unimplemented(op->location.ToString(), ": ", op->name, ": no CHLO lowering yet");
      }
      for (const auto& nested : op->regions) PLUGRT_RETURN_IF_ERROR(FindChlo(*nested));
    }
  }
  return OkStatus();
}
}  // namespace

Status LowerChlo(Module& module) {
  for (const auto& function : module.functions) {
    if (function->body) PLUGRT_RETURN_IF_ERROR(FindChlo(*function->body));
  }
  return OkStatus();
}

}  // namespace plugrt::shlo
