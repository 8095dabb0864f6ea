#include "filesystem/glob.h"

namespace plugrt::fs {
namespace {

// Matches the class starting at pattern[at] == '[' against `c`; sets `end`
// to the index after ']'. False (and end = npos) for an unterminated class.
bool MatchClass(std::string_view pattern, size_t at, char c, size_t* end) {
  size_t i = at + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '^' || pattern[i] == '!')) {
    negate = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    char lo = pattern[i];
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      if (hi == '\\' && i + 3 < pattern.size()) {
        hi = pattern[i + 3];
        ++i;
      }
      i += 2;
    }
    if (lo <= c && c <= hi) matched = true;
    ++i;
  }
  if (i >= pattern.size()) {
    *end = std::string_view::npos;
    return false;
  }
  *end = i + 1;
  return matched != negate;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view name) {
  // Iterative matching with one backtrack point for the last '*' (enough,
  // since '*' never crosses '/', and a later '*' supersedes an earlier one).
  size_t p = 0, n = 0;
  size_t star_p = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    bool advanced = false;
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        star_p = p++;
        star_n = n;
        continue;
      }
      if (pc == '?' && name[n] != '/') {
        ++p, ++n;
        advanced = true;
      } else if (pc == '[') {
        size_t end = 0;
        if (MatchClass(pattern, p, name[n], &end)) {
          p = end, ++n;
          advanced = true;
        } else if (end == std::string_view::npos && name[n] == '[') {
          ++p, ++n;  // unterminated: a literal '['
          advanced = true;
        }
      } else if (pc == '\\' && p + 1 < pattern.size()) {
        if (pattern[p + 1] == name[n]) {
          p += 2, ++n;
          advanced = true;
        }
      } else if (pc == name[n]) {
        ++p, ++n;
        advanced = true;
      }
    }
    if (advanced) continue;
    // Backtrack: let the last '*' take one more character (never a '/').
    if (star_p == std::string_view::npos || name[star_n] == '/') return false;
    p = star_p + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool HasGlobChars(std::string_view pattern) {
  return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

}  // namespace plugrt::fs
