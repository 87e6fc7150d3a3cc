// Random but valid HLO programs for differential tests and benchmarks:
// elementwise math, broadcast, reshape, transpose, slice, concatenate, pad,
// reduce, dot, compare / select, convert chains, iota and counted while
// loops, over small shapes of f32 and s32. Identities the simplifier knows
// (x+0, x*1, reshape to the same shape, transpose pairs, copies, ...) are
// planted on purpose so every rewrite gets exercised. The same seed gives
// the same program.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/hlo/hlo_module.h"

namespace systolic {

struct RandomProgramOptions {
  // Instructions in the entry computation, roughly (loop bodies come on top).
  int64_t instructions = 40;
  int64_t max_rank = 3;
  int64_t max_dimension = 4;
  // Chance that one step builds a while loop.
  double while_probability = 0.02;
};

class RandomProgramGenerator {
 public:
  explicit RandomProgramGenerator(uint64_t seed, RandomProgramOptions options = {});

  std::unique_ptr<HloModule> Generate();

 private:
  // Each adds one or a few instructions and returns the new value (nullptr
  // when the chosen operand does not suit).
  HloInstruction* Unary(HloInstruction* a);
  HloInstruction* Binary(HloInstruction* a);
  HloInstruction* Select(HloInstruction* a);
  HloInstruction* Convert(HloInstruction* a);
  HloInstruction* Broadcast(HloInstruction* a);
  HloInstruction* Reshape(HloInstruction* a);
  HloInstruction* Transpose(HloInstruction* a);
  HloInstruction* Slice(HloInstruction* a);
  HloInstruction* Concatenate(HloInstruction* a);
  HloInstruction* Pad(HloInstruction* a);
  HloInstruction* Reduce(HloInstruction* a);
  HloInstruction* Dot(HloInstruction* a);
  HloInstruction* Identity(HloInstruction* a);
  HloInstruction* While(HloInstruction* a);
  HloInstruction* Iota();

  // A value of the same shape as `a`: an earlier one, a new parameter or a
  // broadcast constant.
  HloInstruction* SameShape(HloInstruction* a);
  HloInstruction* NewParameter(const Shape& shape);
  HloInstruction* ScalarConstant(PrimitiveType type, double value);
  HloInstruction* Splat(PrimitiveType type, double value, const std::vector<int64_t>& dims);
  HloInstruction* Pick();
  Shape RandomShape(PrimitiveType type);
  int64_t Uniform(int64_t lo, int64_t hi);  // inclusive
  bool Chance(double p);

  std::mt19937_64 rng_;
  RandomProgramOptions options_;
  HloModule* module_ = nullptr;
  HloComputation* entry_ = nullptr;
  std::vector<HloInstruction*> values_;
  int64_t next_parameter_ = 0;
};

}  // namespace systolic
