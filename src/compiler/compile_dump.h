// plugrt compiler: the report and modules one compile writes when asked to.
//
// The compile option override kDumpToOverride names a directory: the pass
// report goes there as passes.txt, and the module after each pass that
// kPrintAfterOverride names (or "all") as after.NN.PASS.mlir (what
// `plugrt compile --passes` and `--print-after` read).
#ifndef PLUGRT_COMPILER_COMPILE_DUMP_H_
#define PLUGRT_COMPILER_COMPILE_DUMP_H_

#include <string>
#include <vector>

#include "compile_options/compile_options.h"
#include "compiler/pass_runner.h"

namespace plugrt::compiler {

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

// The text value of the compile option override `name`, or null.
const std::string* TextOverride(const CompileOptions& options, const char* name);

}  // namespace plugrt::compiler

#endif  // PLUGRT_COMPILER_COMPILE_DUMP_H_
