// A line diff of two modules' text (a longest common subsequence of lines):
// what the recompilations view shows for a cache miss against the nearest
// program compiled before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace systolic::analysis {

struct DiffLine {
  enum class Kind { kSame, kRemoved, kAdded };
  Kind kind = Kind::kSame;
  std::string text;
  int64_t before_line = -1;  // 0-based line in the first text (-1 for added)
  int64_t after_line = -1;   // 0-based line in the second text (-1 for removed)
  friend bool operator==(const DiffLine&, const DiffLine&) = default;
};

struct ModuleTextDiff {
  std::vector<DiffLine> lines;
  int64_t removed = 0;
  int64_t added = 0;
  bool identical() const { return removed == 0 && added == 0; }
};

// Every line of both texts in order, marked same, removed or added. Long
// texts whose changed middle is too large for an exact diff show that
// middle as removed then added.
ModuleTextDiff DiffModuleText(absl::string_view before, absl::string_view after);

// Unified-diff text ("- ", "+ ", "  " prefixes) keeping `context` unchanged
// lines around each change; "…" marks what is left out.
std::string FormatDiff(const ModuleTextDiff& diff, int context = 3);

}  // namespace systolic::analysis
