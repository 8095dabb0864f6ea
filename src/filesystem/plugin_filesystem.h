// plugrt filesystems: the schemes of a filesystem plugin
// (include/plugrt/filesystem_c_api.h) as FileSystem objects.
//
// Runs the plugin's init function, checks what it filled (versions, table
// sizes, required operations, allocator) and copies the tables, keeping for
// each table the operations both sides know: a larger (newer) table is cut
// to this runtime's size, a smaller (older) one padded with NULLs, which the
// core then serves with its defaults (filesystem.h) or UNIMPLEMENTED.
#ifndef PLUGRT_FILESYSTEM_PLUGIN_FILESYSTEM_H_
#define PLUGRT_FILESYSTEM_PLUGIN_FILESYSTEM_H_

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "filesystem/filesystem.h"
#include "plugrt/filesystem_c_api.h"

namespace plugrt::fs {

struct PluginScheme {
  std::string scheme;
  std::shared_ptr<FileSystem> filesystem;
};

// Calls `init` (the plugin at `path`, which names it in errors) and returns
// one initialized filesystem per scheme it registers. Any invalid scheme or
// table refuses the whole plugin, naming the scheme, the table and the
// operation or numbers at fault.
StatusOr<std::vector<PluginScheme>> InitFilesystemPlugin(PLUGRT_FilesystemPluginInitFn init,
                                                         const std::string& path);

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_PLUGIN_FILESYSTEM_H_
