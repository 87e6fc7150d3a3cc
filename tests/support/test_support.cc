#include "tests/support/test_support.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace systolic::testing {

std::optional<std::filesystem::path> CorpusDir() {
  const char* env = std::getenv("SYSTOLIC_CORPUS_DIR");
  std::filesystem::path dir = env && *env ? env : SYSTOLIC_DEFAULT_CORPUS_DIR;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return dir;
}

std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& dir,
                                              const std::vector<std::string>& extensions) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string ext = entry.path().extension().string();
    if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end()) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFileOrDie(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return "";
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace systolic::testing
