// A lazy device: where tensors live and operations are recorded. It owns
// the execution backend, the compile cache (through its GraphExecutor), the
// metrics, the registry of live tensors and the random-number state.
//
// Data parallel devices (replica_count > 1) run every program on each
// replica; each tensor has one value per replica (equal copies, or a
// replica's own batch or parameter shard). SPMD devices (num_partitions > 1)
// run one program whose sharding annotations the partitioner splits; their
// tensors hold global values.
#pragma once

#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/lazy/device_data.h"
#include "core/lazy/execution_backend.h"
#include "core/lazy/graph_executor.h"
#include "core/lazy/graph_ops.h"
#include "core/lazy/metrics.h"
#include "core/lazy/tensor.h"

namespace systolic::lazy {

struct LazyDeviceOptions {
  std::string name = "lazy";  // e.g. the topology, "v5e:2x2"
  int64_t replica_count = 1;
  int64_t num_partitions = 1;  // > 1: SPMD
  uint64_t seed = 0;
  // Warn when a step source keeps compiling: at least this many compiles,
  // in more than half of the steps.
  int64_t recompilation_warning_threshold = 3;
};

class LazyDevice {
 public:
  LazyDevice(std::shared_ptr<ExecutionBackend> backend, LazyDeviceOptions options = {});
  ~LazyDevice();
  LazyDevice(const LazyDevice&) = delete;
  LazyDevice& operator=(const LazyDevice&) = delete;

  const LazyDeviceOptions& options() const { return options_; }
  const std::string& name() const { return options_.name; }
  ExecutionBackend& backend() const { return *backend_; }
  int64_t replica_count() const { return options_.replica_count; }
  int64_t num_partitions() const { return options_.num_partitions; }
  bool is_spmd() const { return options_.num_partitions > 1; }
  // Buffers each value has: one per replica, one for SPMD.
  int64_t data_device_count() const { return is_spmd() ? 1 : options_.replica_count; }
  // {{0, 1, ..., replica_count - 1}}
  graph::ReplicaGroups AllReplicas() const;

  // --- Transfers ----------------------------------------------------------
  // One literal for every replica, or one per replica.
  absl::StatusOr<std::shared_ptr<const DeviceData>> TransferToDevice(
      absl::Span<const Literal> values);
  absl::StatusOr<std::vector<Literal>> TransferToHost(const DeviceData& data);

  // --- Steps ----------------------------------------------------------------
  // Cuts the pending graph of every live tensor, compiles it (or reuses the
  // cached program) and executes it. Returns the first recording error too.
  absl::Status MarkStep(std::source_location where = std::source_location::current());
  // Computes just `tensors` (a read of their values).
  absl::Status Sync(absl::Span<const Tensor> tensors,
                    std::source_location where = std::source_location::current());
  int64_t step() const { return step_; }

  // --- Random numbers ---------------------------------------------------------
  void SetSeed(uint64_t seed);
  // Random u32 bits of `dims`, advancing the device's generator state (a
  // u64[2] tensor, so reseeding never recompiles).
  absl::StatusOr<NodePtr> NextRandomBits(absl::Span<const int64_t> dims);

  // --- What happened --------------------------------------------------------
  const Metrics& metrics() const { return metrics_; }
  Metrics& mutable_metrics() { return metrics_; }
  const std::vector<trace::CompileEvent>& compile_events() const { return executor_.compile_events(); }
  const GraphExecutor& executor() const { return executor_; }
  std::string MetricsReport() const { return metrics_.Report(); }

  // --- Recording errors ---------------------------------------------------
  void RecordError(const absl::Status& status);
  // The first recording error since the last call (OK if none).
  absl::Status TakeError();

  // --- Tensor registry (for Tensor) ---------------------------------------
  int64_t Register(const std::shared_ptr<TensorState>& state);
  void Unregister(int64_t id);
  std::vector<std::shared_ptr<TensorState>> LiveTensors() const;

 private:
  absl::Status ExecuteTensors(std::vector<std::shared_ptr<TensorState>> tensors,
                              const std::source_location& where, bool is_mark_step);
  void CheckRecompilations();

  std::shared_ptr<ExecutionBackend> backend_;
  LazyDeviceOptions options_;
  Metrics metrics_;
  GraphExecutor executor_;
  absl::flat_hash_map<int64_t, std::weak_ptr<TensorState>> live_;
  int64_t next_tensor_id_ = 0;
  int64_t step_ = 0;
  absl::Status first_error_;
  Tensor rng_state_;
};

// "mlp_ddp_sample.cc:120 (Train)": a source location as compile events show it.
std::string SourceText(const std::source_location& where);

}  // namespace systolic::lazy
