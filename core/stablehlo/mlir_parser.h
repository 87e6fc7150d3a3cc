// Reads StableHLO as MLIR text (what `jax.jit(f).lower(x).as_text()` prints)
// into the syntax tree of mlir_syntax.h: modules, functions, operations in
// the pretty and the generic form, regions, attributes, locations.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/stablehlo/mlir_syntax.h"

namespace systolic::mlir {

struct ParseOptions {
  std::string filename = "<mlir>";
  int first_line = 1;
};

// A module; a text holding only functions becomes an unnamed module.
absl::StatusOr<Module> ParseModule(absl::string_view text, const ParseOptions& options = {});

// dense<...> contents (without `dense<` `>`) for a tensor type.
absl::StatusOr<Literal> DecodeDenseElements(absl::string_view content, const Type& type);

}  // namespace systolic::mlir
