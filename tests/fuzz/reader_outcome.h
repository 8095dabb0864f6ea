// What every program reader's fuzz target asks of one input: the reader
// gives a module, which must survive the verifier, or refuses the input with
// INVALID_ARGUMENT (damage) or UNIMPLEMENTED (something it does not take);
// any other outcome, like a crash, is a bug and aborts the run.
#ifndef PLUGRT_TESTS_FUZZ_READER_OUTCOME_H_
#define PLUGRT_TESTS_FUZZ_READER_OUTCOME_H_

#include <cstdlib>
#include <memory>

#include "common/status.h"
#include "stablehlo/ir.h"
#include "stablehlo/verifier.h"

namespace plugrt::fuzz {

inline void CheckReaderOutcome(const StatusOr<std::unique_ptr<shlo::Module>>& module) {
  if (module.ok()) {
    (void)shlo::VerifyModule(**module);
    return;
  }
  const StatusCode code = module.status().code();
  if (code != StatusCode::kInvalidArgument && code != StatusCode::kUnimplemented) std::abort();
}

}  // namespace plugrt::fuzz

#endif  // PLUGRT_TESTS_FUZZ_READER_OUTCOME_H_
