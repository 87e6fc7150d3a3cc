// rng-bit-generator with XLA's algorithms (the client library's ThreeFry2x32
// and Philox4x32-10 bit generators, laid out as XLA's expander lays them out),
// and the `rng` opcode's distributions on a seeded host generator.
#pragma once

#include <array>
#include <cstdint>
#include <random>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

// The counter-based block functions (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3"): 20 rounds of Threefry-2x32, 10 of
// Philox-4x32.
std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter);
std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key, std::array<uint32_t, 4> counter);

// state: u64[2] for three_fry (key, counter), u64[3] for philox (key,
// 128-bit counter); kDefault is philox, as on XLA's CPU and GPU backends.
// Returns (new state, bits of `shape`); any integer or float element type,
// 8- and 16-bit types taking the low bits of 32-bit draws.
absl::StatusOr<Literal> RngBitGenerator(RandomAlgorithm algorithm, const Literal& state,
                                        const Shape& shape);

// The `rng` opcode: uniform in [a, b) or normal(mean a, stddev b), drawn from
// `engine` (results are reproducible for a given seed, not XLA's values).
absl::StatusOr<Literal> Rng(RandomDistribution distribution, const Literal& a, const Literal& b,
                            const Shape& shape, std::mt19937_64& engine);

}  // namespace systolic::eval
