// plugrt CLI: a conformance file's sections (split on "// -----" lines, as
// the interpreter's files are) and what the runners share about them: the
// size of their interpreter.run_parallel grids, running one as a grid
// member, and the one-line reason of a failure.
#ifndef PLUGRT_TOOLS_CONFORMANCE_SECTIONS_H_
#define PLUGRT_TOOLS_CONFORMANCE_SECTIONS_H_

#include <string>
#include <vector>

#include "client/client.h"
#include "common/status.h"

namespace plugrt::tools {

struct Section {
  int first_line = 1;  // 1-based line of the section's first line in the file
  std::string text;    // led by blank lines, so line numbers are the file's
};

// Splits on lines starting with "// -----"; a file without one is a single
// section. Sections of only comments and blank lines are dropped.
std::vector<Section> SplitSections(const std::string& file);

// The process count of a section's interpreter.run_parallel grids, 0
// without grids; INVALID_ARGUMENT when they differ (a job has one size) or
// one cannot be read.
StatusOr<int> GridSize(const std::string& text);

// Runs a grid section as this process's member of a job (the client's
// node): its main on the client's first device; a failed check is an
// execution error.
Status RunSectionAsMember(Client& client, const std::string& text);

// The first line of an error, with the plugin's placeholder name for the
// program text replaced by `path`.
std::string Reason(const std::string& message, const std::string& path);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_CONFORMANCE_SECTIONS_H_
