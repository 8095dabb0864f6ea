// plugrt compiler, HLO text reader: the cursor that walks XLA's HLO text.
//
// It skips blanks and comments (`/* ... */`, `// ...`), reads the text's
// tokens (names, integers, floats, quoted strings, punctuation) and makes
// errors that name the file, line and column of the token they are about.
#ifndef PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_CURSOR_H_
#define PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::shlo::hlo {

class HloTextCursor {
 public:
  HloTextCursor(std::string_view text, std::string_view file_name)
      : text_(text), file_(file_name) {}

  // Skips blanks and comments; the next character, or '\0' at the end.
  char Peek();
  size_t pos() const { return pos_; }
  // Where the next token starts (blanks and comments skipped).
  size_t Here() {
    Peek();
    return pos_;
  }
  void set_pos(size_t pos) { pos_ = pos; }
  bool AtEnd();

  // Consumes `c` when it comes next.
  bool Eat(char c);
  // Consumes `s` when it comes next (after blanks).
  bool EatText(std::string_view s);
  // Consumes word `w` when it comes next and is not the start of a longer
  // name.
  bool EatWord(std::string_view w);
  Status Expect(char c, std::string_view where);

  // A name: an optional '%', then letters, digits, '_', '.', '-' (XLA's
  // instruction and computation names). `what` names it in errors.
  StatusOr<std::string> Name(std::string_view what);
  // Whether a name comes next.
  bool AtName();
  // A word of letters, digits and '_' (attribute names may hold '-' too:
  // control-predecessors).
  StatusOr<std::string> Word(std::string_view what);
  StatusOr<int64_t> Int(std::string_view what);
  // An unsigned integer that may exceed int64 (u64 literals).
  StatusOr<uint64_t> UInt64(std::string_view what);
  // A float: decimal, inf, -inf, nan, -nan, nan(0x...).
  StatusOr<double> Float(std::string_view what);
  // A "quoted string" with C escapes.
  StatusOr<std::string> Quoted(std::string_view what);
  // The raw text of a balanced {...} group, braces included, skipping quoted
  // strings (backend_config={...} holds JSON).
  StatusOr<std::string_view> BalancedBraces(std::string_view what);
  // The characters up to (not including) the next character in `stops`, with
  // blanks trimmed; an empty result is an error naming `what`.
  StatusOr<std::string_view> Until(std::string_view stops, std::string_view what);

  // "file:line:col: message" at byte offset `at`.
  template <typename... Args>
  Status ErrorAt(size_t at, const Args&... args) const {
    return InvalidArgument(Where(at), ": ", args...);
  }
  template <typename... Args>
  Status Error(const Args&... args) {
    Peek();
    return ErrorAt(pos_, args...);
  }
  template <typename... Args>
  Status UnimplementedAt(size_t at, const Args&... args) const {
    return Unimplemented(Where(at), ": ", args...);
  }
  std::string Where(size_t at) const;
  std::string_view text() const { return text_; }

 private:
  // A decimal integer of T (signed: an optional sign first).
  template <typename T>
  StatusOr<T> Integer(std::string_view what);
  void SkipBlanks();

  std::string_view text_;
  std::string_view file_;
  size_t pos_ = 0;
};

}  // namespace plugrt::shlo::hlo

#endif  // PLUGRT_COMPILER_IMPORTERS_HLO_HLO_TEXT_CURSOR_H_
