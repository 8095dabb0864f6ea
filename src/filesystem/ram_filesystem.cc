// ram://: files and directories in this process's memory.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "filesystem/builtin_filesystems.h"

namespace plugrt::fs {
namespace {

constexpr std::string_view kRamScheme = "ram://";

struct Node {
  bool is_directory = false;
  // Shared with open readers, so a file replaced or deleted while read
  // keeps its old bytes for them (as an unlinked POSIX file does).
  std::shared_ptr<const std::string> data;
  int64_t mtime_nsec = 0;
};

struct Tree {
  std::mutex mu;
  std::map<std::string, Node> nodes;  // key: path below ram://, "" = root
};

// "ram://a//b/" -> "a/b"; INVALID_ARGUMENT for another scheme or "..".
StatusOr<std::string> Key(const std::string& uri) {
  if (uri.size() < kRamScheme.size() ||
      strncasecmp(uri.c_str(), kRamScheme.data(), kRamScheme.size()) != 0) {
    return InvalidArgument(uri, ": not a ram:// path");
  }
  std::string key;
  std::string_view rest = std::string_view(uri).substr(kRamScheme.size());
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    if (part == "..") return InvalidArgument(uri, ": '..' is not allowed in ram:// paths");
    if (!part.empty() && part != ".") {
      if (!key.empty()) key += '/';
      key += part;
    }
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return key;
}

std::string ParentKey(const std::string& key) {
  const size_t slash = key.rfind('/');
  return slash == std::string::npos ? std::string() : key.substr(0, slash);
}

class RamRandomAccessFile final : public RandomAccessFile {
 public:
  explicit RamRandomAccessFile(std::shared_ptr<const std::string> data) : data_(std::move(data)) {}
  StatusOr<size_t> Read(uint64_t offset, size_t n, char* buffer) const override {
    if (offset >= data_->size()) return size_t{0};
    const size_t count = std::min<uint64_t>(n, data_->size() - offset);
    std::memcpy(buffer, data_->data() + offset, count);
    return count;
  }

 private:
  std::shared_ptr<const std::string> data_;
};

// Bytes collect in the file and appear at the path on Close (and on Flush,
// for appendable files' readers), in one step under the tree's lock.
class RamWritableFile final : public WritableFile {
 public:
  RamWritableFile(std::shared_ptr<Tree> tree, std::string key, std::string uri, std::string start)
      : tree_(std::move(tree)), key_(std::move(key)), uri_(std::move(uri)),
        bytes_(std::move(start)) {}

  Status Append(std::string_view data) override {
    if (closed_) return FailedPrecondition(uri_, ": append after close");
    bytes_.append(data);
    return OkStatus();
  }
  StatusOr<int64_t> Tell() override { return static_cast<int64_t>(bytes_.size()); }
  Status Flush() override { return closed_ ? OkStatus() : Publish(); }
  Status Close() override {
    if (closed_) return FailedPrecondition(uri_, ": the file is closed already");
    closed_ = true;
    return Publish();
  }

 private:
  Status Publish() {
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto parent = tree_->nodes.find(ParentKey(key_));
    if (parent == tree_->nodes.end() || !parent->second.is_directory) {
      return NotFound(uri_, ": the parent directory no longer exists");
    }
    Node& node = tree_->nodes[key_];
    if (node.is_directory) return FailedPrecondition(uri_, ": is a directory");
    node.data = std::make_shared<const std::string>(bytes_);
    node.mtime_nsec = NowNanoseconds();
    return OkStatus();
  }

  std::shared_ptr<Tree> tree_;
  std::string key_, uri_;
  std::string bytes_;
  bool closed_ = false;
};

class RamFileSystem final : public FileSystem {
 public:
  RamFileSystem() : tree_(std::make_shared<Tree>()) {
    tree_->nodes[""] = Node{true, nullptr, NowNanoseconds()};
  }
  std::string Describe() const override { return "ram filesystem"; }

  StatusOr<FileStatistics> Stat(const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(key);
    if (it == tree_->nodes.end()) return NotFound(uri, ": no such file or directory");
    const Node& node = it->second;
    return FileStatistics{node.is_directory ? 0 : static_cast<int64_t>(node.data->size()),
                          node.mtime_nsec, node.is_directory};
  }

  StatusOr<std::unique_ptr<RandomAccessFile>> NewRandomAccessFile(
      const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(key);
    if (it == tree_->nodes.end()) return NotFound(uri, ": no such file");
    if (it->second.is_directory) return FailedPrecondition(uri, ": is a directory");
    return std::unique_ptr<RandomAccessFile>(new RamRandomAccessFile(it->second.data));
  }

  StatusOr<std::unique_ptr<WritableFile>> NewWritableFile(const std::string& uri) override {
    return Open(uri, false);
  }
  StatusOr<std::unique_ptr<WritableFile>> NewAppendableFile(const std::string& uri) override {
    return Open(uri, true);
  }

  Status CreateDir(const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    PLUGRT_RETURN_IF_ERROR(CheckParent(key, uri));
    if (tree_->nodes.count(key)) {
      return MakeError(StatusCode::kAlreadyExists, uri, ": exists already");
    }
    tree_->nodes[key] = Node{true, nullptr, NowNanoseconds()};
    return OkStatus();
  }

  Status DeleteFile(const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(key);
    if (it == tree_->nodes.end()) return NotFound(uri, ": no such file");
    if (it->second.is_directory) return FailedPrecondition(uri, ": is a directory, not a file");
    tree_->nodes.erase(it);
    return OkStatus();
  }

  Status DeleteDir(const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(key);
    if (it == tree_->nodes.end()) return NotFound(uri, ": no such directory");
    if (!it->second.is_directory) return FailedPrecondition(uri, ": is not a directory");
    if (key.empty()) return FailedPrecondition(uri, ": the root cannot be deleted");
    auto next = std::next(it);
    if (next != tree_->nodes.end() && next->first.starts_with(key + "/")) {
      return FailedPrecondition(uri, ": the directory is not empty");
    }
    tree_->nodes.erase(it);
    return OkStatus();
  }

  Status RenameFile(const std::string& src, const std::string& dst) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string from, Key(src));
    PLUGRT_ASSIGN_OR_RETURN(std::string to, Key(dst));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(from);
    if (it == tree_->nodes.end()) return NotFound(src, ": no such file");
    if (it->second.is_directory) return FailedPrecondition(src, ": is a directory");
    PLUGRT_RETURN_IF_ERROR(CheckParent(to, dst));
    auto target = tree_->nodes.find(to);
    if (target != tree_->nodes.end() && target->second.is_directory) {
      return FailedPrecondition(dst, ": is a directory");
    }
    Node moved = it->second;
    tree_->nodes.erase(it);
    tree_->nodes[to] = std::move(moved);
    return OkStatus();
  }

  StatusOr<std::vector<std::string>> GetChildren(const std::string& uri) override {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::lock_guard<std::mutex> lock(tree_->mu);
    auto it = tree_->nodes.find(key);
    if (it == tree_->nodes.end()) return NotFound(uri, ": no such directory");
    if (!it->second.is_directory) return FailedPrecondition(uri, ": is not a directory");
    const std::string prefix = key.empty() ? "" : key + "/";
    std::vector<std::string> names;
    for (auto child = tree_->nodes.lower_bound(prefix);
         child != tree_->nodes.end() && child->first.starts_with(prefix); ++child) {
      std::string_view rest = std::string_view(child->first).substr(prefix.size());
      if (!rest.empty() && rest.find('/') == std::string_view::npos) names.emplace_back(rest);
    }
    return names;
  }

 private:
  // Under the lock: the parent of `key` must be an existing directory.
  Status CheckParent(const std::string& key, const std::string& uri) {
    if (key.empty()) return OkStatus();
    auto parent = tree_->nodes.find(ParentKey(key));
    if (parent == tree_->nodes.end()) return NotFound(uri, ": the parent directory does not exist");
    if (!parent->second.is_directory) {
      return FailedPrecondition(uri, ": the parent is a file, not a directory");
    }
    return OkStatus();
  }

  StatusOr<std::unique_ptr<WritableFile>> Open(const std::string& uri, bool append) {
    PLUGRT_ASSIGN_OR_RETURN(std::string key, Key(uri));
    std::string start;
    {
      std::lock_guard<std::mutex> lock(tree_->mu);
      if (key.empty()) return FailedPrecondition(uri, ": is a directory");
      PLUGRT_RETURN_IF_ERROR(CheckParent(key, uri));
      auto it = tree_->nodes.find(key);
      if (it != tree_->nodes.end()) {
        if (it->second.is_directory) return FailedPrecondition(uri, ": is a directory");
        if (append) start = *it->second.data;
      }
      if (!append || it == tree_->nodes.end()) {
        // Creating (or truncating) is visible at once, as with open(2).
        tree_->nodes[key] = Node{false, std::make_shared<const std::string>(), NowNanoseconds()};
      }
    }
    return std::unique_ptr<WritableFile>(
        new RamWritableFile(tree_, std::move(key), uri, std::move(start)));
  }

  std::shared_ptr<Tree> tree_;
};

}  // namespace

std::shared_ptr<FileSystem> NewRamFileSystem() { return std::make_shared<RamFileSystem>(); }

}  // namespace plugrt::fs
