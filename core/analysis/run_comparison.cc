#include "core/analysis/run_comparison.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace systolic::analysis {
namespace {

RunSide Side(const trace::Profile& profile, const OpProfile& ops) {
  RunSide side;
  side.title = profile.info.title.empty() ? profile.chip.name : profile.info.title;
  side.chip = profile.chip.name;
  side.peak_flops_per_second = profile.chip.peak_flops_per_second;
  side.steps = std::max<int64_t>(ops.step_count, 1);
  const double steps = double(side.steps);
  side.step_ps = double(ops.step_ps) / steps;
  for (const OpStats& op : ops.ops) side.flops += op.flops / steps;
  for (int c = 0; c < kOpCategoryCount; ++c) side.category_ps[c] = double(ops.category_ps[c]) / steps;
  return side;
}

// An instruction's (or row's) self time per step, by name.
absl::flat_hash_map<std::string, double> SelfTimes(const OpProfile& ops, int64_t steps) {
  absl::flat_hash_map<std::string, double> times;
  for (const OpStats& op : ops.ops) times[op.name] += double(op.self_ps) / double(steps);
  times[kIdleRow] += double(ops.idle_ps) / double(steps);
  times[kUnattributedRow] += double(ops.unattributed_ps) / double(steps);
  return times;
}

}  // namespace

absl::StatusOr<RunComparison> CompareRuns(const trace::Profile& before, const trace::Profile& after,
                                          int32_t chip_id) {
  absl::StatusOr<OpProfile> a = ComputeOpProfile(before, chip_id);
  if (!a.ok()) return absl::Status(a.status().code(), absl::StrCat("the first run: ", a.status().message()));
  absl::StatusOr<OpProfile> b = ComputeOpProfile(after, chip_id);
  if (!b.ok()) return absl::Status(b.status().code(), absl::StrCat("the second run: ", b.status().message()));
  RunComparison comparison;
  comparison.before = Side(before, *a);
  comparison.after = Side(after, *b);
  const auto self_a = SelfTimes(*a, comparison.before.steps);
  const auto self_b = SelfTimes(*b, comparison.after.steps);
  absl::flat_hash_map<std::string, OpChange> rows;
  for (const auto& [name, ps] : self_a) {
    rows[name].name = name;
    rows[name].before_ps = ps;
  }
  for (const auto& [name, ps] : self_b) {
    rows[name].name = name;
    rows[name].after_ps = ps;
  }
  for (auto& [name, change] : rows) {
    if (change.before_ps != 0 || change.after_ps != 0) comparison.ops.push_back(std::move(change));
  }
  std::sort(comparison.ops.begin(), comparison.ops.end(), [](const OpChange& x, const OpChange& y) {
    const double dx = std::fabs(x.delta_ps()), dy = std::fabs(y.delta_ps());
    return dx != dy ? dx > dy : x.name < y.name;
  });
  return comparison;
}

absl::flat_hash_map<std::string, double> RelativeChanges(const RunComparison& comparison) {
  double largest = 0;
  for (const OpChange& op : comparison.ops) {
    if (IsInstructionRow(op.name)) largest = std::max(largest, std::fabs(op.delta_ps()));
  }
  absl::flat_hash_map<std::string, double> changes;
  if (largest <= 0) return changes;
  for (const OpChange& op : comparison.ops) {
    if (!IsInstructionRow(op.name) || op.delta_ps() == 0) continue;
    changes[op.name] = op.delta_ps() / largest;
  }
  return changes;
}

}  // namespace systolic::analysis
