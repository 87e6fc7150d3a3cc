#include "core/trace/module_snapshot.h"

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_print_options.h"

namespace systolic::trace {

ModuleSnapshot SnapshotModule(const HloModule& module, absl::string_view pass_name,
                              int64_t pass_duration_ns, bool changed) {
  ModuleSnapshot snapshot;
  snapshot.pass_name = std::string(pass_name);
  snapshot.pass_duration_ns = pass_duration_ns;
  snapshot.changed = changed;
  // Large constants print as `{...}`, as in the compiler's snapshots.
  snapshot.hlo_text = ModuleText(module, HloPrintOptions::WithoutLargeConstants());
  snapshot.instruction_count = module.instruction_count();
  snapshot.computation_count = module.computation_count();
  for (const HloComputation* computation : module.MakeComputationPostOrder()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      InstructionProvenance& p = snapshot.provenance.emplace_back();
      p.unique_id = instruction->unique_id();
      p.name = instruction->name();
      for (const ProvenanceEntry& origin : instruction->provenance()) {
        p.origins.push_back({origin.unique_id, origin.name});
      }
    }
  }
  return snapshot;
}

}  // namespace systolic::trace
