// An HLO module: computations (callees before callers), the entry, and the
// module-level configuration XLA prints in the header line.
#pragma once

#include "absl/strings/string_view.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/hlo/hlo_computation.h"

namespace systolic {

// `{0}: (1, {}, must-alias)`: output {0} reuses parameter 1's buffer.
struct InputOutputAlias {
  ShapeIndex output_index;
  int64_t parameter_number = 0;
  ShapeIndex parameter_index;
  bool must_alias = false;
  friend bool operator==(const InputOutputAlias&, const InputOutputAlias&) = default;
};

// `buffer_donor={ (0, {}), (1, {}) }`
struct BufferDonor {
  int64_t parameter_number = 0;
  ShapeIndex parameter_index;
  friend bool operator==(const BufferDonor&, const BufferDonor&) = default;
};

class HloModule {
 public:
  explicit HloModule(std::string name);
  ~HloModule();

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  HloComputation* AddEntryComputation(std::unique_ptr<HloComputation> computation);
  HloComputation* AddEmbeddedComputation(std::unique_ptr<HloComputation> computation);
  // Removes a computation no instruction calls.
  void RemoveComputation(HloComputation* computation);
  // Removes every computation not reachable from the entry.
  int64_t RemoveUnusedComputations();

  HloComputation* entry_computation() const { return entry_; }
  void set_entry_computation(HloComputation* entry) { entry_ = entry; }
  std::vector<HloComputation*> computations() const;
  int64_t computation_count() const { return int64_t(computations_.size()); }
  // Callees before callers, entry last.
  std::vector<HloComputation*> MakeComputationPostOrder() const;
  HloComputation* GetComputationWithName(absl::string_view name) const;
  int64_t instruction_count() const;

  // Ids and names unique in the module.
  int64_t NewUniqueId() { return next_unique_id_++; }
  // The id the next new instruction gets: instructions with an id at or
  // above a value taken earlier were added since (passes use this to give
  // new instructions the provenance of what they replace).
  int64_t next_unique_id() const { return next_unique_id_; }
  void ReserveUniqueId(int64_t id) { next_unique_id_ = std::max(next_unique_id_, id + 1); }
  std::string UniqueName(absl::string_view prefix);
  void RegisterName(const std::string& name) {
    if (names_built_) names_.insert(name);
  }

  // --- Configuration (header attributes) --------------------------------------
  int64_t replica_count() const { return replica_count_; }
  void set_replica_count(int64_t n) { replica_count_ = n; }
  int64_t num_partitions() const { return num_partitions_; }
  void set_num_partitions(int64_t n) { num_partitions_ = n; }
  // Whether the SPMD partitioner runs on this module (XLA's
  // use_spmd_partitioning); unset, the compiler decides from the module
  // (SpmdPartitioner::NeedsPartitioning).
  std::optional<bool> use_spmd_partitioning() const { return use_spmd_partitioning_; }
  void set_use_spmd_partitioning(std::optional<bool> use) { use_spmd_partitioning_ = use; }
  bool has_entry_computation_layout() const { return entry_layout_.has_value(); }
  const ProgramShape& entry_computation_layout() const { return *entry_layout_; }
  void set_entry_computation_layout(std::optional<ProgramShape> l) { entry_layout_ = std::move(l); }
  const std::vector<InputOutputAlias>& input_output_aliases() const { return aliases_; }
  std::vector<InputOutputAlias>* mutable_input_output_aliases() { return &aliases_; }
  const std::vector<BufferDonor>& buffer_donors() const { return donors_; }
  std::vector<BufferDonor>* mutable_buffer_donors() { return &donors_; }
  bool is_scheduled() const { return is_scheduled_; }
  void set_is_scheduled(bool s) { is_scheduled_ = s; }
  const FrontendAttributes& frontend_attributes() const { return frontend_attributes_; }
  FrontendAttributes* mutable_frontend_attributes() { return &frontend_attributes_; }
  // Header attributes kept verbatim (e.g. allow_spmd_sharding_propagation_to_output).
  const std::vector<std::pair<std::string, std::string>>& raw_attributes() const {
    return raw_attributes_;
  }
  void add_raw_attribute(std::string name, std::string value) {
    raw_attributes_.emplace_back(std::move(name), std::move(value));
  }

  // The instruction order of each scheduled computation (by computation).
  const std::vector<HloInstruction*>* schedule(const HloComputation* c) const;
  void set_schedule(const HloComputation* c, std::vector<HloInstruction*> sequence);
  void clear_schedule() { schedule_.clear(); }

  // The file the module was parsed from, for error messages ("" if none).
  const std::string& source_filename() const { return source_filename_; }
  void set_source_filename(std::string f) { source_filename_ = std::move(f); }

  // Deep copy, keeping names, ids and provenance.
  std::unique_ptr<HloModule> Clone() const;

  // The whole module in XLA's text format.
  std::string ToString() const;
  // Appends ToString(), calling `on_printed` after each instruction's line
  // (in print order: callees before callers, operands before users), so a
  // caller can gather per-instruction facts in the same walk.
  void AppendTo(std::string* out, const InstructionPrinted& on_printed = nullptr) const;

 private:
  std::string name_;
  std::string source_filename_;
  std::vector<std::unique_ptr<HloComputation>> computations_;
  HloComputation* entry_ = nullptr;
  int64_t next_unique_id_ = 0;
  // Every name in the module, built on the first UniqueName() call (parsing
  // a large module never needs it).
  absl::flat_hash_set<std::string> names_;
  bool names_built_ = false;
  absl::flat_hash_map<std::string, int64_t> name_counters_;
  int64_t replica_count_ = 1;
  int64_t num_partitions_ = 1;
  std::optional<bool> use_spmd_partitioning_;
  std::optional<ProgramShape> entry_layout_;
  std::vector<InputOutputAlias> aliases_;
  std::vector<BufferDonor> donors_;
  bool is_scheduled_ = false;
  FrontendAttributes frontend_attributes_;
  std::vector<std::pair<std::string, std::string>> raw_attributes_;
  absl::flat_hash_map<const HloComputation*, std::vector<HloInstruction*>> schedule_;
};

}  // namespace systolic
