// Programs built by shape, as `jax.eval_shape` traces them: an abstract
// tensor has a shape (and a sharding, once marked) but no value on any
// device, so a model far larger than this machine's memory is recorded,
// differentiated and lowered without allocating a weight. The traced
// program is compiled and simulated timing-only; executing it is an error.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/shape.h"
#include "core/lazy/execution_backend.h"
#include "core/lazy/lazy_device.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

// The backend of a device that only traces: a transfer keeps the value's
// shape and drops the value (the device's random state is the only one
// made), and compiling or executing is an error that says to trace.
std::shared_ptr<ExecutionBackend> MakeShapeOnlyBackend(int64_t device_count);

// A tensor of `shape` with no value; it lowers to a parameter of the
// program. `name` (within the current scope) names that parameter.
Tensor AbstractTensor(LazyDevice& device, const Shape& shape, absl::string_view name);

// The program computing `outputs` (its root a tuple of them, in order),
// lowered for the device's replicas or partitions without compiling or
// running it. Errors: an error tensor among the outputs (with its cause).
absl::StatusOr<std::unique_ptr<HloModule>> TraceProgram(LazyDevice& device,
                                                        absl::Span<const Tensor> outputs,
                                                        absl::string_view module_name);

}  // namespace systolic::lazy
