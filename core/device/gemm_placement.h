// Where a kernel's GEMMs run. The MXU pads every fold to the full array, so
// a GEMM with a narrow per-group shape (a depthwise convolution: one output
// feature and a 3x3 window per group) would use a sliver of it; such GEMMs
// are cheaper as multiply-adds on the vector unit, as TPU compilers emit
// them. Lowering and the fusion cost model both ask here, so what fusion
// expects is what the simulation runs.
#pragma once

#include "core/device/chip_spec.pb.h"
#include "core/device/kernel_plan.h"

namespace systolic::device {

// Uncontended cycles of `gemm` spread over the chip's MXUs (folds pipelined)
// and as multiply-adds over the chip's vector units.
double MxuCyclesOf(const GemmPlan& gemm, const ChipSpec& spec);
double VectorCyclesOf(const GemmPlan& gemm, const ChipSpec& spec);

struct GemmPlacement {
  bool on_vector_unit = false;
  double mxu_cycles = 0;     // as MxuCyclesOf
  double vector_cycles = 0;  // as VectorCyclesOf
  double cycles() const { return on_vector_unit ? vector_cycles : mxu_cycles; }
};

// On the vector unit when the MXU's folds would use under an eighth of the
// array and the vector unit would finish `gemm` first.
GemmPlacement PlaceGemm(const GemmPlan& gemm, const ChipSpec& spec);
bool RunsBetterOnVectorUnit(const GemmPlan& gemm, const ChipSpec& spec);

// `plan` with its GEMMs moved onto the vector unit when every one of them
// runs better there: a vector kernel streaming the GEMMs' products, two ops
// (multiply, add) each. Otherwise `plan` as is.
KernelPlan PlaceGemms(KernelPlan plan, const ChipSpec& spec);

}  // namespace systolic::device
