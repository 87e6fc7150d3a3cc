// Literals as XLA prints them (`f32[2,3] {\n  { 1, 2, 3 },\n  { 4, 5, 6 }\n}`),
// with long arrays elided in the middle of each dimension, as NumPy does,
// so any output fits on a screen.
#pragma once

#include <cstdint>
#include <string>

#include "core/hlo/literal.h"

namespace systolic {

struct LiteralFormatOptions {
  // Arrays with more elements are elided.
  int64_t max_elements = 1000;
  // Entries kept at each end of an elided dimension.
  int64_t edge_items = 3;
};

std::string FormatLiteral(const Literal& literal, const LiteralFormatOptions& options = {});

}  // namespace systolic
