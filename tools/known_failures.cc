#include "tools/known_failures.h"

#include <sstream>

namespace plugrt::tools {
namespace {

constexpr size_t kReasonLength = 200;

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

StatusOr<FailureList> ParseKnownFailures(std::string_view text, std::string_view path) {
  FailureList list;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    size_t start = 0;
    while (start < line.size() && IsBlank(line[start])) ++start;
    if (start == line.size() || line[start] == '#') continue;
    size_t end = start;
    while (end < line.size() && !IsBlank(line[end])) ++end;
    std::string key = line.substr(start, end - start);
    while (end < line.size() && IsBlank(line[end])) ++end;
    std::string reason = line.substr(end);
    while (!reason.empty() && IsBlank(reason.back())) reason.pop_back();
    if (!list.emplace(key, reason).second) {
      return InvalidArgument(path, ":", number, ": '", key, "' is listed twice");
    }
  }
  return list;
}

std::string FormatKnownFailure(const std::string& key, const std::string& reason) {
  std::string line = key + "  ";
  bool blank = false;
  for (char c : reason.substr(0, reason.find('\n'))) {
    if (IsBlank(c)) {
      blank = true;
      continue;
    }
    if (blank && line.back() != ' ') line += ' ';
    blank = false;
    line += c;
  }
  if (line.size() > key.size() + 2 + kReasonLength) {
    line.resize(key.size() + 2 + kReasonLength);
    line += "...";
  }
  return line;
}

bool InScope(const std::string& key, const std::vector<std::string>& scopes) {
  for (const std::string& scope : scopes) {
    if (key.compare(0, scope.size(), scope) != 0) continue;
    if (key.size() == scope.size() || key[scope.size()] == '/' || key[scope.size()] == '#') {
      return true;
    }
  }
  return false;
}

FailureChanges CompareKnownFailures(const FailureList& known, const FailureList& current,
                                    const std::vector<std::string>& scopes) {
  FailureChanges changes;
  for (const auto& [key, reason] : current) {
    if (!known.count(key)) changes.new_failures.emplace(key, reason);
  }
  for (const auto& [key, reason] : known) {
    if (InScope(key, scopes) && !current.count(key)) changes.now_passing.emplace(key, reason);
  }
  return changes;
}

}  // namespace plugrt::tools
