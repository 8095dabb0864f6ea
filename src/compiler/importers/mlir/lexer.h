// plugrt StableHLO: the character scanner under the parser.
//
// MLIR text is not regular enough for a fixed token stream (`2x3xf32` inside
// tensor types, `[0:2]` slices, `[b, 0]x[o, i]->[b, 0]` convolution layouts),
// so the parser asks for the token it expects at the current position and
// the lexer answers with the text it matched (empty: no match, nothing
// consumed). Whitespace and `//` comments are skipped before every token.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_LEXER_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_LEXER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

class Lexer {
 public:
  // `first_line` numbers the first line of `text` (sections of a larger file).
  Lexer(std::string_view text, std::string_view file_name, int first_line = 1);

  size_t pos() const { return pos_; }
  void set_pos(size_t pos) { pos_ = pos; }
  std::string_view text() const { return text_; }

  // Skips whitespace and comments; returns the next character ('\0' at end).
  char Peek();
  // The character `ahead` places after the current position, no skipping.
  char PeekRaw(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool AtEnd() { return Peek() == '\0'; }
  // Consumes `punct` if the text continues with it.
  bool ConsumeIf(std::string_view punct);
  // Consumes the identifier `word` (not a prefix of a longer identifier).
  bool ConsumeKeyword(std::string_view word);
  // True if the next identifier is `word`, without consuming it.
  bool PeekKeyword(std::string_view word);

  // [A-Za-z_][A-Za-z0-9_$.]*  (op and attribute names, keywords, types).
  std::string_view LexBareId();
  // The name after a sigil: [A-Za-z0-9_$.-]+ (no trivia skipped).
  std::string_view LexSuffixId();
  // -?[0-9]+(.[0-9]*)?([eE][+-]?[0-9]+)? or -?0x[0-9a-fA-F]+; empty if none.
  std::string_view LexNumber();
  // Only -?[0-9]+ (dimension sizes, slice bounds); empty if none.
  std::string_view LexInteger();
  // A "..." string with MLIR escapes (\", \\, \n, \t, \XX hex).
  StatusOr<std::string> LexString();
  // Skips a balanced <...> group starting at the current '<' (strings and
  // `->` inside are not brackets); returns the text including the brackets.
  StatusOr<std::string_view> SkipAngleGroup();

  Location LocationAt(size_t pos) const;
  Location CurrentLocation() { Peek(); return LocationAt(pos_); }
  // INVALID_ARGUMENT "file:line:col: message".
  template <typename... Args>
  Status ErrorAt(size_t pos, const Args&... args) const {
    return InvalidArgument(LocationAt(pos).ToString(), ": ", args...);
  }
  // "expected <what>, found '<next text>'" at the next token.
  Status Expected(std::string_view what);
  // A short quote of the text at the current position for messages.
  std::string Describe();

 private:
  std::string_view text_;
  std::shared_ptr<const std::string> file_;
  std::vector<size_t> line_starts_;
  int first_line_;
  size_t pos_ = 0;
};

bool IsIdStart(char c);
bool IsIdChar(char c);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_LEXER_H_
