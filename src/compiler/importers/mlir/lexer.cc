#include "compiler/importers/mlir/lexer.h"

#include <algorithm>

namespace plugrt::shlo {

bool IsIdStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdChar(char c) {
  return IsIdStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.';
}
static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
static bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

Lexer::Lexer(std::string_view text, std::string_view file_name, int first_line)
    : text_(text), file_(std::make_shared<const std::string>(file_name)), first_line_(first_line) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

char Lexer::Peek() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      size_t end = text_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    } else {
      return c;
    }
  }
  return '\0';
}

bool Lexer::ConsumeIf(std::string_view punct) {
  Peek();
  if (text_.substr(pos_, punct.size()) != punct) return false;
  pos_ += punct.size();
  return true;
}

bool Lexer::PeekKeyword(std::string_view word) {
  Peek();
  if (text_.substr(pos_, word.size()) != word) return false;
  return pos_ + word.size() >= text_.size() || !IsIdChar(text_[pos_ + word.size()]);
}

bool Lexer::ConsumeKeyword(std::string_view word) {
  if (!PeekKeyword(word)) return false;
  pos_ += word.size();
  return true;
}

std::string_view Lexer::LexBareId() {
  Peek();
  if (pos_ >= text_.size() || !IsIdStart(text_[pos_])) return {};
  size_t start = pos_;
  while (pos_ < text_.size() && IsIdChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view Lexer::LexSuffixId() {
  size_t start = pos_;
  while (pos_ < text_.size() && (IsIdChar(text_[pos_]) || text_[pos_] == '-')) {
    // '-' belongs to a name unless it starts '->'.
    if (text_[pos_] == '-' && PeekRaw(1) == '>') break;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

std::string_view Lexer::LexInteger() {
  Peek();
  size_t start = pos_;
  size_t p = pos_;
  if (p < text_.size() && text_[p] == '-') ++p;
  if (p >= text_.size() || !IsDigit(text_[p])) return {};
  while (p < text_.size() && IsDigit(text_[p])) ++p;
  pos_ = p;
  return text_.substr(start, p - start);
}

std::string_view Lexer::LexNumber() {
  Peek();
  size_t start = pos_;
  size_t p = pos_;
  if (p < text_.size() && (text_[p] == '-' || text_[p] == '+')) ++p;
  if (p >= text_.size() || !IsDigit(text_[p])) return {};
  if (text_[p] == '0' && p + 1 < text_.size() && (text_[p + 1] == 'x' || text_[p + 1] == 'X') &&
      p + 2 < text_.size() && IsHex(text_[p + 2])) {
    p += 2;
    while (p < text_.size() && IsHex(text_[p])) ++p;
  } else {
    while (p < text_.size() && IsDigit(text_[p])) ++p;
    if (p < text_.size() && text_[p] == '.') {
      ++p;
      while (p < text_.size() && IsDigit(text_[p])) ++p;
    }
    if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
      size_t q = p + 1;
      if (q < text_.size() && (text_[q] == '+' || text_[q] == '-')) ++q;
      if (q < text_.size() && IsDigit(text_[q])) {
        while (q < text_.size() && IsDigit(text_[q])) ++q;
        p = q;
      }
    }
  }
  pos_ = p;
  return text_.substr(start, p - start);
}

StatusOr<std::string> Lexer::LexString() {
  Peek();
  size_t start = pos_;
  if (pos_ >= text_.size() || text_[pos_] != '"') return Expected("a string");
  ++pos_;
  std::string out;
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') {
      return ErrorAt(start, "unterminated string");
    }
    char c = text_[pos_++];
    if (c == '"') break;
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (pos_ >= text_.size()) return ErrorAt(start, "unterminated string");
    char e = text_[pos_++];
    switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      default:
        if (IsHex(e) && pos_ < text_.size() && IsHex(text_[pos_])) {
          auto hex = [](char h) {
            return h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10;
          };
          out.push_back(static_cast<char>(hex(e) * 16 + hex(text_[pos_++])));
        } else {
          return ErrorAt(pos_ - 2, "unknown escape '\\", e, "' in string");
        }
    }
  }
  return out;
}

StatusOr<std::string_view> Lexer::SkipAngleGroup() {
  Peek();
  size_t start = pos_;
  if (pos_ >= text_.size() || text_[pos_] != '<') return Expected("'<'");
  int depth = 0;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '"') {
      auto s = LexString();
      if (!s.ok()) return s.status();
      continue;
    }
    if (c == '-' && PeekRaw(1) == '>') {
      pos_ += 2;
      continue;
    }
    ++pos_;
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        if (c != '>') return ErrorAt(pos_ - 1, "unbalanced '", c, "' in <...>");
        return text_.substr(start, pos_ - start);
      }
      if (depth < 0) return ErrorAt(pos_ - 1, "unbalanced '", c, "'");
    }
  }
  return ErrorAt(start, "unterminated '<'");
}

Location Lexer::LocationAt(size_t pos) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
  size_t line_index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  Location loc;
  loc.file = file_;
  loc.line = static_cast<int>(line_index) + first_line_;
  loc.column = static_cast<int>(pos - line_starts_[line_index]) + 1;
  return loc;
}

std::string Lexer::Describe() {
  if (Peek() == '\0') return "end of input";
  size_t end = pos_;
  if (IsIdChar(text_[end]) || text_[end] == '%' || text_[end] == '@' || text_[end] == '#' ||
      text_[end] == '!' || text_[end] == '^') {
    ++end;
    while (end < text_.size() && end - pos_ < 32 && IsIdChar(text_[end])) ++end;
  } else {
    ++end;
  }
  return StrCat("'", text_.substr(pos_, end - pos_), "'");
}

Status Lexer::Expected(std::string_view what) {
  std::string found = Describe();
  return ErrorAt(pos_, "expected ", what, ", found ", found);
}

}  // namespace plugrt::shlo
