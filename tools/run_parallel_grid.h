// plugrt CLI: the process counts of the interpreter.run_parallel grids in a
// conformance program's text (the function symbols of each op's `programs`
// list), for `plugrt conformance --processes`, which runs a grid as a job of
// one OS process per member. A text scan: the members compile the program
// for real, which checks everything else.
#ifndef PLUGRT_TOOLS_RUN_PARALLEL_GRID_H_
#define PLUGRT_TOOLS_RUN_PARALLEL_GRID_H_

#include <string_view>
#include <vector>

namespace plugrt::tools {

// One entry per interpreter.run_parallel op, in text order; 0 for an op
// without a readable `programs` list.
std::vector<int> RunParallelGridSizes(std::string_view text);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_RUN_PARALLEL_GRID_H_
