// Helpers shared by the tests: where the corpus is, and reading files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace systolic::testing {

// The corpus folder (env SYSTOLIC_CORPUS_DIR, else the configured default),
// or nullopt when it does not exist on this machine.
std::optional<std::filesystem::path> CorpusDir();

// Every regular file under `dir` whose extension is one of `extensions`,
// sorted by path.
std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& dir,
                                              const std::vector<std::string>& extensions);

std::string ReadFileOrDie(const std::filesystem::path& path);

}  // namespace systolic::testing
