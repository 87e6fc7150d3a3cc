#include "core/trace/xla_dump_file_name.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace systolic::trace {
namespace {

constexpr absl::string_view kModulePrefix = "module_";
constexpr absl::string_view kBeforeOptimizations = "before_optimizations";
constexpr absl::string_view kAfterOptimizations = "after_optimizations";
constexpr absl::string_view kSnapshotSuffix = ".hlo_snapshot.pb";
constexpr absl::string_view kTextSuffix = ".txt";

bool IsDigits(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string JoinComponents(const std::vector<absl::string_view>& parts, size_t begin,
                           size_t end) {
  return absl::StrJoin(parts.begin() + begin, parts.begin() + end, ".");
}

// `<module>.NNNN.<pipeline>.after_<pass>[.before_<next>]`, split at dots.
// Pipelines may hold dots, so the pass number is the last 4-digit component
// before the `after_` one, and the module is everything before it.
bool ParseAfterPass(const std::vector<absl::string_view>& parts, XlaDumpFileName* name) {
  size_t after = parts.size();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (absl::StartsWith(parts[i], "after_")) {
      after = i;
      break;
    }
  }
  if (after == parts.size()) return false;
  size_t number = after;
  for (size_t i = after; i-- > 1;) {
    if (parts[i].size() >= 4 && IsDigits(parts[i])) {
      number = i;
      break;
    }
  }
  if (number == after || number + 1 >= after) return false;  // needs a pipeline
  size_t before = parts.size();
  for (size_t i = after + 1; i < parts.size(); ++i) {
    if (absl::StartsWith(parts[i], "before_")) {
      before = i;
      break;
    }
  }
  if (!absl::SimpleAtoi(parts[number], &name->pass_number)) return false;
  name->module_name = JoinComponents(parts, 0, number);
  name->pipeline = JoinComponents(parts, number + 1, after);
  name->pass_name = std::string(absl::StripPrefix(JoinComponents(parts, after, before), "after_"));
  if (before < parts.size()) {
    name->next_pass =
        std::string(absl::StripPrefix(JoinComponents(parts, before, parts.size()), "before_"));
  }
  name->kind = XlaDumpFileKind::kAfterPass;
  return !name->pass_name.empty();
}

// `<module>.<platform>_after_optimizations` (or `<module>.after_optimizations`).
// A platform such as `sm_8.0_gpu` holds a dot: a last component starting
// with a digit continues the one before it.
bool ParseAfterOptimizations(const std::vector<absl::string_view>& parts,
                             XlaDumpFileName* name) {
  absl::string_view last = parts.back();
  if (!absl::EndsWith(last, kAfterOptimizations)) return false;
  absl::string_view platform = absl::StripSuffix(last, kAfterOptimizations);
  if (!platform.empty() && !absl::ConsumeSuffix(&platform, "_")) return false;
  size_t module_end = parts.size() - 1;
  std::string platform_text(platform);
  if (!platform.empty() && absl::ascii_isdigit(static_cast<unsigned char>(platform[0])) &&
      module_end >= 2) {
    platform_text = absl::StrCat(parts[module_end - 1], ".", platform);
    --module_end;
  }
  if (module_end == 0) return false;
  name->module_name = JoinComponents(parts, 0, module_end);
  name->platform = std::move(platform_text);
  name->kind = XlaDumpFileKind::kAfterOptimizations;
  return true;
}

}  // namespace

XlaDumpFileName ParseXlaDumpFileName(absl::string_view file_name) {
  const size_t slash = file_name.find_last_of('/');
  absl::string_view base = slash == absl::string_view::npos ? file_name : file_name.substr(slash + 1);
  XlaDumpFileName name;
  if (!absl::ConsumePrefix(&base, kModulePrefix)) return name;
  const size_t dot = base.find('.');
  if (dot == absl::string_view::npos || !IsDigits(base.substr(0, dot)) ||
      !absl::SimpleAtoi(base.substr(0, dot), &name.module_number)) {
    name.module_number = -1;
    return name;
  }
  absl::string_view rest = base.substr(dot + 1);

  if (absl::ConsumeSuffix(&rest, kSnapshotSuffix)) {
    std::vector<absl::string_view> parts = absl::StrSplit(rest, '.');
    if (parts.size() > 1) parts.pop_back();  // the snapshot's own tag
    name.module_name = JoinComponents(parts, 0, parts.size());
    name.kind = XlaDumpFileKind::kExecutionSnapshot;
    return name;
  }

  // Only `.txt` files are HLO text; their other artifacts (`.dot`, `.html`,
  // `.pb`, `-buffer-assignment.txt`, ...) still name their module.
  const bool text = absl::ConsumeSuffix(&rest, kTextSuffix);
  std::vector<absl::string_view> parts = absl::StrSplit(rest, '.');
  if (text && parts.size() >= 2 && parts.back() == kBeforeOptimizations) {
    name.module_name = JoinComponents(parts, 0, parts.size() - 1);
    name.kind = XlaDumpFileKind::kBeforeOptimizations;
    return name;
  }
  if (text && parts.size() >= 2 && ParseAfterOptimizations(parts, &name)) return name;
  if (text && ParseAfterPass(parts, &name)) return name;

  // Another artifact: keep the module's name where it can be told (the
  // components before a stage word), the number groups it in any case.
  name = XlaDumpFileName{};
  name.module_number = 0;
  absl::SimpleAtoi(base.substr(0, dot), &name.module_number);
  name.module_name = std::string(parts.front());
  return name;
}

absl::string_view XlaDumpFileKindName(XlaDumpFileKind kind) {
  switch (kind) {
    case XlaDumpFileKind::kBeforeOptimizations:
      return "before optimizations";
    case XlaDumpFileKind::kAfterOptimizations:
      return "after optimizations";
    case XlaDumpFileKind::kAfterPass:
      return "after pass";
    case XlaDumpFileKind::kExecutionSnapshot:
      return "execution snapshot";
    case XlaDumpFileKind::kOther:
      return "other";
  }
  return "other";
}

}  // namespace systolic::trace
