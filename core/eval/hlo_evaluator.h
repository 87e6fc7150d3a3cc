// The reference evaluator: runs HLO modules on the host with XLA's semantics
// for every opcode and element type. It is the ground truth the compiler's
// passes, the device simulator and the runtime are checked against.
//
//   HloEvaluator evaluator;
//   absl::StatusOr<Literal> out = evaluator.Evaluate(module, {&x, &y});
//
// One evaluator runs one device's program; multi-device programs run through
// EvaluateSpmd (spmd_evaluator.h), which gives each device an evaluator with
// its ids and a shared rendezvous for the collectives. Errors name the
// instruction (and the instructions calling it) that failed; bad input is an
// error, never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/eval/device_context.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"

namespace systolic {

struct EvaluatorOptions {
  // A while loop that runs more iterations than this fails with an error
  // naming it (0: no bound).
  int64_t max_while_iterations = 0;
  // Seed of the generator behind the `rng` opcode and of
  // rng-get-and-update-state.
  uint64_t rng_seed = 0;
  // An instruction whose value would take more bytes fails with an error
  // naming it instead of exhausting the host (0: half the host's memory).
  int64_t max_value_bytes = 0;
};

class HloEvaluator {
 public:
  explicit HloEvaluator(EvaluatorOptions options = {}, eval::DeviceContext device = {});
  ~HloEvaluator();
  HloEvaluator(const HloEvaluator&) = delete;
  HloEvaluator& operator=(const HloEvaluator&) = delete;

  // The entry computation on one argument per parameter (shapes must match;
  // layouts are ignored since literals are row-major).
  absl::StatusOr<Literal> Evaluate(const HloModule& module,
                                   absl::Span<const Literal* const> arguments);
  absl::StatusOr<Literal> Evaluate(const HloModule& module, const std::vector<Literal>& arguments);

  absl::StatusOr<Literal> EvaluateComputation(const HloComputation& computation,
                                              absl::Span<const Literal* const> arguments);

  // One instruction applied to given operand values (its called computations
  // run as needed), e.g. for constant folding.
  absl::StatusOr<Literal> EvaluateInstruction(const HloInstruction& instruction,
                                              absl::Span<const Literal* const> operands);

  const EvaluatorOptions& options() const;
  const eval::DeviceContext& device() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace systolic
