// The `cpu` plugin's backend: the reference evaluator on the host. Values
// are exact (XLA's semantics); programs are not timed.
#pragma once

#include <memory>

#include "core/runtime/backend.h"

namespace systolic::runtime {

std::unique_ptr<Backend> NewCpuBackend();

}  // namespace systolic::runtime
