// plugrt CPU backend: what one compile does about its passes.
//
// The switches come from the client's optimizer plugins and user switches
// (ProgramOptions) and the compile option override kPassesOverride; the
// report and the modules after chosen passes go to the directory the
// override kDumpToOverride names (what `plugrt compile --passes` and
// `--print-after` read).
#ifndef PLUGRT_CPU_COMPILE_PASSES_H_
#define PLUGRT_CPU_COMPILE_PASSES_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "compile_options/compile_options.h"
#include "cpu/exec/compiled_op.h"
#include "passes/pass_pipeline.h"

namespace plugrt::cpu {

// The merged switches for a compile with `options`; warnings included.
// INVALID_ARGUMENT for a malformed kPassesOverride or an unknown "plugrt_"
// override.
StatusOr<passes::PassConfig> ResolveCompilePasses(const ProgramOptions& program,
                                                  const CompileOptions& options);

// The report and modules one compile writes, when asked to.
class CompileDump {
 public:
  explicit CompileDump(const CompileOptions& options);
  // Writes the module after `pass` when print-after names it (or "all").
  passes::PassRunner::Observer Observer();
  // Writes `report` as passes.txt (nothing when no directory was given).
  // Errors of the dump never fail the compile: they end in the report.
  void WriteReport(const passes::PassReport& report) const;

 private:
  std::string directory_;
  std::vector<std::string> print_after_;
  int written_ = 0;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_COMPILE_PASSES_H_
