#include "filesystem/compilation_cache.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "common/byte_io.h"
#include "common/content_hash.h"
#include "filesystem/file_io.h"
#include "filesystem/registry.h"

namespace plugrt::fs {
namespace {

constexpr std::string_view kMagic = "PLUGRTCC";
constexpr uint32_t kFormatVersion = 1;
constexpr std::string_view kEntrySuffix = ".pcc";
constexpr std::string_view kStampSuffix = ".used";
constexpr std::string_view kTempMarker = ".tmp.";
constexpr size_t kDigestSize = 32;
constexpr size_t kHeaderSize = 8 + 4 + kDigestSize + 8 + 8;
// A temporary file older than this belongs to a writer that died.
constexpr int64_t kStaleTempNanoseconds = int64_t{3600} * 1000000000;

// OK when `bytes` is a whole, intact entry for `digest`; the payload view.
Status ParseEntry(std::string_view bytes, std::string_view digest, std::string_view* payload) {
  ByteReader reader(bytes, "compilation cache entry");
  std::string_view magic, stored_digest;
  PLUGRT_RETURN_IF_ERROR(reader.Bytes(kMagic.size(), &magic, "magic"));
  if (magic != kMagic) return InvalidArgument("not a compilation cache entry");
  uint32_t version = 0;
  PLUGRT_RETURN_IF_ERROR(reader.U32(&version, "format version"));
  if (version != kFormatVersion) return InvalidArgument("format version ", version);
  PLUGRT_RETURN_IF_ERROR(reader.Bytes(kDigestSize, &stored_digest, "key digest"));
  if (stored_digest != digest) return InvalidArgument("the entry is for another key");
  uint64_t size = 0, checksum = 0;
  PLUGRT_RETURN_IF_ERROR(reader.U64(&size, "payload size"));
  PLUGRT_RETURN_IF_ERROR(reader.U64(&checksum, "checksum"));
  if (size != reader.left()) {
    return InvalidArgument("payload of ", reader.left(), " bytes, the header says ", size);
  }
  PLUGRT_RETURN_IF_ERROR(reader.Bytes(size, payload, "payload"));
  if (Checksum64(*payload) != checksum) return InvalidArgument("checksum mismatch");
  return OkStatus();
}

}  // namespace

StatusOr<std::shared_ptr<CompilationCache>> CompilationCache::Open(const std::string& directory,
                                                                   int64_t max_bytes) {
  if (directory.empty()) return InvalidArgument("compilation cache: the directory is empty");
  if (max_bytes <= 0) {
    return InvalidArgument("compilation cache: the size cap must be positive, got ", max_bytes);
  }
  PLUGRT_ASSIGN_OR_RETURN(FileSystem * fs, Registry::Global().Lookup(directory));
  Status created = fs->RecursivelyCreateDir(directory);
  if (!created.ok()) {
    return Status(created.code(),
                  StrCat("compilation cache directory ", directory, ": ", created.message()));
  }
  return std::shared_ptr<CompilationCache>(new CompilationCache(directory, max_bytes, fs));
}

std::string CompilationCache::KeyDigest(std::string_view key) { return ContentHash(key); }

std::string CompilationCache::EntryPath(std::string_view key) const {
  return JoinPath(directory_, StrCat(KeyDigest(key), kEntrySuffix));
}

std::optional<std::string> CompilationCache::Lookup(std::string_view key) {
  const std::string digest = KeyDigest(key);
  const std::string path = JoinPath(directory_, StrCat(digest, kEntrySuffix));
  StatusOr<std::unique_ptr<RandomAccessFile>> file = fs_->NewRandomAccessFile(path);
  if (!file.ok()) {
    ++misses_;
    return std::nullopt;
  }
  std::string bytes;
  bool read_ok = true;
  for (;;) {
    constexpr size_t kChunk = 1 << 20;
    const size_t old = bytes.size();
    bytes.resize(old + kChunk);
    StatusOr<size_t> got = (*file)->Read(old, kChunk, bytes.data() + old);
    if (!got.ok()) {
      read_ok = false;
      break;
    }
    bytes.resize(old + *got);
    if (*got == 0) break;
  }
  std::string_view payload;
  if (!read_ok) {
    ++misses_;
    return std::nullopt;
  }
  if (!ParseEntry(bytes, digest, &payload).ok()) {
    // Never loaded; removed so the recompiled entry replaces it.
    fs_->DeleteFile(path).IgnoreError();
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  }
  ++hits_;
  // The stamp records the use for eviction; failing to write it only makes
  // the entry look older.
  if (auto stamp = fs_->NewWritableFile(JoinPath(directory_, StrCat(digest, kStampSuffix)));
      stamp.ok()) {
    (*stamp)->Close().IgnoreError();
  }
  return std::string(payload);
}

Status CompilationCache::Store(std::string_view key, std::string_view payload) {
  if (static_cast<int64_t>(payload.size() + kHeaderSize) > max_bytes_) return OkStatus();
  const std::string digest = KeyDigest(key);
  std::string entry;
  entry.reserve(kHeaderSize + payload.size());
  ByteWriter writer(entry);
  writer.Bytes(kMagic);
  writer.U32(kFormatVersion);
  writer.Bytes(digest);
  writer.U64(payload.size());
  writer.U64(Checksum64(payload));
  writer.Bytes(payload);
  const std::string name = StrCat(digest, kEntrySuffix);
  const std::string path = JoinPath(directory_, name);
  const std::string temp = StrCat(path, kTempMarker, UniqueSuffix());
  Status status = [&]() -> Status {
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, fs_->NewWritableFile(temp));
    PLUGRT_RETURN_IF_ERROR(file->Append(entry));
    return file->Close();
  }();
  if (status.ok()) status = fs_->RenameFile(temp, path);
  if (!status.ok()) {
    fs_->DeleteFile(temp).IgnoreError();
    return Status(status.code(), StrCat("compilation cache: storing ", path, ": ", status.message()));
  }
  ++stores_;
  Evict(name);
  return OkStatus();
}

void CompilationCache::Evict(const std::string& keep) {
  StatusOr<std::vector<std::string>> names = fs_->GetChildren(directory_);
  if (!names.ok()) return;
  struct Entry {
    int64_t last_use = 0;
    int64_t size = 0;
  };
  std::map<std::string, Entry> entries;  // by digest
  std::map<std::string, int64_t> stamps;
  const int64_t now = NowNanoseconds();
  for (const std::string& name : *names) {
    const std::string path = JoinPath(directory_, name);
    if (name.find(kTempMarker) != std::string::npos) {
      StatusOr<FileStatistics> stats = fs_->Stat(path);
      if (stats.ok() && stats->mtime_nsec > 0 && now - stats->mtime_nsec > kStaleTempNanoseconds) {
        fs_->DeleteFile(path).IgnoreError();
      }
      continue;
    }
    if (name.ends_with(kEntrySuffix)) {
      StatusOr<FileStatistics> stats = fs_->Stat(path);
      if (!stats.ok()) continue;  // evicted by another process meanwhile
      Entry& entry = entries[name.substr(0, name.size() - kEntrySuffix.size())];
      entry.size = stats->length;
      entry.last_use = std::max(entry.last_use, stats->mtime_nsec);
    } else if (name.ends_with(kStampSuffix)) {
      StatusOr<FileStatistics> stats = fs_->Stat(path);
      if (stats.ok()) stamps[name.substr(0, name.size() - kStampSuffix.size())] = stats->mtime_nsec;
    }
  }
  int64_t total = 0;
  std::vector<std::pair<int64_t, std::string>> by_age;
  for (auto& [digest, entry] : entries) {
    if (auto stamp = stamps.find(digest); stamp != stamps.end()) {
      entry.last_use = std::max(entry.last_use, stamp->second);
    }
    total += entry.size;
    if (StrCat(digest, kEntrySuffix) != keep) by_age.emplace_back(entry.last_use, digest);
  }
  // Stamps whose entry is gone.
  for (const auto& [digest, mtime] : stamps) {
    if (!entries.count(digest)) {
      fs_->DeleteFile(JoinPath(directory_, StrCat(digest, kStampSuffix))).IgnoreError();
    }
  }
  if (total <= max_bytes_) return;
  std::sort(by_age.begin(), by_age.end());
  for (const auto& [last_use, digest] : by_age) {
    if (total <= max_bytes_) break;
    Status deleted = fs_->DeleteFile(JoinPath(directory_, StrCat(digest, kEntrySuffix)));
    fs_->DeleteFile(JoinPath(directory_, StrCat(digest, kStampSuffix))).IgnoreError();
    total -= entries[digest].size;
    if (deleted.ok()) ++evictions_;
  }
}

CompilationCache::Stats CompilationCache::stats() const {
  return Stats{hits_.load(), misses_.load(), corrupt_.load(), stores_.load(), evictions_.load()};
}

}  // namespace plugrt::fs
