// The timeline's lanes as the studio lists them: chip → core → unit lanes
// (each MXU, the vector unit, DMA engines), with a chip's own lanes (steps,
// modules, ICI links, shared DMA) beside its cores, and the host last.
// Every group can be collapsed by the view; the order is fixed here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/timeline.h"

namespace systolic::analysis {

enum class LaneNodeKind : uint8_t { kPlane, kCore, kLane };

struct LaneNode {
  LaneNodeKind kind = LaneNodeKind::kLane;
  std::string label;   // "TPU 0", "core 1", "MXU 2", "ICI +x"
  int32_t plane = -1;
  int32_t line = -1;   // kLane only
  int32_t core = -1;   // kCore, and a core's lanes
  trace::LaneKind lane_kind = trace::LaneKind::kOther;  // kLane only
  int32_t parent = -1;
  int32_t depth = 0;
  std::vector<int32_t> children;
  int64_t event_count = 0;  // the lane's, or every lane's below
};

class LaneTree {
 public:
  static LaneTree Build(const trace::Timeline& timeline);

  const std::vector<LaneNode>& nodes() const { return nodes_; }
  const LaneNode& node(int32_t i) const { return nodes_[i]; }
  int32_t size() const { return int32_t(nodes_.size()); }
  // Top-level nodes (planes) in display order.
  const std::vector<int32_t>& roots() const { return roots_; }
  // The node of lane (plane, line), or -1.
  int32_t FindLane(int32_t plane, int32_t line) const;

  // Nodes in display order, skipping the children of collapsed nodes
  // (`collapsed[i]` for node i; a shorter vector counts as expanded).
  std::vector<int32_t> VisibleRows(const std::vector<bool>& collapsed) const;

 private:
  int32_t Add(LaneNode node);
  std::vector<LaneNode> nodes_;
  std::vector<int32_t> roots_;
  std::vector<std::vector<int32_t>> lane_index_;  // [plane][line] -> node
};

// Display rank of a lane kind among its siblings: overview lanes (steps,
// modules, ops) first, then MXU, vector, scalar, DMA, ICI, host, other.
int LaneKindRank(trace::LaneKind kind);

// "TPU 0" for "/device:TPU:0", the plane name otherwise.
std::string PlaneLabel(const trace::TimelinePlane& plane);

}  // namespace systolic::analysis
