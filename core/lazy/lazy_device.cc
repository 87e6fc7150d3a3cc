#include "core/lazy/lazy_device.h"

#include <chrono>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/name_scope.h"
#include "core/lazy/tensor_state.h"

namespace systolic::lazy {
namespace {

int64_t ElapsedNs(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              start)
      .count();
}

}  // namespace

std::string SourceText(const std::source_location& where) {
  std::string file = where.file_name();
  if (size_t slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
  // "absl::Status ns::Train(const Options&)" -> "Train"
  std::string function = where.function_name();
  if (size_t paren = function.find('('); paren != std::string::npos) function.resize(paren);
  if (size_t colon = function.rfind("::"); colon != std::string::npos) {
    function = function.substr(colon + 2);
  } else if (size_t space = function.rfind(' '); space != std::string::npos) {
    function = function.substr(space + 1);
  }
  return absl::StrCat(file, ":", where.line(), function.empty() ? "" : " (" + function + ")");
}

LazyDevice::LazyDevice(std::shared_ptr<ExecutionBackend> backend, LazyDeviceOptions options)
    : backend_(std::move(backend)),
      options_(std::move(options)),
      executor_(backend_.get(),
                ExecutionConfig{options_.replica_count, options_.num_partitions,
                                options_.num_partitions > 1},
                &metrics_) {
  SetSeed(options_.seed);
}

LazyDevice::~LazyDevice() {
  for (auto& [id, weak] : live_) {
    if (auto state = weak.lock()) state->device = nullptr;
  }
}

graph::ReplicaGroups LazyDevice::AllReplicas() const {
  std::vector<int64_t> group(options_.replica_count);
  std::iota(group.begin(), group.end(), 0);
  return {group};
}

absl::StatusOr<std::shared_ptr<const DeviceData>> LazyDevice::TransferToDevice(
    absl::Span<const Literal> values) {
  const int64_t devices = data_device_count();
  if (values.empty() || (int64_t(values.size()) != 1 && int64_t(values.size()) != devices)) {
    return absl::InvalidArgumentError(absl::StrCat("expected 1 or ", devices,
                                                   " values (one per replica), got ",
                                                   values.size()));
  }
  const Shape& shape = values[0].shape();
  for (const Literal& v : values) {
    if (v.shape().dimensions() != shape.dimensions() ||
        v.shape().element_type() != shape.element_type()) {
      return absl::InvalidArgumentError(absl::StrCat("per-replica values differ in shape: ",
                                                     v.shape().ToString(), " and ",
                                                     shape.ToString()));
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<BufferPtr> buffers;
  double bytes = 0;
  for (int64_t d = 0; d < devices; ++d) {
    const Literal& value = values.size() == 1 ? values[0] : values[d];
    SYSTOLIC_ASSIGN_OR_RETURN(BufferPtr buffer, backend_->TransferToDevice(value, d));
    buffers.push_back(std::move(buffer));
    bytes += double(value.size_bytes());
  }
  metrics_.IncrementCounter(metric_names::kTransferToDevice);
  metrics_.AddSample(metric_names::kTransferToDeviceTime, double(ElapsedNs(start)),
                     MetricUnit::kNanoseconds);
  metrics_.AddSample(metric_names::kOutboundData, bytes, MetricUnit::kBytes);
  Shape data_shape = shape;
  data_shape.clear_layout();
  return std::make_shared<const DeviceData>(std::move(data_shape), std::move(buffers));
}

absl::StatusOr<std::vector<Literal>> LazyDevice::TransferToHost(const DeviceData& data) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Literal> values;
  double bytes = 0;
  for (const BufferPtr& buffer : data.buffers()) {
    SYSTOLIC_ASSIGN_OR_RETURN(Literal value, backend_->TransferToHost(*buffer));
    bytes += double(value.size_bytes());
    values.push_back(std::move(value));
  }
  metrics_.IncrementCounter(metric_names::kTransferFromDevice);
  metrics_.AddSample(metric_names::kTransferFromDeviceTime, double(ElapsedNs(start)),
                     MetricUnit::kNanoseconds);
  metrics_.AddSample(metric_names::kInboundData, bytes, MetricUnit::kBytes);
  return values;
}

absl::Status LazyDevice::ExecuteTensors(std::vector<std::shared_ptr<TensorState>> tensors,
                                        const std::source_location& where, bool is_mark_step) {
  const std::string source =
      absl::StrCat(SourceText(where), is_mark_step ? " mark_step" : " read");
  return executor_.Execute(tensors, source, step_);
}

absl::Status LazyDevice::MarkStep(std::source_location where) {
  metrics_.IncrementCounter(metric_names::kMarkStep);
  absl::Status status = ExecuteTensors(LiveTensors(), where, /*is_mark_step=*/true);
  ++step_;
  CheckRecompilations();
  absl::Status recording = TakeError();
  SYSTOLIC_RETURN_IF_ERROR(status);
  return recording;
}

absl::Status LazyDevice::Sync(absl::Span<const Tensor> tensors, std::source_location where) {
  std::vector<std::shared_ptr<TensorState>> states;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    SYSTOLIC_RETURN_IF_ERROR(t.status());
    if (t.device() != this) return absl::InvalidArgumentError("tensor of another device");
    if (t.is_pending()) states.push_back(t.state());
  }
  if (states.empty()) return absl::OkStatus();
  metrics_.IncrementCounter(metric_names::kSyncTensors);
  return ExecuteTensors(std::move(states), where, /*is_mark_step=*/false);
}

void LazyDevice::CheckRecompilations() {
  const int64_t compiles = executor_.compile_count();
  if (compiles < options_.recompilation_warning_threshold || 2 * compiles <= step_) return;
  std::string last_cause;
  for (auto it = compile_events().rbegin(); it != compile_events().rend(); ++it) {
    if (!it->cache_hit) {
      last_cause = absl::StrCat("; last: ", trace::CauseWithKind(*it), " at ", it->source);
      break;
    }
  }
  metrics_.SetWarning("recompilation",
                      absl::StrCat("compiled ", compiles, " times in ", step_,
                                   " steps: the graph keeps changing", last_cause));
}

void LazyDevice::SetSeed(uint64_t seed) {
  Literal state(Shape(U64, {2}));
  state.data<uint64_t>()[0] = seed;
  state.data<uint64_t>()[1] = 0;
  absl::StatusOr<std::shared_ptr<const DeviceData>> data = TransferToDevice({&state, 1});
  if (!data.ok()) {
    RecordError(data.status());
    rng_state_ = Tensor::MakeError(this, data.status());
    return;
  }
  OpMetadata metadata;
  metadata.op_type = "device_data";
  metadata.op_name = "rng_state";
  NodePtr node = Node::MakeData(*std::move(data), std::nullopt, std::move(metadata));
  if (rng_state_.defined()) {
    rng_state_.SetNode(std::move(node));
  } else {
    rng_state_ = Tensor::Make(this, std::move(node));
    rng_state_.set_name("rng_state");
  }
}

absl::StatusOr<NodePtr> LazyDevice::NextRandomBits(absl::Span<const int64_t> dims) {
  SYSTOLIC_RETURN_IF_ERROR(rng_state_.status());
  NameScope scope("rng");
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr tuple,
                            graph::RngBitGenerator(rng_state_.node(), Shape(U32, dims)));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr state, graph::GetTupleElement(tuple, 0, "state"));
  SYSTOLIC_ASSIGN_OR_RETURN(NodePtr bits, graph::GetTupleElement(tuple, 1, "bits"));
  rng_state_.SetNode(std::move(state));
  return bits;
}

void LazyDevice::RecordError(const absl::Status& status) {
  if (first_error_.ok() && !status.ok()) first_error_ = status;
}

absl::Status LazyDevice::TakeError() {
  absl::Status error = std::move(first_error_);
  first_error_ = absl::OkStatus();
  return error;
}

int64_t LazyDevice::Register(const std::shared_ptr<TensorState>& state) {
  const int64_t id = next_tensor_id_++;
  live_[id] = state;
  return id;
}

void LazyDevice::Unregister(int64_t id) { live_.erase(id); }

std::vector<std::shared_ptr<TensorState>> LazyDevice::LiveTensors() const {
  std::vector<std::shared_ptr<TensorState>> out;
  out.reserve(live_.size());
  for (const auto& [id, weak] : live_) {
    if (auto state = weak.lock()) out.push_back(std::move(state));
  }
  return out;
}

}  // namespace systolic::lazy
