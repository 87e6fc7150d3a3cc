#include "core/runtime/module_signature.h"

#include "absl/strings/str_cat.h"
#include "core/runtime/stable_hash.h"

namespace systolic::runtime {
namespace {

std::string ShardingText(const HloInstruction& instruction) {
  return instruction.has_sharding() ? instruction.sharding().ToString() : std::string();
}

}  // namespace

ModuleSignature ModuleSignature::Of(const HloModule& module,
                                    const CompileOptions& resolved_options) {
  ModuleSignature signature;
  signature.module_name = module.name();
  signature.options = resolved_options;

  // A copy whose names are positions: equal programs print equal text
  // whatever their values are called. Metadata says where an op came from,
  // not what it computes, so it is dropped.
  std::unique_ptr<HloModule> canonical = module.Clone();
  canonical->set_name("m");
  std::vector<HloComputation*> computations = canonical->MakeComputationPostOrder();
  std::vector<std::vector<HloInstruction*>> orders;
  for (HloComputation* computation : computations) {
    orders.push_back(computation->MakeInstructionPostOrder());
    for (HloInstruction* instruction : orders.back()) instruction->set_metadata(OpMetadata{});
  }
  for (size_t c = 0; c < computations.size(); ++c) {
    for (HloInstruction* instruction : orders[c]) {
      Instruction entry;
      entry.display = instruction->ToString();
      entry.computation = computations[c]->name();
      entry.is_constant = instruction->opcode() == HloOpcode::kConstant;
      entry.shape = instruction->shape().ToString();
      entry.sharding = ShardingText(*instruction);
      signature.instructions.push_back(std::move(entry));
    }
  }
  int64_t next = 0;
  for (size_t c = 0; c < computations.size(); ++c) {
    computations[c]->SetName(absl::StrCat("c", c));
    for (HloInstruction* instruction : orders[c]) {
      instruction->SetName(absl::StrCat("i", next++));
    }
  }
  next = 0;
  for (size_t c = 0; c < computations.size(); ++c) {
    for (HloInstruction* instruction : orders[c]) {
      signature.instructions[next++].canonical = instruction->ToString();
    }
  }

  const HloComputation* entry = module.entry_computation();
  if (entry != nullptr) {
    for (const HloInstruction* parameter : entry->parameter_instructions()) {
      signature.parameter_shapes.push_back(parameter->shape());
      signature.parameter_names.push_back(parameter->name());
      signature.parameter_shardings.push_back(ShardingText(*parameter));
    }
  }
  std::string text = canonical->ToString();
  signature.header = text.substr(0, text.find('\n'));
  signature.fingerprint =
      StableFingerprint(absl::StrCat(text, "\n--options: ", resolved_options.ToString()));
  return signature;
}

}  // namespace systolic::runtime
