#include "core/lazy/abstract_tracing.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/lazy/device_data.h"
#include "core/lazy/graph_lowering.h"
#include "core/lazy/graph_walk.h"
#include "core/lazy/name_scope.h"

namespace systolic::lazy {
namespace {

class ShapeOnlyBuffer : public DeviceBuffer {
 public:
  ShapeOnlyBuffer(Shape shape, int64_t device) : shape_(std::move(shape)), device_(device) {}
  const Shape& shape() const override { return shape_; }
  int64_t device() const override { return device_; }

 private:
  Shape shape_;
  int64_t device_;
};

absl::Status TraceInstead(absl::string_view what) {
  return absl::FailedPreconditionError(absl::StrCat(
      "a shape-only device cannot ", what,
      ": trace the program (TraceProgram) and simulate it timing-only"));
}

class ShapeOnlyBackend : public ExecutionBackend {
 public:
  explicit ShapeOnlyBackend(int64_t device_count) : device_count_(device_count) {}
  std::string name() const override { return "shape-only"; }
  int64_t device_count() const override { return device_count_; }
  absl::StatusOr<BufferPtr> TransferToDevice(const Literal& literal, int64_t device) override {
    return std::make_shared<ShapeOnlyBuffer>(literal.shape(), device);
  }
  absl::StatusOr<Literal> TransferToHost(const DeviceBuffer&) override {
    return TraceInstead("read a value");
  }
  absl::StatusOr<BackendCompileResult> Compile(std::unique_ptr<HloModule>,
                                               const BackendCompileOptions&) override {
    return TraceInstead("compile");
  }
  absl::StatusOr<std::vector<std::vector<BufferPtr>>> Execute(
      const BackendExecutable&, absl::Span<const std::vector<BufferPtr>>) override {
    return TraceInstead("run a program");
  }

 private:
  int64_t device_count_;
};

}  // namespace

std::shared_ptr<ExecutionBackend> MakeShapeOnlyBackend(int64_t device_count) {
  return std::make_shared<ShapeOnlyBackend>(device_count);
}

Tensor AbstractTensor(LazyDevice& device, const Shape& shape, absl::string_view name) {
  OpMetadata metadata = NameScope::MetadataFor(name.empty() ? "abstract" : name);
  metadata.op_type = "abstract_data";
  // No buffers: the value exists on no device.
  auto data = std::make_shared<const DeviceData>(shape, std::vector<BufferPtr>{});
  Tensor t = Tensor::Make(&device, Node::MakeData(std::move(data), std::nullopt, metadata));
  if (!name.empty()) t.set_name(metadata.op_name);
  return t;
}

absl::StatusOr<std::unique_ptr<HloModule>> TraceProgram(LazyDevice& device,
                                                        absl::Span<const Tensor> outputs,
                                                        absl::string_view module_name) {
  if (absl::Status recorded = device.TakeError(); !recorded.ok()) return recorded;
  std::vector<NodePtr> roots;
  roots.reserve(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) {
      return absl::InvalidArgumentError(absl::StrCat("output ", i, " is an undefined tensor"));
    }
    if (absl::Status status = outputs[i].status(); !status.ok()) return status;
    roots.push_back(outputs[i].node());
  }
  const GraphWalk walk = WalkGraph(roots);
  LoweringOptions options;
  options.module_name = std::string(module_name);
  options.replica_count = device.replica_count();
  options.num_partitions = device.num_partitions();
  return LowerGraph(walk, options);
}

}  // namespace systolic::lazy
