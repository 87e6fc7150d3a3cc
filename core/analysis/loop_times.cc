#include "core/analysis/loop_times.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/analysis/time_ruler.h"

namespace systolic::analysis {
namespace {

const trace::TimelinePlane* FirstChipPlane(const trace::Profile& profile) {
  for (const trace::TimelinePlane& plane : profile.timeline.planes()) {
    if (plane.kind() == trace::PlaneKind::kDevice) return &plane;
  }
  return nullptr;
}

// The [start, end) of every step of `program` on `plane`; empty when none
// is named so.
std::vector<std::pair<int64_t, int64_t>> StepsOf(const trace::TimelinePlane& plane,
                                                 const std::string& program) {
  std::vector<std::pair<int64_t, int64_t>> steps;
  const int32_t name = plane.FindEventName(program);
  if (name < 0) return steps;
  for (const trace::TimelineLine& line : plane.lines()) {
    if (line.kind() != trace::LaneKind::kSteps) continue;
    for (int64_t i = 0; i < line.size(); ++i) {
      if (line.metadata_id(i) == name) {
        steps.emplace_back(line.start_ps(i), line.start_ps(i) + line.duration_ps(i));
      }
    }
  }
  return steps;
}

bool Within(const std::vector<std::pair<int64_t, int64_t>>& steps, int64_t ps) {
  if (steps.empty()) return true;
  for (const auto& [start, end] : steps) {
    if (ps >= start && ps < end) return true;
  }
  return false;
}

}  // namespace

LoopTimes ComputeLoopTimes(const trace::Profile& profile, const std::string& program) {
  LoopTimes loops;
  const trace::TimelinePlane* plane = FirstChipPlane(profile);
  if (plane == nullptr) return loops;
  const int32_t iterations = plane->FindStatName("iterations");
  const int32_t hlo_op = plane->FindStatName("hlo_op");
  if (iterations < 0 || hlo_op < 0) return loops;
  const std::vector<std::pair<int64_t, int64_t>> steps = StepsOf(*plane, program);
  // The loop spans of one core are enough: every core runs the whole loop.
  int32_t core = -1;
  for (const trace::TimelineLine& line : plane->lines()) {
    for (int64_t i = 0; i < line.size(); ++i) {
      int64_t count = -1;
      const std::string* instruction = nullptr;
      for (const trace::Stat& stat : line.stats(i)) {
        if (stat.name_id == iterations) count = int64_t(stat.AsDouble());
        if (stat.name_id == hlo_op) instruction = plane->StringValue(stat);
      }
      if (count < 0 || instruction == nullptr || !Within(steps, line.start_ps(i))) continue;
      if (core < 0) core = line.core();
      if (line.core() != core) continue;
      LoopTime& loop = loops[*instruction];
      ++loop.runs;
      loop.iterations += count;
      loop.total_ps += line.duration_ps(i);
    }
  }
  return loops;
}

std::string LoopTimeInWords(const LoopTime& loop) {
  const std::string each = absl::StrCat(loop.iterations, " iterations \u00d7 ",
                                        FormatPs(int64_t(loop.per_iteration_ps())), " = ",
                                        FormatPs(loop.total_ps));
  return loop.runs > 1 ? absl::StrCat(loop.runs, " runs, ", each) : each;
}

const HloInstruction* LoopRunning(const HloComputation& computation) {
  const HloModule* module = computation.parent();
  if (module == nullptr) return nullptr;
  for (const HloComputation* caller : module->computations()) {
    for (const HloInstruction* instruction : caller->instructions()) {
      if (instruction->opcode() == HloOpcode::kWhile &&
          (instruction->while_body() == &computation ||
           instruction->while_condition() == &computation)) {
        return instruction;
      }
    }
  }
  return nullptr;
}

}  // namespace systolic::analysis
