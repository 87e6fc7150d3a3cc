#include "core/compiler/provenance_mapper.h"

#include <algorithm>

namespace systolic {

ProvenanceMapper::ProvenanceMapper(std::shared_ptr<const ModuleState> from,
                                   std::shared_ptr<const ModuleState> to)
    : from_(std::move(from)), to_(std::move(to)) {
  from_index_ = IndexByOrigin(*from_);
  to_index_ = IndexByOrigin(*to_);
}

ProvenanceMapper::OriginIndex ProvenanceMapper::IndexByOrigin(const ModuleState& state) {
  OriginIndex index;
  for (size_t i = 0; i < state.instructions.size(); ++i) {
    for (const ProvenanceEntry& origin : state.instructions[i].origins) {
      index[origin.unique_id].push_back(i);
    }
  }
  return index;
}

std::vector<const InstructionRecord*> ProvenanceMapper::Link(const ModuleState& source,
                                                             int64_t unique_id,
                                                             const ModuleState& target,
                                                             const OriginIndex& target_index) {
  const InstructionRecord* record = source.Find(unique_id);
  if (record == nullptr) return {};
  std::vector<size_t> positions;
  for (const ProvenanceEntry& origin : record->origins) {
    auto it = target_index.find(origin.unique_id);
    if (it == target_index.end()) continue;
    positions.insert(positions.end(), it->second.begin(), it->second.end());
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  std::vector<const InstructionRecord*> out;
  out.reserve(positions.size());
  for (size_t p : positions) out.push_back(&target.instructions[p]);
  return out;
}

std::vector<const InstructionRecord*> ProvenanceMapper::Forward(int64_t from_unique_id) const {
  return Link(*from_, from_unique_id, *to_, to_index_);
}

std::vector<const InstructionRecord*> ProvenanceMapper::Backward(int64_t to_unique_id) const {
  return Link(*to_, to_unique_id, *from_, from_index_);
}

}  // namespace systolic
