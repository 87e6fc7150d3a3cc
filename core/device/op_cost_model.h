// What one device op costs on a unit of the chip, alone: cycles, FLOPs,
// bytes, utilisation. The simulator adds what comes from sharing (waiting,
// HBM contention); this is the uncontended figure.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/device_program.h"
#include "core/device/mxu_analytic_engine.h"

namespace systolic::device {

struct OpCost {
  int64_t cycles = 0;        // for a DMA: its latency, then the bytes at full bandwidth
  double flops = 0;          // a multiply-add counts 2
  int64_t bytes = 0;         // moved between HBM and VMEM
  double utilization = 0;    // of the unit over `cycles`
  double bytes_per_cycle = 0;  // a DMA's uncontended rate
  int64_t latency_cycles = 0;  // a DMA's, before its first byte
};

class OpCostModel {
 public:
  explicit OpCostModel(const ChipSpec& spec);

  // Matmul: the analytic MXU model, folds pipelined as a TensorCore runs them. Vector: ALU passes over the vregs
  // (lanes × sublanes elements each, ops_per_cycle per cycle) followed by the
  // transcendental passes (transcendental_cycles per vreg); at least 1 cycle.
  // DMA: the latency, then the bytes at the engine's bandwidth. Kernel
  // issue: the spec's. Join: nothing. Fixed: as given.
  absl::StatusOr<OpCost> Cost(const OpWork& work) const;

  // What a kernel pays however little it does, when nothing overlaps it:
  // its issue, the latency of its first load and that of its last store.
  int64_t KernelFixedCycles() const;

 private:
  ChipSpec spec_;
  MxuAnalyticEngine mxu_;
};

}  // namespace systolic::device
