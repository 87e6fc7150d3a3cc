// Turns a parsed StableHLO module into an HloModule: functions become
// computations, regions become reducers / branches / loop bodies (values a
// region captures from its surroundings are passed in explicitly), shardings
// and locations become HLO shardings and metadata.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/stablehlo/import_context.h"
#include "core/stablehlo/mlir_syntax.h"

namespace systolic::stablehlo {

// A `check.*` assertion found while importing in check mode: the checked
// value(s) become extra outputs of the entry computation.
struct CheckProbe {
  enum class Kind { kEqual, kAlmostEqual, kClose, kEqualReturnsPred };
  Kind kind = Kind::kEqual;
  std::string op_name;        // as written, e.g. "check.expect_almost_eq_const"
  int actual_output = -1;     // output index of the checked value
  int expected_output = -1;   // output index of the expected value, or -1
  std::shared_ptr<Literal> expected_constant;  // for *_const forms
  double tolerance = 1e-4;                     // almost_eq
  int64_t max_ulp = 3, min_ulp = 0;            // expect_close
  mlir::SourceLocation where;
};

class ModuleImporter {
 public:
  ModuleImporter(const mlir::Module& syntax, std::string filename);

  // Imports with `entry` as the entry computation ("" = @main if present,
  // else the only public function). With `probes`, check ops are collected
  // as probes instead of being errors.
  absl::StatusOr<std::unique_ptr<HloModule>> Import(absl::string_view entry,
                                                    std::vector<CheckProbe>* probes = nullptr);

  // --- For op converters -----------------------------------------------------
  HloModule* module() const { return module_.get(); }
  const mlir::Module& syntax() const { return syntax_; }
  std::vector<CheckProbe>* probes() const { return probes_; }
  bool InEntry(const ComputationBuilder& builder) const {
    return builder.computation() == entry_computation_;
  }
  // Values recorded as extra outputs of the entry (check probes).
  int AddProbeOutput(HloInstruction* value);

  // The computation of a called function (imported once).
  absl::StatusOr<HloComputation*> FunctionComputation(absl::string_view name,
                                                      const mlir::SourceLocation& where);
  // A region whose block arguments become the parameters (reducers,
  // comparators, all-reduce bodies); regions of these ops capture nothing.
  absl::StatusOr<HloComputation*> IsolatedRegionComputation(const mlir::Region& region,
                                                            absl::string_view name_hint,
                                                            const mlir::Operation& owner);

  // A region that may use values of the enclosing scope (if / case /
  // while). Its one parameter is a tuple of `leading` values (e.g. the loop
  // state) followed by the captured values; `captured` lists the captured
  // values' names in the enclosing scope.
  struct CapturingRegion {
    HloComputation* computation = nullptr;
    std::vector<std::string> captured;
  };
  absl::StatusOr<CapturingRegion> CapturingRegionComputation(
      const mlir::Region& region, absl::string_view name_hint,
      const std::vector<Shape>& leading_shapes, const std::vector<std::string>& leading_names,
      const std::vector<std::string>& captured, const ComputationBuilder& enclosing,
      const mlir::Operation& owner, bool append_captured_to_result);

  // Names used in `region` but not defined in it.
  static std::vector<std::string> FreeValues(const mlir::Region& region);

  absl::Status Error(const mlir::SourceLocation& where, absl::string_view message) const;

 private:
  absl::StatusOr<HloComputation*> BuildFunction(const mlir::Function& function, bool is_entry);
  absl::Status ApplyShardings(const mlir::Function& function, HloComputation* computation);
  std::unique_ptr<HloComputation> NewComputation(absl::string_view name);

  const mlir::Module& syntax_;
  std::string filename_;
  std::unique_ptr<HloModule> module_;
  absl::flat_hash_map<std::string, HloComputation*> functions_;
  std::vector<std::string> in_progress_;  // recursion guard
  std::vector<CheckProbe>* probes_ = nullptr;
  HloComputation* entry_computation_ = nullptr;
  std::vector<HloInstruction*> probe_outputs_;
};

// Parses StableHLO text and imports it; the result is verified.
absl::StatusOr<std::unique_ptr<HloModule>> ParseStableHlo(absl::string_view text,
                                                          const std::string& filename,
                                                          int first_line = 1);

// `mhlo.sharding` strings and `sdy.sharding` attributes as HLO shardings.
absl::StatusOr<HloSharding> ShardingFromAttribute(const mlir::Attribute& attribute,
                                                  const mlir::Module& module);

}  // namespace systolic::stablehlo
