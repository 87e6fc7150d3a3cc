// The MXU simulated processing element by processing element: operands and
// partial sums move one PE per cycle through an explicit grid, for each
// dataflow, fold after fold (fill, drain, preload and padding included). It
// multiplies bf16 and accumulates f32 as the MXU does, so it yields C as well
// as its timing. Slow (R·C work per cycle): for proof, small arrays and for
// watching the array; MxuAnalyticEngine gives the same timing in O(1).
//
// Summation order of C(m,n): output-stationary accumulates over all of K in
// one PE; weight- and input-stationary sum each fold of R rows of K down a
// column, and the accumulator outside the array adds those fold sums in
// order of K.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/device/chip_spec.pb.h"
#include "core/device/mxu_cycle_view.h"
#include "core/device/mxu_timing.h"
#include "core/device/systolic_mapping.h"

namespace systolic::device {

struct MxuCycleResult {
  MxuTiming timing;
  std::vector<float> c;  // M × N, row-major
};

class MxuCycleEngine {
 public:
  MxuCycleEngine(ArrayShape array, Dataflow dataflow) : array_(array), dataflow_(dataflow) {}
  static MxuCycleEngine ForChip(const ChipSpec& spec);

  const ArrayShape& array() const { return array_; }
  Dataflow dataflow() const { return dataflow_; }

  // Called every simulated cycle (costly; leave unset when only the result
  // matters).
  void set_observer(MxuObserver observer) { observer_ = std::move(observer); }

  // C = A·B with A M × K and B K × N, row-major f32; the array's input edge
  // rounds them to bf16 (round-to-nearest-even).
  absl::StatusOr<MxuCycleResult> Run(const GemmShape& gemm, absl::Span<const float> a,
                                     absl::Span<const float> b) const;

 private:
  ArrayShape array_;
  Dataflow dataflow_;
  MxuObserver observer_;
};

}  // namespace systolic::device
