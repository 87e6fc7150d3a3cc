#include "core/device/hlo_lowering.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/core_program_builder.h"
#include "core/device/hbm_fit_check.h"
#include "core/device/kernel_plan.h"
#include "core/device/kernel_tiling.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/status_macros.h"

namespace systolic::device {
namespace {

// Per core, the "done" ops a value depends on: its producing kernel's, or
// for instructions that run no kernel (tuples, get-tuple-element, bitcasts)
// those of their operands.
using DoneOps = std::vector<std::vector<OpId>>;

std::vector<HloInstruction*> ProgramOrder(const HloModule& module,
                                         const HloComputation& computation) {
  if (module.is_scheduled()) {
    if (const std::vector<HloInstruction*>* sequence = module.schedule(&computation)) {
      return *sequence;
    }
  }
  return computation.MakeInstructionPostOrder();
}

// An instruction on scalars only (a loop counter, a bound, a predicate):
// the scalar unit computes it from scalar memory, with no DMA and no vector
// pass, as a TPU's sequencer does.
bool IsScalarOnly(const HloInstruction& instr) {
  if (!instr.shape().IsScalar()) return false;
  for (const HloInstruction* operand : instr.operands()) {
    if (!operand->shape().IsScalar()) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<LoweredProgram> LowerModule(const HloModule& module, const ChipSpec& spec,
                                           const LoweringOptions& options) {
  if (module.entry_computation() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(module.name(), ": the module has no entry computation"));
  }
  if (options.check_hbm) SYSTOLIC_RETURN_IF_ERROR(CheckFitsHbm(module, spec));
  return LowerComputation(module, *module.entry_computation(), spec, options);
}

absl::StatusOr<LoweredProgram> LowerComputation(const HloModule& module,
                                                const HloComputation& computation,
                                                const ChipSpec& spec,
                                                const LoweringOptions& options) {
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  // Two kernels are in flight at once (one computing, the next loading),
  // each within half of VMEM; see the fence below.
  const int64_t kernel_vmem = VmemBytes(spec) / 2;
  const double hbm_bytes_per_cycle = HbmBytesPerCycle(spec);

  LoweredProgram lowered;
  lowered.program.cores.resize(cores);
  std::vector<CoreProgramBuilder> builders;
  builders.reserve(cores);
  for (int c = 0; c < cores; ++c) {
    builders.emplace_back(&lowered.program.cores[c], spec.dma().engines());
  }
  absl::flat_hash_map<const HloInstruction*, DoneOps> done;
  // Per core, the done ops of its last two kernels: a kernel loads nothing
  // before the one two back has finished, so at most two hold VMEM.
  std::vector<std::deque<OpId>> recent(cores);
  // Per core, the last synchronous collective or control flow: everything
  // later waits for it.
  std::vector<std::optional<OpId>> fence(cores);
  // Per core, the done ops of the kernels since that fence: control flow
  // waits for all of them.
  std::vector<std::vector<OpId>> since_fence(cores);

  for (const HloInstruction* instr : ProgramOrder(module, computation)) {
    DoneOps inputs(cores);
    for (const HloInstruction* operand : instr->operands()) {
      auto it = done.find(operand);
      if (it == done.end()) continue;
      for (int c = 0; c < cores; ++c) {
        inputs[c].insert(inputs[c].end(), it->second[c].begin(), it->second[c].end());
      }
    }
    const KernelPlan plan = PlanKernel(*instr);
    if (plan.kind == KernelKind::kNone) {
      done[instr] = std::move(inputs);
      continue;
    }
    auto after = [&](int c) {
      std::vector<OpId> deps = inputs[c];
      if (recent[c].size() == 2) deps.push_back(recent[c].front());
      if (fence[c]) deps.push_back(*fence[c]);
      return deps;
    };
    auto finished = [&](int c, OpId op) {
      recent[c].push_back(op);
      if (recent[c].size() > 2) recent[c].pop_front();
      since_fence[c].push_back(op);
    };
    auto fence_at = [&](int c, OpId op) {
      fence[c] = op;
      since_fence[c].clear();
      recent[c].clear();
    };
    DoneOps out(cores);
    lowered.kernels.push_back(instr->name());
    if (auto control_flow = options.control_flow.find(instr->name());
        control_flow != options.control_flow.end()) {
      std::vector<OpId>& ops = lowered.control_flow_ops[instr->name()];
      for (int c = 0; c < cores; ++c) {
        std::vector<OpId> deps = after(c);
        deps.insert(deps.end(), since_fence[c].begin(), since_fence[c].end());
        const OpId op = builders[c].AddFixed(
            instr->name(), control_flow->second.label,
            FixedWork{std::max<int64_t>(1, control_flow->second.cycles), 0}, deps);
        fence_at(c, op);
        ops.push_back(op);
        out[c] = {op};
      }
      done[instr] = std::move(out);
      continue;
    }
    if (auto collective = options.collective_cycles.find(instr->name());
        collective != options.collective_cycles.end()) {
      const bool synchronous = !absl::EndsWith(HloOpcodeString(instr->opcode()), "-start");
      for (int c = 0; c < cores; ++c) {
        const OpId op = builders[c].AddFixed(
            instr->name(), absl::StrCat(HloOpcodeString(instr->opcode()), " over ICI"),
            FixedWork{std::max<int64_t>(1, collective->second), 0}, after(c), IciUnit());
        // The ICI moves HBM to HBM: an asynchronous collective holds none
        // of the VMEM the next kernels load into.
        if (synchronous) {
          finished(c, op);
          fence[c] = op;
        } else {
          since_fence[c].push_back(op);
        }
        out[c] = {op};
      }
      done[instr] = std::move(out);
      continue;
    }
    if (plan.kind == KernelKind::kUnmodelled) {
      if (instr->opcode() == HloOpcode::kCustomCall) {
        ++lowered.unknown_custom_calls[instr->custom_call_target()];
      }
      // Charged as moving its operands and results once through HBM.
      const double bytes = double(plan.bytes_in + plan.bytes_out);
      FixedWork work{std::max<int64_t>(1, int64_t(std::ceil(bytes / hbm_bytes_per_cycle))), 0};
      const OpId op = builders[0].AddFixed(instr->name(),
                                           absl::StrCat("unmodelled ", plan.why_unmodelled), work,
                                           after(0));
      finished(0, op);
      out[0] = {op};
      done[instr] = std::move(out);
      continue;
    }
    if (plan.kind == KernelKind::kVector && IsScalarOnly(*instr)) {
      // A cycle per operation; the FLOPs are counted once, on core 0.
      const int64_t cycles = std::max<int64_t>(1, int64_t(std::ceil(plan.vector_flops)));
      for (int c = 0; c < cores; ++c) {
        const OpId op = builders[c].AddFixed(instr->name(), "scalar",
                                             FixedWork{cycles, c == 0 ? plan.vector_flops : 0},
                                             after(c));
        since_fence[c].push_back(op);
        out[c] = {op};
      }
      done[instr] = std::move(out);
      continue;
    }
    SYSTOLIC_ASSIGN_OR_RETURN(CoreSteps steps,
                              TileKernel(instr->name(), plan, spec, kernel_vmem));
    for (int c = 0; c < cores; ++c) {
      if (steps[c].empty()) continue;
      const OpId op = builders[c].AddKernel(instr->name(), steps[c], after(c));
      finished(c, op);
      out[c] = {op};
    }
    done[instr] = std::move(out);
  }
  for (const CoreProgramBuilder& builder : builders) {
    lowered.op_instruction.push_back(builder.instruction_of_op());
  }
  return lowered;
}

}  // namespace systolic::device
