// Orders each computation so that asynchronous collectives overlap compute,
// in the manner of XLA's latency-hiding scheduler: a list scheduler that
// walks the computation backwards from its root with an estimated clock.
//
// Walking backwards, a collective's done is placed as soon as its users are
// (so it runs as late as possible), and its start is held back until enough
// independent work has been placed to cover the collective's estimated time
// on the interconnect (so it is issued just early enough, not earlier: a
// start hoisted further would only keep its buffers live longer). Between
// them goes whatever does not depend on the collective. At most one
// collective of each kind (all-reduce, all-gather, collective-permute) is in
// flight at a time, as on hardware with one queue per kind. All other
// choices follow the order the computation already has (the memory
// scheduler's), so a computation without asynchronous collectives keeps its
// order exactly.
//
// Compute times come from the CostModel, collective times from a
// CollectiveCostModel (the α-β estimate when none is given). The module is
// marked scheduled; lowering follows the schedule.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/collective_cost_model.h"
#include "core/compiler/cost_model.h"
#include "core/compiler/hlo_pass_interface.h"

namespace systolic {

// One async collective as the scheduler placed it.
struct ScheduledCollective {
  const HloInstruction* start = nullptr;
  const HloInstruction* done = nullptr;
  double collective_seconds = 0;  // the estimate of its time on the interconnect
  double overlapped_seconds = 0;  // of it, the estimated compute placed alongside
  int64_t instructions_between = 0;
};

struct LatencyHidingSchedule {
  std::vector<HloInstruction*> order;
  std::vector<ScheduledCollective> collectives;
  double estimated_seconds = 0;  // of the computation in this order
};

class LatencyHidingScheduler : public HloPassInterface {
 public:
  // `collective_cost_model` may be null: the α-β estimate is used then.
  // Neither model is owned; both must outlive the pass.
  LatencyHidingScheduler(const CostModel* cost_model,
                         const CollectiveCostModel* collective_cost_model = nullptr);

  absl::string_view name() const override { return "latency-hiding-scheduler"; }
  absl::StatusOr<bool> Run(HloModule* module) override;

  // The order of one computation, starting from `base_order` (every
  // instruction of it, operands first), for a module run on `devices`.
  absl::StatusOr<LatencyHidingSchedule> ScheduleComputation(
      const HloComputation& computation, const std::vector<HloInstruction*>& base_order,
      const SpmdDeviceCounts& devices) const;

 private:
  const CostModel* cost_model_;
  AlphaBetaCollectiveCostModel default_collective_cost_model_;
  const CollectiveCostModel* collective_cost_model_;
};

}  // namespace systolic
