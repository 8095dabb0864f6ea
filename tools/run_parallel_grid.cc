#include "tools/run_parallel_grid.h"

#include <string>

#include "common/status.h"
#include "tools/conformance_protocol.h"

namespace plugrt::tools {

std::vector<int> RunParallelGridSizes(std::string_view text) {
  // The op in its generic form (it has no other): its name quoted, then its
  // operands; mentions in comments and symbol names do not count.
  const std::string op = StrCat("\"", kRunParallelOp, "\"(");
  std::vector<int> sizes;
  size_t at = 0;
  while ((at = text.find(op, at)) != std::string_view::npos) {
    at += op.size();
    // The op's attribute dictionary follows its operands; `programs` is the
    // first list there.
    const size_t programs = text.find("programs", at);
    const size_t next_op = text.find(op, at);
    const size_t open = programs == std::string_view::npos || programs > next_op
                            ? std::string_view::npos
                            : text.find('[', programs);
    if (open == std::string_view::npos) {
      sizes.push_back(0);
      continue;
    }
    int depth = 0, symbols = 0;
    size_t k = open;
    for (; k < text.size(); ++k) {
      if (text[k] == '[') ++depth;
      if (text[k] == ']' && --depth == 0) break;
      if (text[k] == '@') ++symbols;
    }
    sizes.push_back(depth == 0 ? symbols : 0);
    at = k;
  }
  return sizes;
}

}  // namespace plugrt::tools
