#include "core/lazy/runtime_backend.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/partitioned_execution.h"
#include "core/hlo/status_macros.h"

namespace systolic::lazy {
namespace {

class RuntimeBuffer : public DeviceBuffer {
 public:
  RuntimeBuffer(std::shared_ptr<runtime::Client> client, std::unique_ptr<runtime::Buffer> buffer,
                int64_t device)
      : client_(std::move(client)), buffer_(std::move(buffer)), device_(device) {}
  ~RuntimeBuffer() override { buffer_.reset(); }
  const Shape& shape() const override { return buffer_->shape(); }
  int64_t device() const override { return device_; }
  runtime::Buffer* buffer() const { return buffer_.get(); }

 private:
  std::shared_ptr<runtime::Client> client_;
  std::unique_ptr<runtime::Buffer> buffer_;
  int64_t device_;
};

class RuntimeExecutable : public BackendExecutable {
 public:
  RuntimeExecutable(std::shared_ptr<runtime::Client> client, std::unique_ptr<HloModule> module,
                    std::unique_ptr<runtime::Executable> executable,
                    std::optional<SpmdSignature> signature)
      : client_(std::move(client)),
        module_(std::move(module)),
        executable_(std::move(executable)),
        signature_(std::move(signature)) {}
  ~RuntimeExecutable() override { executable_.reset(); }
  const HloModule& module() const override { return *module_; }
  const runtime::Executable& executable() const { return *executable_; }
  // The whole values' layouts of an SPMD program (nullopt otherwise).
  const std::optional<SpmdSignature>& signature() const { return signature_; }

 private:
  std::shared_ptr<runtime::Client> client_;
  std::unique_ptr<HloModule> module_;
  std::unique_ptr<runtime::Executable> executable_;
  std::optional<SpmdSignature> signature_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<RuntimeBackend>> RuntimeBackend::Create(
    const runtime::ClientOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Client> client,
                            runtime::Client::Create(options));
  return std::make_shared<RuntimeBackend>(std::shared_ptr<runtime::Client>(std::move(client)));
}

std::string RuntimeBackend::name() const {
  return absl::StrCat("runtime:", client_->platform_name());
}

int64_t RuntimeBackend::device_count() const {
  return int64_t(client_->addressable_devices().size());
}

absl::StatusOr<BufferPtr> RuntimeBackend::TransferToDevice(const Literal& literal,
                                                           int64_t device) {
  if (device < 0 || device >= device_count()) {
    return absl::InvalidArgumentError(
        absl::StrCat("device ", device, " does not exist (", device_count(), " devices)"));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(
      std::unique_ptr<runtime::Buffer> buffer,
      client_->BufferFromHostLiteral(literal, client_->addressable_devices()[device]));
  return std::make_shared<RuntimeBuffer>(client_, std::move(buffer), device);
}

absl::StatusOr<Literal> RuntimeBackend::TransferToHost(const DeviceBuffer& buffer) {
  const auto* b = dynamic_cast<const RuntimeBuffer*>(&buffer);
  if (b == nullptr) return absl::InvalidArgumentError("not a buffer of the runtime backend");
  return b->buffer()->ToLiteralSync();
}

absl::StatusOr<BackendCompileResult> RuntimeBackend::Compile(
    std::unique_ptr<HloModule> module, const BackendCompileOptions& options) {
  SYSTOLIC_ASSIGN_OR_RETURN(std::optional<SpmdSignature> signature, SpmdSignatureOf(*module));
  runtime::CompileOptions compile_options;
  compile_options.num_replicas = options.replica_count;
  compile_options.num_partitions = signature ? signature->partitions : 1;
  // The client's plugin partitions an SPMD program; its executable then
  // takes and returns shards.
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executable> executable,
                            client_->Compile(*module, compile_options));
  BackendCompileResult result;
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<trace::CompileEvent> events, client_->CompileEvents());
  if (!events.empty()) {
    const trace::CompileEvent& e = events.back();
    result.compile_time_ns = e.compile_time_ns;
    result.backend_cache_hit = e.cache_hit;
    if (!e.cache_hit) result.backend_cause = e.cause;
    result.fingerprint = e.fingerprint;
  }
  result.executable = std::make_shared<RuntimeExecutable>(
      client_, std::move(module), std::move(executable), std::move(signature));
  return result;
}

absl::StatusOr<std::vector<std::vector<BufferPtr>>> RuntimeBackend::Execute(
    const BackendExecutable& executable, absl::Span<const std::vector<BufferPtr>> arguments) {
  const auto* exe = dynamic_cast<const RuntimeExecutable*>(&executable);
  if (exe == nullptr) return absl::InvalidArgumentError("not an executable of the runtime");
  std::vector<std::vector<runtime::Buffer*>> lists(arguments.size());
  for (size_t d = 0; d < arguments.size(); ++d) {
    for (const BufferPtr& argument : arguments[d]) {
      const auto* b = dynamic_cast<const RuntimeBuffer*>(argument.get());
      if (b == nullptr) return absl::InvalidArgumentError("argument of another backend");
      lists[d].push_back(b->buffer());
    }
  }
  if (exe->signature()) return ExecutePartitioned(*exe, lists);
  SYSTOLIC_ASSIGN_OR_RETURN(runtime::ExecuteResult result,
                            exe->executable().ExecuteOnDevices(lists));
  std::vector<std::vector<BufferPtr>> outputs(result.outputs.size());
  for (size_t d = 0; d < result.outputs.size(); ++d) {
    for (auto& buffer : result.outputs[d]) {
      outputs[d].push_back(std::make_shared<RuntimeBuffer>(client_, std::move(buffer), int64_t(d)));
    }
  }
  return outputs;
}

// The front end holds SPMD values whole on device 0; the executable takes
// and returns each partition's shard on its own device. The shards are cut
// and put back together on the host, as a framework feeding a PJRT client
// does with host data.
absl::StatusOr<std::vector<std::vector<BufferPtr>>> RuntimeBackend::ExecutePartitioned(
    const BackendExecutable& executable,
    const std::vector<std::vector<runtime::Buffer*>>& whole) {
  const auto& exe = static_cast<const RuntimeExecutable&>(executable);
  const SpmdSignature& signature = *exe.signature();
  if (whole.size() != 1) {
    return absl::InvalidArgumentError("an SPMD program takes one row of whole arguments");
  }
  std::vector<Literal> arguments;
  for (runtime::Buffer* buffer : whole[0]) {
    SYSTOLIC_ASSIGN_OR_RETURN(Literal value, buffer->ToLiteralSync());
    arguments.push_back(std::move(value));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> shards,
                            ShardArguments(signature, arguments));
  const auto& devices = exe.executable().addressable_devices();
  std::vector<std::unique_ptr<runtime::Buffer>> owned;
  std::vector<std::vector<runtime::Buffer*>> lists(shards.size());
  for (size_t p = 0; p < shards.size(); ++p) {
    for (const Literal& shard : shards[p]) {
      SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Buffer> buffer,
                                client_->BufferFromHostLiteral(shard, devices[p]));
      lists[p].push_back(buffer.get());
      owned.push_back(std::move(buffer));
    }
  }
  SYSTOLIC_ASSIGN_OR_RETURN(runtime::ExecuteResult result,
                            exe.executable().ExecuteOnDevices(lists));
  std::vector<Literal> device_results;
  for (auto& row : result.outputs) {
    std::vector<Literal> elements;
    for (auto& buffer : row) {
      SYSTOLIC_ASSIGN_OR_RETURN(Literal value, buffer->ToLiteralSync());
      elements.push_back(std::move(value));
    }
    device_results.push_back(signature.result_shape.IsTuple()
                                 ? Literal::MakeTuple(std::move(elements))
                                 : std::move(elements.at(0)));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<Literal> gathered,
                            GatherResults(signature, device_results, 1));
  std::vector<Literal> elements;
  if (gathered[0].shape().IsTuple()) {
    elements = std::move(gathered[0]).DecomposeTuple();
  } else {
    elements.push_back(std::move(gathered[0]));
  }
  std::vector<std::vector<BufferPtr>> outputs(1);
  for (const Literal& element : elements) {
    SYSTOLIC_ASSIGN_OR_RETURN(BufferPtr buffer, TransferToDevice(element, 0));
    outputs[0].push_back(std::move(buffer));
  }
  return outputs;
}

}  // namespace systolic::lazy
