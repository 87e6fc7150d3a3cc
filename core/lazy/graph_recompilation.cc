#include "core/lazy/graph_recompilation.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace systolic::lazy {

namespace {

using Entry = GraphSignature::Entry;
using trace::RecompilationCause;
using trace::RecompilationKind;

// "op 12 `multiply` (mlp/dense_1/mul)"
std::string Describe(const Entry& e, size_t index) {
  if (e.parameter_number >= 0) {
    return absl::StrCat("argument ", e.parameter_number,
                        e.op_name.empty() ? "" : absl::StrCat(" (", e.op_name, ")"));
  }
  return absl::StrCat("op ", index, " `", e.opcode, "`",
                      e.op_name.empty() ? "" : absl::StrCat(" (", e.op_name, ")"));
}

std::string OrNone(const std::string& s) { return s.empty() ? "{none}" : s; }

// A field that differs at the first position where it does, with how many
// positions differ in all.
template <typename Differs>
std::optional<std::pair<size_t, size_t>> FirstDifference(const GraphSignature& now,
                                                         const GraphSignature& before,
                                                         Differs differs) {
  std::optional<size_t> first;
  size_t count = 0;
  for (size_t i = 0; i < now.entries().size(); ++i) {
    if (differs(now.entries()[i], before.entries()[i])) {
      if (!first) first = i;
      ++count;
    }
  }
  if (!first) return std::nullopt;
  return std::make_pair(*first, count);
}

std::string AndMore(size_t count, absl::string_view what) {
  return count > 1 ? absl::StrCat(" (and ", count - 1, " more ", what, ")") : "";
}

}  // namespace

RecompilationCause ExplainRecompilation(const GraphSignature& now,
                                              const GraphSignature* before) {
  if (before == nullptr) return {RecompilationKind::kFirstCompile, "first compile"};
  const auto& a = now.entries();
  const auto& b = before->entries();

  // 1. The op sequence: which ops and how they connect.
  const size_t common = std::min(a.size(), b.size());
  for (size_t i = 0; i < common; ++i) {
    if (a[i].structure == b[i].structure) continue;
    return {RecompilationKind::kOpSequence,
            absl::StrCat("different op sequence at ", Describe(a[i], i), ": before ",
                         Describe(b[i], i), "; now ", a.size(), " ops, before ", b.size()),
            -1, int64_t(i), Describe(b[i], i), Describe(a[i], i)};
  }
  if (a.size() != b.size()) {
    const Entry& extra = a.size() > b.size() ? a[common] : b[common];
    const std::string described = Describe(extra, common);
    return {RecompilationKind::kOpSequence,
            absl::StrCat("different op sequence: now ", a.size(), " ops, before ", b.size(),
                         "; first ", a.size() > b.size() ? "new" : "missing", " op is ", described),
            -1, int64_t(common), a.size() > b.size() ? "" : described,
            a.size() > b.size() ? described : ""};
  }
  if (now.roots() != before->roots()) {
    return {RecompilationKind::kOpSequence,
            absl::StrCat("different outputs: now ", now.roots().size(), " live tensors, before ",
                         before->roots().size()),
            -1, -1, absl::StrCat(before->roots().size(), " live tensors"),
            absl::StrCat(now.roots().size(), " live tensors")};
  }

  // 2. An argument's shape (the last partial batch).
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.parameter_number >= 0 && x.shape != y.shape;
      })) {
    const size_t i = d->first;
    return {RecompilationKind::kArgumentShape,
            absl::StrCat(Describe(a[i], i), ": now ", a[i].shape.ToString(),
                         ", before ", b[i].shape.ToString(), AndMore(d->second, "arguments")),
            a[i].parameter_number, int64_t(i), b[i].shape.ToString(), a[i].shape.ToString()};
  }

  // 3. A scalar baked in as a constant.
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.constant != y.constant;
      })) {
    const size_t i = d->first;
    return {RecompilationKind::kChangedConstant,
            absl::StrCat("changed constant: ", Describe(a[i], i), ": now ", a[i].constant,
                         ", before ", b[i].constant, AndMore(d->second, "constants")),
            -1, int64_t(i), b[i].constant, a[i].constant};
  }

  // 4. A sharding.
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.sharding != y.sharding;
      })) {
    const size_t i = d->first;
    return {a[i].parameter_number >= 0 ? RecompilationKind::kArgumentSharding
                                       : RecompilationKind::kDifferentSharding,
            absl::StrCat(a[i].parameter_number >= 0 ? "" : "different sharding: ",
                         Describe(a[i], i), ": now ",
                         OrNone(a[i].sharding), ", before ", OrNone(b[i].sharding),
                         AndMore(d->second, "annotations")),
            a[i].parameter_number, int64_t(i), OrNone(b[i].sharding), OrNone(a[i].sharding)};
  }

  // 5. Anything else: shapes or attributes of ops.
  if (auto d = FirstDifference(now, *before,
                               [](const Entry& x, const Entry& y) { return x.full != y.full; })) {
    const size_t i = d->first;
    return {RecompilationKind::kDifferentInstruction,
            absl::StrCat(Describe(a[i], i), ": now `", a[i].full,
                         "`, before `", b[i].full, "`"),
            -1, int64_t(i), b[i].full, a[i].full};
  }
  return {RecompilationKind::kDifferentInstruction, "the graphs differ"};
}

}  // namespace systolic::lazy
