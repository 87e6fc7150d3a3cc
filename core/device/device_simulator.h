// The event-driven simulation of one chip running a ChipProgram. Time moves
// from event to event (an op ends, a DMA's latency passes, a transfer's
// bandwidth changes); at each event every unit with room issues its next op
// if that op's dependencies have ended and its VMEM buffers fit. A DMA
// engine keeps several descriptors in flight and streams them in turn, so a
// train of loads pays the latency once while a lone one pays it whole. DMA
// transfers streaming at once share the chip's HBM bandwidth, so
// contention, overlap of transfers with compute and stalls are outcomes of
// the run, not inputs.
#pragma once

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/device_program.h"
#include "core/device/simulation_result.h"

namespace systolic::device {

class DeviceSimulator {
 public:
  // `spec` must be valid (as LoadChipSpec returns it).
  explicit DeviceSimulator(ChipSpec spec) : spec_(std::move(spec)) {}

  const ChipSpec& spec() const { return spec_; }

  // Errors: an invalid program (see ValidateChipProgram), work the unit
  // cannot cost, or a deadlock (ops left that can never start, e.g. waiting
  // for VMEM nobody frees), naming the blocked ops.
  absl::StatusOr<SimulationResult> Run(const ChipProgram& program) const;

 private:
  ChipSpec spec_;
};

}  // namespace systolic::device
