// State shared by the StableHLO importer and its per-op converters: the HLO
// computation being built, the values in scope, and ways to turn regions and
// functions into computations.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/stablehlo/mlir_syntax.h"

namespace systolic::stablehlo {

class ModuleImporter;

// Builds one HLO computation from a function body or a region.
class ComputationBuilder {
 public:
  ComputationBuilder(ModuleImporter* importer, HloComputation* computation,
                     const ComputationBuilder* enclosing);

  ModuleImporter& importer() const { return *importer_; }
  HloComputation* computation() const { return computation_; }

  // Adds an instruction with the metadata of `op` (its location).
  HloInstruction* Add(std::unique_ptr<HloInstruction> instruction, const mlir::Operation& op);
  HloInstruction* AddParameter(int64_t number, const Shape& shape, std::string name);

  void Define(const std::string& name, HloInstruction* value) { values_[name] = value; }
  // The quantized type of a value (its instruction holds the stored
  // integers), or null for a plain value.
  const mlir::QuantType* QuantOf(const HloInstruction* value) const;
  void SetQuant(const HloInstruction* value, std::shared_ptr<const mlir::QuantType> quant);
  // The instruction for `%name` / `%name#i`; looks through enclosing scopes
  // only to report captures (regions of HLO computations are isolated).
  absl::StatusOr<HloInstruction*> Lookup(const mlir::ValueRef& ref) const;
  bool IsDefinedHere(const std::string& name) const { return values_.contains(name); }

  // Operands of `op` as instructions.
  absl::StatusOr<std::vector<HloInstruction*>> Operands(const mlir::Operation& op) const;
  // HLO shapes of the op's results; a `?` dimension is Shape::kUnboundedSize.
  absl::StatusOr<std::vector<Shape>> ResultShapes(const mlir::Operation& op) const;

  // Converts every operation of `block`; the terminator's operands are
  // returned (the values of `return`).
  absl::StatusOr<std::vector<HloInstruction*>> ConvertBlock(const mlir::Block& block);

  // An error at the op's source location.
  absl::Status Error(const mlir::Operation& op, absl::string_view message) const;

 private:
  ModuleImporter* importer_;
  HloComputation* computation_;
  const ComputationBuilder* enclosing_;
  absl::flat_hash_map<std::string, HloInstruction*> values_;
  absl::flat_hash_map<const HloInstruction*, std::shared_ptr<const mlir::QuantType>> quant_;
};

// What an op converter takes and gives.
using Results = absl::StatusOr<std::vector<HloInstruction*>>;
using Operands = std::vector<HloInstruction*>;
using Shapes = std::vector<Shape>;

// Converts one operation; returns its results in order.
using OpConverter = std::function<Results(ComputationBuilder& builder, const mlir::Operation& op,
                                          const Operands& operands, const Shapes& result_shapes)>;

// The converter for an op name (stablehlo.*, chlo.*, func.call), or null.
const OpConverter* FindOpConverter(absl::string_view op_name);

// Names of every op with a converter, for diagnostics and tests.
std::vector<std::string> SupportedOpNames();

}  // namespace systolic::stablehlo
