#include "compiler/importers/hlo/hlo_text_cursor.h"

#include <cerrno>
#include <algorithm>
#include <charconv>
#include <type_traits>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace plugrt::shlo::hlo {
namespace {

bool IsHloNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}
bool IsHloWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool IsHloDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void HloTextCursor::SkipBlanks() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      const size_t end = text_.find("*/", pos_ + 2);
      pos_ = end == std::string_view::npos ? text_.size() : end + 2;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      const size_t end = text_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    } else {
      return;
    }
  }
}

char HloTextCursor::Peek() {
  SkipBlanks();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool HloTextCursor::AtEnd() {
  SkipBlanks();
  return pos_ >= text_.size();
}

bool HloTextCursor::Eat(char c) {
  if (Peek() != c || AtEnd()) return false;
  ++pos_;
  return true;
}

bool HloTextCursor::EatText(std::string_view s) {
  SkipBlanks();
  if (text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

bool HloTextCursor::EatWord(std::string_view w) {
  SkipBlanks();
  if (text_.substr(pos_, w.size()) != w) return false;
  const size_t end = pos_ + w.size();
  if (end < text_.size() && IsHloNameChar(text_[end])) return false;
  pos_ = end;
  return true;
}

Status HloTextCursor::Expect(char c, std::string_view where) {
  if (Eat(c)) return OkStatus();
  if (AtEnd()) return Error("expected '", std::string(1, c), "' ", where, ", found the end of the text");
  return Error("expected '", std::string(1, c), "' ", where, ", found '",
               std::string(1, text_[pos_]), "'");
}

bool HloTextCursor::AtName() {
  const char c = Peek();
  return c == '%' || IsHloWordChar(c);
}

StatusOr<std::string> HloTextCursor::Name(std::string_view what) {
  SkipBlanks();
  size_t p = pos_;
  if (p < text_.size() && text_[p] == '%') ++p;
  const size_t start = p;
  while (p < text_.size() && IsHloNameChar(text_[p])) ++p;
  if (p == start) return Error("expected ", what);
  pos_ = p;
  return std::string(text_.substr(start, p - start));
}

StatusOr<std::string> HloTextCursor::Word(std::string_view what) {
  SkipBlanks();
  size_t p = pos_;
  while (p < text_.size() && (IsHloWordChar(text_[p]) || text_[p] == '-')) ++p;
  if (p == pos_) return Error("expected ", what);
  std::string word(text_.substr(pos_, p - pos_));
  pos_ = p;
  return word;
}

template <typename T>
StatusOr<T> HloTextCursor::Integer(std::string_view what) {
  SkipBlanks();
  size_t p = pos_;
  constexpr bool kSigned = std::is_signed_v<T>;
  if (kSigned && p < text_.size() && (text_[p] == '-' || text_[p] == '+')) ++p;
  const size_t digits = p;
  while (p < text_.size() && IsHloDigit(text_[p])) ++p;
  if (p == digits) return Error("expected an ", kSigned ? "" : "unsigned ", "integer (", what, ")");
  // from_chars takes '-' but not '+'.
  const size_t from = text_[pos_] == '+' ? pos_ + 1 : pos_;
  T value = 0;
  const auto [end, ec] = std::from_chars(text_.data() + from, text_.data() + p, value);
  if (ec == std::errc::result_out_of_range || end != text_.data() + p) {
    return Error(what, " ", text_.substr(pos_, p - pos_), " is out of the 64-bit range");
  }
  pos_ = p;
  return value;
}

StatusOr<int64_t> HloTextCursor::Int(std::string_view what) { return Integer<int64_t>(what); }

StatusOr<uint64_t> HloTextCursor::UInt64(std::string_view what) {
  return Integer<uint64_t>(what);
}

StatusOr<double> HloTextCursor::Float(std::string_view what) {
  SkipBlanks();
  size_t p = pos_;
  bool negative = false;
  if (p < text_.size() && (text_[p] == '-' || text_[p] == '+')) {
    negative = text_[p] == '-';
    ++p;
  }
  auto word_at = [&](std::string_view w) {
    return text_.substr(p, w.size()) == w &&
           (p + w.size() >= text_.size() || !IsHloWordChar(text_[p + w.size()]));
  };
  if (word_at("inf")) {
    pos_ = p + 3;
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (text_.substr(p, 3) == "nan") {
    p += 3;
    if (p < text_.size() && text_[p] == '(') {  // nan(0x...): a payload
      const size_t close = text_.find(')', p);
      if (close == std::string_view::npos) return ErrorAt(p, "unterminated NaN payload");
      p = close + 1;
    }
    pos_ = p;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return negative ? -nan : nan;
  }
  const size_t start = p;
  while (p < text_.size() &&
         (IsHloDigit(text_[p]) || text_[p] == '.' || text_[p] == 'e' || text_[p] == 'E' ||
          ((text_[p] == '-' || text_[p] == '+') && p > start &&
           (text_[p - 1] == 'e' || text_[p - 1] == 'E')))) {
    ++p;
  }
  if (p == start) return Error("expected a number (", what, ")");
  std::string token(text_.substr(pos_, p - pos_));
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (end != token.c_str() + token.size()) return Error("'", token, "' is not a number (", what, ")");
  pos_ = p;
  return value;
}

StatusOr<std::string> HloTextCursor::Quoted(std::string_view what) {
  if (Peek() != '"') return Error("expected a quoted string (", what, ")");
  const size_t start = pos_;
  ++pos_;
  std::string out;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    char c = text_[pos_++];
    if (c == '\\' && pos_ < text_.size()) {
      const char e = text_[pos_++];
      switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
          int v = e - '0';
          for (int i = 0; i < 2 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7'; ++i) {
            v = v * 8 + (text_[pos_++] - '0');
          }
          c = static_cast<char>(v);
          break;
        }
        case 'x': {
          int v = 0, n = 0;
          while (n < 2 && pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
            const char h = text_[pos_++];
            v = v * 16 + (IsHloDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
            ++n;
          }
          c = static_cast<char>(v);
          break;
        }
        default: c = e;  // \" \\ \' and the like
      }
    }
    out.push_back(c);
  }
  if (pos_ >= text_.size()) return ErrorAt(start, "unterminated string (", what, ")");
  ++pos_;
  return out;
}

StatusOr<std::string_view> HloTextCursor::BalancedBraces(std::string_view what) {
  if (Peek() != '{') return Error("expected '{' (", what, ")");
  const size_t start = pos_;
  int depth = 0;
  size_t p = pos_;
  while (p < text_.size()) {
    const char c = text_[p];
    if (c == '"') {
      ++p;
      while (p < text_.size() && text_[p] != '"') p += text_[p] == '\\' ? 2 : 1;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) {
        pos_ = p + 1;
        return text_.substr(start, pos_ - start);
      }
    }
    ++p;
  }
  return ErrorAt(start, "unbalanced '{' (", what, ")");
}

StatusOr<std::string_view> HloTextCursor::Until(std::string_view stops, std::string_view what) {
  SkipBlanks();
  size_t p = pos_;
  while (p < text_.size() && stops.find(text_[p]) == std::string_view::npos) ++p;
  std::string_view token = text_.substr(pos_, p - pos_);
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\t')) {
    token.remove_suffix(1);
  }
  if (token.empty()) return Error("expected ", what);
  pos_ = p;
  return token;
}

std::string HloTextCursor::Where(size_t at) const {
  at = std::min(at, text_.size());
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < at; ++i) {
    if (text_[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return StrCat(file_, ":", line, ":", at - line_start + 1);
}

}  // namespace plugrt::shlo::hlo
