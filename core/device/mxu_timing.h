// What an MXU engine reports for one GEMM.
#pragma once

#include <cstdint>

#include "core/device/systolic_mapping.h"

namespace systolic::device {

struct MxuTiming {
  int64_t cycles = 0;
  int64_t row_folds = 0;
  int64_t col_folds = 0;
  int64_t folds = 0;  // row_folds × col_folds
  // Useful PEs / R·C, averaged over the folds: how much of the array the
  // mapping occupies (partial folds lower it).
  double mapping_efficiency = 0;
  // Useful MACs / (R·C·cycles): also counts fill, drain and preload.
  double utilization = 0;
  int64_t macs = 0;  // useful multiply-accumulates (M·N·K)
};

// Fills the derived figures from what an engine counted; both engines call
// it so the ratios are defined once. `useful_pe_folds` is the sum over folds
// of the PEs that held useful work.
MxuTiming MakeMxuTiming(const ArrayShape& array, const SystolicMapping& mapping, int64_t cycles,
                        int64_t useful_pe_folds, int64_t macs);

}  // namespace systolic::device
