#include "core/hlo/hlo_module_to_proto.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_proto_instruction.h"
#include "core/hlo/hlo_proto_metadata.h"
#include "core/hlo/hlo_proto_shape.h"
#include "core/hlo/status_macros.h"

namespace systolic {
namespace {

// Instructions keep their unique ids when those are usable (set and unique
// in the module), so a proto names instructions as the text's ids do;
// otherwise every instruction is numbered afresh.
HloProtoIds AssignIds(const std::vector<HloComputation*>& computations) {
  HloProtoIds ids;
  absl::flat_hash_set<int64_t> seen;
  bool usable = true;
  for (const HloComputation* computation : computations) {
    for (const HloInstruction* instr : computation->instructions()) {
      usable &= instr->unique_id() >= 0 && seen.insert(instr->unique_id()).second;
    }
  }
  int64_t next_instruction = 1;
  int64_t next_computation = 1;
  for (const HloComputation* computation : computations) {
    ids.computations[computation] = next_computation++;
    for (const HloInstruction* instr : computation->instructions()) {
      ids.instructions[instr] = usable ? instr->unique_id() : next_instruction++;
    }
  }
  return ids;
}

}  // namespace

absl::StatusOr<hlo_proto::HloModuleProto> ModuleToProto(const HloModule& module) {
  hlo_proto::HloModuleProto proto;
  proto.set_name(module.name());
  const std::vector<HloComputation*> computations = module.MakeComputationPostOrder();
  const HloProtoIds ids = AssignIds(computations);
  for (const HloComputation* computation : computations) {
    hlo_proto::HloComputationProto* c = proto.add_computations();
    c->set_name(computation->name());
    c->set_id(ids.computations.at(computation));
    c->set_root_id(ids.instructions.at(computation->root_instruction()));
    c->set_is_fusion_computation(computation->IsFusionComputation());
    c->set_execution_thread(computation->execution_thread());
    *c->mutable_program_shape() = ProgramShapeToProto(computation->ComputeProgramShape());
    // The printed order: operands before users, as XLA requires.
    const std::vector<HloInstruction*> order = computation->PrintOrder();
    for (const HloInstruction* instr : order) {
      absl::StatusOr<hlo_proto::HloInstructionProto> instruction = InstructionToProto(*instr, ids);
      if (!instruction.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("instruction %", instr->name(), ": ",
                                                       instruction.status().message()));
      }
      *c->add_instructions() = *std::move(instruction);
    }
    if (module.is_scheduled() && !computation->IsFusionComputation()) {
      auto& sequence = (*proto.mutable_schedule()->mutable_sequences())[c->id()];
      for (const HloInstruction* instr : order) sequence.add_instruction_ids(ids.instructions.at(instr));
    }
    if (computation == module.entry_computation()) {
      proto.set_entry_computation_name(computation->name());
      proto.set_entry_computation_id(c->id());
    }
  }
  if (module.has_entry_computation_layout()) {
    *proto.mutable_host_program_shape() = ProgramShapeToProto(module.entry_computation_layout());
  }
  for (const InputOutputAlias& alias : module.input_output_aliases()) {
    auto* entry = proto.mutable_input_output_alias()->add_entries();
    for (int64_t i : alias.output_index) entry->add_output_shape_index(i);
    entry->set_parameter_number(alias.parameter_number);
    for (int64_t i : alias.parameter_index) entry->add_parameter_shape_index(i);
    entry->set_kind(alias.must_alias ? hlo_proto::MUST_ALIAS : hlo_proto::MAY_ALIAS);
  }
  for (const BufferDonor& donor : module.buffer_donors()) {
    auto* entry = proto.mutable_buffer_donor()->add_entries();
    entry->set_parameter_number(donor.parameter_number);
    for (int64_t i : donor.parameter_index) entry->add_parameter_shape_index(i);
  }
  // XLA keeps the replica and partition counts in the module's config; the
  // module proto carries them as its device assignment's shape.
  if (module.replica_count() != 1 || module.num_partitions() != 1) {
    proto.mutable_device_assignment()->set_replica_count(int32_t(module.replica_count()));
    proto.mutable_device_assignment()->set_computation_count(int32_t(module.num_partitions()));
  }
  if (!module.frontend_attributes().empty()) {
    *proto.mutable_frontend_attributes() = FrontendAttributesToProto(module.frontend_attributes());
  }
  if (module.use_spmd_partitioning()) {
    proto.set_systolic_use_spmd_partitioning(*module.use_spmd_partitioning());
  }
  for (const auto& [name, value] : module.raw_attributes()) {
    hlo_proto::RawAttribute* raw = proto.add_systolic_raw_attributes();
    raw->set_name(name);
    raw->set_value(value);
  }
  return proto;
}

}  // namespace systolic
