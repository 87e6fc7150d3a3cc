// The MXU's timing in closed form (SCALE-Sim's analytical model), for real
// programs: O(1) per GEMM. Agrees to the cycle with MxuCycleEngine.
//
// One fold on an R × C array streaming T vectors takes R + C + T - 2 cycles
// until the last PE fires (the operand wavefront is skewed over R rows and C
// columns and carries T vectors). Weight- and input-stationary add R cycles
// to preload the stationary operand: 2R + C + T - 2. Output-stationary
// drains its accumulators down the columns on their own shift path while
// the next fold streams, so its fold is R + C + T - 2, as SCALE-Sim counts
// it. Folds run one after the other, each padded to the full array.
#pragma once

#include "absl/status/statusor.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/mxu_timing.h"
#include "core/device/systolic_mapping.h"

namespace systolic::device {

class MxuAnalyticEngine {
 public:
  MxuAnalyticEngine(ArrayShape array, Dataflow dataflow) : array_(array), dataflow_(dataflow) {}
  // The MXU of a chip spec.
  static MxuAnalyticEngine ForChip(const ChipSpec& spec);

  const ArrayShape& array() const { return array_; }
  Dataflow dataflow() const { return dataflow_; }

  absl::StatusOr<MxuTiming> Run(const GemmShape& gemm) const;

  // The same GEMM run as one pass of a TensorCore, whose MXU holds two
  // copies of the stationary operand (as a TPU's does): the next fold's
  // preload (R cycles) happens while the current fold streams, and the next
  // wavefront follows the current one into the array. So the first fold
  // pays the whole 2R + C + T - 2 and every later fold max(T, R). One fold
  // takes exactly Run's cycles.
  absl::StatusOr<MxuTiming> RunPipelined(const GemmShape& gemm) const;

  // Cycles of one fold streaming `temporal` vectors.
  int64_t FoldCycles(int64_t temporal) const;

 private:
  ArrayShape array_;
  Dataflow dataflow_;
};

}  // namespace systolic::device
