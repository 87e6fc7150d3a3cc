// The array outputs of a program's result, as `eval` and `run` print and save
// them: each leaf of a (possibly nested) tuple with its index path.
#pragma once

#include <string>
#include <vector>

#include "core/hlo/literal.h"

namespace systolic::cli {

struct LiteralLeaf {
  std::string index;  // "{}", "{0}", "{1,0}"
  const Literal* value;
};

// The leaves of `literal`, in order; they point into `literal`.
std::vector<LiteralLeaf> LeavesOf(const Literal& literal);

// The .npy file name of the leaf at `index`: "out.npy", "out_0.npy", "out_1_0.npy".
std::string NpyName(const std::string& index);

}  // namespace systolic::cli
