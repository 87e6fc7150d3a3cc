// A real profile's programs simulated on a chosen chip, beside what the
// real device measured: per program its mean run time, and per instruction
// its mean time per execution measured and simulated, with their ratio.
// The programs are the ones XLA ran (the profile's after-optimizations
// stage), timed as compiled, so instruction names match the measured ops.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

struct OpMeasuredVsSimulated {
  std::string instruction;
  int64_t measured_events = 0;  // executions seen on the real device(s)
  double measured_ps = 0;       // mean per execution
  double simulated_ps = 0;      // per execution; 0 when the simulation lacks it
  // simulated / measured: below 1 the simulator is optimistic. 0 when
  // either side is missing.
  double ratio() const { return measured_ps > 0 && simulated_ps > 0 ? simulated_ps / measured_ps : 0; }
  double difference_ps() const { return simulated_ps - measured_ps; }
};

struct ProgramMeasuredVsSimulated {
  int64_t program_id = 0;
  std::string name;
  int64_t measured_runs = 0;   // its module events on the real device(s)
  double measured_run_ps = 0;  // mean module event; 0 without module events
  double simulated_run_ps = 0;
  double simulated_flops = 0;  // per run
  // Instructions measured or simulated, largest |difference| first.
  std::vector<OpMeasuredVsSimulated> ops;
  std::vector<std::string> warnings;  // what the simulation assumed
};

struct MeasuredVsSimulated {
  std::string chip;
  std::vector<ProgramMeasuredVsSimulated> programs;  // programs with measured ops, in profile order
  std::vector<std::string> errors;  // programs that could not be simulated, and why
};

// Called after each program simulated with the programs done and to do;
// false stops the work (Cancelled).
using MeasuredVsSimulatedProgress = std::function<bool(int64_t done, int64_t total)>;

// Simulates every program of `measured` that has measured ops on `chip`. A
// profile without programs (nothing to simulate) or without measured ops is
// an error saying so.
absl::StatusOr<MeasuredVsSimulated> CompareMeasuredWithSimulated(
    const trace::Profile& measured, const device::ChipSpec& chip,
    const MeasuredVsSimulatedProgress& progress = {});

// Each instruction name's simulated time per execution, over the programs
// that have it (weighted by their measured executions): what the op
// profile's "simulated" column multiplies by a row's events.
absl::flat_hash_map<std::string, double> SimulatedTimePerExecution(const MeasuredVsSimulated& compared);

}  // namespace systolic::analysis
