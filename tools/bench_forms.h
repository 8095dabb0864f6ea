// plugrt bench: parse + verify + compile of one program from its text and
// from the portable artifact plugrt's writer makes of it in the same process
// (bytecode written for the current StableHLO version), timed alternately in
// one run so that both see the same machine state.
#ifndef PLUGRT_TOOLS_BENCH_FORMS_H_
#define PLUGRT_TOOLS_BENCH_FORMS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "client/client.h"
#include "common/status.h"
#include "tools/bench_timing.h"

namespace plugrt::tools {

struct CompileFormsResult {
  TimeSummary text;      // ms per compile from the text
  TimeSummary bytecode;  // ms per compile from the artifact
  size_t text_bytes = 0;
  size_t bytecode_bytes = 0;
  double bytecode_vs_text = 0;  // median bytecode ms / median text ms
};

// `policy` counts pairs (one text and one bytecode compile each).
StatusOr<CompileFormsResult> MeasureCompileForms(const Client& client, std::string_view text,
                                                 const std::string& path,
                                                 const RepeatPolicy& policy);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_FORMS_H_
