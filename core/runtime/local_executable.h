// A compiled program in the engine: the module, the backend's executable,
// the devices it runs on, and its parameters and outputs as the runtime sees
// them — the array leaves of the entry's parameters and of its root, in
// order (tuples are flattened, as PJRT untuples results) — with which output
// reuses which donated parameter.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/runtime/backend.h"
#include "core/runtime/compile_options.h"
#include "core/runtime/local_device.h"

namespace systolic::runtime {

// One array leaf of a parameter or of the result.
struct ValueLeaf {
  Shape shape;
  int64_t parameter_number = -1;  // -1 for outputs
  ShapeIndex index;               // within the parameter or the root
};

class LocalExecutable {
 public:
  // Fails when the module's aliasing names leaves that do not exist.
  static absl::StatusOr<std::shared_ptr<LocalExecutable>> Create(
      int64_t program_id, std::string fingerprint, std::shared_ptr<const HloModule> module,
      std::unique_ptr<BackendExecutable> compiled, CompileOptions options,
      std::vector<LocalDevice*> devices);

  int64_t program_id() const { return program_id_; }
  const std::string& name() const { return module_->name(); }
  const std::string& fingerprint() const { return fingerprint_; }
  const HloModule& module() const { return *module_; }
  const BackendExecutable& compiled() const { return *compiled_; }
  const CompileOptions& options() const { return options_; }
  // One per participant: replica * num_partitions + partition.
  const std::vector<LocalDevice*>& devices() const { return devices_; }
  const std::vector<ValueLeaf>& parameters() const { return parameters_; }
  const std::vector<ValueLeaf>& outputs() const { return outputs_; }
  // For each output, the parameter leaf whose buffer it reuses, or -1.
  const std::vector<int64_t>& output_aliases() const { return output_aliases_; }
  // "execute of 'step' (program 2)".
  std::string Label() const;
  // Small enough to run on the caller's thread when its device is idle and
  // its arguments are ready (as PJRT's CPU client runs cheap programs
  // inline): a handful of instructions, no loops, calls into the backend's
  // extensions or collectives, on one device.
  bool is_cheap() const { return cheap_; }

  // The entry's parameter values from one participant's argument leaves
  // (tuples are assembled; arrays are passed through without a copy).
  std::vector<const Literal*> AssembleParameters(const std::vector<const Literal*>& leaves,
                                                 std::vector<Literal>* storage) const;
  // The root value split into its leaves.
  static std::vector<Literal> SplitResult(Literal root);

 private:
  LocalExecutable() = default;

  int64_t program_id_ = -1;
  std::string fingerprint_;
  std::shared_ptr<const HloModule> module_;
  std::unique_ptr<BackendExecutable> compiled_;
  CompileOptions options_;
  std::vector<LocalDevice*> devices_;
  std::vector<ValueLeaf> parameters_;
  std::vector<ValueLeaf> outputs_;
  std::vector<int64_t> output_aliases_;
  bool cheap_ = false;
  // Per entry parameter: its first leaf and its leaf count.
  std::vector<std::pair<int64_t, int64_t>> parameter_leaf_ranges_;
};

}  // namespace systolic::runtime
