// A computation applied to scalars, element by element: the reducer of reduce,
// reduce-window and all-reduce, the comparator of sort, the combiner of
// scatter and select-and-scatter, the function of map. It is compiled once per
// instruction into a list of elementwise kernels over 16-byte slots; a call
// runs the list with n = 1. Computations the list cannot express (calls,
// loops, non-scalar values) fall back on a general evaluator.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/elementwise_kernel.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

class ScalarFunction {
 public:
  // Evaluates a whole computation on literals (the evaluator's own entry).
  using Fallback = std::function<absl::StatusOr<Literal>(const HloComputation& computation,
                                                         absl::Span<const Literal* const> args)>;

  static absl::StatusOr<ScalarFunction> Compile(const HloComputation& computation,
                                                Fallback fallback);

  ScalarFunction(ScalarFunction&&) noexcept;
  ScalarFunction& operator=(ScalarFunction&&) noexcept;
  ~ScalarFunction();

  int64_t parameter_count() const { return int64_t(parameter_types_.size()); }
  // A tuple root gives one result per element.
  int64_t result_count() const { return int64_t(result_types_.size()); }
  PrimitiveType parameter_type(int64_t i) const { return parameter_types_[i]; }
  PrimitiveType result_type(int64_t i) const { return result_types_[i]; }

  // args[i] points to one element of parameter i; results[i] receives one
  // element of result i. Results may point at arguments (in-place update).
  absl::Status Call(const void* const* args, void* const* results);

  // For `root = op(p0, p1)` (the usual reducer), the kernel of op, to be run
  // over whole rows by the caller; `swapped` when the root is op(p1, p0).
  const ElementwiseKernel* binary_kernel() const {
    return binary_.valid() ? &binary_ : nullptr;
  }
  bool binary_swapped() const { return binary_swapped_; }

 private:
  ScalarFunction() = default;
  struct Program;
  absl::Status CallFallback(const void* const* args, void* const* results);

  const HloComputation* computation_ = nullptr;
  Fallback fallback_;
  std::vector<PrimitiveType> parameter_types_;
  std::vector<PrimitiveType> result_types_;
  std::unique_ptr<Program> program_;  // null: use the fallback
  ElementwiseKernel binary_;
  bool binary_swapped_ = false;
};

}  // namespace systolic::eval
