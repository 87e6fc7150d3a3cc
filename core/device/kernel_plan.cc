#include "core/device/kernel_plan.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_cost_analysis.h"
#include "core/compiler/shape_size.h"
#include "core/device/ceil_div.h"
#include "core/device/custom_call_costs.h"
#include "core/hlo/hlo_computation.h"

namespace systolic::device {
namespace {

int64_t Elements(const Shape& shape) {
  if (shape.IsTuple()) {
    int64_t n = 0;
    for (const Shape& s : shape.tuple_shapes()) n += Elements(s);
    return n;
  }
  return shape.IsArray() ? shape.num_elements() : 0;
}

int64_t PassesFor(const HloInstruction& instr) {
  const Shape& lhs = instr.operand(0)->shape();
  if (!lhs.IsArray() || lhs.element_type() != PrimitiveType::F32) return 1;
  switch (instr.precision_config().MaxPrecision()) {
    case Precision::kHighest: return 6;
    case Precision::kHigh: return 3;
    default: return 1;
  }
}

bool IsInt8(const Shape& shape) {
  return shape.IsArray() && (shape.element_type() == S8 || shape.element_type() == U8);
}

GemmPlan PlanDot(const HloInstruction& dot) {
  const Shape& lhs = dot.operand(0)->shape();
  const Shape& rhs = dot.operand(1)->shape();
  const DotDimensionNumbers& d = dot.dot_dimension_numbers();
  GemmPlan plan;
  plan.name = dot.name();
  for (int64_t dim : d.lhs_batch_dimensions) plan.batch *= lhs.dimensions(dim);
  int64_t k = 1;
  for (int64_t dim : d.lhs_contracting_dimensions) k *= lhs.dimensions(dim);
  const int64_t per_batch_k = std::max<int64_t>(1, plan.batch * k);
  plan.gemm.k = std::max<int64_t>(1, k);
  plan.gemm.m = std::max<int64_t>(1, lhs.num_elements() / per_batch_k);
  plan.gemm.n = std::max<int64_t>(1, rhs.num_elements() / per_batch_k);
  // Bytes as stored (tiled layouts pad), so a GEMM's operands are its traffic.
  plan.lhs_element_bytes = double(ByteSizeOf(lhs)) / double(plan.batch * plan.gemm.m * plan.gemm.k);
  plan.rhs_element_bytes = double(ByteSizeOf(rhs)) / double(plan.batch * plan.gemm.k * plan.gemm.n);
  plan.passes = PassesFor(dot);
  plan.int8 = IsInt8(lhs) && IsInt8(rhs);
  return plan;
}

// A convolution as the GEMMs of its im2col form, one per group: M = output
// positions, N = output features per group, K = input features per group ×
// window. (Batch groups split the output features the same way.)
GemmPlan PlanConvolution(const HloInstruction& conv) {
  const Shape& out = conv.shape();
  const Shape& kernel = conv.operand(1)->shape();
  const Shape& input = conv.operand(0)->shape();
  const ConvolutionDimensionNumbers& d = conv.convolution_dimension_numbers();
  GemmPlan plan;
  plan.name = conv.name();
  const int64_t features = std::max<int64_t>(1, out.dimensions(d.output_feature_dimension));
  const int64_t groups = std::clamp<int64_t>(
      std::max(conv.feature_group_count(), conv.batch_group_count()), 1, features);
  plan.batch = groups;
  plan.gemm.n = std::max<int64_t>(1, features / groups);
  plan.gemm.m = std::max<int64_t>(1, out.num_elements() / features);
  // The kernel holds K × N per group.
  plan.gemm.k = std::max<int64_t>(1, kernel.num_elements() / (groups * plan.gemm.n));
  plan.lhs_element_bytes =
      double(ByteSizeOf(input)) / double(groups * plan.gemm.m * plan.gemm.k);
  plan.rhs_element_bytes =
      double(ByteSizeOf(kernel)) / double(groups * plan.gemm.k * plan.gemm.n);
  plan.passes = PassesFor(conv);
  plan.int8 = IsInt8(input) && IsInt8(kernel);
  return plan;
}

bool IsMatrixOp(const HloInstruction& instr) {
  return instr.opcode() == HloOpcode::kDot || instr.opcode() == HloOpcode::kConvolution;
}

const char* Unmodelled(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kWhile: return "loop";
    case HloOpcode::kConditional: return "conditional";
    case HloOpcode::kCall: return "call";
    case HloOpcode::kCustomCall: return "custom call";
    case HloOpcode::kAllReduce:
    case HloOpcode::kAllReduceStart:
    case HloOpcode::kAllGather:
    case HloOpcode::kAllGatherStart:
    case HloOpcode::kCollectivePermuteStart:
    case HloOpcode::kAllToAll:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kCollectivePermute:
      return "collective";
    case HloOpcode::kSend:
    case HloOpcode::kRecv:
    case HloOpcode::kInfeed:
    case HloOpcode::kOutfeed:
      return "host transfer";
    case HloOpcode::kAsyncStart: return "async op";
    case HloOpcode::kFft:
    case HloOpcode::kTriangularSolve:
    case HloOpcode::kCholesky:
      return "linear-algebra library call";
    default: return nullptr;
  }
}

}  // namespace

int64_t MxuMacsPerStep(const GemmPlan& g, const ChipSpec& spec) {
  return g.int8 ? std::max(1, spec.mxu().int8_macs_per_cycle()) : 1;
}

int64_t MxuDepth(const GemmPlan& g, const ChipSpec& spec, int64_t k) {
  return CeilDiv(k * g.passes, MxuMacsPerStep(g, spec));
}

KernelPlan PlanKernel(const HloInstruction& instruction) {
  if (instruction.opcode() == HloOpcode::kCustomCall) {
    if (std::optional<KernelPlan> known = PlanCustomCall(instruction)) return *known;
  }
  KernelPlan plan;
  if (const char* why = Unmodelled(instruction.opcode())) {
    plan.kind = KernelKind::kUnmodelled;
    plan.why_unmodelled = why;
    if (instruction.opcode() == HloOpcode::kCustomCall) {
      plan.why_unmodelled = absl::StrCat(why, " ", instruction.custom_call_target());
    }
    const KernelTraffic traffic = TrafficOf(instruction);
    plan.bytes_in = int64_t(traffic.bytes_read);
    plan.bytes_out = int64_t(traffic.bytes_written);
    return plan;
  }
  if (RunsNoKernel(instruction)) return plan;

  const KernelTraffic traffic = TrafficOf(instruction);
  plan.bytes_in = int64_t(traffic.bytes_read);
  plan.bytes_out = int64_t(traffic.bytes_written);

  // GEMMs: the instruction itself, or the dots and convolutions of a fusion.
  double vector_flops = 0;
  double transcendentals = 0;
  // A fusion that updates a buffer in place streams the update, not the buffer.
  const bool in_place = instruction.opcode() == HloOpcode::kFusion &&
                        instruction.fused_expression_root()->opcode() ==
                            HloOpcode::kDynamicUpdateSlice;
  int64_t elements = in_place ? 0 : Elements(instruction.shape());
  if (IsMatrixOp(instruction)) {
    plan.gemms.push_back(instruction.opcode() == HloOpcode::kDot ? PlanDot(instruction)
                                                                 : PlanConvolution(instruction));
  } else if (instruction.opcode() == HloOpcode::kFusion) {
    for (const HloInstruction* fused :
         instruction.fused_instructions_computation()->MakeInstructionPostOrder()) {
      if (IsMatrixOp(*fused)) {
        plan.gemms.push_back(fused->opcode() == HloOpcode::kDot ? PlanDot(*fused)
                                                               : PlanConvolution(*fused));
        continue;
      }
      if (fused->opcode() == HloOpcode::kParameter || fused->opcode() == HloOpcode::kConstant) {
        continue;
      }
      const InstructionWork w = WorkOf(*fused);
      vector_flops += w.flops;
      transcendentals += w.transcendentals;
      // What the vector unit streams: the values made and read (a
      // reduction's input), not a GEMM's operands; of an in-place update,
      // the update.
      if (fused->opcode() == HloOpcode::kDynamicUpdateSlice) {
        elements = std::max(elements, Elements(fused->operand(1)->shape()));
        continue;
      }
      elements = std::max(elements, Elements(fused->shape()));
      for (const HloInstruction* operand : fused->operands()) {
        elements = std::max(elements, Elements(operand->shape()));
      }
    }
  } else if (instruction.opcode() == HloOpcode::kDynamicUpdateSlice) {
    // In place: only the update is streamed.
    elements = Elements(instruction.operand(1)->shape());
  } else {
    const InstructionWork w = WorkOf(instruction);
    vector_flops = w.flops;
    transcendentals = w.transcendentals;
    for (const HloInstruction* operand : instruction.operands()) {
      elements = std::max(elements, Elements(operand->shape()));
    }
  }
  plan.kind = plan.gemms.empty() ? KernelKind::kVector : KernelKind::kMatrix;
  if (plan.kind == KernelKind::kVector) {
    // Data movement (copy, transpose, broadcast, slice, ...) is one vector
    // pass over its elements.
    elements = std::max<int64_t>(1, elements);
    plan.vector_elements = elements;
    plan.ops_per_element =
        std::max<int64_t>(1, int64_t(std::ceil(vector_flops / double(elements) - 1e-9)));
    plan.transcendentals_per_element =
        int64_t(std::ceil(transcendentals / double(elements) - 1e-9));
    plan.vector_flops = std::max(vector_flops, double(elements));
  } else if (vector_flops > 0 || transcendentals > 0) {
    // A fusion's epilogue (bias, activation) over its output.
    plan.vector_elements = std::max<int64_t>(1, elements);
    plan.ops_per_element = std::max<int64_t>(
        1, int64_t(std::ceil(vector_flops / double(plan.vector_elements) - 1e-9)));
    plan.transcendentals_per_element =
        int64_t(std::ceil(transcendentals / double(plan.vector_elements) - 1e-9));
    plan.vector_flops = vector_flops;
  }
  return plan;
}

}  // namespace systolic::device
