// Layout helpers for a TPU-like chip: row-major layouts tiled in 8x128
// blocks (one vector register: 8 sublanes x 128 lanes of 32-bit words;
// narrower types pack 2 or 4 per word), and the layouts the matrix unit
// wants for its operands.
#pragma once

#include <cstdint>
#include <vector>

#include "core/hlo/hlo_instruction.h"

namespace systolic {

// The (8,128) tiling of an array of `type` and `rank` (empty for scalars):
// rank >= 2: T(8*p,128) plus (p,1) when p > 1 values pack into a word;
// rank 1: T(1024), one register of words. A second-minor dimension of
// `second_minor` < 8*p rows gets a tile only as tall as it needs (a power
// of two, at least p), as a TPU layout does (T(2,128)), instead of padding
// it to 8*p rows; 0 means unknown.
std::vector<Tile> VectorRegisterTiles(PrimitiveType type, int64_t rank,
                                      int64_t second_minor = 0);

// Gives every array in `shape` the minor-to-major order `m2m` (arrays of a
// tuple: row-major), tiled when `tiled`.
void SetLayout(Shape* shape, const std::vector<int64_t>& m2m, bool tiled);
// Row-major everywhere in `shape` (recursively), tiled when `tiled`.
void SetDefaultLayout(Shape* shape, bool tiled);

// The layout the matrix unit streams an operand in: contracting dimensions
// most minor (the output-stationary dataflow reads both operands along the
// contraction), then the free dimensions, batch dimensions most major.
std::vector<int64_t> MatrixUnitOperandOrder(int64_t rank, const std::vector<int64_t>& batch,
                                            const std::vector<int64_t>& contracting);

// Layouts present and equal everywhere in the two shapes (same dimensions assumed).
bool SameLayouts(const Shape& a, const Shape& b);

// A transpose whose result, in its layout, has the bytes of its operand in
// the operand's layout: it moves no data.
bool TransposeIsBitcast(const HloInstruction& transpose);

}  // namespace systolic
