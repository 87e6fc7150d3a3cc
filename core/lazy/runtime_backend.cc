#include "core/lazy/runtime_backend.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/lazy/unpartitioned_module.h"

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
                    std::unique_ptr<runtime::Executable> executable)
      : client_(std::move(client)), module_(std::move(module)), executable_(std::move(executable)) {}
  ~RuntimeExecutable() override { executable_.reset(); }
  const HloModule& module() const override { return *module_; }
  const runtime::Executable& executable() const { return *executable_; }

 private:
  std::shared_ptr<runtime::Client> client_;
  std::unique_ptr<HloModule> module_;
  std::unique_ptr<runtime::Executable> executable_;
};

RecompilationCause FromRuntime(runtime::RecompilationCause cause) {
  using R = runtime::RecompilationCause;
  switch (cause) {
    case R::kNone: return RecompilationCause::kNone;
    case R::kNeverSeen: return RecompilationCause::kFirstCompile;
    case R::kArgumentShape: return RecompilationCause::kNewInputShape;
    case R::kInstructionCount:
    case R::kDifferentInstruction: return RecompilationCause::kDifferentOpSequence;
    case R::kChangedConstant: return RecompilationCause::kChangedConstant;
    case R::kDifferentSharding: return RecompilationCause::kDifferentSharding;
    default: return RecompilationCause::kDifferentAttributes;
  }
}

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
  std::unique_ptr<HloModule> runnable;
  if (module->num_partitions() > 1) {
    SYSTOLIC_ASSIGN_OR_RETURN(runnable, UnpartitionedModule(*module));
  }
  runtime::CompileOptions compile_options;
  compile_options.num_replicas = options.replica_count;
  compile_options.num_partitions = 1;
  SYSTOLIC_ASSIGN_OR_RETURN(
      std::unique_ptr<runtime::Executable> executable,
      client_->Compile(runnable ? *runnable : *module, compile_options));
  BackendCompileResult result;
  SYSTOLIC_ASSIGN_OR_RETURN(std::vector<runtime::CompileEvent> events, client_->CompileEvents());
  if (!events.empty()) {
    const runtime::CompileEvent& e = events.back();
    result.compile_time_ns = e.compile_time_ns;
    result.backend_cache_hit = e.cache_hit;
    result.backend_cause = e.cause;
    result.backend_cause_kind = FromRuntime(e.cause_kind);
    result.fingerprint = e.fingerprint;
  }
  result.executable =
      std::make_shared<RuntimeExecutable>(client_, std::move(module), std::move(executable));
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

}  // namespace systolic::lazy
