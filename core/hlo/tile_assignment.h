// An N-D array of device ids, written either explicitly (`[2,2]0,1,2,3`) or
// in XLA's compact iota form (`[2,4]<=[4,2]T(1,0)`: iota over the reshape
// dimensions, transposed, then reshaped to the tile dimensions). Used by
// shardings and by replica groups.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace systolic {

class TileAssignment {
 public:
  TileAssignment() = default;
  // Explicit device ids in row-major order over `dimensions`.
  TileAssignment(std::vector<int64_t> dimensions, std::vector<int64_t> devices);
  // Iota form. `transpose_perm` empty means no transpose.
  static absl::StatusOr<TileAssignment> Iota(std::vector<int64_t> dimensions,
                                             std::vector<int64_t> reshape_dimensions,
                                             std::vector<int64_t> transpose_perm);

  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t num_elements() const;
  // Device ids in row-major order (materialised from the iota form if needed).
  const std::vector<int64_t>& devices() const { return devices_; }
  int64_t operator()(absl::Span<const int64_t> index) const;
  bool is_iota() const { return iota_reshape_.has_value(); }
  const std::vector<int64_t>& iota_reshape_dimensions() const { return *iota_reshape_; }
  const std::vector<int64_t>& iota_transpose_perm() const { return iota_perm_; }

  // "[2,2]0,1,2,3" or "[2,4]<=[4,2]T(1,0)"
  std::string ToString() const;
  // Same devices in the same places, whatever the spelling.
  friend bool operator==(const TileAssignment& a, const TileAssignment& b) {
    return a.dimensions_ == b.dimensions_ && a.devices_ == b.devices_;
  }

 private:
  std::vector<int64_t> dimensions_;
  std::vector<int64_t> devices_;
  std::optional<std::vector<int64_t>> iota_reshape_;
  std::vector<int64_t> iota_perm_;
};

}  // namespace systolic
