#include "core/device/mxu_analytic_engine.h"

#include <algorithm>

#include "core/hlo/status_macros.h"

namespace systolic::device {

MxuAnalyticEngine MxuAnalyticEngine::ForChip(const ChipSpec& spec) {
  return MxuAnalyticEngine({spec.mxu().rows(), spec.mxu().cols()}, spec.mxu().dataflow());
}

int64_t MxuAnalyticEngine::FoldCycles(int64_t temporal) const {
  const int64_t wavefront = array_.rows + array_.cols + temporal - 2;
  // Output-stationary drains its accumulators while the next fold streams.
  return dataflow_ == OUTPUT_STATIONARY ? wavefront : wavefront + array_.rows;
}

absl::StatusOr<MxuTiming> MxuAnalyticEngine::Run(const GemmShape& gemm) const {
  SYSTOLIC_RETURN_IF_ERROR(ValidateGemmOnArray(gemm, array_, dataflow_));
  const SystolicMapping mapping = MapGemm(gemm, array_, dataflow_);
  // Every row fold's used rows sum to S_R and every column fold's to S_C, so
  // the useful PEs summed over all folds are S_R · S_C.
  const int64_t useful_pe_folds = mapping.spatial_rows * mapping.spatial_cols;
  return MakeMxuTiming(array_, mapping, mapping.folds() * FoldCycles(mapping.temporal),
                       useful_pe_folds, gemm.macs());
}

absl::StatusOr<MxuTiming> MxuAnalyticEngine::RunPipelined(const GemmShape& gemm) const {
  SYSTOLIC_RETURN_IF_ERROR(ValidateGemmOnArray(gemm, array_, dataflow_));
  const SystolicMapping mapping = MapGemm(gemm, array_, dataflow_);
  const int64_t later_fold = std::max(mapping.temporal, array_.rows);
  const int64_t cycles = FoldCycles(mapping.temporal) + (mapping.folds() - 1) * later_fold;
  return MakeMxuTiming(array_, mapping, cycles, mapping.spatial_rows * mapping.spatial_cols,
                       gemm.macs());
}

}  // namespace systolic::device
