// plugrt filesystems: glob patterns, the syntax GetMatchingPaths takes.
// '*' matches any run of characters and '?' one character, neither
// crossing '/'; '[abc]', '[a-z]', '[^a-z]' match one character of (or not
// of) a set; '\' makes the next character literal.
#ifndef PLUGRT_FILESYSTEM_GLOB_H_
#define PLUGRT_FILESYSTEM_GLOB_H_

#include <string_view>

namespace plugrt::fs {

// Whether `name` matches `pattern` as a whole. A malformed class (no ']')
// matches its '[' literally.
bool GlobMatch(std::string_view pattern, std::string_view name);

// Whether `pattern` has any of the special characters above.
bool HasGlobChars(std::string_view pattern);

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_GLOB_H_
