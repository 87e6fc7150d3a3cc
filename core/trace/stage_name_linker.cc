#include "core/trace/stage_name_linker.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"

namespace systolic::trace {
namespace {

// The original instructions `record` stands for: itself when it is original.
std::vector<ProvenanceOrigin> EffectiveOrigins(const InstructionProvenance& record) {
  if (!record.origins.empty()) return record.origins;
  return {{record.unique_id, record.name}};
}

// `name` without one clone suffix (`.clone`, or a trailing `.N`), or empty
// when it has none.
absl::string_view WithoutCloneSuffix(absl::string_view name) {
  if (absl::ConsumeSuffix(&name, ".clone")) return name;
  const size_t dot = name.find_last_of('.');
  if (dot == absl::string_view::npos || dot + 1 == name.size()) return {};
  for (char c : name.substr(dot + 1)) {
    if (c < '0' || c > '9') return {};
  }
  return name.substr(0, dot);
}

}  // namespace

std::vector<InstructionProvenance> StageNameLinker::Link(const HloModule& module) {
  std::vector<InstructionProvenance> records;
  absl::flat_hash_map<std::string, InstructionProvenance> current;
  // Origins of each computation's instructions, for the fusions calling it.
  absl::flat_hash_map<const HloComputation*, std::vector<ProvenanceOrigin>> computation_origins;
  for (const HloComputation* computation : module.MakeComputationPostOrder()) {
    std::vector<ProvenanceOrigin> inside;
    for (const HloInstruction* instruction : computation->instructions()) {
      InstructionProvenance record;
      record.name = instruction->name();
      auto same = previous_.find(record.name);
      if (same != previous_.end()) {
        record.unique_id = same->second.unique_id;
        record.origins = same->second.origins;
      } else {
        record.unique_id = next_id_++;
        for (absl::string_view base = WithoutCloneSuffix(record.name); !base.empty();
             base = WithoutCloneSuffix(base)) {
          auto moved = previous_.find(base);
          if (moved != previous_.end()) {
            record.origins = EffectiveOrigins(moved->second);
            break;
          }
        }
        if (record.origins.empty() && instruction->opcode() == HloOpcode::kFusion) {
          absl::flat_hash_set<int64_t> seen;
          for (const HloComputation* called : instruction->called_computations()) {
            auto fused = computation_origins.find(called);
            if (fused == computation_origins.end()) continue;
            for (const ProvenanceOrigin& origin : fused->second) {
              if (seen.insert(origin.unique_id).second) record.origins.push_back(origin);
            }
          }
        }
      }
      if (instruction->opcode() != HloOpcode::kParameter) {
        for (ProvenanceOrigin& origin : EffectiveOrigins(record)) {
          inside.push_back(std::move(origin));
        }
      }
      current.try_emplace(record.name, record);
      records.push_back(std::move(record));
    }
    computation_origins[computation] = std::move(inside);
  }
  previous_ = std::move(current);
  return records;
}

}  // namespace systolic::trace
