// What the studio says about a timeline event — its lane, times, the HLO
// instruction it ran and the figures its stats carry (cycles, FLOPs, bytes,
// utilisation, op_name) — and which events ran a given instruction, so a
// selection in the graph lights up the timeline and back.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/timeline.h"

namespace systolic::analysis {

struct EventDetails {
  std::string name;         // as shown (the display name when set)
  std::string instruction;  // the HLO instruction it ran, "" when unknown
  std::string plane;
  std::string lane;
  int64_t start_ps = 0;
  int64_t duration_ps = 0;
  // (label, value) in display order: event, lane, times, instruction,
  // fusion, cycles, FLOPs and FLOP/s, bytes and bandwidth, utilisation,
  // op_name, then every other stat by name.
  std::vector<std::pair<std::string, std::string>> rows;
};

EventDetails DescribeEvent(const trace::Timeline& timeline, const trace::EventRef& ref);

// The instruction an event ran: its own `hlo_op` stat, its name's, or the
// event's name.
std::string InstructionOfEvent(const trace::Timeline& timeline, const trace::EventRef& ref);

// The event's own stat named `name`, else its name's (event metadata's);
// null when neither has it.
const trace::Stat* FindEventStat(const trace::TimelinePlane& plane, const trace::TimelineLine& line,
                                 int64_t event, absl::string_view name);

// The clock of a plane from its `clock_hz` stat, or 0.
double PlaneClockHz(const trace::TimelinePlane& plane);

// Which events ran any of a set of instructions: events whose name or
// `hlo_op` stat (the name's or their own) is one of the names. Built once
// per selection; Matches is a few integer compares per event.
class InstructionEventMatcher {
 public:
  InstructionEventMatcher() = default;
  InstructionEventMatcher(const trace::Timeline& timeline, const std::vector<std::string>& instructions);

  bool empty() const { return empty_; }
  // Every event with this name in the plane ran one of the instructions.
  bool MatchesName(int32_t plane, int32_t metadata_id) const;
  bool Matches(const trace::Timeline& timeline, const trace::EventRef& ref) const;

 private:
  struct PlaneMatch {
    std::vector<bool> names;            // by metadata id
    int32_t hlo_op_stat = -1;           // stat id of "hlo_op"
    std::vector<uint32_t> string_refs;  // interned strings equal to a name
  };
  std::vector<PlaneMatch> planes_;
  bool empty_ = true;
};

}  // namespace systolic::analysis
