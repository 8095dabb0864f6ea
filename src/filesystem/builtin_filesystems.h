// plugrt filesystems: built-in schemes. Each is created by the registry
// (registry.cc); tests may create their own.
#ifndef PLUGRT_FILESYSTEM_BUILTIN_FILESYSTEMS_H_
#define PLUGRT_FILESYSTEM_BUILTIN_FILESYSTEMS_H_

#include <memory>

#include "filesystem/filesystem.h"

namespace plugrt::fs {

// Plain paths and file:// URIs (file:///abs/path), through POSIX calls.
// Renames are atomic (rename(2)).
std::shared_ptr<FileSystem> NewLocalFileSystem();
// ram://path: files and directories in this process's memory, gone when it
// exits. The root ram:// always exists; renames are atomic.
std::shared_ptr<FileSystem> NewRamFileSystem();
// http:// and https:// URLs, read-only, over libcurl: Stat is a HEAD
// request, reading GETs the whole body once per opened file. Redirects are
// followed; a connection that stalls for 30 s fails (UNAVAILABLE).
std::shared_ptr<FileSystem> NewHttpFileSystem();

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_BUILTIN_FILESYSTEMS_H_
