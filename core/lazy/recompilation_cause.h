// Why a graph missed the compile cache, in the terms users debug
// recompilations with: compared with the nearest program compiled before,
// is the op sequence different, an argument's shape, a baked-in constant, a
// sharding, or an attribute?
#pragma once

#include <string>

#include "core/lazy/compile_event.h"
#include "core/lazy/graph_signature.h"

namespace systolic::lazy {

struct RecompilationExplanation {
  RecompilationCause kind = RecompilationCause::kFirstCompile;
  std::string text;
};

// `before` is null when nothing comparable was compiled.
RecompilationExplanation ExplainRecompilation(const GraphSignature& now,
                                              const GraphSignature* before);

}  // namespace systolic::lazy
