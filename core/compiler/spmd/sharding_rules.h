// Per-operation sharding inference: what an operand's sharding says about
// the result (forward) and what the result's sharding says about an operand
// (backward). Most operations relate dimensions one to one (an operand
// dimension holds the same indices as a result dimension); the sharding
// then follows those dimensions, the operand dimensions without a partner
// become replicated, and new dimensions stay untiled:
//   elementwise ops (compare, select, clamp, convert, copy, map, ...) and
//   all-reduce: every dimension; scalar operands of clamp/select take the
//     result's sharding with every dimension replicated;
//   broadcast: operand dimension i is result dimension dimensions[i];
//   transpose: permuted; reverse: kept, device order reversed;
//   reshape / bitcast: split and merged where the tiling allows it;
//   slice, dynamic-slice, dynamic-update-slice, pad, concatenate: the
//     dimensions that are not sliced (padded, concatenated);
//   reduce-window, select-and-scatter: every dimension;
//   reduce: the kept dimensions; a result that drops a tiled dimension is
//     replicated over its devices (last_tile_dim_replicate);
//   sort: every dimension but the sorted one;
//   dot: batch and non-contracting dimensions; tiled contracting
//     dimensions leave the result replicated over their devices;
//   convolution: batch and spatial dimensions of the input, the output
//     feature dimension of the kernel (feature dimensions only when
//     ungrouped);
//   gather: operand dimensions taken whole (passthrough) and operand
//     batching dimensions; the indices' batch dimensions; the rest replicated;
//   scatter: result and operands alike; updates through the window
//     dimensions they hold whole; the indices are left to their users.
// Index, start and initial-value operands (dynamic-slice starts, reduce
// inits, the pad value, rng parameters) take the result's sharding with
// every dimension replicated and say nothing forward. Ops not listed carry
// no sharding; tuple plumbing, calls, loops and conditionals are handled by
// the propagation pass itself.
#pragma once

#include <cstdint>
#include <optional>

#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_sharding.h"

namespace systolic::spmd {

// What operand `operand_index` (an array) holding `operand_sharding` says
// about `instr`'s result: a tuple sharding when the result is a tuple;
// nullopt when it says nothing.
std::optional<HloSharding> InferResultSharding(const HloInstruction& instr, int64_t operand_index,
                                               const HloSharding& operand_sharding);

// What `instr`'s result holding `result_sharding` (a tuple sharding for a
// tuple result; unknown elements are not known yet) says about operand
// `operand_index`; nullopt when it says nothing.
std::optional<HloSharding> InferOperandSharding(const HloInstruction& instr,
                                                int64_t operand_index,
                                                const HloSharding& result_sharding);

// Dot and convolution: what the other operand, holding `sibling_sharding`,
// says about operand `operand_index` through the dimensions they share
// (batch and contracting); nullopt for other ops.
std::optional<HloSharding> InferOperandShardingFromSibling(const HloInstruction& instr,
                                                           int64_t operand_index,
                                                           const HloSharding& sibling_sharding);

// When the rules of `instr` take part: 0 for pass-through ops (elementwise,
// layout changes, slicing and the like, and tuple / call plumbing), 1 for
// dot and convolution, 2 for the rest (reduce, gather, scatter, sort).
int PropagationPriority(const HloInstruction& instr);
inline constexpr int kLowestPropagationPriority = 2;

}  // namespace systolic::spmd
