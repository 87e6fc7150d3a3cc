#include "core/device/device_simulator.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device/chip_figures.h"
#include "core/device/core_units.h"
#include "core/device/device_program_validator.h"
#include "core/device/hbm_bandwidth_arbiter.h"
#include "core/device/op_cost_model.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

struct OpState {
  OpCost cost;
  int pending_deps = 0;
  std::vector<OpId> users;
  int64_t issued = -1;
  StallCause blocked_by = StallCause::kNone;
  // DMA: its first byte may move from `bytes_ready_at` (issue + latency), and
  // moves once the descriptors before it on its engine have streamed.
  int64_t bytes_ready_at = 0;
  int64_t streaming_since = -1;
  // DMA progress: bytes left as of `updated`, at `rate` bytes per cycle.
  double remaining = 0;
  double rate = 0;
  int64_t updated = 0;
  int64_t generation = 0;  // bumps when the rate changes; older events are stale
};

// A unit issues its ops in program order and they end in that order. A DMA
// engine keeps several descriptors in flight (their latencies overlap the
// streaming of the one before); every other unit runs one op at a time.
struct UnitState {
  std::vector<OpId> queue;  // this unit's ops in program order
  size_t head = 0;          // the next op to issue
  int in_flight = 0;        // issued, not ended: queue[head - in_flight .. head)
  int capacity = 1;         // ops in flight at most
  int64_t last_end = 0;     // when the previous op ended
  bool candidate = false;     // listed in Simulation::candidates_
  bool waits_for_vmem = false;  // listed in CoreState::vmem_waiters

  bool CanIssue() const { return in_flight < capacity && head < queue.size(); }
  OpId Oldest() const { return queue[head - size_t(in_flight)]; }
};

struct CoreState {
  const CoreProgram* program = nullptr;
  std::vector<OpState> ops;
  std::vector<UnitState> units;
  int64_t vmem_used = 0;
  int64_t peak_vmem = 0;
  std::vector<int> vmem_waiters;  // unit slots whose next op waits for VMEM
  int64_t end = 0;
  int64_t ops_left = 0;
};

enum class EventKind { kEnd, kBytesReady };

struct Event {
  int64_t time;
  int core;
  OpId op;
  EventKind kind;
  int64_t generation;  // of a kEnd
  friend bool operator>(const Event& a, const Event& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.core != b.core) return a.core > b.core;
    if (a.op != b.op) return a.op > b.op;
    return a.kind > b.kind;
  }
};

// Joins wait for their dependencies only; they sit in no unit's queue.
bool IsJoin(const DeviceOp& op) { return std::holds_alternative<JoinWork>(op.work); }

struct DmaRef {
  int core;
  OpId op;
};

// One run: the mutable state of all cores and the event queue.
class Simulation {
 public:
  Simulation(const ChipSpec& spec, const ChipProgram& program)
      : spec_(spec),
        program_(program),
        units_(spec),
        costs_(spec),
        arbiter_(HbmBytesPerCycle(spec)),
        vmem_capacity_(VmemBytes(spec)) {}

  absl::StatusOr<SimulationResult> Run();

 private:
  absl::Status Prepare();
  void StartReadyOps();
  void AddCandidate(int c, int slot);
  bool TryStart(int c, UnitState& unit);
  // `id`'s last dependency ended at `now`.
  void BecameReady(int c, OpId id, int64_t now);
  void StreamOldestIfReady(int c, UnitState& unit);
  void Complete(int c, OpId id, int64_t now);
  void AdvanceTransfers(int64_t now);
  void ShareHbm();
  std::string DescribeBlocked() const;

  const ChipSpec& spec_;
  const ChipProgram& program_;
  CoreUnits units_;
  OpCostModel costs_;
  HbmBandwidthArbiter arbiter_;
  int64_t vmem_capacity_;

  std::vector<CoreState> cores_;
  // Units whose next op may have become startable: idle since, a
  // dependency of their next op ended, or VMEM was freed on their core.
  // Only these are examined at an event, not every unit of the chip.
  std::vector<std::pair<int, int>> candidates_;  // (core, unit slot)
  std::vector<std::pair<int, int>> examining_;
  std::vector<DmaRef> transfers_;  // running DMAs, chip-wide
  std::vector<double> caps_;
  bool transfers_changed_ = false;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  int64_t now_ = 0;
  SimulationResult result_;
};

absl::Status Simulation::Prepare() {
  cores_.resize(program_.cores.size());
  for (size_t c = 0; c < cores_.size(); ++c) {
    CoreState& core = cores_[c];
    core.program = &program_.cores[c];
    const std::vector<DeviceOp>& ops = core.program->ops();
    core.ops.resize(ops.size());
    core.units.resize(units_.count());
    core.ops_left = int64_t(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      absl::StatusOr<OpCost> cost = costs_.Cost(ops[i].work);
      if (!cost.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("core ", c, " op ", i, " '", ops[i].name, "': ", cost.status().message()));
      }
      core.ops[i].cost = *cost;
      core.ops[i].pending_deps = int(ops[i].deps.size());
      for (OpId dep : ops[i].deps) core.ops[dep].users.push_back(OpId(i));
      if (!IsJoin(ops[i])) {
        core.units[units_.Slot(ops[i].unit)].queue.push_back(OpId(i));
      } else if (ops[i].deps.empty()) {
        BecameReady(int(c), OpId(i), 0);
      }
    }
    for (int s = 0; s < units_.count(); ++s) {
      if (units_.Unit(s).kind == UnitKind::kDma) {
        core.units[s].capacity = spec_.dma().outstanding_descriptors();
      }
      UnitLane lane;
      lane.core = int(c);
      lane.unit = units_.Unit(s);
      lane.name = absl::StrCat("core ", c, " / ", CoreUnits::Name(lane.unit));
      lane.events.reserve(core.units[s].queue.size());
      result_.lanes.push_back(std::move(lane));
      AddCandidate(int(c), s);
    }
  }
  return absl::OkStatus();
}

bool Simulation::TryStart(int c, UnitState& unit) {
  CoreState& core = cores_[c];
  const OpId id = unit.queue[unit.head];
  OpState& op = core.ops[id];
  const DeviceOp& def = core.program->ops()[id];
  if (op.pending_deps > 0) {
    op.blocked_by = StallCause::kDependency;
    return false;
  }
  int64_t needed = 0;
  for (VmemBufferId b : def.allocates) needed += core.program->buffers()[b].bytes;
  if (core.vmem_used + needed > vmem_capacity_) {
    op.blocked_by = StallCause::kVmemCapacity;
    if (!unit.waits_for_vmem) {
      unit.waits_for_vmem = true;
      core.vmem_waiters.push_back(units_.Slot(def.unit));
    }
    return false;
  }
  core.vmem_used += needed;
  core.peak_vmem = std::max(core.peak_vmem, core.vmem_used);
  ++unit.head;
  ++unit.in_flight;
  op.issued = now_;
  if (std::holds_alternative<DmaWork>(def.work)) {
    op.bytes_ready_at = now_ + op.cost.latency_cycles;
    if (op.cost.latency_cycles > 0) {
      events_.push({op.bytes_ready_at, c, id, EventKind::kBytesReady, 0});
    } else {
      StreamOldestIfReady(c, unit);
    }
  } else {
    events_.push({now_ + op.cost.cycles, c, id, EventKind::kEnd, 0});
  }
  return true;
}

// An engine streams its descriptors one at a time, oldest first, each once
// its latency has passed.
void Simulation::StreamOldestIfReady(int c, UnitState& unit) {
  if (unit.in_flight == 0) return;
  const OpId id = unit.Oldest();
  OpState& op = cores_[c].ops[id];
  if (op.streaming_since >= 0 || op.bytes_ready_at > now_) return;
  op.streaming_since = now_;
  op.remaining = double(op.cost.bytes);
  op.updated = now_;
  transfers_.push_back({c, id});
  transfers_changed_ = true;  // its completion is scheduled by ShareHbm
}

void Simulation::BecameReady(int c, OpId id, int64_t now) {
  const DeviceOp& def = cores_[c].program->ops()[id];
  if (IsJoin(def)) {
    events_.push({now, c, id, EventKind::kEnd, 0});  // ends now, in this round of events
  } else {
    AddCandidate(c, units_.Slot(def.unit));
  }
}

void Simulation::AddCandidate(int c, int slot) {
  UnitState& unit = cores_[c].units[slot];
  if (unit.candidate) return;
  unit.candidate = true;
  candidates_.push_back({c, slot});
}

void Simulation::StartReadyOps() {
  examining_.swap(candidates_);
  candidates_.clear();
  for (const auto& [c, slot] : examining_) {
    UnitState& unit = cores_[c].units[slot];
    unit.candidate = false;
    while (unit.CanIssue() && TryStart(c, unit)) {
    }
  }
  examining_.clear();
}

void Simulation::AdvanceTransfers(int64_t now) {
  for (const DmaRef& ref : transfers_) {
    OpState& op = cores_[ref.core].ops[ref.op];
    op.remaining = std::max(0.0, op.remaining - op.rate * double(now - op.updated));
    op.updated = now;
  }
}

void Simulation::ShareHbm() {
  caps_.clear();
  for (const DmaRef& ref : transfers_) caps_.push_back(cores_[ref.core].ops[ref.op].cost.bytes_per_cycle);
  const std::vector<double> rates = arbiter_.Share(caps_);
  for (size_t i = 0; i < transfers_.size(); ++i) {
    OpState& op = cores_[transfers_[i].core].ops[transfers_[i].op];
    op.rate = rates[i];
    ++op.generation;
    // Whole cycles: a transfer ends at the first clock edge after its last byte.
    const int64_t cycles = int64_t(std::ceil(op.remaining / op.rate - 1e-9));
    events_.push({now_ + std::max<int64_t>(cycles, 0), transfers_[i].core, transfers_[i].op,
                  EventKind::kEnd, op.generation});
  }
  transfers_changed_ = false;
}

void Simulation::Complete(int c, OpId id, int64_t now) {
  CoreState& core = cores_[c];
  OpState& op = core.ops[id];
  const DeviceOp& def = core.program->ops()[id];
  UnitState& unit = core.units[units_.Slot(def.unit)];
  const bool is_dma = std::holds_alternative<DmaWork>(def.work);
  const bool is_join = IsJoin(def);

  // On its lane an op runs from when its unit turned to it: its issue, or
  // for a DMA issued early, the end of the one before (its latency passed
  // unseen meanwhile). A join takes no time on its unit.
  const int64_t start = is_join ? now : std::max(op.issued, unit.last_end);
  const int64_t stall_wait = is_join ? 0 : std::max<int64_t>(0, op.issued - unit.last_end);
  TraceEvent event;
  event.name = def.name;
  event.op = id;
  event.start_cycle = start;
  event.duration_cycles = now - start;
  event.flops = op.cost.flops;
  event.bytes = op.cost.bytes;
  if (const auto* matmul = std::get_if<MatmulWork>(&def.work)) event.macs_per_step = matmul->macs_per_step;
  const int64_t contention =
      is_dma ? std::max<int64_t>(0, (now - op.streaming_since) -
                                        (op.cost.cycles - op.cost.latency_cycles))
             : 0;
  event.utilization =
      is_dma ? (event.duration_cycles > 0
                    ? double(op.cost.bytes) / (op.cost.bytes_per_cycle * double(event.duration_cycles))
                    : 1.0)
             : op.cost.utilization;
  event.stall_cycles = stall_wait + contention;
  if (contention > stall_wait) {
    event.stall_cause = StallCause::kHbmBandwidth;
  } else if (stall_wait > 0) {
    event.stall_cause = op.blocked_by;
  }
  UnitLane& lane = result_.lanes[size_t(c) * units_.count() + units_.Slot(def.unit)];
  lane.busy_cycles += event.duration_cycles;
  lane.events.push_back(std::move(event));

  if (is_dma) {
    transfers_.erase(std::find_if(transfers_.begin(), transfers_.end(),
                                  [&](const DmaRef& r) { return r.core == c && r.op == id; }));
    transfers_changed_ = true;
  }
  if (!def.frees.empty()) {
    for (VmemBufferId b : def.frees) core.vmem_used -= core.program->buffers()[b].bytes;
    for (int slot : core.vmem_waiters) {
      core.units[slot].waits_for_vmem = false;
      AddCandidate(c, slot);
    }
    core.vmem_waiters.clear();
  }
  for (OpId user : op.users) {
    if (--core.ops[user].pending_deps == 0) BecameReady(c, user, now);
  }
  if (!is_join) {
    AddCandidate(c, units_.Slot(def.unit));
    --unit.in_flight;
    unit.last_end = now;
    if (is_dma) StreamOldestIfReady(c, unit);
  }
  core.end = std::max(core.end, now);
  --core.ops_left;
}

std::string Simulation::DescribeBlocked() const {
  std::vector<std::string> blocked;
  for (size_t c = 0; c < cores_.size(); ++c) {
    const CoreState& core = cores_[c];
    for (const UnitState& unit : core.units) {
      if (unit.head >= unit.queue.size()) continue;
      const OpId id = unit.queue[unit.head];
      const DeviceOp& def = core.program->ops()[id];
      const OpState& op = core.ops[id];
      std::string why = op.blocked_by == StallCause::kVmemCapacity
                            ? absl::StrCat("waits for VMEM (", core.vmem_used, " of ",
                                           vmem_capacity_, " bytes in use)")
                            : absl::StrCat("waits for ", op.pending_deps, " dependencies");
      blocked.push_back(absl::StrCat("core ", c, " ", CoreUnits::Name(def.unit), ": '", def.name,
                                     "' ", why));
    }
  }
  return absl::StrJoin(blocked, "; ");
}

absl::StatusOr<SimulationResult> Simulation::Run() {
  SYSTOLIC_RETURN_IF_ERROR(Prepare());
  int64_t ops_left = 0;
  for (const CoreState& core : cores_) ops_left += core.ops_left;
  while (true) {
    StartReadyOps();
    if (transfers_changed_) ShareHbm();
    if (events_.empty()) break;
    // Advance to the next event and finish every op ending then.
    const int64_t t = events_.top().time;
    AdvanceTransfers(t);
    now_ = t;
    while (!events_.empty() && events_.top().time == t) {
      const Event e = events_.top();
      events_.pop();
      CoreState& core = cores_[e.core];
      if (e.kind == EventKind::kBytesReady) {
        StreamOldestIfReady(e.core, core.units[units_.Slot(core.program->ops()[e.op].unit)]);
        continue;
      }
      if (e.generation != core.ops[e.op].generation) continue;  // superseded
      Complete(e.core, e.op, t);
      --ops_left;
    }
  }
  if (ops_left > 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("deadlock at cycle ", now_, ": ", DescribeBlocked()));
  }
  // Joins and pipelined DMAs end out of their start order.
  for (UnitLane& lane : result_.lanes) {
    std::stable_sort(lane.events.begin(), lane.events.end(),
                     [](const TraceEvent& a, const TraceEvent& b) {
                       return a.start_cycle < b.start_cycle;
                     });
  }
  result_.clock_hz = ClockHz(spec_);
  for (const CoreState& core : cores_) {
    result_.cores.push_back({core.end, core.peak_vmem});
    result_.cycles = std::max(result_.cycles, core.end);
  }
  return std::move(result_);
}

}  // namespace

absl::StatusOr<SimulationResult> DeviceSimulator::Run(const ChipProgram& program) const {
  SYSTOLIC_RETURN_IF_ERROR(ValidateChipProgram(spec_, program));
  Simulation simulation(spec_, program);
  return simulation.Run();
}

}  // namespace systolic::device
