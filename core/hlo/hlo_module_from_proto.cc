#include "core/hlo/hlo_module_from_proto.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_proto_instruction.h"
#include "core/hlo/hlo_proto_metadata.h"
#include "core/hlo/hlo_proto_shape.h"
#include "core/hlo/hlo_proto_sniff.h"
#include "core/hlo/status_macros.h"
#include "core/hlo/utf8.h"

namespace systolic {
namespace {

absl::Status Error(absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

class ModuleReader {
 public:
  explicit ModuleReader(const hlo_proto::HloModuleProto& proto)
      : proto_(proto), module_(std::make_unique<HloModule>(proto.name())) {}

  absl::StatusOr<std::unique_ptr<HloModule>> Read() {
    if (!IsReadableModuleName(proto_.name())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the module's name \"", PrintableText(proto_.name().substr(0, 64)),
          "\" is empty, longer than 4096 bytes or not text (a control character or broken UTF-8)"));
    }
    if (proto_.computations_size() == 0) return absl::InvalidArgumentError("the module has no computation");
    for (const hlo_proto::HloComputationProto& computation : proto_.computations()) {
      SYSTOLIC_RETURN_IF_ERROR(ReadComputation(computation));
    }
    SYSTOLIC_RETURN_IF_ERROR(ReadEntry());
    SYSTOLIC_RETURN_IF_ERROR(ReadSchedule());
    SYSTOLIC_RETURN_IF_ERROR(ReadConfiguration());
    return std::move(module_);
  }

 private:
  absl::Status ReadComputation(const hlo_proto::HloComputationProto& proto) {
    const std::string where = absl::StrCat("computation %", proto.name());
    if (computations_.contains(proto.id())) return Error(where, absl::StrCat("id ", proto.id(), " is used twice"));
    if (proto.instructions_size() == 0) return Error(where, "it has no instructions");
    HloComputation* computation =
        module_->AddEmbeddedComputation(std::make_unique<HloComputation>(proto.name()));
    if (!proto.execution_thread().empty()) computation->set_execution_thread(proto.execution_thread());
    computations_[proto.id()] = computation;

    absl::flat_hash_map<int64_t, HloInstruction*> by_id;
    for (const hlo_proto::HloInstructionProto& instr : proto.instructions()) {
      const std::string at = absl::StrCat(where, ", instruction %", instr.name());
      std::vector<HloInstruction*> operands;
      for (int64_t id : instr.operand_ids()) {
        auto it = by_id.find(id);
        if (it == by_id.end()) {
          return Error(at, absl::StrCat("operand id ", id, " names no instruction before it"));
        }
        operands.push_back(it->second);
      }
      std::vector<HloComputation*> called;
      for (int64_t id : instr.called_computation_ids()) {
        auto it = computations_.find(id);
        if (it == computations_.end() || it->second == computation) {
          return Error(at, absl::StrCat("called computation id ", id, " names no computation before it"));
        }
        called.push_back(it->second);
      }
      absl::StatusOr<std::unique_ptr<HloInstruction>> made =
          InstructionFromProto(instr, operands, called);
      if (!made.ok()) return Error(where, made.status().message());
      if (by_id.contains(instr.id())) return Error(at, absl::StrCat("id ", instr.id(), " is used twice"));
      // Keep the file's ids when they are unique in the module.
      if (instr.id() >= 0 && instruction_ids_.insert(instr.id()).second) (*made)->SetUniqueId(instr.id());
      HloInstruction* added;
      if ((*made)->opcode() == HloOpcode::kParameter) {
        const int64_t number = (*made)->parameter_number();
        if (number < 0 || number >= proto.instructions_size()) {
          return Error(at, absl::StrCat("parameter number ", number, " is out of range"));
        }
        if (number < computation->num_parameters() &&
            computation->parameter_instruction(number) != nullptr) {
          return Error(at, absl::StrCat("parameter(", number, ") is defined twice"));
        }
        added = computation->AddParameter(*std::move(made));
      } else {
        added = computation->AddInstruction(*std::move(made));
      }
      by_id[instr.id()] = added;
      all_instructions_[instr.id()] = added;
    }
    for (int64_t i = 0; i < computation->num_parameters(); ++i) {
      if (computation->parameter_instruction(i) == nullptr) {
        return Error(where, absl::StrCat("it has no parameter(", i, ")"));
      }
    }
    for (const hlo_proto::HloInstructionProto& instr : proto.instructions()) {
      for (int64_t id : instr.control_predecessor_ids()) {
        auto it = by_id.find(id);
        if (it == by_id.end()) {
          return Error(absl::StrCat(where, ", instruction %", instr.name()),
                       absl::StrCat("control predecessor id ", id, " names no instruction"));
        }
        it->second->AddControlDependencyTo(by_id.at(instr.id()));
      }
    }
    auto root = by_id.find(proto.root_id());
    if (root == by_id.end()) {
      return Error(where, absl::StrCat("root id ", proto.root_id(), " names no instruction"));
    }
    computation->set_root_instruction(root->second);
    return absl::OkStatus();
  }

  absl::Status ReadEntry() {
    HloComputation* entry = nullptr;
    if (auto it = computations_.find(proto_.entry_computation_id());
        it != computations_.end() && proto_.entry_computation_id() != 0) {
      entry = it->second;
    } else if (!proto_.entry_computation_name().empty()) {
      entry = module_->GetComputationWithName(proto_.entry_computation_name());
      if (entry == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "entry computation %", proto_.entry_computation_name(), " is not in the module"));
      }
    } else if (auto last = computations_.find(proto_.computations().rbegin()->id());
               last != computations_.end()) {
      entry = last->second;  // callers come last, the entry last of all
    }
    module_->set_entry_computation(entry);
    return absl::OkStatus();
  }

  absl::Status ReadSchedule() {
    if (!proto_.has_schedule()) return absl::OkStatus();
    module_->set_is_scheduled(true);
    for (const auto& [computation_id, sequence] : proto_.schedule().sequences()) {
      auto computation = computations_.find(computation_id);
      if (computation == computations_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("the schedule names computation id ", computation_id, ", which is not in the module"));
      }
      std::vector<HloInstruction*> order;
      for (int64_t id : sequence.instruction_ids()) {
        auto instr = all_instructions_.find(id);
        if (instr == all_instructions_.end() || instr->second->parent() != computation->second) {
          return absl::InvalidArgumentError(absl::StrCat("the schedule of computation %",
                                                         computation->second->name(), " names id ",
                                                         id, ", not one of its instructions"));
        }
        order.push_back(instr->second);
      }
      if (int64_t(order.size()) != computation->second->instruction_count()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the schedule of computation %", computation->second->name(), " lists ", order.size(),
            " of its ", computation->second->instruction_count(), " instructions"));
      }
      module_->set_schedule(computation->second, std::move(order));
    }
    return absl::OkStatus();
  }

  absl::Status ReadConfiguration() {
    if (proto_.has_host_program_shape()) {
      absl::StatusOr<ProgramShape> layout = ProgramShapeFromProto(proto_.host_program_shape());
      if (!layout.ok()) return Error("host_program_shape", layout.status().message());
      module_->set_entry_computation_layout(*std::move(layout));
    }
    for (const auto& entry : proto_.input_output_alias().entries()) {
      module_->mutable_input_output_aliases()->push_back(
          {ShapeIndex(entry.output_shape_index().begin(), entry.output_shape_index().end()),
           entry.parameter_number(),
           ShapeIndex(entry.parameter_shape_index().begin(), entry.parameter_shape_index().end()),
           entry.kind() == hlo_proto::MUST_ALIAS});
    }
    for (const auto& entry : proto_.buffer_donor().entries()) {
      module_->mutable_buffer_donors()->push_back(
          {entry.parameter_number(),
           ShapeIndex(entry.parameter_shape_index().begin(), entry.parameter_shape_index().end())});
    }
    if (proto_.has_device_assignment()) {
      module_->set_replica_count(std::max<int64_t>(1, proto_.device_assignment().replica_count()));
      module_->set_num_partitions(std::max<int64_t>(1, proto_.device_assignment().computation_count()));
    }
    *module_->mutable_frontend_attributes() = FrontendAttributesFromProto(proto_.frontend_attributes());
    if (proto_.has_systolic_use_spmd_partitioning()) {
      module_->set_use_spmd_partitioning(proto_.systolic_use_spmd_partitioning());
    }
    for (const hlo_proto::RawAttribute& raw : proto_.systolic_raw_attributes()) {
      module_->add_raw_attribute(raw.name(), raw.value());
    }
    return absl::OkStatus();
  }

  const hlo_proto::HloModuleProto& proto_;
  std::unique_ptr<HloModule> module_;
  absl::flat_hash_map<int64_t, HloComputation*> computations_;
  absl::flat_hash_map<int64_t, HloInstruction*> all_instructions_;
  absl::flat_hash_set<int64_t> instruction_ids_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<HloModule>> ModuleFromProto(const hlo_proto::HloModuleProto& proto) {
  return ModuleReader(proto).Read();
}

}  // namespace systolic
