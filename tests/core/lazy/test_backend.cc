#include "tests/core/lazy/test_backend.h"

#include "tests/core/lazy/host_interpreter_backend.h"
#ifdef SYSTOLIC_LAZY_HAVE_EVALUATOR
#include "core/lazy/evaluator_backend.h"
#endif

namespace systolic::lazy::testing {

std::shared_ptr<ExecutionBackend> MakeTestBackend(int64_t device_count) {
#ifdef SYSTOLIC_LAZY_HAVE_EVALUATOR
  return std::make_shared<EvaluatorBackend>(device_count);
#else
  return std::make_shared<HostInterpreterBackend>(device_count);
#endif
}

}  // namespace systolic::lazy::testing
