#include "core/lazy/graph_executor.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/device_data.h"
#include "core/lazy/graph_lowering.h"
#include "core/lazy/graph_recompilation.h"
#include "core/lazy/graph_walk.h"

namespace systolic::lazy {

GraphExecutor::GraphExecutor(ExecutionBackend* backend, ExecutionConfig config, Metrics* metrics)
    : backend_(backend), config_(config), metrics_(metrics) {}

int64_t GraphExecutor::NowNs() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              origin_)
      .count();
}

const CompiledProgram* GraphExecutor::program(int64_t id) const {
  if (id < 0 || id >= int64_t(programs_.size())) return nullptr;
  return programs_[id].get();
}

const CompiledProgram* GraphExecutor::NearestProgram(const std::string& source) const {
  for (auto it = programs_.rbegin(); it != programs_.rend(); ++it) {
    if ((*it)->source == source) return it->get();
  }
  return programs_.empty() ? nullptr : programs_.back().get();
}

absl::Status GraphExecutor::Execute(absl::Span<const std::shared_ptr<TensorState>> tensors,
                                    const std::string& source, int64_t step) {
  // The roots: each pending node once, in tensor creation order.
  std::vector<std::shared_ptr<TensorState>> pending;
  for (const auto& t : tensors) {
    if (t && t->node && !t->node->is_data()) pending.push_back(t);
  }
  if (pending.empty()) return absl::OkStatus();
  std::sort(pending.begin(), pending.end(),
            [](const auto& a, const auto& b) { return a->id < b->id; });
  std::vector<NodePtr> roots;
  absl::flat_hash_map<const Node*, int64_t> root_index;
  for (const auto& t : pending) {
    if (root_index.emplace(t->node.get(), int64_t(roots.size())).second) roots.push_back(t->node);
  }

  const GraphWalk walk = WalkGraph(roots);
  GraphSignature signature = GraphSignature::Of(walk);
  metrics_->AddSample(metric_names::kTensorsGraphSize, double(walk.post_order.size()),
                      MetricUnit::kCount);

  trace::CompileEvent event;
  event.step = step;
  event.source = source;
  event.fingerprint = signature.fingerprint();
  event.graph_size = int64_t(walk.post_order.size());
  event.timestamp_ns = NowNs();

  CompiledProgram* program = nullptr;
  for (CompiledProgram* candidate : cache_[signature.hash()]) {
    if (candidate->signature.key() == signature.key()) program = candidate;
  }
  if (program != nullptr) {
    event.cache_hit = true;
    metrics_->IncrementCounter(metric_names::kCachedCompile);
  } else {
    const CompiledProgram* nearest = NearestProgram(source);
    trace::RecompilationCause why =
        ExplainRecompilation(signature, nearest ? &nearest->signature : nullptr);
    event.cause = std::move(why);
    event.compared_program_id = nearest ? nearest->id : -1;

    LoweringOptions lowering;
    // One name for every program of the device, so a backend's own compile
    // cache compares them with each other.
    lowering.module_name = "SyncTensorsGraph";
    lowering.replica_count = config_.replica_count;
    lowering.num_partitions = config_.num_partitions;
    SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module, LowerGraph(walk, lowering));
    BackendCompileOptions options;
    options.replica_count = config_.replica_count;
    options.num_partitions = config_.num_partitions;
    options.use_spmd_partitioning = config_.spmd;
    options.source = source;
    const int64_t start = NowNs();
    SYSTOLIC_ASSIGN_OR_RETURN(BackendCompileResult compiled,
                              backend_->Compile(std::move(module), options));
    event.compile_time_ns =
        compiled.compile_time_ns > 0 ? compiled.compile_time_ns : NowNs() - start;
    // A backend whose compile cache explains misses (the runtime client)
    // has the last word: one account of each recompilation, not two.
    if (compiled.backend_cause) event.cause = *compiled.backend_cause;
    metrics_->IncrementCounter(metric_names::kUncachedCompile);
    metrics_->AddSample(metric_names::kCompileTime, double(event.compile_time_ns),
                        MetricUnit::kNanoseconds);

    auto fresh = std::make_unique<CompiledProgram>();
    fresh->id = int64_t(programs_.size());
    fresh->signature = std::move(signature);
    fresh->source = source;
    fresh->executable = std::move(compiled.executable);
    program = fresh.get();
    cache_[program->signature.hash()].push_back(program);
    programs_.push_back(std::move(fresh));
  }
  event.program_id = program->id;
  events_.push_back(event);

  // One row of arguments per device holding data.
  const int64_t devices = config_.spmd ? 1 : config_.replica_count;
  std::vector<std::vector<BufferPtr>> arguments(devices);
  for (const Node* parameter : walk.parameters) {
    const DeviceData& data = *parameter->data();
    if (data.device_count() == 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "argument ", parameter->metadata().op_name,
          " is abstract (a shape with no value): trace the program (TraceProgram) and "
          "simulate it timing-only instead of running it"));
    }
    if (data.device_count() != devices) {
      return absl::InvalidArgumentError(absl::StrCat(
          "argument ", parameter->metadata().op_name, " has values on ", data.device_count(),
          " devices, but the program runs on ", devices));
    }
    for (int64_t d = 0; d < devices; ++d) arguments[d].push_back(data.buffer(d));
  }
  const int64_t start = NowNs();
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<std::vector<BufferPtr>> outputs,
                            backend_->Execute(*program->executable, arguments));
  metrics_->AddSample(metric_names::kExecuteTime, double(NowNs() - start),
                      MetricUnit::kNanoseconds);
  metrics_->IncrementCounter(metric_names::kExecutions);
  ++program->executions;
  if (int64_t(outputs.size()) != devices) {
    return absl::InternalError(absl::StrCat("the backend returned outputs for ", outputs.size(),
                                            " devices, expected ", devices));
  }
  for (const auto& row : outputs) {
    if (row.size() != roots.size()) {
      return absl::InternalError(absl::StrCat("the backend returned ", row.size(),
                                              " outputs, expected ", roots.size()));
    }
  }

  // Each root's value becomes device data; the tensors now hold it.
  std::vector<NodePtr> results(roots.size());
  for (size_t k = 0; k < roots.size(); ++k) {
    std::vector<BufferPtr> buffers(devices);
    for (int64_t d = 0; d < devices; ++d) buffers[d] = outputs[d][k];
    auto data = std::make_shared<const DeviceData>(roots[k]->shape(), std::move(buffers));
    std::optional<HloSharding> sharding;
    if (roots[k]->sharding()) sharding = *roots[k]->sharding();
    OpMetadata metadata;
    metadata.op_type = "device_data";
    metadata.op_name = roots[k]->metadata().op_name;
    results[k] = Node::MakeData(std::move(data), std::move(sharding), std::move(metadata));
  }
  for (const auto& t : pending) {
    NodePtr result = results[root_index.at(t->node.get())];
    if (!t->name.empty()) {
      OpMetadata metadata = result->metadata();
      metadata.op_name = t->name;
      result = Node::MakeData(result->data(),
                              result->sharding() ? std::optional<HloSharding>(*result->sharding())
                                                 : std::nullopt,
                              std::move(metadata));
    }
    t->node = std::move(result);
  }
  return absl::OkStatus();
}

}  // namespace systolic::lazy
