// The replica groups of a collective: `replica_groups={{0,1},{2,3}}` or the
// iota form `replica_groups=[2,2]<=[4]` (groups x group size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/tile_assignment.h"

namespace systolic {

class CollectiveDeviceList {
 public:
  CollectiveDeviceList() = default;
  explicit CollectiveDeviceList(std::vector<std::vector<int64_t>> groups)
      : groups_(std::move(groups)) {}
  // From a 2-D iota tile assignment: rows are groups.
  explicit CollectiveDeviceList(TileAssignment iota);

  const std::vector<std::vector<int64_t>>& replica_groups() const { return groups_; }
  bool empty() const { return groups_.empty(); }
  bool is_iota() const { return iota_.has_value(); }

  // "{{0,1},{2,3}}" or "[2,2]<=[4]"
  std::string ToString() const;
  friend bool operator==(const CollectiveDeviceList& a, const CollectiveDeviceList& b) {
    return a.groups_ == b.groups_;
  }

 private:
  std::vector<std::vector<int64_t>> groups_;
  std::optional<TileAssignment> iota_;
};

}  // namespace systolic
