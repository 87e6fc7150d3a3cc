// Computes pending tensors: walks their graph, looks its signature up in the
// compile cache, lowers and compiles on a miss (recording the cause against
// the nearest program compiled before), executes on every replica, and
// leaves each tensor holding its new device data.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/lazy/execution_backend.h"
#include "core/lazy/graph_signature.h"
#include "core/lazy/metrics.h"
#include "core/lazy/tensor_state.h"
#include "core/trace/compile_event.h"

namespace systolic::lazy {

struct ExecutionConfig {
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  bool spmd = false;
};

// A program compiled for the device, kept for reuse and for the views.
struct CompiledProgram {
  int64_t id = 0;
  GraphSignature signature;
  std::string source;  // of the step that first compiled it
  std::shared_ptr<BackendExecutable> executable;
  int64_t executions = 0;
  const HloModule& module() const { return executable->module(); }
};

class GraphExecutor {
 public:
  GraphExecutor(ExecutionBackend* backend, ExecutionConfig config, Metrics* metrics);

  // Computes the pending tensors among `tensors` in one program. `source`
  // says where the step was cut; `step` is the device's step count.
  absl::Status Execute(absl::Span<const std::shared_ptr<TensorState>> tensors,
                       const std::string& source, int64_t step);

  const std::vector<trace::CompileEvent>& compile_events() const { return events_; }
  const std::vector<std::unique_ptr<CompiledProgram>>& programs() const { return programs_; }
  const CompiledProgram* program(int64_t id) const;
  // Programs compiled (cache misses) so far.
  int64_t compile_count() const { return int64_t(programs_.size()); }

 private:
  // The program to compare a miss with: the last compiled from the same
  // source, else the last compiled at all.
  const CompiledProgram* NearestProgram(const std::string& source) const;
  int64_t NowNs() const;

  ExecutionBackend* backend_;
  ExecutionConfig config_;
  Metrics* metrics_;
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<CompiledProgram>> programs_;
  // Signature hash -> programs with that hash (keys compared on lookup).
  absl::flat_hash_map<uint64_t, std::vector<CompiledProgram*>> cache_;
  std::vector<trace::CompileEvent> events_;
};

}  // namespace systolic::lazy
