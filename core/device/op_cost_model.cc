#include "core/device/op_cost_model.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/device/ceil_div.h"
#include "core/device/chip_figures.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {

OpCostModel::OpCostModel(const ChipSpec& spec)
    : spec_(spec), mxu_(MxuAnalyticEngine::ForChip(spec)) {}

absl::StatusOr<OpCost> OpCostModel::Cost(const OpWork& work) const {
  OpCost cost;
  if (const auto* matmul = std::get_if<MatmulWork>(&work)) {
    SYSTOLIC_ASSIGN_OR_RETURN(const MxuTiming timing, mxu_.RunPipelined(matmul->gemm));
    cost.cycles = timing.cycles;
    cost.flops = 2.0 * double(timing.macs) * double(std::max<int64_t>(1, matmul->macs_per_step));
    cost.utilization = timing.utilization;
  } else if (const auto* vector = std::get_if<VectorWork>(&work)) {
    if (vector->elements <= 0 || vector->ops_per_element < 0 ||
        vector->transcendentals_per_element < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vector work needs positive elements and non-negative op counts, got elements=",
          vector->elements, " ops_per_element=", vector->ops_per_element,
          " transcendentals_per_element=", vector->transcendentals_per_element));
    }
    const int64_t vreg = VregElements(spec_);
    const int64_t vregs = CeilDiv(vector->elements, vreg);
    const int64_t alu_cycles =
        CeilDiv(vregs * vector->ops_per_element, spec_.vector_unit().ops_per_cycle());
    const int64_t transcendental_cycles = vregs * vector->transcendentals_per_element *
                                          spec_.vector_unit().transcendental_cycles();
    cost.cycles = std::max<int64_t>(1, alu_cycles + transcendental_cycles);
    cost.flops = double(vector->elements) * double(vector->ops_per_element);
    cost.utilization =
        cost.flops / (double(vreg) * spec_.vector_unit().ops_per_cycle() * double(cost.cycles));
  } else if (const auto* dma = std::get_if<DmaWork>(&work)) {
    if (dma->bytes <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("DMA of ", dma->bytes, " bytes"));
    }
    cost.bytes = dma->bytes;
    cost.bytes_per_cycle = DmaBytesPerCycle(spec_);
    cost.latency_cycles = DmaLatencyCycles(spec_);
    const int64_t streaming = int64_t(std::ceil(double(dma->bytes) / cost.bytes_per_cycle));
    cost.cycles = cost.latency_cycles + streaming;
    cost.utilization = double(streaming) / double(std::max<int64_t>(1, cost.cycles));
  } else if (std::holds_alternative<KernelIssueWork>(work)) {
    cost.cycles = KernelIssueCycles(spec_);
    cost.utilization = cost.cycles > 0 ? 1.0 : 0.0;
  } else if (std::holds_alternative<JoinWork>(work)) {
    // Costs nothing.
  } else {
    const auto& fixed = std::get<FixedWork>(work);
    if (fixed.cycles < 0) {
      return absl::InvalidArgumentError(absl::StrCat("fixed work of ", fixed.cycles, " cycles"));
    }
    cost.cycles = fixed.cycles;
    cost.flops = fixed.flops;
    cost.utilization = fixed.cycles > 0 ? 1.0 : 0.0;
  }
  return cost;
}

int64_t OpCostModel::KernelFixedCycles() const {
  return KernelIssueCycles(spec_) + 2 * DmaLatencyCycles(spec_);
}

}  // namespace systolic::device
