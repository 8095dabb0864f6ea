#include "compiler/importers/mlir/attribute_text.h"

namespace plugrt::shlo {

std::string NormalizedAttributeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  bool pending_space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      pending_space = true;
      continue;
    }
    const bool closes = c == '>' || c == ']' || c == ')' || c == '}' || c == ',';
    const bool after_open = !out.empty() && (out.back() == '<' || out.back() == '[' ||
                                             out.back() == '(' || out.back() == '{');
    if (pending_space && !out.empty() && !closes && !after_open) out += ' ';
    pending_space = false;
    out += c;
    if (c == '"') in_string = true;
  }
  return out;
}

}  // namespace plugrt::shlo
