// plugrt filesystems: whole-file reads and writes on any scheme, through the
// process's registry (registry.h). What the rest of plugrt calls.
#ifndef PLUGRT_FILESYSTEM_FILE_IO_H_
#define PLUGRT_FILESYSTEM_FILE_IO_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "filesystem/filesystem.h"

namespace plugrt::fs {

// The whole file at `uri`. A directory is INVALID_ARGUMENT; errors name the
// URI.
StatusOr<std::string> ReadFile(const std::string& uri);
// Creates or replaces the file at `uri` with `bytes`.
Status WriteFile(const std::string& uri, std::string_view bytes);
// Writes `bytes` under a temporary name beside `uri`, then renames it over
// `uri`: readers see the old file or the whole new one, never a part (on
// schemes whose rename is atomic: local, ram, and plugins that supply
// rename_file). The temporary is removed on failure.
Status WriteFileAtomically(const std::string& uri, std::string_view bytes);
// A name no other thread or process of this machine is using:
// "<pid>.<thread>.<counter>.<random>".
std::string UniqueSuffix();

Status DeleteFile(const std::string& uri);
Status RecursivelyCreateDir(const std::string& uri);
StatusOr<FileStatistics> Stat(const std::string& uri);
StatusOr<std::vector<std::string>> GetChildren(const std::string& uri);
StatusOr<std::vector<std::string>> GetMatchingPaths(const std::string& pattern);

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_FILE_IO_H_
