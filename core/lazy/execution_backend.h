// What the lazy front end needs from whatever runs its programs: compile a
// module into an executable handle, move values to and from the devices, and
// execute one executable on every replica (or partition) at once. The
// evaluator and the runtime client each implement it; the front end is
// written against this interface only, so it never waits on either.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"
#include "core/hlo/shape.h"
#include "core/trace/compile_event.h"

namespace systolic::lazy {

// A value resident on one device, owned by a backend.
class DeviceBuffer {
 public:
  virtual ~DeviceBuffer() = default;
  virtual const Shape& shape() const = 0;
  // The device (replica or partition ordinal) holding the value.
  virtual int64_t device() const = 0;
};
using BufferPtr = std::shared_ptr<DeviceBuffer>;

// A compiled program, ready to execute.
class BackendExecutable {
 public:
  virtual ~BackendExecutable() = default;
  // The program as the backend received it (before its own passes).
  virtual const HloModule& module() const = 0;
  // What each device runs: for an SPMD program, the partitioner's
  // per-partition program (shards and collectives); else the module.
  virtual const HloModule& device_program() const { return module(); }
};

struct BackendCompileOptions {
  // Copies of the program, one per replica, that exchange values only through
  // collectives (data parallelism).
  int64_t replica_count = 1;
  // Partitions of one SPMD program (sharding annotations say how to split).
  int64_t num_partitions = 1;
  bool use_spmd_partitioning = false;
  // Where the program came from, for the backend's own compile events.
  std::string source;
};

// What one compile request cost and what the backend's own cache said.
struct BackendCompileResult {
  std::shared_ptr<BackendExecutable> executable;
  int64_t compile_time_ns = 0;
  // The backend found the program in a cache of its own.
  bool backend_cache_hit = false;
  // The backend's account of a cache miss, if its compile cache keeps one;
  // the front end's compile event then carries it.
  std::optional<trace::RecompilationCause> backend_cause;
  std::string fingerprint;
};

class ExecutionBackend {
 public:
  virtual ~ExecutionBackend() = default;

  // "evaluator", "runtime:v5e:2x2", ...
  virtual std::string name() const = 0;
  // Devices a program may be replicated or partitioned over.
  virtual int64_t device_count() const = 0;

  virtual absl::StatusOr<BufferPtr> TransferToDevice(const Literal& literal, int64_t device) = 0;
  virtual absl::StatusOr<Literal> TransferToHost(const DeviceBuffer& buffer) = 0;

  virtual absl::StatusOr<BackendCompileResult> Compile(std::unique_ptr<HloModule> module,
                                                       const BackendCompileOptions& options) = 0;

  // arguments[d][i] is parameter i on device d (one row per replica, or per
  // partition for SPMD programs). Returns, per device, the elements of the
  // root tuple (or the single root value when the root is not a tuple).
  virtual absl::StatusOr<std::vector<std::vector<BufferPtr>>> Execute(
      const BackendExecutable& executable,
      absl::Span<const std::vector<BufferPtr>> arguments) = 0;
};

}  // namespace systolic::lazy
