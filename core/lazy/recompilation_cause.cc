#include "core/lazy/recompilation_cause.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace systolic::lazy {

const char* RecompilationCauseName(RecompilationCause cause) {
  switch (cause) {
    case RecompilationCause::kNone:
      return "cache hit";
    case RecompilationCause::kFirstCompile:
      return "first compile";
    case RecompilationCause::kNewInputShape:
      return "new input shape";
    case RecompilationCause::kDifferentOpSequence:
      return "different op sequence";
    case RecompilationCause::kChangedConstant:
      return "changed constant";
    case RecompilationCause::kDifferentSharding:
      return "different sharding";
    case RecompilationCause::kDifferentAttributes:
      return "different op attributes";
  }
  return "unknown";
}

namespace {

using Entry = GraphSignature::Entry;

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

RecompilationExplanation ExplainRecompilation(const GraphSignature& now,
                                              const GraphSignature* before) {
  if (before == nullptr) return {RecompilationCause::kFirstCompile, "first compile"};
  const auto& a = now.entries();
  const auto& b = before->entries();

  // 1. The op sequence: which ops and how they connect.
  const size_t common = std::min(a.size(), b.size());
  for (size_t i = 0; i < common; ++i) {
    if (a[i].structure == b[i].structure) continue;
    return {RecompilationCause::kDifferentOpSequence,
            absl::StrCat("different op sequence at ", Describe(a[i], i), ": before ",
                         Describe(b[i], i), "; now ", a.size(), " ops, before ", b.size())};
  }
  if (a.size() != b.size()) {
    const Entry& extra = a.size() > b.size() ? a[common] : b[common];
    return {RecompilationCause::kDifferentOpSequence,
            absl::StrCat("different op sequence: now ", a.size(), " ops, before ", b.size(),
                         "; first ", a.size() > b.size() ? "new" : "missing", " op is ",
                         Describe(extra, common))};
  }
  if (now.roots() != before->roots()) {
    return {RecompilationCause::kDifferentOpSequence,
            absl::StrCat("different outputs: now ", now.roots().size(), " live tensors, before ",
                         before->roots().size())};
  }

  // 2. An argument's shape (the last partial batch).
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.parameter_number >= 0 && x.shape != y.shape;
      })) {
    const size_t i = d->first;
    return {RecompilationCause::kNewInputShape,
            absl::StrCat("new input shape: ", Describe(a[i], i), ": now ", a[i].shape.ToString(),
                         ", before ", b[i].shape.ToString(), AndMore(d->second, "arguments"))};
  }

  // 3. A scalar baked in as a constant.
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.constant != y.constant;
      })) {
    const size_t i = d->first;
    return {RecompilationCause::kChangedConstant,
            absl::StrCat("changed constant: ", Describe(a[i], i), ": now ", a[i].constant,
                         ", before ", b[i].constant, AndMore(d->second, "constants"))};
  }

  // 4. A sharding.
  if (auto d = FirstDifference(now, *before, [](const Entry& x, const Entry& y) {
        return x.sharding != y.sharding;
      })) {
    const size_t i = d->first;
    return {RecompilationCause::kDifferentSharding,
            absl::StrCat("different sharding: ", Describe(a[i], i), ": now ",
                         OrNone(a[i].sharding), ", before ", OrNone(b[i].sharding),
                         AndMore(d->second, "annotations"))};
  }

  // 5. Anything else: shapes or attributes of ops.
  if (auto d = FirstDifference(now, *before,
                               [](const Entry& x, const Entry& y) { return x.full != y.full; })) {
    const size_t i = d->first;
    return {RecompilationCause::kDifferentAttributes,
            absl::StrCat("different op attributes: ", Describe(a[i], i), ": now `", a[i].full,
                         "`, before `", b[i].full, "`")};
  }
  return {RecompilationCause::kDifferentAttributes, "the graphs differ"};
}

}  // namespace systolic::lazy
