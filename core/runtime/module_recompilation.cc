#include "core/runtime/module_recompilation.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic::runtime {
namespace {

using trace::RecompilationCause;
using trace::RecompilationKind;

// A cause with what differs as fields as well as in words.
RecompilationCause Cause(RecompilationKind kind, std::string text, int64_t argument = -1,
                         int64_t instruction = -1, std::string before = "",
                         std::string now = "") {
  return {kind, std::move(text), argument, instruction, std::move(before), std::move(now)};
}

// Instructions can print long constants; messages keep their start.
std::string Clip(const std::string& text, size_t limit = 160) {
  if (text.size() <= limit) return text;
  return absl::StrCat(text.substr(0, limit), "...");
}

std::string Quote(const std::string& text) { return absl::StrCat("`", Clip(text), "`"); }

std::string OrNone(const std::string& sharding) { return sharding.empty() ? "none" : sharding; }

// "replicas now 2, before 1; chip now v5e, before v4".
std::vector<std::string> OptionDifferences(const CompileOptions& now,
                                           const CompileOptions& before) {
  std::vector<std::string> out;
  auto field = [&](const char* name, const std::string& a, const std::string& b) {
    if (a != b) out.push_back(absl::StrCat(name, " now ", a, ", before ", b));
  };
  field("chip", now.chip, before.chip);
  field("topology", now.topology, before.topology);
  field("replicas", absl::StrCat(now.num_replicas), absl::StrCat(before.num_replicas));
  field("partitions", absl::StrCat(now.num_partitions), absl::StrCat(before.num_partitions));
  field("device assignment", absl::StrJoin(now.device_assignment, ","),
        absl::StrJoin(before.device_assignment, ","));
  return out;
}

std::string ArgumentLabel(const ModuleSignature& signature, size_t i) {
  const std::string& name = signature.parameter_names[i];
  return name.empty() ? absl::StrCat("argument ", i) : absl::StrCat("argument ", i, " (", name, ")");
}

// Positions where the canonical instruction texts differ (over the common
// prefix length).
std::vector<size_t> DifferingPositions(const ModuleSignature& now, const ModuleSignature& before) {
  std::vector<size_t> out;
  size_t n = std::min(now.instructions.size(), before.instructions.size());
  for (size_t i = 0; i < n; ++i) {
    if (now.instructions[i].canonical != before.instructions[i].canonical) out.push_back(i);
  }
  return out;
}

std::string InstructionWhere(const ModuleSignature::Instruction& instruction) {
  return absl::StrCat(" in computation %", instruction.computation);
}

}  // namespace

int64_t SignatureDistance(const ModuleSignature& a, const ModuleSignature& b) {
  if (a.fingerprint == b.fingerprint) return 0;
  int64_t distance = 100 * int64_t(OptionDifferences(a.options, b.options).size());
  size_t params = std::min(a.parameter_shapes.size(), b.parameter_shapes.size());
  distance += 10 * std::abs(int64_t(a.parameter_shapes.size()) - int64_t(b.parameter_shapes.size()));
  for (size_t i = 0; i < params; ++i) {
    distance += a.parameter_shapes[i] != b.parameter_shapes[i];
    distance += a.parameter_shardings[i] != b.parameter_shardings[i];
  }
  distance += std::abs(int64_t(a.instructions.size()) - int64_t(b.instructions.size()));
  distance += int64_t(DifferingPositions(a, b).size());
  distance += a.header != b.header;
  return std::max<int64_t>(distance, 1);
}

RecompilationCause ExplainRecompilation(const ModuleSignature& now,
                                              const ModuleSignature* before) {
  if (before == nullptr) {
    return Cause(RecompilationKind::kFirstCompile,
                 absl::StrCat("never seen: first compile of '", now.module_name, "'"));
  }
  std::vector<std::string> options = OptionDifferences(now.options, before->options);
  if (!options.empty()) {
    return Cause(RecompilationKind::kCompileOptions,
                 absl::StrCat("compile options differ: ", absl::StrJoin(options, "; ")));
  }

  // Arguments first: a new shape changes every instruction it reaches, and
  // the argument is the change the user made.
  if (now.parameter_shapes.size() != before->parameter_shapes.size()) {
    return Cause(RecompilationKind::kArgumentCount,
                 absl::StrCat("argument count: now ", now.parameter_shapes.size(), ", before ",
                              before->parameter_shapes.size()),
                 -1, -1, absl::StrCat(before->parameter_shapes.size()),
                 absl::StrCat(now.parameter_shapes.size()));
  }
  std::vector<std::string> shapes;
  int64_t first_shape = -1;
  for (size_t i = 0; i < now.parameter_shapes.size(); ++i) {
    if (now.parameter_shapes[i] != before->parameter_shapes[i]) {
      if (first_shape < 0) first_shape = int64_t(i);
      shapes.push_back(absl::StrCat(ArgumentLabel(now, i), ": now ",
                                    now.parameter_shapes[i].ToString(), ", before ",
                                    before->parameter_shapes[i].ToString()));
    }
  }
  if (!shapes.empty()) {
    return Cause(RecompilationKind::kArgumentShape, absl::StrJoin(shapes, "; "), first_shape, -1,
                 before->parameter_shapes[first_shape].ToString(),
                 now.parameter_shapes[first_shape].ToString());
  }
  std::vector<std::string> shardings;
  int64_t first_sharding = -1;
  for (size_t i = 0; i < now.parameter_shardings.size(); ++i) {
    if (now.parameter_shardings[i] != before->parameter_shardings[i]) {
      if (first_sharding < 0) first_sharding = int64_t(i);
      shardings.push_back(absl::StrCat(ArgumentLabel(now, i), " sharding: now ",
                                       OrNone(now.parameter_shardings[i]), ", before ",
                                       OrNone(before->parameter_shardings[i])));
    }
  }
  if (!shardings.empty()) {
    return Cause(RecompilationKind::kArgumentSharding, absl::StrJoin(shardings, "; "),
                 first_sharding, -1, OrNone(before->parameter_shardings[first_sharding]),
                 OrNone(now.parameter_shardings[first_sharding]));
  }

  std::vector<size_t> differing = DifferingPositions(now, *before);
  size_t now_count = now.instructions.size();
  size_t before_count = before->instructions.size();
  if (now_count != before_count) {
    size_t first = differing.empty() ? std::min(now_count, before_count) : differing.front();
    std::string now_text =
        first < now_count ? Quote(now.instructions[first].display) : std::string("(none)");
    std::string before_text = first < before_count ? Quote(before->instructions[first].display)
                                                   : std::string("(none)");
    const auto& where = first < now_count ? now.instructions[first] : before->instructions[first];
    return Cause(RecompilationKind::kInstructionCount,
                 absl::StrCat("instruction count: now ", now_count, ", before ", before_count,
                              "; first difference", InstructionWhere(where), ": now ", now_text,
                              ", before ", before_text),
                 -1, int64_t(first),
                 first < before_count ? before->instructions[first].display : "",
                 first < now_count ? now.instructions[first].display : "");
  }
  if (!differing.empty()) {
    bool all_constants = true, all_shardings = true;
    for (size_t i : differing) {
      const auto& a = now.instructions[i];
      const auto& b = before->instructions[i];
      all_constants &= a.is_constant && b.is_constant && a.shape == b.shape;
      all_shardings &= a.sharding != b.sharding;
    }
    if (all_constants) {
      std::vector<std::string> parts;
      for (size_t i : differing) {
        parts.push_back(absl::StrCat("now ", Quote(now.instructions[i].display), ", before ",
                                     Quote(before->instructions[i].display)));
      }
      const size_t first = differing.front();
      return Cause(RecompilationKind::kChangedConstant,
                   absl::StrCat(differing.size() == 1 ? "changed constant: " : "changed constants: ",
                                absl::StrJoin(parts, "; ")),
                   -1, int64_t(first), before->instructions[first].display,
                   now.instructions[first].display);
    }
    const auto& a = now.instructions[differing.front()];
    const auto& b = before->instructions[differing.front()];
    if (all_shardings) {
      return Cause(RecompilationKind::kDifferentSharding,
                   absl::StrCat("sharding", InstructionWhere(a), ": now ", OrNone(a.sharding),
                                ", before ", OrNone(b.sharding), " (", Quote(a.display), ")"),
                   -1, int64_t(differing.front()), OrNone(b.sharding), OrNone(a.sharding));
    }
    return Cause(RecompilationKind::kDifferentInstruction,
                 absl::StrCat(differing.size(), " of ", now_count,
                              " instructions differ; first difference", InstructionWhere(a),
                              ": now ", Quote(a.display), ", before ", Quote(b.display)),
                 -1, int64_t(differing.front()), b.display, a.display);
  }
  if (now.header != before->header) {
    return Cause(RecompilationKind::kModuleConfiguration,
                 absl::StrCat("module configuration differs: now ", Quote(now.header),
                              ", before ", Quote(before->header)),
                 -1, -1, before->header, now.header);
  }
  return Cause(RecompilationKind::kModuleConfiguration,
               "the programs differ only in what the fingerprint does not name");
}

}  // namespace systolic::runtime
