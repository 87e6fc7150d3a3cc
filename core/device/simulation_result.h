// What a simulated chip program did: per core, one lane per unit with a
// trace event per op, in cycles of the chip's clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/device/device_program.h"

namespace systolic::device {

// Why an op started later than its unit became free, or ran longer than it
// would alone.
enum class StallCause {
  kNone,
  kDependency,     // waited for an op it depends on
  kVmemCapacity,   // waited for VMEM to hold the buffers it allocates
  kHbmBandwidth,   // a DMA slowed by other transfers sharing HBM
};

const char* StallCauseName(StallCause cause);

struct TraceEvent {
  std::string name;
  OpId op = 0;
  int64_t start_cycle = 0;
  int64_t duration_cycles = 0;
  double flops = 0;
  int64_t bytes = 0;          // moved between HBM and VMEM
  double utilization = 0;     // of the unit while the op ran
  // MACs per MXU step of matrix work (2 for int8 on an int8 mode), else 1:
  // its share of the peak is against that rate.
  int64_t macs_per_step = 1;
  // Cycles the unit sat idle before the op could start, plus (DMA) cycles
  // added by HBM contention. `stall_cause` is the last thing waited for.
  int64_t stall_cycles = 0;
  StallCause stall_cause = StallCause::kNone;
  int64_t end_cycle() const { return start_cycle + duration_cycles; }
};

struct UnitLane {
  int core = 0;
  UnitId unit;
  std::string name;  // "core 0 / MXU 1"
  std::vector<TraceEvent> events;  // in start order
  int64_t busy_cycles = 0;
};

// A stretch of a core's run inside control flow: a loop, one of its
// iterations, a branch or a call.
struct ControlFlowSpan {
  int core = 0;
  int depth = 0;  // 0: control flow of the program itself; +2 per nesting
  std::string instruction;
  std::string label;  // "loop ×32", "iteration 3", "iterations 9–32 (repeated)"
  int64_t start_cycle = 0;
  int64_t duration_cycles = 0;
  bool repeated = false;  // stands for iterations not simulated one by one
  int64_t iterations = 0;  // a whole loop's span: its trip count
};

struct CoreResult {
  int64_t cycles = 0;           // end of the core's last op
  int64_t peak_vmem_bytes = 0;
};

struct SimulationResult {
  int64_t cycles = 0;  // end of the chip's last op
  double clock_hz = 0;
  std::vector<CoreResult> cores;
  std::vector<UnitLane> lanes;  // core-major, units in CoreUnits order
  std::vector<ControlFlowSpan> control_flow_spans;

  double seconds() const { return clock_hz > 0 ? double(cycles) / clock_hz : 0; }
  const UnitLane* FindLane(int core, UnitId unit) const;
  // The event of the op named `name` on `core`; null if none.
  const TraceEvent* FindEvent(int core, absl::string_view name) const;
};

}  // namespace systolic::device
