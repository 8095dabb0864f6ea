#include "filesystem/plugin_filesystem.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "filesystem/registry.h"

namespace plugrt::fs {
namespace {

// The bytes of a table up to and including its last required operation.
#define PLUGRT_FS_REQUIRED_SIZE(type, last) (offsetof(type, last) + sizeof(((type*)0)->last))

// What one scheme of a plugin keeps: its copied tables and the plugin's
// free function, shared by the filesystem and every file it opens.
struct Tables {
  std::string describe;  // "filesystem plugin 'x.so', scheme 'myfs'"
  PLUGRT_FilesystemOps fs{};
  PLUGRT_RandomAccessFileOps random_access{};
  PLUGRT_WritableFileOps writable{};
  PLUGRT_ReadOnlyMemoryRegionOps region{};
  void (*plugin_free)(void*) = nullptr;
};

Status FromC(const PLUGRT_FsStatus& status, const Tables& tables) {
  if (status.code == PLUGRT_FS_OK) return OkStatus();
  const StatusCode code = status.code > 0 && status.code <= 16
                              ? static_cast<StatusCode>(status.code)
                              : StatusCode::kUnknown;
  std::string message(status.message, strnlen(status.message, sizeof(status.message)));
  return Status(code, StrCat(tables.describe, ": ", message));
}

PLUGRT_FsStatus OkC() {
  PLUGRT_FsStatus status;
  status.code = PLUGRT_FS_OK;
  status.message[0] = '\0';
  return status;
}

// Copies a plugin-allocated string array and frees it with the plugin's
// free function.
StatusOr<std::vector<std::string>> TakeEntries(int count, char** entries, const Tables& tables,
                                               std::string_view operation) {
  std::vector<std::string> out;
  if (count < 0) {
    return Internal(tables.describe, ": ", operation, " returned ", count, " with an OK status");
  }
  if (count > 0 && entries == nullptr) {
    return Internal(tables.describe, ": ", operation, " returned ", count, " entries but no array");
  }
  for (int i = 0; i < count; ++i) {
    if (entries[i] != nullptr) {
      out.emplace_back(entries[i]);
      tables.plugin_free(entries[i]);
    }
  }
  if (entries != nullptr) tables.plugin_free(entries);
  std::sort(out.begin(), out.end());
  return out;
}

class PluginRandomAccessFile final : public RandomAccessFile {
 public:
  PluginRandomAccessFile(std::shared_ptr<const Tables> tables, PLUGRT_RandomAccessFile file)
      : tables_(std::move(tables)), file_(file) {}
  ~PluginRandomAccessFile() override { tables_->random_access.cleanup(&file_); }

  StatusOr<size_t> Read(uint64_t offset, size_t n, char* buffer) const override {
    PLUGRT_FsStatus status = OkC();
    const int64_t got = tables_->random_access.read(&file_, offset, n, buffer, &status);
    if (status.code == PLUGRT_FS_OUT_OF_RANGE && got >= 0) {
      return static_cast<size_t>(std::min<uint64_t>(static_cast<uint64_t>(got), n));
    }
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    if (got < 0 || static_cast<uint64_t>(got) > n) {
      return Internal(tables_->describe, ": read returned ", got, " for ", n,
                      " bytes with an OK status");
    }
    return static_cast<size_t>(got);
  }

 private:
  std::shared_ptr<const Tables> tables_;
  PLUGRT_RandomAccessFile file_;
};

class PluginWritableFile final : public WritableFile {
 public:
  PluginWritableFile(std::shared_ptr<const Tables> tables, PLUGRT_WritableFile file,
                     int64_t start)
      : tables_(std::move(tables)), file_(file), position_(start) {}
  ~PluginWritableFile() override { tables_->writable.cleanup(&file_); }

  Status Append(std::string_view data) override {
    if (closed_) return FailedPrecondition(tables_->describe, ": append after close");
    PLUGRT_FsStatus status = OkC();
    tables_->writable.append(&file_, data.data(), data.size(), &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    position_ += static_cast<int64_t>(data.size());
    return OkStatus();
  }
  StatusOr<int64_t> Tell() override {
    if (tables_->writable.tell == nullptr) return position_;
    PLUGRT_FsStatus status = OkC();
    const int64_t at = tables_->writable.tell(&file_, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return at;
  }
  Status Flush() override { return Optional(tables_->writable.flush); }
  Status Sync() override { return Optional(tables_->writable.sync); }
  Status Close() override {
    if (closed_) return FailedPrecondition(tables_->describe, ": the file is closed already");
    closed_ = true;
    PLUGRT_FsStatus status = OkC();
    tables_->writable.close(&file_, &status);
    return FromC(status, *tables_);
  }

 private:
  Status Optional(void (*op)(const PLUGRT_WritableFile*, PLUGRT_FsStatus*)) {
    if (op == nullptr || closed_) return OkStatus();
    PLUGRT_FsStatus status = OkC();
    op(&file_, &status);
    return FromC(status, *tables_);
  }

  std::shared_ptr<const Tables> tables_;
  PLUGRT_WritableFile file_;
  int64_t position_;
  bool closed_ = false;
};

class PluginMemoryRegion final : public ReadOnlyMemoryRegion {
 public:
  PluginMemoryRegion(std::shared_ptr<const Tables> tables, PLUGRT_ReadOnlyMemoryRegion region)
      : tables_(std::move(tables)), region_(region) {}
  ~PluginMemoryRegion() override { tables_->region.cleanup(&region_); }
  const void* data() const override { return tables_->region.data(&region_); }
  uint64_t length() const override { return tables_->region.length(&region_); }

 private:
  std::shared_ptr<const Tables> tables_;
  PLUGRT_ReadOnlyMemoryRegion region_;
};

class PluginFileSystem final : public FileSystem {
 public:
  explicit PluginFileSystem(std::shared_ptr<const Tables> tables) : tables_(std::move(tables)) {}
  ~PluginFileSystem() override {
    if (initialized_) tables_->fs.cleanup(&handle_);
  }

  Status Init() {
    PLUGRT_FsStatus status = OkC();
    tables_->fs.init(&handle_, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    initialized_ = true;
    return OkStatus();
  }

  std::string Describe() const override { return tables_->describe; }

  StatusOr<FileStatistics> Stat(const std::string& uri) override {
    if (tables_->fs.stat == nullptr) return DefaultStat(uri);
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    PLUGRT_FileStatistics stats{};
    PLUGRT_FsStatus status = OkC();
    tables_->fs.stat(&handle_, path.c_str(), &stats, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return FileStatistics{stats.length, stats.mtime_nsec, stats.is_directory != 0};
  }

  StatusOr<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& uri) override {
    if (tables_->fs.new_random_access_file == nullptr) return NotSupported("reading a file");
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    PLUGRT_RandomAccessFile file{nullptr};
    PLUGRT_FsStatus status = OkC();
    tables_->fs.new_random_access_file(&handle_, path.c_str(), &file, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return std::unique_ptr<RandomAccessFile>(new PluginRandomAccessFile(tables_, file));
  }

  StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& uri) override {
    return OpenWritable(uri, tables_->fs.new_writable_file, "writing a file", false);
  }
  StatusOr<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& uri) override {
    return OpenWritable(uri, tables_->fs.new_appendable_file, "opening a file to append", true);
  }

  StatusOr<std::unique_ptr<ReadOnlyMemoryRegion>> NewReadOnlyMemoryRegion(
      const std::string& uri) override {
    if (tables_->fs.new_read_only_memory_region_from_file == nullptr) {
      return FileSystem::NewReadOnlyMemoryRegion(uri);
    }
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    PLUGRT_ReadOnlyMemoryRegion region{nullptr};
    PLUGRT_FsStatus status = OkC();
    tables_->fs.new_read_only_memory_region_from_file(&handle_, path.c_str(), &region, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return std::unique_ptr<ReadOnlyMemoryRegion>(new PluginMemoryRegion(tables_, region));
  }

  Status CreateDir(const std::string& uri) override {
    return PathOp(tables_->fs.create_dir, uri, "creating a directory");
  }
  Status RecursivelyCreateDir(const std::string& uri) override {
    if (tables_->fs.recursively_create_dir == nullptr) return FileSystem::RecursivelyCreateDir(uri);
    return PathOp(tables_->fs.recursively_create_dir, uri, "creating directories");
  }
  Status DeleteFile(const std::string& uri) override {
    return PathOp(tables_->fs.delete_file, uri, "deleting a file");
  }
  Status DeleteDir(const std::string& uri) override {
    return PathOp(tables_->fs.delete_dir, uri, "deleting a directory");
  }
  Status RenameFile(const std::string& src, const std::string& dst) override {
    if (tables_->fs.rename_file == nullptr) return FileSystem::RenameFile(src, dst);
    return TwoPathOp(tables_->fs.rename_file, src, dst);
  }
  Status CopyFile(const std::string& src, const std::string& dst) override {
    if (tables_->fs.copy_file == nullptr) return FileSystem::CopyFile(src, dst);
    return TwoPathOp(tables_->fs.copy_file, src, dst);
  }

  StatusOr<std::vector<std::string>> GetChildren(const std::string& uri) override {
    if (tables_->fs.get_children == nullptr) return NotSupported("listing a directory");
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    char** entries = nullptr;
    PLUGRT_FsStatus status = OkC();
    const int count = tables_->fs.get_children(&handle_, path.c_str(), &entries, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return TakeEntries(count, entries, *tables_, "get_children");
  }

  StatusOr<std::vector<std::string>> GetMatchingPaths(const std::string& pattern) override {
    if (tables_->fs.get_matching_paths == nullptr) return FileSystem::GetMatchingPaths(pattern);
    char** entries = nullptr;
    PLUGRT_FsStatus status = OkC();
    const int count = tables_->fs.get_matching_paths(&handle_, pattern.c_str(), &entries, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return TakeEntries(count, entries, *tables_, "get_matching_paths");
  }

 private:
  // Stat from the operations the plugin has (see the header's stat).
  StatusOr<FileStatistics> DefaultStat(const std::string& uri) {
    if (tables_->fs.new_random_access_file != nullptr) {
      // A directory may fail to open or to read: FAILED_PRECONDITION.
      StatusOr<FileStatistics> stats = [&]() -> StatusOr<FileStatistics> {
        PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, NewRandomAccessFile(uri));
        FileStatistics stats;
        std::string buffer(1 << 16, '\0');
        for (;;) {
          PLUGRT_ASSIGN_OR_RETURN(
              size_t got,
              file->Read(static_cast<uint64_t>(stats.length), buffer.size(), buffer.data()));
          if (got == 0) break;
          stats.length += static_cast<int64_t>(got);
        }
        return stats;
      }();
      if (stats.ok()) return stats;
      if (stats.status().code() != StatusCode::kNotFound &&
          stats.status().code() != StatusCode::kFailedPrecondition) {
        return stats.status();
      }
    }
    if (tables_->fs.get_children != nullptr && GetChildren(uri).ok()) {
      FileStatistics stats;
      stats.is_directory = true;
      return stats;
    }
    if (tables_->fs.new_random_access_file == nullptr && tables_->fs.get_children == nullptr) {
      return NotSupported("stat (neither stat, new_random_access_file nor get_children is "
                          "supplied)");
    }
    return NotFound(Describe(), ": ", uri, ": no such file or directory");
  }

  StatusOr<std::string> Translate(const std::string& uri) const {
    if (tables_->fs.translate_name == nullptr) return uri;
    char* translated = tables_->fs.translate_name(&handle_, uri.c_str());
    if (translated == nullptr) {
      return Internal(tables_->describe, ": translate_name returned NULL for '", uri, "'");
    }
    std::string path(translated);
    tables_->plugin_free(translated);
    return path;
  }

  using PathFn = void (*)(const PLUGRT_Filesystem*, const char*, PLUGRT_FsStatus*);
  Status PathOp(PathFn op, const std::string& uri, std::string_view what) {
    if (op == nullptr) return NotSupported(what);
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    PLUGRT_FsStatus status = OkC();
    op(&handle_, path.c_str(), &status);
    return FromC(status, *tables_);
  }
  using TwoPathFn = void (*)(const PLUGRT_Filesystem*, const char*, const char*,
                             PLUGRT_FsStatus*);
  Status TwoPathOp(TwoPathFn op, const std::string& src, const std::string& dst) {
    PLUGRT_ASSIGN_OR_RETURN(std::string from, Translate(src));
    PLUGRT_ASSIGN_OR_RETURN(std::string to, Translate(dst));
    PLUGRT_FsStatus status = OkC();
    op(&handle_, from.c_str(), to.c_str(), &status);
    return FromC(status, *tables_);
  }
  using OpenFn = void (*)(const PLUGRT_Filesystem*, const char*, PLUGRT_WritableFile*,
                          PLUGRT_FsStatus*);
  StatusOr<std::unique_ptr<WritableFile>> OpenWritable(const std::string& uri, OpenFn op,
                                                       std::string_view what, bool append) {
    if (op == nullptr) return NotSupported(what);
    int64_t start = 0;
    if (append && tables_->writable.tell == nullptr) {
      StatusOr<FileStatistics> stats = Stat(uri);
      if (stats.ok()) start = stats->length;
    }
    PLUGRT_ASSIGN_OR_RETURN(std::string path, Translate(uri));
    PLUGRT_WritableFile file{nullptr};
    PLUGRT_FsStatus status = OkC();
    op(&handle_, path.c_str(), &file, &status);
    PLUGRT_RETURN_IF_ERROR(FromC(status, *tables_));
    return std::unique_ptr<WritableFile>(new PluginWritableFile(tables_, file, start));
  }

  std::shared_ptr<const Tables> tables_;
  PLUGRT_Filesystem handle_{nullptr};
  bool initialized_ = false;
};

// Checks one table's versions and size and copies the operations both
// sides know into `core` (zeroed beyond what the plugin has).
template <typename Table>
Status CopyTable(const Table* plugin, int abi, int api, size_t size, int core_abi,
                 size_t required_size, std::string_view table_name, const std::string& where,
                 Table* core) {
  (void)api;  // the sizes say which operations exist; the API number is informative
  if (plugin == nullptr) return OkStatus();
  if (abi != core_abi) {
    return FailedPrecondition(where, ": the ", table_name, " table has ABI version ", abi,
                              ", this runtime's is ", core_abi, " (rebuild the plugin against "
                              "this plugrt's include/plugrt/filesystem_c_api.h)");
  }
  if (size < required_size) {
    return FailedPrecondition(where, ": the ", table_name, " table is ", size,
                              " bytes, smaller than its required operations (", required_size,
                              " bytes)");
  }
  std::memset(core, 0, sizeof(Table));
  std::memcpy(core, plugin, std::min(size, sizeof(Table)));
  return OkStatus();
}

Status Require(const void* op, std::string_view table, std::string_view name,
               const std::string& where) {
  if (op != nullptr) return OkStatus();
  return FailedPrecondition(where, ": the required operation ", table, ".", name,
                            " is missing (NULL)");
}

Status CheckScheme(const PLUGRT_FilesystemPluginOps& ops, Tables& tables) {
  const std::string where = tables.describe;
  if (ops.filesystem_ops == nullptr) {
    return FailedPrecondition(where, ": no filesystem table (filesystem_ops is NULL)");
  }
  PLUGRT_RETURN_IF_ERROR(CopyTable(ops.filesystem_ops, ops.filesystem_ops_abi,
                                   ops.filesystem_ops_api, ops.filesystem_ops_size,
                                   PLUGRT_FILESYSTEM_OPS_ABI,
                                   PLUGRT_FS_REQUIRED_SIZE(PLUGRT_FilesystemOps, cleanup),
                                   "filesystem", where, &tables.fs));
  PLUGRT_RETURN_IF_ERROR(CopyTable(
      ops.random_access_file_ops, ops.random_access_file_ops_abi,
      ops.random_access_file_ops_api, ops.random_access_file_ops_size,
      PLUGRT_RANDOM_ACCESS_FILE_OPS_ABI, PLUGRT_FS_REQUIRED_SIZE(PLUGRT_RandomAccessFileOps, read),
      "random-access file", where, &tables.random_access));
  PLUGRT_RETURN_IF_ERROR(CopyTable(ops.writable_file_ops, ops.writable_file_ops_abi,
                                   ops.writable_file_ops_api, ops.writable_file_ops_size,
                                   PLUGRT_WRITABLE_FILE_OPS_ABI,
                                   PLUGRT_FS_REQUIRED_SIZE(PLUGRT_WritableFileOps, close),
                                   "writable file", where, &tables.writable));
  PLUGRT_RETURN_IF_ERROR(CopyTable(
      ops.read_only_memory_region_ops, ops.read_only_memory_region_ops_abi,
      ops.read_only_memory_region_ops_api, ops.read_only_memory_region_ops_size,
      PLUGRT_READ_ONLY_MEMORY_REGION_OPS_ABI,
      PLUGRT_FS_REQUIRED_SIZE(PLUGRT_ReadOnlyMemoryRegionOps, length), "read-only memory region",
      where, &tables.region));
  const PLUGRT_FilesystemOps& fs = tables.fs;
  PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(fs.init), "filesystem", "init", where));
  PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(fs.cleanup), "filesystem", "cleanup", where));
  // Each kind of file a plugin opens needs its table, with that table's
  // required operations.
  if (fs.new_random_access_file != nullptr) {
    if (ops.random_access_file_ops == nullptr) {
      return FailedPrecondition(where, ": new_random_access_file is set but the random-access "
                                       "file table is NULL");
    }
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.random_access.cleanup),
                                   "random_access_file", "cleanup", where));
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.random_access.read),
                                   "random_access_file", "read", where));
  }
  if (fs.new_writable_file != nullptr || fs.new_appendable_file != nullptr) {
    if (ops.writable_file_ops == nullptr) {
      return FailedPrecondition(where, ": new_writable_file/new_appendable_file is set but the "
                                       "writable file table is NULL");
    }
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.writable.cleanup),
                                   "writable_file", "cleanup", where));
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.writable.append),
                                   "writable_file", "append", where));
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.writable.close),
                                   "writable_file", "close", where));
  }
  if (fs.new_read_only_memory_region_from_file != nullptr) {
    if (ops.read_only_memory_region_ops == nullptr) {
      return FailedPrecondition(where, ": new_read_only_memory_region_from_file is set but the "
                                       "read-only memory region table is NULL");
    }
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.region.cleanup),
                                   "read_only_memory_region", "cleanup", where));
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.region.data),
                                   "read_only_memory_region", "data", where));
    PLUGRT_RETURN_IF_ERROR(Require(reinterpret_cast<const void*>(tables.region.length),
                                   "read_only_memory_region", "length", where));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<PluginScheme>> InitFilesystemPlugin(PLUGRT_FilesystemPluginInitFn init,
                                                         const std::string& path) {
  const std::string plugin = StrCat("filesystem plugin '", path, "'");
  PLUGRT_FilesystemPluginInfo info;
  std::memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  try {
    init(&info);
  } catch (...) {
    // The ABI is C: nothing may unwind out of a plugin. What did is named,
    // and whatever it allocated is lost.
    return Internal(plugin, ": ", PLUGRT_FILESYSTEM_PLUGIN_INIT_SYMBOL, " threw an exception");
  }
  if (info.plugin_memory_allocate == nullptr || info.plugin_memory_free == nullptr) {
    // Without its free function nothing it allocated can be released.
    return FailedPrecondition(plugin, ": plugin_memory_allocate and plugin_memory_free must "
                                      "both be set");
  }
  void (*plugin_free)(void*) = info.plugin_memory_free;
  // Whatever happens below, the plugin's allocations are handed back.
  struct FreeInfo {
    PLUGRT_FilesystemPluginInfo& info;
    ~FreeInfo() {
      if (info.ops == nullptr) return;
      for (size_t i = 0; i < info.num_schemes; ++i) {
        PLUGRT_FilesystemPluginOps& ops = info.ops[i];
        info.plugin_memory_free(ops.scheme);
        info.plugin_memory_free(ops.filesystem_ops);
        info.plugin_memory_free(ops.random_access_file_ops);
        info.plugin_memory_free(ops.writable_file_ops);
        info.plugin_memory_free(ops.read_only_memory_region_ops);
      }
      info.plugin_memory_free(info.ops);
    }
  } free_info{info};
  if (info.num_schemes == 0) return FailedPrecondition(plugin, ": registers no scheme");
  if (info.ops == nullptr) {
    return FailedPrecondition(plugin, ": num_schemes is ", info.num_schemes, " but ops is NULL");
  }
  std::vector<std::shared_ptr<Tables>> all;
  for (size_t i = 0; i < info.num_schemes; ++i) {
    const PLUGRT_FilesystemPluginOps& ops = info.ops[i];
    if (ops.scheme == nullptr) return FailedPrecondition(plugin, ": scheme ", i, " is NULL");
    const std::string scheme = ops.scheme;
    if (!IsValidScheme(scheme)) {
      return InvalidArgument(plugin, ": '", scheme, "' is not a valid scheme name (a lowercase "
                             "letter, then letters, digits, '+', '-', '.')");
    }
    for (const auto& earlier : all) {
      if (earlier->describe.ends_with(StrCat("scheme '", scheme, "'"))) {
        return MakeError(StatusCode::kAlreadyExists, plugin, ": registers scheme '", scheme, "' twice");
      }
    }
    auto tables = std::make_shared<Tables>();
    tables->describe = StrCat(plugin, ", scheme '", scheme, "'");
    tables->plugin_free = plugin_free;
    PLUGRT_RETURN_IF_ERROR(CheckScheme(ops, *tables));
    all.push_back(std::move(tables));
  }
  std::vector<PluginScheme> schemes;
  for (size_t i = 0; i < all.size(); ++i) {
    auto filesystem = std::make_shared<PluginFileSystem>(all[i]);
    PLUGRT_RETURN_IF_ERROR(filesystem->Init());
    schemes.push_back(PluginScheme{info.ops[i].scheme, std::move(filesystem)});
  }
  return schemes;
}

}  // namespace plugrt::fs
