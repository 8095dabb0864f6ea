// plugrt CLI: the list of conformance programs known to fail, kept in the
// repository so that `plugrt conformance --known-failures FILE` notices any
// change (a new failure offset by a new pass leaves the counts unchanged).
//
// One entry a line: a key, blanks, and the reason (the error, for people;
// only keys are compared). `#` starts a comment line.
//   testdata/foo.mlir  UNIMPLEMENTED: ...
//   interpret/bar.mlir#3  ABORTED: ...
// A key is the file's path below the folder given to `conformance`, led by
// that folder's name; files of several sections (`// -----`) are listed by
// section, `#K` counting from 1.
#ifndef PLUGRT_TOOLS_KNOWN_FAILURES_H_
#define PLUGRT_TOOLS_KNOWN_FAILURES_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plugrt::tools {

// Key -> reason.
using FailureList = std::map<std::string, std::string>;

// Parses the text of a list; errors name `path` and the line.
StatusOr<FailureList> ParseKnownFailures(std::string_view text, std::string_view path);

// One line of a list (no newline): the key, two blanks, the reason's first
// line with blanks collapsed, shortened to a readable length.
std::string FormatKnownFailure(const std::string& key, const std::string& reason);

// True when `key` lies under one of `scopes` (a key itself, or a folder or
// file name that keys start with, followed by '/' or '#').
bool InScope(const std::string& key, const std::vector<std::string>& scopes);

struct FailureChanges {
  FailureList new_failures;  // failing now, not listed
  FailureList now_passing;   // listed (in scope), not failing now
  bool empty() const { return new_failures.empty() && now_passing.empty(); }
};

// Compares what fails now with the entries of `known` in `scopes`; entries
// outside them (another folder's) are not compared.
FailureChanges CompareKnownFailures(const FailureList& known, const FailureList& current,
                                    const std::vector<std::string>& scopes);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_KNOWN_FAILURES_H_
