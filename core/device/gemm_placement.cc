#include "core/device/gemm_placement.h"

#include <algorithm>
#include <cmath>

#include "core/device/ceil_div.h"
#include "core/device/chip_figures.h"
#include "core/device/mxu_analytic_engine.h"

namespace systolic::device {
namespace {


int64_t Outputs(const GemmPlan& g) { return g.batch * g.gemm.m * g.gemm.n; }

// On the vector unit every lane multiplies and accumulates its own
// products (a reduction over K is spread over the lanes, then summed
// across them), so the work is streamed product by product.
int64_t Products(const GemmPlan& g) { return Outputs(g) * g.gemm.k * g.passes; }
constexpr int64_t kOpsPerProduct = 2;  // multiply, add

absl::StatusOr<MxuTiming> MxuPassOf(const GemmPlan& g, const ChipSpec& spec) {
  return MxuAnalyticEngine::ForChip(spec).RunPipelined({g.gemm.m, g.gemm.n, MxuDepth(g, spec, g.gemm.k)});
}

// `pass` (one GEMM of the batch) over the MXUs its output tiles (array-sized
// at least) can spread to.
double SpreadOverMxus(const GemmPlan& g, const ChipSpec& spec, const MxuTiming& pass) {
  const int64_t granule = std::max(spec.mxu().rows(), spec.mxu().cols());
  const int64_t tiles = g.batch * CeilDiv(g.gemm.m, granule) * CeilDiv(g.gemm.n, granule);
  return double(g.batch) * double(pass.cycles) / double(std::min(ChipMxus(spec), tiles));
}

}  // namespace

double MxuCyclesOf(const GemmPlan& g, const ChipSpec& spec) {
  const absl::StatusOr<MxuTiming> pass = MxuPassOf(g, spec);
  return pass.ok() ? SpreadOverMxus(g, spec, *pass) : INFINITY;
}

double VectorCyclesOf(const GemmPlan& g, const ChipSpec& spec) {
  const int64_t vregs = CeilDiv(Products(g), VregElements(spec));
  const double per_vreg =
      std::ceil(double(kOpsPerProduct) / double(std::max(1, spec.vector_unit().ops_per_cycle())));
  return double(vregs) * per_vreg / double(std::max(1, spec.tensor_cores_per_chip()));
}

GemmPlacement PlaceGemm(const GemmPlan& g, const ChipSpec& spec) {
  // Only GEMMs whose folds leave most of the array idle move: a small but
  // well-shaped GEMM stays on the MXU, where a real kernel overlaps its
  // fill and drain with its neighbours'.
  constexpr double kNarrowMapping = 1.0 / 8;
  const absl::StatusOr<MxuTiming> pass = MxuPassOf(g, spec);
  GemmPlacement placement;
  placement.mxu_cycles = pass.ok() ? SpreadOverMxus(g, spec, *pass) : INFINITY;
  placement.vector_cycles = VectorCyclesOf(g, spec);
  placement.on_vector_unit = !(pass.ok() && pass->mapping_efficiency >= kNarrowMapping) &&
                             placement.vector_cycles < placement.mxu_cycles;
  return placement;
}

bool RunsBetterOnVectorUnit(const GemmPlan& g, const ChipSpec& spec) {
  return PlaceGemm(g, spec).on_vector_unit;
}

KernelPlan PlaceGemms(KernelPlan plan, const ChipSpec& spec) {
  if (plan.kind != KernelKind::kMatrix || plan.gemms.empty()) return plan;
  double flops = plan.vector_flops;
  int64_t elements = plan.vector_elements;
  for (const GemmPlan& g : plan.gemms) {
    if (!RunsBetterOnVectorUnit(g, spec)) return plan;
    flops += double(Products(g)) * double(kOpsPerProduct);
    elements = std::max(elements, Products(g));
  }
  plan.kind = KernelKind::kVector;
  plan.gemms.clear();
  plan.vector_elements = std::max<int64_t>(1, elements);
  plan.ops_per_element =
      std::max<int64_t>(1, int64_t(std::ceil(flops / double(plan.vector_elements) - 1e-9)));
  plan.vector_flops = flops;
  return plan;
}

}  // namespace systolic::device
