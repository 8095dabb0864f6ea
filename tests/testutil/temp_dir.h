// plugrt tests: a temporary directory of the test's own.
#ifndef PLUGRT_TESTS_TESTUTIL_TEMP_DIR_H_
#define PLUGRT_TESTS_TESTUTIL_TEMP_DIR_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace plugrt::testing {

// A fresh, empty directory under the system's temporary directory
// (std::filesystem::temp_directory_path(), so TMPDIR), named
// plugrt-<tag>-XXXXXX by mkdtemp, so unique to the call even across
// processes; removed with all it holds when the object is destroyed.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("plugrt-" + tag + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp(" << pattern << ") failed";
      return;
    }
    path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The directory (empty if it could not be made: the test has failed).
  const std::string& path() const { return path_; }
  // `name` inside the directory.
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  // The folder `name` inside the directory, made (where a test needs its
  // folder's own name, or room beside it).
  std::string Folder(const std::string& name) const {
    std::filesystem::create_directories(File(name));
    return File(name);
  }
  std::filesystem::path operator/(const std::string& name) const {
    return std::filesystem::path(path_) / name;
  }

 private:
  std::string path_;
};

// `name` in a directory of the test program's own, made at the first call
// and removed when the program exits.
inline std::string TempPath(const std::string& name) {
  static const TempDir dir("program");
  return dir.File(name);
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_TEMP_DIR_H_
