#include "tests/core/lazy/lazy_test_backend.h"

#include "core/lazy/evaluator_backend.h"

namespace systolic::lazy::testing {

std::shared_ptr<ExecutionBackend> MakeTestBackend(int64_t device_count) {
  return std::make_shared<EvaluatorBackend>(device_count);
}

}  // namespace systolic::lazy::testing
