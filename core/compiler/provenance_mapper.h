// Links the instructions of two snapshots through provenance: an instruction
// of one maps to every instruction of the other made from at least one of
// the same original instructions. This is the graph view's linked
// selection: click a fusion after fusion, see the ops it came from before.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/compiler/pass_snapshot.h"

namespace systolic {

class ProvenanceMapper {
 public:
  ProvenanceMapper(std::shared_ptr<const ModuleState> from, std::shared_ptr<const ModuleState> to);

  // Instructions of `to` linked to instruction `unique_id` of `from`, in the
  // order of `to`'s records; empty when the id is unknown.
  std::vector<const InstructionRecord*> Forward(int64_t from_unique_id) const;
  // Instructions of `from` linked to instruction `unique_id` of `to`.
  std::vector<const InstructionRecord*> Backward(int64_t to_unique_id) const;

  const ModuleState& from() const { return *from_; }
  const ModuleState& to() const { return *to_; }

 private:
  using OriginIndex = absl::flat_hash_map<int64_t, std::vector<size_t>>;
  static OriginIndex IndexByOrigin(const ModuleState& state);
  static std::vector<const InstructionRecord*> Link(const ModuleState& source, int64_t unique_id,
                                                    const ModuleState& target,
                                                    const OriginIndex& target_index);

  std::shared_ptr<const ModuleState> from_, to_;
  OriginIndex from_index_, to_index_;
};

}  // namespace systolic
