// The chips of a slice and the ICI links between them: a ring, a 2D or a 3D
// mesh or torus of chips of one spec. Each neighbouring pair is joined by one
// link per direction with the spec's bandwidth and per-hop latency; an axis
// wraps around (a torus) when the chip's interconnect is a torus and the
// axis has more than two chips (on two chips the wrap link would join the
// same neighbours again). Messages follow dimension-order routing: along
// axis 0 first, then 1, then 2, the shorter way round on a wrapped axis.
//
// Several identical slices may be joined by the data-centre network (DCN):
// chip c of slice s is chip s * chips_per_slice() + c. Every chip has a
// link out to the network and one in, each with its share of its host's
// network bandwidth (hosts split their interfaces evenly between their
// chips, as every chip sends at once in the collectives that cross slices);
// a message to another slice leaves by the sender's link out and arrives
// by the receiver's link in.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"

namespace systolic::device {

struct IciLink {
  int64_t source_chip = 0;
  int64_t target_chip = 0;
  int axis = 0;       // kDcnAxis: a link to or from the data-centre network
  int direction = 1;  // +1 or -1 along the axis; for DCN, +1 out and -1 in
  double bytes_per_second = 0;
  double hop_latency_seconds = 0;
};

using ChipCoordinates = std::array<int64_t, 3>;

inline constexpr int kDcnAxis = 3;

// "x", "y" or "z" for ICI axes 0 to 2; "dcn" for the network.
std::string AxisName(int axis);

class IciTopology {
 public:
  // `bounds`: chips along each axis (one to three axes, each at least 1).
  // Errors: more axes with several chips than the chip's interconnect has
  // dimensions, an empty or oversized slice, a spec without ICI figures.
  // `slices` > 1 joins that many slices over the DCN (the spec must have
  // DCN figures).
  static absl::StatusOr<IciTopology> Create(const ChipSpec& spec, std::vector<int64_t> bounds,
                                            int64_t slices = 1);

  int64_t chip_count() const { return chip_count_; }
  int64_t slices() const { return slices_; }
  int64_t chips_per_slice() const { return chips_per_slice_; }
  int64_t SliceOf(int64_t chip) const { return chip / chips_per_slice_; }
  const ChipCoordinates& bounds() const { return bounds_; }
  bool wraps(int axis) const { return wraps_[axis]; }
  // "4x4x4", "16x16*4" for four slices
  std::string ShapeString() const;

  // Within the chip's slice.
  ChipCoordinates Coordinates(int64_t chip) const;
  // The chip at `coordinates` of slice `slice`.
  int64_t ChipAt(const ChipCoordinates& coordinates, int64_t slice = 0) const;

  const std::vector<IciLink>& links() const { return links_; }
  // The link leaving `chip` along `axis` in `direction`, or -1 at a mesh edge
  // (kDcnAxis: +1 the chip's link out to the network, -1 its link in).
  int LinkFrom(int64_t chip, int axis, int direction) const;
  // "chip 3 +y" (or "chip 3 dcn out") for lanes and messages.
  std::string LinkName(int link) const;

  // The links a message from `source` to `target` crosses, in order.
  std::vector<int> Route(int64_t source, int64_t target) const;

 private:
  IciTopology() = default;

  ChipCoordinates bounds_ = {1, 1, 1};
  int axes_ = 1;  // as written by the user: "4x4" has two
  std::array<bool, 3> wraps_ = {false, false, false};
  int64_t chip_count_ = 1;
  int64_t slices_ = 1;
  int64_t chips_per_slice_ = 1;
  std::vector<IciLink> links_;
  // links_ index per (chip, axis, direction): chip * 8 + axis * 2 + (dir > 0).
  std::vector<int> link_index_;
};

}  // namespace systolic::device
