#include "core/device/chip_figures.h"

#include <algorithm>
#include <cmath>

namespace systolic::device {

double PeakFlopsPerSecond(const ChipSpec& spec) {
  const double macs_per_cycle = double(spec.tensor_cores_per_chip()) * spec.mxu().count() *
                                spec.mxu().rows() * spec.mxu().cols();
  return 2 * macs_per_cycle * ClockHz(spec);
}

double PeakInt8OpsPerSecond(const ChipSpec& spec) {
  return PeakFlopsPerSecond(spec) * std::max(1, spec.mxu().int8_macs_per_cycle());
}

double ClockHz(const ChipSpec& spec) { return spec.clock_mhz() * 1e6; }

int64_t CyclesToPs(const ChipSpec& spec, int64_t cycles) {
  return int64_t(double(cycles) * (1e12 / ClockHz(spec)));
}

int64_t ChipMxus(const ChipSpec& spec) {
  return int64_t(std::max(1, spec.tensor_cores_per_chip())) * std::max(1, spec.mxu().count());
}

int64_t VmemBytes(const ChipSpec& spec) {
  return int64_t(std::llround(spec.vmem().capacity_mib() * 1024 * 1024));
}

int64_t HbmBytes(const ChipSpec& spec) {
  return int64_t(std::llround(spec.hbm().capacity_gib() * 1024 * 1024 * 1024));
}

double HbmBytesPerSecond(const ChipSpec& spec) { return spec.hbm().bandwidth_gb_per_second() * 1e9; }

double HbmBytesPerCycle(const ChipSpec& spec) { return HbmBytesPerSecond(spec) / ClockHz(spec); }

double DmaBytesPerCycle(const ChipSpec& spec) {
  return spec.dma().bandwidth_gb_per_second() * 1e9 / ClockHz(spec);
}

namespace {

int64_t NsToCycles(const ChipSpec& spec, double ns) {
  return int64_t(std::ceil(ns * spec.clock_mhz() / 1000 - 1e-9));
}

}  // namespace

int64_t DmaLatencyCycles(const ChipSpec& spec) { return NsToCycles(spec, spec.dma().latency_ns()); }

int64_t KernelIssueCycles(const ChipSpec& spec) {
  return NsToCycles(spec, spec.scalar_unit().kernel_issue_ns());
}

double IciBytesPerSecondPerLink(const ChipSpec& spec) {
  return spec.ici().bandwidth_gb_per_second_per_link() * 1e9;
}

int64_t VregElements(const ChipSpec& spec) {
  return int64_t(spec.vector_unit().lanes()) * spec.vector_unit().sublanes();
}

}  // namespace systolic::device
