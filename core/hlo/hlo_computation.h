// A computation: a DAG of instructions with parameters and a root. The
// module's entry computation, a fused computation of a fusion, a reducer,
// a while body... all are computations.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/hlo/hlo_instruction.h"

namespace systolic {

class HloModule;

// Told of each instruction right after its line is printed.
using InstructionPrinted = std::function<void(const HloInstruction&)>;

// Parameter and result shapes of a computation: `(f32[2]{0}, s32[]) -> f32[2]{0}`.
struct ProgramShape {
  std::vector<Shape> parameters;
  std::vector<std::string> parameter_names;
  Shape result;
  std::string ToString(bool print_layout = true) const;
  friend bool operator==(const ProgramShape& a, const ProgramShape& b) {
    return a.parameters == b.parameters && a.result == b.result;
  }
};

class HloComputation {
 public:
  // Slots of owned instructions; a removed instruction leaves a null slot
  // until the next compaction, so removal is O(1) and walks stay linear.
  using InstructionList = std::vector<std::unique_ptr<HloInstruction>>;

  explicit HloComputation(std::string name);
  ~HloComputation();

  const std::string& name() const { return name_; }
  void SetName(std::string name) { name_ = std::move(name); }
  int64_t unique_id() const { return unique_id_; }
  void SetUniqueId(int64_t id) { unique_id_ = id; }
  HloModule* parent() const { return parent_; }
  void set_parent(HloModule* module) { parent_ = module; }

  // Takes ownership; assigns a unique id and, when the name is empty or
  // taken, a unique name based on the opcode.
  HloInstruction* AddInstruction(std::unique_ptr<HloInstruction> instruction);
  // Adds a parameter instruction (its number must be the next one).
  HloInstruction* AddParameter(std::unique_ptr<HloInstruction> parameter);
  // Removes a dead instruction (no users, not the root).
  absl::Status RemoveInstruction(HloInstruction* instruction);
  // Removes `instruction` and then any operand left dead by it, recursively
  // (parameters stay).
  absl::Status RemoveInstructionAndUnusedOperands(HloInstruction* instruction);
  // Every use of `old_instruction` becomes `replacement`; `old_instruction`
  // is removed with its newly dead operands. Provenance is carried over.
  absl::Status ReplaceInstruction(HloInstruction* old_instruction, HloInstruction* replacement);
  // Adds `replacement` and replaces `old_instruction` with it.
  absl::Status ReplaceWithNewInstruction(HloInstruction* old_instruction,
                                         std::unique_ptr<HloInstruction> replacement);

  HloInstruction* root_instruction() const { return root_; }
  void set_root_instruction(HloInstruction* root) { root_ = root; }

  int64_t num_parameters() const { return int64_t(parameters_.size()); }
  HloInstruction* parameter_instruction(int64_t i) const { return parameters_[i]; }
  const std::vector<HloInstruction*>& parameter_instructions() const { return parameters_; }

  int64_t instruction_count() const { return live_count_; }
  // In insertion order.
  std::vector<HloInstruction*> instructions() const;
  // Every instruction's index_in_computation() is below this bound. Indices
  // are dense and stable until the computation next removes an instruction,
  // so read-only walks (the verifier, analyses) can keep per-instruction
  // state in plain vectors instead of hash maps.
  int64_t instruction_index_bound() const { return int64_t(instructions_.size()); }
  // Operands and control predecessors before users; deterministic.
  std::vector<HloInstruction*> MakeInstructionPostOrder() const;
  // Computations called from this one, transitively, callees first.
  std::vector<HloComputation*> MakeEmbeddedComputationsList() const;

  bool IsFusionComputation() const { return fusion_instruction_ != nullptr; }
  HloInstruction* FusionInstruction() const { return fusion_instruction_; }
  void SetFusionInstruction(HloInstruction* fusion) { fusion_instruction_ = fusion; }
  bool IsEntryComputation() const;

  const std::string& execution_thread() const { return execution_thread_; }
  void set_execution_thread(std::string t) { execution_thread_ = std::move(t); }

  ProgramShape ComputeProgramShape() const;

  // `%name (p: f32[2]) -> f32[2] {\n  ...\n}`; ENTRY prefix added by the module.
  std::string ToString() const;
  // Appends ToString(), calling `on_printed` after each instruction's line.
  void AppendTo(std::string* out, const InstructionPrinted& on_printed = nullptr) const;
  // Instruction order used when printing (schedule order when the module is
  // scheduled, else post order).
  std::vector<HloInstruction*> PrintOrder() const;

 private:
  // Drops the null slots of removed instructions and renumbers the rest.
  void Compact();

  std::string name_;
  int64_t unique_id_ = -1;
  HloModule* parent_ = nullptr;
  InstructionList instructions_;
  int64_t live_count_ = 0;
  std::vector<HloInstruction*> parameters_;
  HloInstruction* root_ = nullptr;
  HloInstruction* fusion_instruction_ = nullptr;
  std::string execution_thread_ = "main";
};

}  // namespace systolic
