#include "core/device/device_cost_model.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "core/compiler/hlo_cost_analysis.h"
#include "core/compiler/shape_size.h"
#include "core/device/chip_figures.h"
#include "core/device/gemm_placement.h"
#include "core/device/kernel_plan.h"
#include "core/hlo/hlo_computation.h"

namespace systolic::device {
DeviceCostModel::DeviceCostModel(const ChipSpec& spec) : spec_(spec), costs_(spec) {}

std::string DeviceCostModel::name() const { return "device:" + spec_.name(); }

int64_t DeviceCostModel::OnChipMemoryBytes() const { return VmemBytes(spec_) / 2; }

CostEstimate DeviceCostModel::EstimateFusion(const FusionCandidate& candidate) const {
  const InstructionWork work = WorkOf(candidate);
  const KernelTraffic traffic = TrafficOf(candidate);
  const double clock = ClockHz(spec_);
  const int cores = std::max(1, spec_.tensor_cores_per_chip());

  // MXU cycles: the analytic engine per GEMM, shared by every MXU of the chip.
  double mxu_cycles = 0;
  double gemm_vector_cycles = 0;
  double matrix_flops = 0;
  for (const HloInstruction* instr : candidate.instructions) {
    const KernelPlan plan = PlanKernel(*instr);
    for (const GemmPlan& g : plan.gemms) {
      const double flops = 2.0 * double(g.batch) * double(g.gemm.macs()) * double(g.passes);
      matrix_flops += flops;
      // Placed as lowering places it (see gemm_placement.h).
      const GemmPlacement placement = PlaceGemm(g, spec_);
      (placement.on_vector_unit ? gemm_vector_cycles : mxu_cycles) += placement.cycles();
    }
  }
  double vector_cycles = 0;
  const double vector_ops = work.flops;
  if (vector_ops > 0 || work.transcendentals > 0) {
    const int64_t elements = std::max<int64_t>(1, int64_t(std::max(vector_ops, 1.0)));
    const int64_t transcendentals =
        int64_t(work.transcendentals / double(elements) + 0.999999);
    absl::StatusOr<OpCost> cost = costs_.Cost(VectorWork{elements, 1, transcendentals});
    if (cost.ok()) vector_cycles = double(cost->cycles) / double(cores);
  }
  vector_cycles += gemm_vector_cycles;
  const double memory_seconds =
      (traffic.bytes_read + traffic.bytes_written) / HbmBytesPerSecond(spec_);
  const double compute_seconds = std::max(mxu_cycles, vector_cycles) / clock;

  CostEstimate e;
  e.flops = work.flops + std::max(work.matrix_flops, matrix_flops);
  e.transcendentals = work.transcendentals;
  e.bytes_read = traffic.bytes_read;
  e.bytes_written = traffic.bytes_written;
  e.seconds = double(costs_.KernelFixedCycles()) / clock + std::max(compute_seconds, memory_seconds);
  return e;
}

CostEstimate DeviceCostModel::EstimateInstruction(const HloInstruction& instruction) const {
  if (RunsNoKernel(instruction)) return {};
  FusionCandidate candidate;
  candidate.instructions = {&instruction};
  candidate.outputs = {&instruction};
  return EstimateFusion(candidate);
}

int64_t DeviceCostModel::OnChipFootprint(const FusionCandidate& candidate) const {
  // Each value streamed in or out holds two tiles (double buffering), a
  // tile being at most an eighth of the kernel's VMEM.
  const int64_t tile = std::max<int64_t>(1, OnChipMemoryBytes() / 8);
  const KernelTraffic traffic = TrafficOf(candidate);
  int64_t bytes = 0;
  for (const HloInstruction* input : traffic.inputs) {
    bytes += 2 * std::min(ByteSizeOf(input->shape()), tile);
  }
  for (const HloInstruction* output : candidate.outputs) {
    bytes += 2 * std::min(ByteSizeOf(output->shape()), tile);
  }
  return bytes;
}

}  // namespace systolic::device
