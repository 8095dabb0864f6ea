// Test access to the StableHLO conformance corpus (../shared/stablehlo seen
// from the repository root; CTest passes its location in
// PLUGRT_STABLEHLO_CORPUS).
#ifndef PLUGRT_TESTS_TESTUTIL_CORPUS_H_
#define PLUGRT_TESTS_TESTUTIL_CORPUS_H_

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace plugrt::testutil {

inline std::filesystem::path CorpusDir() {
  if (const char* env = std::getenv("PLUGRT_STABLEHLO_CORPUS")) return env;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path() /
         "shared" / "stablehlo";
}

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every .mlir file under `dir`, sorted; empty when `dir` does not exist.
inline std::vector<std::filesystem::path> MlirFiles(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::exists(dir)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace plugrt::testutil

#endif  // PLUGRT_TESTS_TESTUTIL_CORPUS_H_
