#include "core/compiler/roofline_cost_model.h"

#include <algorithm>

#include "core/compiler/hlo_cost_analysis.h"
#include "core/compiler/shape_size.h"

namespace systolic {
namespace {

CostEstimate Combine(const RooflineParameters& p, const InstructionWork& work,
                     const KernelTraffic& traffic) {
  CostEstimate e;
  e.flops = work.flops + work.matrix_flops;
  e.transcendentals = work.transcendentals;
  e.bytes_read = traffic.bytes_read;
  e.bytes_written = traffic.bytes_written;
  const double compute = work.matrix_flops / p.matrix_flops_per_second +
                         work.flops / p.vector_flops_per_second +
                         work.transcendentals / p.transcendentals_per_second;
  const double memory = (traffic.bytes_read + traffic.bytes_written) / p.memory_bytes_per_second;
  e.seconds = p.kernel_overhead_seconds + std::max(compute, memory);
  return e;
}

}  // namespace

CostEstimate RooflineCostModel::EstimateInstruction(const HloInstruction& instruction) const {
  if (RunsNoKernel(instruction)) return {};
  return Combine(p_, WorkOf(instruction), TrafficOf(instruction));
}

CostEstimate RooflineCostModel::EstimateFusion(const FusionCandidate& candidate) const {
  return Combine(p_, WorkOf(candidate), TrafficOf(candidate));
}

int64_t RooflineCostModel::OnChipFootprint(const FusionCandidate& candidate) const {
  KernelTraffic traffic = TrafficOf(candidate);
  int64_t bytes = 0;
  auto stream = [&](const Shape& shape) {
    bytes += 2 * std::min<int64_t>(ByteSizeOf(shape), p_.stream_tile_bytes);
  };
  for (const HloInstruction* input : traffic.inputs) stream(input->shape());
  for (const HloInstruction* output : candidate.outputs) stream(output->shape());
  return bytes;
}

}  // namespace systolic
