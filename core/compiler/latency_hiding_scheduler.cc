#include "core/compiler/latency_hiding_scheduler.h"

#include <algorithm>
#include <optional>
#include <queue>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/compiler/async_collectives.h"
#include "core/compiler/hlo_memory_scheduler.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

bool HasAsyncCollective(const HloComputation& computation) {
  for (const HloInstruction* instr : computation.instructions()) {
    if (IsAsyncCollectiveStart(*instr)) return true;
  }
  return false;
}

// The operands and control predecessors of `instr`, each once.
std::vector<HloInstruction*> Predecessors(const HloInstruction& instr) {
  std::vector<HloInstruction*> out;
  absl::flat_hash_set<const HloInstruction*> seen;
  for (HloInstruction* op : instr.operands()) {
    if (seen.insert(op).second) out.push_back(op);
  }
  for (HloInstruction* pred : instr.control_predecessors()) {
    if (seen.insert(pred).second) out.push_back(pred);
  }
  return out;
}

// The users and control successors of `instr`, each once.
absl::flat_hash_set<const HloInstruction*> Successors(const HloInstruction& instr) {
  absl::flat_hash_set<const HloInstruction*> out(instr.users().begin(), instr.users().end());
  out.insert(instr.control_successors().begin(), instr.control_successors().end());
  return out;
}

std::string Microseconds(double seconds) { return absl::StrFormat("%.2f us", seconds * 1e6); }

}  // namespace

LatencyHidingScheduler::LatencyHidingScheduler(const CostModel* cost_model,
                                               const CollectiveCostModel* collective_cost_model)
    : cost_model_(cost_model),
      collective_cost_model_(collective_cost_model != nullptr ? collective_cost_model
                                                              : &default_collective_cost_model_) {}

absl::StatusOr<LatencyHidingSchedule> LatencyHidingScheduler::ScheduleComputation(
    const HloComputation& computation, const std::vector<HloInstruction*>& base_order,
    const SpmdDeviceCounts& devices) const {
  const int64_t n = int64_t(base_order.size());
  absl::flat_hash_map<const HloInstruction*, int64_t> position;
  for (int64_t i = 0; i < n; ++i) position[base_order[i]] = i;

  // Times run backwards: 0 is the end of the computation, and placing an
  // instruction moves the clock back by its cost.
  struct Node {
    double cost = 0;          // seconds the core spends on it
    double latency = 0;       // a start: seconds its collective takes
    int64_t users_left = 0;   // users and control successors not yet placed
    double ready_at = 0;      // the backward clock it may be placed at
    double placed_at = 0;
    double work_before_stall = 0;  // the clock when placed, before waiting
    int64_t placed_index = 0;      // in the backward order
  };
  std::vector<Node> nodes(n);
  if (position.size() != size_t(n)) {
    return absl::InvalidArgumentError(
        absl::StrCat(computation.name(), ": the order to schedule from lists an instruction twice"));
  }
  for (int64_t i = 0; i < n; ++i) {
    const HloInstruction& instr = *base_order[i];
    if (instr.parent() != &computation) {
      return absl::InvalidArgumentError(absl::StrCat(
          computation.name(), ": the order to schedule from lists %", instr.name(),
          " of another computation"));
    }
    Node& node = nodes[i];
    node.users_left = int64_t(Successors(instr).size());
    if (IsAsyncCollectiveStart(instr)) {
      SYSTOLIC_ASSIGN_OR_RETURN(node.latency,
                                collective_cost_model_->EstimateSeconds(instr, devices));
    } else if (IsAsyncCollectiveDone(instr)) {
      // Waiting costs nothing of its own; the start's latency covers it.
    } else if (CollectiveKindOf(instr)) {
      // A synchronous collective holds the core for its whole time.
      SYSTOLIC_ASSIGN_OR_RETURN(node.cost,
                                collective_cost_model_->EstimateSeconds(instr, devices));
    } else {
      node.cost = cost_model_->EstimateInstruction(instr).seconds;
    }
  }

  // Candidates whose users are all placed. Dones and starts are few and
  // scanned; the rest are taken latest-in-base-order first.
  std::vector<int64_t> ready_dones, ready_starts;
  std::priority_queue<int64_t> ready_others;
  // Parameters come first in the program whatever waits: they cost nothing
  // and read nothing, and a program reads better with them at the top.
  std::priority_queue<int64_t> ready_parameters;
  auto make_ready = [&](int64_t i) {
    const HloInstruction& instr = *base_order[i];
    if (instr.opcode() == HloOpcode::kParameter) {
      ready_parameters.push(i);
    } else if (IsAsyncCollectiveDone(instr)) {
      ready_dones.push_back(i);
    } else if (IsAsyncCollectiveStart(instr)) {
      ready_starts.push_back(i);
    } else {
      ready_others.push(i);
    }
  };
  for (int64_t i = 0; i < n; ++i) {
    if (nodes[i].users_left == 0) make_ready(i);
  }
  // Takes the candidate latest in base order among those `eligible` allows.
  auto take = [&](std::vector<int64_t>& candidates, auto eligible) -> std::optional<int64_t> {
    auto best = candidates.end();
    for (auto it = candidates.begin(); it != candidates.end(); ++it) {
      if (eligible(*it) && (best == candidates.end() || *it > *best)) best = it;
    }
    if (best == candidates.end()) return std::nullopt;
    const int64_t chosen = *best;
    candidates.erase(best);
    return chosen;
  };

  // Per collective kind, the start whose done is placed and it is not: the
  // collective in flight over that stretch of the (forward) program.
  absl::flat_hash_map<HloOpcode, const HloInstruction*> in_flight;
  std::vector<int64_t> backward;
  backward.reserve(n);
  double clock = 0;
  auto place = [&](int64_t i) {
    HloInstruction* instr = base_order[i];
    Node& node = nodes[i];
    node.work_before_stall = clock;
    clock = std::max(clock, node.ready_at);
    node.placed_at = clock;
    node.placed_index = int64_t(backward.size());
    clock += node.cost;
    backward.push_back(i);
    if (IsAsyncCollectiveDone(*instr)) in_flight[*CollectiveKindOf(*instr)] = instr->operand(0);
    if (IsAsyncCollectiveStart(*instr)) {
      auto it = in_flight.find(*CollectiveKindOf(*instr));
      if (it != in_flight.end() && it->second == instr) in_flight.erase(it);
    }
    for (HloInstruction* pred : Predecessors(*instr)) {
      auto p = position.find(pred);
      if (p == position.end()) continue;
      Node& before = nodes[p->second];
      // A start must be issued its collective's time before its done.
      const bool start_of_this_done =
          IsAsyncCollectiveDone(*instr) && pred == instr->operand(0) && IsAsyncCollectiveStart(*pred);
      before.ready_at = std::max(before.ready_at, clock + (start_of_this_done ? before.latency : 0));
      if (--before.users_left == 0) make_ready(p->second);
    }
  };

  while (int64_t(backward.size()) < n) {
    // A done as late as possible, unless its kind is already in flight.
    std::optional<int64_t> next = take(ready_dones, [&](int64_t i) {
      return !in_flight.contains(*CollectiveKindOf(*base_order[i]));
    });
    // A start whose collective the work placed so far covers: issuing it
    // any earlier would only hold its buffers longer.
    if (!next) next = take(ready_starts, [&](int64_t i) { return nodes[i].ready_at <= clock; });
    if (!next && !ready_others.empty()) {
      next = ready_others.top();
      ready_others.pop();
    }
    // Nothing left to cover it with: the start that waits least, the core
    // idling for the rest of its collective.
    if (!next && !ready_starts.empty()) {
      const double earliest =
          nodes[*std::min_element(ready_starts.begin(), ready_starts.end(), [&](int64_t a, int64_t b) {
            return nodes[a].ready_at < nodes[b].ready_at;
          })].ready_at;
      next = take(ready_starts, [&](int64_t i) { return nodes[i].ready_at <= earliest; });
    }
    // Only dones of kinds in flight remain (their starts wait on something
    // else): let two of a kind overlap rather than fail.
    if (!next) next = take(ready_dones, [](int64_t) { return true; });
    if (!next && !ready_parameters.empty()) {
      next = ready_parameters.top();
      ready_parameters.pop();
    }
    if (!next) {
      return absl::InternalError(absl::StrCat(computation.name(),
                                              ": a dependency cycle stops the schedule"));
    }
    place(*next);
  }

  LatencyHidingSchedule schedule;
  schedule.estimated_seconds = clock;
  schedule.order.reserve(n);
  for (auto it = backward.rbegin(); it != backward.rend(); ++it) {
    schedule.order.push_back(base_order[*it]);
  }
  for (int64_t i = 0; i < n; ++i) {
    const HloInstruction* start = base_order[i];
    if (!IsAsyncCollectiveStart(*start)) continue;
    for (const HloInstruction* user : start->users()) {
      if (!IsAsyncCollectiveDone(*user)) continue;
      const Node& done = nodes[position.at(user)];
      const Node& node = nodes[i];
      ScheduledCollective c;
      c.start = start;
      c.done = user;
      c.collective_seconds = node.latency;
      c.overlapped_seconds =
          std::min(node.latency, node.work_before_stall - (done.placed_at + done.cost));
      c.instructions_between = node.placed_index - done.placed_index - 1;
      schedule.collectives.push_back(c);
    }
  }
  return schedule;
}

absl::StatusOr<bool> LatencyHidingScheduler::Run(HloModule* module) {
  bool any = false;
  for (const HloComputation* computation : module->MakeComputationPostOrder()) {
    any |= !computation->IsFusionComputation() && HasAsyncCollective(*computation);
  }
  if (!any) return false;
  bool changed = false;
  // The memory scheduler's order is the one to start from.
  if (!module->is_scheduled()) {
    HloMemoryScheduler memory_scheduler;
    SYSTOLIC_RETURN_IF_ERROR(memory_scheduler.Run(module).status());
    changed = true;
  }
  const SpmdDeviceCounts devices = RequiredDeviceCounts(*module);
  for (HloComputation* computation : module->MakeComputationPostOrder()) {
    if (computation->IsFusionComputation() || !HasAsyncCollective(*computation)) continue;
    const std::vector<HloInstruction*>* old = module->schedule(computation);
    std::vector<HloInstruction*> base = old != nullptr && int64_t(old->size()) ==
                                                              computation->instruction_count()
                                            ? *old
                                            : HloMemoryScheduler::ListSchedule(*computation);
    SYSTOLIC_ASSIGN_OR_RETURN(LatencyHidingSchedule schedule,
                              ScheduleComputation(*computation, base, devices));
    for (const ScheduledCollective& c : schedule.collectives) {
      run_log().AddDecision(absl::StrCat(
          "%", c.start->name(), ": ", Microseconds(c.collective_seconds), " on the interconnect (",
          collective_cost_model_->name(), "), ", Microseconds(c.overlapped_seconds),
          " of it alongside ", c.instructions_between, " instructions before %", c.done->name()));
      if (c.instructions_between > 0) run_log().CountRewrite("overlapped a collective");
    }
    run_log().AddDecision(absl::StrCat("%", computation->name(), ": estimated ",
                                       Microseconds(schedule.estimated_seconds)));
    if (old == nullptr || *old != schedule.order) changed = true;
    module->set_schedule(computation, std::move(schedule.order));
  }
  return changed;
}

}  // namespace systolic
