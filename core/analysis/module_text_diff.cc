#include "core/analysis/module_text_diff.h"

#include <algorithm>

#include "absl/strings/str_split.h"

namespace systolic::analysis {
namespace {

// The exact diff's table holds (removed middle) x (added middle) cells.
constexpr int64_t kMaxExactCells = int64_t{16} << 20;

std::vector<absl::string_view> LinesOf(absl::string_view text) {
  if (text.empty()) return {};
  if (text.back() == '\n') text.remove_suffix(1);
  return absl::StrSplit(text, '\n');
}

}  // namespace

ModuleTextDiff DiffModuleText(absl::string_view before, absl::string_view after) {
  const std::vector<absl::string_view> a = LinesOf(before), b = LinesOf(after);
  ModuleTextDiff diff;
  auto same = [&](int64_t i, int64_t j) {
    diff.lines.push_back({DiffLine::Kind::kSame, std::string(a[size_t(i)]), i, j});
  };
  auto removed = [&](int64_t i) {
    diff.lines.push_back({DiffLine::Kind::kRemoved, std::string(a[size_t(i)]), i, -1});
    ++diff.removed;
  };
  auto added = [&](int64_t j) {
    diff.lines.push_back({DiffLine::Kind::kAdded, std::string(b[size_t(j)]), -1, j});
    ++diff.added;
  };
  // Modules compared for a recompile mostly agree: strip the common ends so
  // the table covers only the changed middle.
  const int64_t n = int64_t(a.size()), m = int64_t(b.size());
  int64_t prefix = 0;
  while (prefix < n && prefix < m && a[size_t(prefix)] == b[size_t(prefix)]) ++prefix;
  int64_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix &&
         a[size_t(n - 1 - suffix)] == b[size_t(m - 1 - suffix)]) {
    ++suffix;
  }
  for (int64_t i = 0; i < prefix; ++i) same(i, i);
  const int64_t rows = n - prefix - suffix, cols = m - prefix - suffix;
  if (rows * cols > kMaxExactCells) {
    for (int64_t i = 0; i < rows; ++i) removed(prefix + i);
    for (int64_t j = 0; j < cols; ++j) added(prefix + j);
  } else {
    // lcs[i][j]: longest common subsequence of the middles' tails from i, j.
    std::vector<int32_t> lcs(size_t((rows + 1) * (cols + 1)), 0);
    auto at = [&](int64_t i, int64_t j) -> int32_t& { return lcs[size_t(i * (cols + 1) + j)]; };
    for (int64_t i = rows - 1; i >= 0; --i) {
      for (int64_t j = cols - 1; j >= 0; --j) {
        at(i, j) = a[size_t(prefix + i)] == b[size_t(prefix + j)] ? at(i + 1, j + 1) + 1
                                                                  : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    int64_t i = 0, j = 0;
    while (i < rows || j < cols) {
      if (i < rows && j < cols && a[size_t(prefix + i)] == b[size_t(prefix + j)]) {
        same(prefix + i, prefix + j);
        ++i;
        ++j;
      } else if (j < cols && (i == rows || at(i, j + 1) > at(i + 1, j))) {
        // Ties remove first, so a changed line reads "- old" then "+ new".
        added(prefix + j);
        ++j;
      } else {
        removed(prefix + i);
        ++i;
      }
    }
  }
  for (int64_t k = 0; k < suffix; ++k) same(n - suffix + k, m - suffix + k);
  return diff;
}

std::string FormatDiff(const ModuleTextDiff& diff, int context) {
  const int64_t count = int64_t(diff.lines.size());
  // Keep each line within `context` of a change.
  std::vector<bool> keep(size_t(count), false);
  for (int64_t k = 0; k < count; ++k) {
    if (diff.lines[size_t(k)].kind == DiffLine::Kind::kSame) continue;
    for (int64_t c = std::max<int64_t>(0, k - context); c <= std::min(count - 1, k + context); ++c) {
      keep[size_t(c)] = true;
    }
  }
  std::string out;
  bool skipped = false;
  for (int64_t k = 0; k < count; ++k) {
    if (!keep[size_t(k)]) {
      skipped = true;
      continue;
    }
    if (skipped) out += "…\n";
    skipped = false;
    const DiffLine& line = diff.lines[size_t(k)];
    out += line.kind == DiffLine::Kind::kSame ? "  " : line.kind == DiffLine::Kind::kRemoved ? "- " : "+ ";
    out += line.text;
    out += '\n';
  }
  if (skipped && !out.empty()) out += "…\n";
  return out;
}

}  // namespace systolic::analysis
