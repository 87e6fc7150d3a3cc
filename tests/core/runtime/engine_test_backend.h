// A small backend for the runtime's own tests: it runs elementwise programs
// (parameter, constant, add, subtract, multiply, negate, tuple,
// get-tuple-element, copy) on the host, and two custom calls that tests use
// to steer the engine: `test.sleep` (passes operand 0 through after
// backend_config milliseconds) and `test.fail` (fails with backend_config as
// the message). It lets the engine be tested without the evaluator.
#pragma once

#include <memory>

#include "core/runtime/backend.h"

namespace systolic::runtime {

std::unique_ptr<Backend> NewTestBackend();

}  // namespace systolic::runtime
