#include "core/device/mxu_timing.h"

namespace systolic::device {

MxuTiming MakeMxuTiming(const ArrayShape& array, const SystolicMapping& mapping, int64_t cycles,
                        int64_t useful_pe_folds, int64_t macs) {
  MxuTiming timing;
  timing.cycles = cycles;
  timing.row_folds = mapping.row_folds;
  timing.col_folds = mapping.col_folds;
  timing.folds = mapping.folds();
  timing.macs = macs;
  const double pes = double(array.pes());
  timing.mapping_efficiency = double(useful_pe_folds) / (pes * double(timing.folds));
  timing.utilization = cycles > 0 ? double(macs) / (pes * double(cycles)) : 0.0;
  return timing;
}

}  // namespace systolic::device
