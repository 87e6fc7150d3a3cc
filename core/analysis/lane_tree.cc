#include "core/analysis/lane_tree.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace systolic::analysis {

int LaneKindRank(trace::LaneKind kind) {
  switch (kind) {
    case trace::LaneKind::kSteps: return 0;
    case trace::LaneKind::kModules: return 1;
    case trace::LaneKind::kOps: return 2;
    case trace::LaneKind::kMxu: return 3;
    case trace::LaneKind::kVector: return 4;
    case trace::LaneKind::kScalar: return 5;
    case trace::LaneKind::kDma: return 6;
    case trace::LaneKind::kIci: return 7;
    case trace::LaneKind::kHost: return 8;
    case trace::LaneKind::kOther: return 9;
  }
  return 9;
}

std::string PlaneLabel(const trace::TimelinePlane& plane) {
  // "/device:TPU:3" -> "TPU 3"; other names stay as they are.
  if (absl::StartsWith(plane.name(), "/device:")) {
    std::vector<std::string> parts = absl::StrSplit(plane.name().substr(8), ':');
    if (parts.size() == 2) return absl::StrCat(parts[0], " ", parts[1]);
  }
  if (absl::StartsWith(plane.name(), "/host:")) return absl::StrCat("host ", plane.name().substr(6));
  return plane.name();
}

namespace {

// "core 0 / MXU 1" shown under "core 0" reads "MXU 1".
std::string LaneLabel(const trace::TimelineLine& line) {
  const std::string prefix = absl::StrCat("core ", line.core(), " / ");
  if (line.core() >= 0 && absl::StartsWith(line.name(), prefix)) {
    return line.name().substr(prefix.size());
  }
  return line.name();
}

}  // namespace

int32_t LaneTree::Add(LaneNode node) {
  const int32_t index = int32_t(nodes_.size());
  if (node.parent >= 0) {
    node.depth = nodes_[node.parent].depth + 1;
    nodes_[node.parent].children.push_back(index);
  }
  nodes_.push_back(std::move(node));
  return index;
}

LaneTree LaneTree::Build(const trace::Timeline& timeline) {
  LaneTree tree;
  tree.lane_index_.resize(timeline.plane_count());
  // Chips by id, then the host and other planes in their order.
  std::vector<int32_t> planes(timeline.plane_count());
  for (int32_t p = 0; p < timeline.plane_count(); ++p) planes[p] = p;
  std::stable_sort(planes.begin(), planes.end(), [&](int32_t a, int32_t b) {
    const trace::TimelinePlane& x = timeline.plane(a);
    const trace::TimelinePlane& y = timeline.plane(b);
    const bool dx = x.kind() == trace::PlaneKind::kDevice, dy = y.kind() == trace::PlaneKind::kDevice;
    if (dx != dy) return dx;
    return dx && x.chip_id() < y.chip_id();
  });

  auto lane_order = [&](const trace::TimelinePlane& plane) {
    std::vector<int32_t> lines(plane.line_count());
    for (int32_t l = 0; l < plane.line_count(); ++l) lines[l] = l;
    std::stable_sort(lines.begin(), lines.end(), [&](int32_t a, int32_t b) {
      const trace::TimelineLine& x = plane.line(a);
      const trace::TimelineLine& y = plane.line(b);
      if (LaneKindRank(x.kind()) != LaneKindRank(y.kind())) {
        return LaneKindRank(x.kind()) < LaneKindRank(y.kind());
      }
      return x.unit() < y.unit();
    });
    return lines;
  };

  for (int32_t p : planes) {
    const trace::TimelinePlane& plane = timeline.plane(p);
    tree.lane_index_[p].assign(plane.line_count(), -1);
    LaneNode chip;
    chip.kind = LaneNodeKind::kPlane;
    chip.label = PlaneLabel(plane);
    chip.plane = p;
    const int32_t chip_node = tree.Add(std::move(chip));
    tree.roots_.push_back(chip_node);

    const std::vector<int32_t> lines = lane_order(plane);
    std::map<int32_t, int32_t> core_nodes;
    auto add_lane = [&](int32_t l, int32_t parent) {
      const trace::TimelineLine& line = plane.line(l);
      LaneNode lane;
      lane.kind = LaneNodeKind::kLane;
      lane.label = LaneLabel(line);
      lane.plane = p;
      lane.line = l;
      lane.core = line.core();
      lane.lane_kind = line.kind();
      lane.parent = parent;
      lane.event_count = line.size();
      tree.lane_index_[p][l] = tree.Add(std::move(lane));
      for (int32_t a = parent; a >= 0; a = tree.nodes_[a].parent) {
        tree.nodes_[a].event_count += line.size();
      }
    };
    // Overview lanes of the chip first, then its cores, then its own units.
    for (int32_t l : lines) {
      if (plane.line(l).core() < 0 && LaneKindRank(plane.line(l).kind()) <= 2) add_lane(l, chip_node);
    }
    for (int32_t l : lines) {
      const int32_t core = plane.line(l).core();
      if (core >= 0) core_nodes.emplace(core, -1);
    }
    for (auto& [core, node] : core_nodes) {
      LaneNode group;
      group.kind = LaneNodeKind::kCore;
      group.label = absl::StrCat("core ", core);
      group.plane = p;
      group.core = core;
      group.parent = chip_node;
      node = tree.Add(std::move(group));
      for (int32_t l : lines) {
        if (plane.line(l).core() == core) add_lane(l, node);
      }
    }
    for (int32_t l : lines) {
      if (plane.line(l).core() < 0 && LaneKindRank(plane.line(l).kind()) > 2) add_lane(l, chip_node);
    }
  }
  return tree;
}

int32_t LaneTree::FindLane(int32_t plane, int32_t line) const {
  if (plane < 0 || plane >= int32_t(lane_index_.size())) return -1;
  if (line < 0 || line >= int32_t(lane_index_[plane].size())) return -1;
  return lane_index_[plane][line];
}

std::vector<int32_t> LaneTree::VisibleRows(const std::vector<bool>& collapsed) const {
  std::vector<int32_t> rows;
  std::vector<int32_t> stack(roots_.rbegin(), roots_.rend());
  while (!stack.empty()) {
    const int32_t n = stack.back();
    stack.pop_back();
    rows.push_back(n);
    if (n < int32_t(collapsed.size()) && collapsed[n]) continue;
    const auto& children = nodes_[n].children;
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  return rows;
}

}  // namespace systolic::analysis
