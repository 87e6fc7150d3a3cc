#include "core/compiler/hlo_cost_analysis.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/compiler/layout_util.h"
#include "core/compiler/shape_size.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {
namespace {

double Elements(const Shape& shape) {
  if (shape.IsTuple()) {
    double n = 0;
    for (const Shape& s : shape.tuple_shapes()) n += Elements(s);
    return n;
  }
  return shape.IsArray() ? double(shape.num_elements()) : 0.0;
}

// The part of `operand` that `user` reads, when it reads only part of it.
std::optional<double> PartialReadBytes(const HloInstruction& user, const HloInstruction& operand) {
  switch (user.opcode()) {
    case HloOpcode::kSlice:
    case HloOpcode::kDynamicSlice:
    case HloOpcode::kGather:
      if (user.operand(0) == &operand) return double(ByteSizeOf(user.shape()));
      return std::nullopt;
    case HloOpcode::kDynamicUpdateSlice:
      // Updated in place (its output shares the buffer): nothing of it is read.
      if (user.operand(0) == &operand) return 0.0;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// What writing `output` costs: all of it, but for an in-place
// dynamic-update-slice only the update.
double WrittenBytes(const HloInstruction& output, const HloInstruction& root) {
  if (root.opcode() == HloOpcode::kDynamicUpdateSlice) {
    return double(ByteSizeOf(root.operand(1)->shape()));
  }
  return double(ByteSizeOf(output.shape()));
}

}  // namespace

bool RunsNoKernel(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kBitcast:
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
    case HloOpcode::kCall:
    case HloOpcode::kAfterAll:
    case HloOpcode::kAddDependency:
    case HloOpcode::kOptimizationBarrier:
    case HloOpcode::kDomain:
    case HloOpcode::kPartitionId:
    case HloOpcode::kReplicaId:
    case HloOpcode::kGetDimensionSize:
    // A done only waits for its start, whose collective did the work.
    case HloOpcode::kAllReduceDone:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
      return true;
    case HloOpcode::kTranspose:
      return TransposeIsBitcast(instruction);
    default:
      return false;
  }
}

InstructionWork WorkOf(const HloInstruction& instr) {
  InstructionWork work;
  const double out = Elements(instr.shape());
  if (instr.IsElementwise()) {
    work.flops = out;
    if (HloOpcodeIsTranscendental(instr.opcode())) work.transcendentals = out;
    return work;
  }
  switch (instr.opcode()) {
    case HloOpcode::kDot: {
      double k = 1;
      for (int64_t d : instr.dot_dimension_numbers().lhs_contracting_dimensions) {
        k *= double(instr.operand(0)->shape().dimensions(d));
      }
      work.matrix_flops = 2 * out * k;
      break;
    }
    case HloOpcode::kConvolution: {
      const Shape& kernel = instr.operand(1)->shape();
      const auto& dnums = instr.convolution_dimension_numbers();
      double per_output = double(kernel.dimensions(dnums.kernel_input_feature_dimension));
      for (int64_t d : dnums.kernel_spatial_dimensions) per_output *= double(kernel.dimensions(d));
      work.matrix_flops = 2 * out * per_output;
      break;
    }
    case HloOpcode::kReduce: {
      int64_t inputs = instr.operand_count() / 2;
      for (int64_t i = 0; i < inputs; ++i) work.flops += Elements(instr.operand(i)->shape());
      break;
    }
    case HloOpcode::kReduceWindow: {
      double window = 1;
      for (const WindowDimension& d : instr.window().dimensions) window *= double(d.size);
      work.flops = out * window;
      break;
    }
    case HloOpcode::kSelectAndScatter: {
      double window = 1;
      for (const WindowDimension& d : instr.window().dimensions) window *= double(d.size);
      work.flops = Elements(instr.operand(1)->shape()) * window * 2;
      break;
    }
    case HloOpcode::kSort: {
      const Shape& keys = instr.operand(0)->shape();
      double n = keys.rank() > 0 ? double(keys.dimensions(instr.dimensions(0))) : 1;
      work.flops = Elements(keys) * std::max(1.0, std::log2(std::max(n, 2.0)));
      break;
    }
    case HloOpcode::kMap:
      work.flops = out * double(std::max<int64_t>(1, instr.to_apply()->instruction_count()));
      break;
    case HloOpcode::kScatter:
      work.flops = Elements(instr.operand(instr.operand_count() - 1)->shape());
      break;
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormGrad:
      work.flops = 8 * Elements(instr.operand(0)->shape());
      work.transcendentals = Elements(instr.operand(1)->shape());
      break;
    case HloOpcode::kFusion:
      for (const HloInstruction* fused : instr.fused_instructions_computation()->instructions()) {
        InstructionWork w = WorkOf(*fused);
        work.flops += w.flops;
        work.matrix_flops += w.matrix_flops;
        work.transcendentals += w.transcendentals;
      }
      break;
    default:
      break;
  }
  return work;
}

InstructionWork WorkOf(const FusionCandidate& candidate) {
  InstructionWork work;
  for (const HloInstruction* instr : candidate.instructions) {
    InstructionWork w = WorkOf(*instr);
    work.flops += w.flops;
    work.matrix_flops += w.matrix_flops;
    work.transcendentals += w.transcendentals;
  }
  return work;
}

KernelTraffic TrafficOf(const FusionCandidate& candidate) {
  KernelTraffic traffic;
  absl::flat_hash_set<const HloInstruction*> members(candidate.instructions.begin(),
                                                     candidate.instructions.end());
  // For each outside value: bytes read so far through partial reads, or
  // nullopt once something reads all of it.
  absl::flat_hash_map<const HloInstruction*, std::optional<double>> reads;
  for (const HloInstruction* instr : candidate.instructions) {
    for (const HloInstruction* op : instr->operands()) {
      if (members.contains(op)) continue;
      auto [it, inserted] = reads.try_emplace(op, 0.0);
      if (inserted) traffic.inputs.push_back(op);
      if (!it->second) continue;
      std::optional<double> partial = PartialReadBytes(*instr, *op);
      if (partial) {
        *it->second += *partial;
      } else {
        it->second.reset();
      }
    }
  }
  for (const HloInstruction* input : traffic.inputs) {
    const double full = double(ByteSizeOf(input->shape()));
    const std::optional<double>& partial = reads[input];
    traffic.bytes_read += partial ? std::min(*partial, full) : full;
  }
  for (const HloInstruction* output : candidate.outputs) {
    traffic.bytes_written += WrittenBytes(*output, *output);
  }
  return traffic;
}

KernelTraffic TrafficOf(const HloInstruction& instruction) {
  if (RunsNoKernel(instruction)) return {};
  if (instruction.opcode() != HloOpcode::kFusion) {
    return TrafficOf(FusionCandidate{{&instruction}, {&instruction}});
  }
  KernelTraffic traffic;
  const HloComputation* fused = instruction.fused_instructions_computation();
  absl::flat_hash_set<const HloInstruction*> seen;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    const HloInstruction* op = instruction.operand(i);
    if (!seen.insert(op).second) continue;
    traffic.inputs.push_back(op);
    const double full = double(ByteSizeOf(op->shape()));
    const HloInstruction* param = fused->parameter_instruction(i);
    std::optional<double> partial = param->users().empty() ? std::nullopt : std::optional(0.0);
    for (const HloInstruction* user : param->users()) {
      std::optional<double> p = PartialReadBytes(*user, *param);
      if (!p) {
        partial.reset();
        break;
      }
      *partial += *p;
    }
    traffic.bytes_read += partial ? std::min(*partial, full) : full;
  }
  traffic.bytes_written = WrittenBytes(instruction, *instruction.fused_expression_root());
  return traffic;
}

}  // namespace systolic
