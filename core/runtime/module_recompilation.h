// Why a compile request missed the cache, in the terms users debug
// recompilations with, against the nearest program compiled before with the
// same name: "argument 0: now f32[16,128], before f32[8,128]", an
// instruction added, a constant changed, other options or shardings.
#pragma once

#include <cstdint>
#include <string>

#include "core/runtime/module_signature.h"
#include "core/trace/compile_event.h"

namespace systolic::runtime {

// `before` is null when no program of the same name was compiled.
trace::RecompilationCause ExplainRecompilation(const ModuleSignature& now,
                                              const ModuleSignature* before);

// How far apart two signatures are (0: the same program); the cache
// compares a miss with the cached program at the smallest distance.
int64_t SignatureDistance(const ModuleSignature& a, const ModuleSignature& b);

}  // namespace systolic::runtime
