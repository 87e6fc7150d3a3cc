#include "core/device/simulation_result.h"

namespace systolic::device {

const char* StallCauseName(StallCause cause) {
  switch (cause) {
    case StallCause::kNone: return "none";
    case StallCause::kDependency: return "dependency";
    case StallCause::kVmemCapacity: return "vmem capacity";
    case StallCause::kHbmBandwidth: return "hbm bandwidth";
  }
  return "?";
}

const UnitLane* SimulationResult::FindLane(int core, UnitId unit) const {
  for (const UnitLane& lane : lanes) {
    if (lane.core == core && lane.unit == unit) return &lane;
  }
  return nullptr;
}

const TraceEvent* SimulationResult::FindEvent(int core, absl::string_view name) const {
  for (const UnitLane& lane : lanes) {
    if (lane.core != core) continue;
    for (const TraceEvent& event : lane.events) {
      if (event.name == name) return &event;
    }
  }
  return nullptr;
}

}  // namespace systolic::device
