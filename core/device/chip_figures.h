// Figures derived from a ChipSpec, in the units the simulators use (bytes,
// seconds, cycles of the chip's clock). The spec keeps the units people
// write; everything else asks here.
#pragma once

#include <cstdint>

#include "core/device/chip_spec.pb.h"

namespace systolic::device {

// cores × MXUs × 2·rows·cols × clock: a multiply-add counts as two FLOPs.
double PeakFlopsPerSecond(const ChipSpec& spec);
// Peak int8 ops per second: the bf16 peak times the MXU's int8 rate.
double PeakInt8OpsPerSecond(const ChipSpec& spec);

double ClockHz(const ChipSpec& spec);
// Cycles of the clock as picoseconds, as timelines keep time.
int64_t CyclesToPs(const ChipSpec& spec, int64_t cycles);
int64_t ChipMxus(const ChipSpec& spec);   // over all TensorCores
int64_t VmemBytes(const ChipSpec& spec);  // per TensorCore
int64_t HbmBytes(const ChipSpec& spec);   // per chip
double HbmBytesPerSecond(const ChipSpec& spec);
double HbmBytesPerCycle(const ChipSpec& spec);
double DmaBytesPerCycle(const ChipSpec& spec);  // of one engine
// Cycles from a DMA's issue to its first byte, rounded up.
int64_t DmaLatencyCycles(const ChipSpec& spec);
// Cycles the scalar unit spends issuing one kernel, rounded up.
int64_t KernelIssueCycles(const ChipSpec& spec);
double IciBytesPerSecondPerLink(const ChipSpec& spec);
// Elements of one vreg: lanes × sublanes.
int64_t VregElements(const ChipSpec& spec);

}  // namespace systolic::device
