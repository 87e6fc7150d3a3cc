// Why a graph missed the compile cache, in the terms users debug
// recompilations with: compared with the nearest program compiled before,
// is the op sequence different, an argument's shape, a baked-in constant, a
// sharding, or an attribute?
#pragma once

#include <string>

#include "core/lazy/graph_signature.h"
#include "core/trace/compile_event.h"

namespace systolic::lazy {

// `before` is null when nothing comparable was compiled.
trace::RecompilationCause ExplainRecompilation(const GraphSignature& now,
                                              const GraphSignature* before);

}  // namespace systolic::lazy
