// Self time: every instant of the measured time given to exactly one
// instruction, so instructions' times add up to the step time (with idle
// time as the remainder). Where events overlap (a DMA under an MXU pass, a
// collective hidden behind compute), the instant goes to the event on the
// unit that bounds the step most directly: MXU, then vector, then DMA, then
// the rest (collectives, scalar), the earlier-started event first. This is
// what a comparison of two runs needs: per-instruction deltas that sum to
// the step-time delta.
#pragma once

#include <cstdint>
#include <vector>

namespace systolic::analysis {

struct SelfTimeEvent {
  int64_t start_ps = 0;
  int64_t end_ps = 0;
  uint8_t priority = 0;  // lower wins an instant
  int32_t owner = 0;     // index of the instruction it belongs to
};

struct SelfTime {
  std::vector<int64_t> owner_ps;  // by owner index
  int64_t idle_ps = 0;            // measured time no event covers
  int64_t measured_ps = 0;        // the windows' length: owners' sum plus idle
};

// `windows`: the measured intervals [start, end) (steps), which may be given
// in any order and may touch; time outside them is not attributed.
SelfTime AttributeSelfTime(std::vector<SelfTimeEvent> events,
                           std::vector<std::pair<int64_t, int64_t>> windows, int32_t owners);

}  // namespace systolic::analysis
