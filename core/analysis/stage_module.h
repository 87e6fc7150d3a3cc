// One pass stage of a program as a module again: the snapshot's HLO text
// parsed back (or the very module the snapshot was taken of), each
// instruction tied to the original instructions it was made from. Two
// stages are linked op by op through those origins (snapshot_link.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_module.h"
#include "core/trace/module_snapshot.h"

namespace systolic::analysis {

class StageModule {
 public:
  // Parses the snapshot's text; instructions are matched to the snapshot's
  // provenance records by name (in order, where a name repeats across
  // computations).
  static absl::StatusOr<std::unique_ptr<StageModule>> Parse(const trace::ModuleSnapshot& snapshot);
  // The module `snapshot` was taken of (SnapshotModule(*module, ...)), kept
  // as it is: nothing is parsed.
  static std::unique_ptr<StageModule> Adopt(std::unique_ptr<HloModule> module,
                                            const trace::ModuleSnapshot& snapshot);

  const HloModule& module() const { return *module_; }
  const std::string& pass_name() const { return pass_name_; }

  // The unique ids of the original instructions `instruction` was made
  // from (an original instruction is its own origin); empty when the
  // snapshot has no record of it.
  absl::Span<const int64_t> OriginsOf(const HloInstruction* instruction) const;
  // The instructions made from the original instruction `origin_id`, in
  // program order.
  absl::Span<const HloInstruction* const> MadeFrom(int64_t origin_id) const;
  // The names of original instructions, by id, as the records give them.
  const std::string* OriginName(int64_t origin_id) const;

  // The instruction named `name` (the entry computation's first when the
  // name repeats), or nullptr.
  const HloInstruction* FindInstruction(absl::string_view name) const;
  // Position in program order (computations callees first), or -1.
  int64_t ProgramOrder(const HloInstruction* instruction) const;

 private:
  StageModule() = default;
  void Index(const trace::ModuleSnapshot& snapshot, bool same_order);

  std::unique_ptr<HloModule> module_;
  std::string pass_name_;
  absl::flat_hash_map<const HloInstruction*, std::vector<int64_t>> origins_;
  absl::flat_hash_map<int64_t, std::vector<const HloInstruction*>> made_from_;
  absl::flat_hash_map<int64_t, std::string> origin_names_;
  absl::flat_hash_map<std::string, std::vector<const HloInstruction*>> by_name_;
  absl::flat_hash_map<const HloInstruction*, int64_t> order_;
};

}  // namespace systolic::analysis
