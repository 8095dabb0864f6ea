#include "filesystem/filesystem.h"

#include <algorithm>
#include <chrono>

#include "filesystem/glob.h"

namespace plugrt::fs {

int64_t NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

// Where the path part of a URI starts: after "scheme://", else 0.
size_t PathStart(std::string_view path) {
  const size_t sep = path.find("://");
  if (sep == std::string_view::npos) return 0;
  for (size_t i = 0; i < sep; ++i) {
    if (path[i] == '/') return 0;  // a '/' before "://": not a scheme
  }
  return sep + 3;
}

class MemoryRegion final : public ReadOnlyMemoryRegion {
 public:
  explicit MemoryRegion(std::string bytes) : bytes_(std::move(bytes)) {}
  const void* data() const override { return bytes_.data(); }
  uint64_t length() const override { return bytes_.size(); }

 private:
  std::string bytes_;
};

StatusOr<std::string> ReadAll(FileSystem& fs, const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs.NewRandomAccessFile(path));
  std::string bytes;
  constexpr size_t kChunk = 1 << 20;
  for (;;) {
    const size_t old = bytes.size();
    bytes.resize(old + kChunk);
    PLUGRT_ASSIGN_OR_RETURN(size_t got, file->Read(old, kChunk, bytes.data() + old));
    bytes.resize(old + got);
    if (got == 0) break;
  }
  return bytes;
}

}  // namespace

std::string ParentPath(std::string_view path) {
  const size_t start = PathStart(path);
  std::string_view rest = path.substr(start);
  while (rest.size() > 1 && rest.back() == '/') rest.remove_suffix(1);
  const size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos) return std::string(path.substr(0, start));
  if (slash == 0) return std::string(path.substr(0, start + 1));
  return std::string(path.substr(0, start + slash));
}

std::string_view BaseName(std::string_view path) {
  std::string_view rest = path.substr(PathStart(path));
  while (rest.size() > 1 && rest.back() == '/') rest.remove_suffix(1);
  const size_t slash = rest.rfind('/');
  return slash == std::string_view::npos ? rest : rest.substr(slash + 1);
}

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out += '/';
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  out += name;
  return out;
}

Status FileSystem::NotSupported(std::string_view operation) const {
  return Unimplemented(Describe(), ": ", operation, " is not supported");
}

StatusOr<std::unique_ptr<WritableFile>> FileSystem::NewAppendableFile(const std::string&) {
  return NotSupported("opening a file to append");
}

StatusOr<std::unique_ptr<ReadOnlyMemoryRegion>> FileSystem::NewReadOnlyMemoryRegion(
    const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, ReadAll(*this, path));
  return std::unique_ptr<ReadOnlyMemoryRegion>(new MemoryRegion(std::move(bytes)));
}

Status FileSystem::CreateDir(const std::string&) { return NotSupported("creating a directory"); }

Status FileSystem::RecursivelyCreateDir(const std::string& path) {
  // The missing ancestors, deepest first.
  std::vector<std::string> missing;
  std::string at = path;
  for (;;) {
    StatusOr<FileStatistics> stats = Stat(at);
    if (stats.ok()) {
      if (!stats->is_directory) {
        return FailedPrecondition(at, ": exists and is not a directory");
      }
      break;
    }
    if (stats.status().code() != StatusCode::kNotFound) return stats.status();
    missing.push_back(at);
    std::string parent = ParentPath(at);
    if (parent.empty() || parent == at) break;
    at = std::move(parent);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    Status status = CreateDir(*it);
    // Another process may have created it meanwhile.
    if (!status.ok() && status.code() != StatusCode::kAlreadyExists) return status;
  }
  return OkStatus();
}

Status FileSystem::DeleteFile(const std::string&) { return NotSupported("deleting a file"); }
Status FileSystem::DeleteDir(const std::string&) { return NotSupported("deleting a directory"); }

Status FileSystem::RenameFile(const std::string& src, const std::string& dst) {
  PLUGRT_RETURN_IF_ERROR(CopyFile(src, dst));
  return DeleteFile(src);
}

Status FileSystem::CopyFile(const std::string& src, const std::string& dst) {
  PLUGRT_ASSIGN_OR_RETURN(FileStatistics stats, Stat(src));
  if (stats.is_directory) return FailedPrecondition(src, ": is a directory");
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, ReadAll(*this, src));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> out, NewWritableFile(dst));
  PLUGRT_RETURN_IF_ERROR(out->Append(bytes));
  return out->Close();
}

StatusOr<std::vector<std::string>> FileSystem::GetChildren(const std::string&) {
  return NotSupported("listing a directory");
}

StatusOr<std::vector<std::string>> FileSystem::GetMatchingPaths(const std::string& pattern) {
  // Split into the fixed directory prefix and the components after it.
  const size_t start = PathStart(pattern);
  std::vector<std::string> components;
  std::string_view rest = std::string_view(pattern).substr(start);
  std::string root(pattern.substr(0, start));
  if (!rest.empty() && rest.front() == '/') {
    root += '/';
    rest.remove_prefix(1);
  }
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    if (!part.empty()) components.emplace_back(part);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  size_t fixed = 0;
  while (fixed < components.size() && !HasGlobChars(components[fixed])) ++fixed;
  std::string dir = root;
  for (size_t i = 0; i < fixed; ++i) dir = i == 0 && dir.empty() ? components[i] : JoinPath(dir, components[i]);
  std::vector<std::string> matches;
  if (fixed == components.size()) {
    // No wildcard: the path itself, if it exists.
    if (FileExists(dir).ok()) matches.push_back(dir);
    return matches;
  }
  // Breadth-first over the wildcard components.
  std::vector<std::string> frontier = {dir};
  for (size_t i = fixed; i < components.size(); ++i) {
    const bool last = i + 1 == components.size();
    std::vector<std::string> next;
    for (const std::string& parent : frontier) {
      const std::string listed = parent.empty() ? "." : parent;
      StatusOr<std::vector<std::string>> children = GetChildren(listed);
      if (!children.ok()) {
        // A parent that vanished or is a file has no matches.
        if (children.status().code() == StatusCode::kNotFound ||
            children.status().code() == StatusCode::kFailedPrecondition) {
          continue;
        }
        return children.status();
      }
      for (const std::string& name : *children) {
        if (!GlobMatch(components[i], name)) continue;
        std::string child = parent.empty() ? name : JoinPath(parent, name);
        if (!last) {
          StatusOr<FileStatistics> stats = Stat(child);
          if (!stats.ok() || !stats->is_directory) continue;
        }
        next.push_back(std::move(child));
      }
    }
    frontier = std::move(next);
  }
  std::sort(frontier.begin(), frontier.end());
  return frontier;
}

Status FileSystem::FileExists(const std::string& path) { return Stat(path).status(); }

StatusOr<bool> FileSystem::IsDirectory(const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(FileStatistics stats, Stat(path));
  return stats.is_directory;
}

StatusOr<int64_t> FileSystem::GetFileSize(const std::string& path) {
  PLUGRT_ASSIGN_OR_RETURN(FileStatistics stats, Stat(path));
  if (stats.is_directory) return FailedPrecondition(path, ": is a directory");
  return stats.length;
}

}  // namespace plugrt::fs
