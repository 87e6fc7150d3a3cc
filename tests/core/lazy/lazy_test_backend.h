// The backend the lazy tests run on: the reference evaluator, on
// `device_count` host devices.
#pragma once

#include <memory>

#include "core/lazy/execution_backend.h"

namespace systolic::lazy::testing {

std::shared_ptr<ExecutionBackend> MakeTestBackend(int64_t device_count = 1);

}  // namespace systolic::lazy::testing
