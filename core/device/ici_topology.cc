#include "core/device/ici_topology.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic::device {
namespace {

// Far beyond any real slice; keeps link tables and routes small enough to
// allocate.
constexpr int64_t kMaxChips = int64_t{1} << 16;

int TorusDimensions(const ChipSpec& spec) {
  switch (spec.ici().topology()) {
    case TORUS_2D:
      return 2;
    case TORUS_3D:
      return 3;
    default:
      return 0;
  }
}

}  // namespace

std::string AxisName(int axis) {
  if (axis >= 0 && axis < 3) return std::string(1, "xyz"[axis]);
  return axis == kDcnAxis ? "dcn" : "?";
}

absl::StatusOr<IciTopology> IciTopology::Create(const ChipSpec& spec,
                                                std::vector<int64_t> bounds, int64_t slices) {
  if (bounds.empty() || bounds.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("a topology has one to three axes, not ", bounds.size()));
  }
  const int dimensions = TorusDimensions(spec);
  if (dimensions == 0 || spec.ici().bandwidth_gb_per_second_per_link() <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("chip ", spec.name(), " has no ICI figures (topology and link bandwidth)"));
  }
  IciTopology t;
  t.axes_ = int(bounds.size());
  int long_axes = 0;
  t.chip_count_ = 1;
  for (size_t axis = 0; axis < bounds.size(); ++axis) {
    if (bounds[axis] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("axis ", AxisName(int(axis)), " has ", bounds[axis], " chips"));
    }
    t.bounds_[axis] = bounds[axis];
    long_axes += bounds[axis] > 1;
    t.chip_count_ *= bounds[axis];
    if (t.chip_count_ > kMaxChips) {
      return absl::InvalidArgumentError(
          absl::StrCat("a slice of more than ", kMaxChips, " chips is not supported"));
    }
  }
  if (long_axes > dimensions) {
    return absl::InvalidArgumentError(absl::StrCat(
        spec.name(), " chips connect along ", dimensions, " axes; ", t.ShapeString(), " needs ",
        long_axes));
  }
  for (int axis = 0; axis < 3; ++axis) t.wraps_[axis] = t.bounds_[axis] > 2;
  if (slices < 1) {
    return absl::InvalidArgumentError(absl::StrCat("a topology has at least one slice, not ", slices));
  }
  if (slices > 1 && !spec.has_dcn()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "chip ", spec.name(), " has no data-centre network figures (dcn), so its slices cannot "
        "be joined"));
  }
  if (t.chip_count_ * slices > kMaxChips) {
    return absl::InvalidArgumentError(
        absl::StrCat("more than ", kMaxChips, " chips in all slices is not supported"));
  }
  t.slices_ = slices;
  t.chips_per_slice_ = t.chip_count_;
  t.chip_count_ *= slices;

  const double bandwidth = spec.ici().bandwidth_gb_per_second_per_link() * 1e9;
  const double latency = spec.ici().hop_latency_ns() * 1e-9;
  t.link_index_.assign(size_t(t.chip_count_) * 8, -1);
  for (int64_t chip = 0; chip < t.chip_count_; ++chip) {
    const ChipCoordinates c = t.Coordinates(chip);
    const int64_t slice = t.SliceOf(chip);
    for (int axis = 0; axis < 3; ++axis) {
      for (int direction : {+1, -1}) {
        ChipCoordinates n = c;
        n[axis] += direction;
        if (n[axis] < 0 || n[axis] >= t.bounds_[axis]) {
          if (!t.wraps_[axis]) continue;
          n[axis] = (n[axis] + t.bounds_[axis]) % t.bounds_[axis];
        }
        if (n == c) continue;
        t.link_index_[size_t(chip) * 8 + axis * 2 + (direction > 0)] = int(t.links_.size());
        t.links_.push_back({chip, t.ChipAt(n, slice), axis, direction, bandwidth, latency});
      }
    }
    if (slices > 1) {
      const double dcn_bandwidth = spec.dcn().bandwidth_gb_per_second_per_chip() * 1e9;
      // The network's latency, charged once: half on the way out, half in.
      const double dcn_latency = spec.dcn().latency_ns() * 1e-9 / 2;
      for (int direction : {+1, -1}) {
        t.link_index_[size_t(chip) * 8 + kDcnAxis * 2 + (direction > 0)] = int(t.links_.size());
        t.links_.push_back({chip, chip, kDcnAxis, direction, dcn_bandwidth, dcn_latency});
      }
    }
  }
  return t;
}

std::string IciTopology::ShapeString() const {
  std::string shape = absl::StrJoin(bounds_.begin(), bounds_.begin() + axes_, "x");
  if (slices_ > 1) absl::StrAppend(&shape, "*", slices_);
  return shape;
}

ChipCoordinates IciTopology::Coordinates(int64_t chip) const {
  chip %= chips_per_slice_;
  ChipCoordinates c;
  for (int axis = 0; axis < 3; ++axis) {
    c[axis] = chip % bounds_[axis];
    chip /= bounds_[axis];
  }
  return c;
}

int64_t IciTopology::ChipAt(const ChipCoordinates& c, int64_t slice) const {
  return slice * chips_per_slice_ + c[0] + bounds_[0] * (c[1] + bounds_[1] * c[2]);
}

int IciTopology::LinkFrom(int64_t chip, int axis, int direction) const {
  if (chip < 0 || chip >= chip_count_ || axis < 0 || axis > kDcnAxis) return -1;
  return link_index_[size_t(chip) * 8 + axis * 2 + (direction > 0)];
}

std::string IciTopology::LinkName(int link) const {
  const IciLink& l = links_.at(size_t(link));
  if (l.axis == kDcnAxis) {
    return absl::StrCat("chip ", l.source_chip, l.direction > 0 ? " dcn out" : " dcn in");
  }
  return absl::StrCat("chip ", l.source_chip, " ", l.direction > 0 ? "+" : "-",
                      AxisName(l.axis));
}

std::vector<int> IciTopology::Route(int64_t source, int64_t target) const {
  std::vector<int> route;
  if (source < 0 || target < 0 || source >= chip_count_ || target >= chip_count_) return route;
  if (SliceOf(source) != SliceOf(target)) {
    return {LinkFrom(source, kDcnAxis, +1), LinkFrom(target, kDcnAxis, -1)};
  }
  ChipCoordinates at = Coordinates(source);
  const ChipCoordinates to = Coordinates(target);
  const int64_t slice = SliceOf(source);
  for (int axis = 0; axis < 3; ++axis) {
    const int64_t size = bounds_[axis];
    int64_t forward = to[axis] - at[axis];
    if (forward < 0 && wraps_[axis]) forward += size;
    int64_t backward = at[axis] - to[axis];
    if (backward < 0 && wraps_[axis]) backward += size;
    // Without wrap-around only one of the two is non-negative.
    const bool go_forward =
        forward >= 0 && (backward < 0 || forward <= backward);
    const int64_t hops = go_forward ? forward : backward;
    const int direction = go_forward ? +1 : -1;
    for (int64_t h = 0; h < hops; ++h) {
      const int link = LinkFrom(ChipAt(at, slice), axis, direction);
      route.push_back(link);
      at = Coordinates(links_[size_t(link)].target_chip);
    }
  }
  return route;
}

}  // namespace systolic::device
