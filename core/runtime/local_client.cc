#include "core/runtime/local_client.h"

#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/status_macros.h"
#include "core/runtime/execute_launch.h"
#include "core/runtime/module_signature.h"
#include "core/stablehlo/stablehlo_importer.h"

namespace systolic::runtime {

LocalClient::LocalClient(std::unique_ptr<Backend> backend, TopologyDescription topology)
    : backend_(std::move(backend)), topology_(std::move(topology)) {}

absl::StatusOr<std::unique_ptr<LocalClient>> LocalClient::Create(std::unique_ptr<Backend> backend,
                                                                 const ClientConfig& config) {
  SYSTOLIC_ASSIGN_OR_RETURN(BackendPlatform platform, backend->Configure(config));
  if (platform.devices.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("platform '", backend->platform_name(), "' has no devices"));
  }
  std::string name = backend->platform_name();
  std::unique_ptr<LocalClient> client(new LocalClient(std::move(backend), platform.topology));
  for (size_t i = 0; i < platform.devices.size(); ++i) {
    const BackendDevice& device = platform.devices[i];
    DeviceDescription description;
    description.id = int64_t(i);
    description.kind = device.kind;
    description.coords = device.coords;
    description.core_on_chip = device.core_on_chip;
    description.memory_kind = device.memory_kind;
    description.debug_string = absl::StrCat(name, ":", i);
    int64_t limit =
        config.memory_limit_bytes >= 0 ? config.memory_limit_bytes : device.memory_limit_bytes;
    client->devices_.push_back(std::make_unique<LocalDevice>(std::move(description), limit));
  }
  return client;
}

LocalClient::~LocalClient() {
  // Each worker runs its queue dry before it stops. Stopping them in order
  // is safe: work on device k waits only on work enqueued earlier, which
  // ran on a device already stopped (so it is done) or on a later device
  // (still running).
  devices_.clear();
}

absl::StatusOr<LocalDevice*> LocalClient::LookupDevice(int64_t id) const {
  if (id < 0 || id >= int64_t(devices_.size())) {
    return absl::InvalidArgumentError(absl::StrCat("no device ", id, ": the ",
                                                   backend_->platform_name(), " client has ",
                                                   devices_.size(), " devices"));
  }
  return devices_[id].get();
}

absl::StatusOr<CompileOptions> LocalClient::ResolveOptions(const HloModule& module,
                                                           const CompileOptions& options) const {
  CompileOptions resolved = options;
  if (resolved.chip.empty()) resolved.chip = topology_.chip;
  if (resolved.topology.empty()) resolved.topology = topology_.ToString();
  if (resolved.num_replicas <= 0) resolved.num_replicas = std::max<int64_t>(1, module.replica_count());
  if (resolved.num_partitions <= 0) {
    resolved.num_partitions = std::max<int64_t>(1, module.num_partitions());
  }
  int64_t needed = resolved.num_replicas * resolved.num_partitions;
  if (resolved.device_assignment.empty()) {
    if (needed > int64_t(devices_.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "module '", module.name(), "' needs ", needed, " devices (", resolved.num_replicas,
          " replicas x ", resolved.num_partitions, " partitions); the ",
          backend_->platform_name(), " client has ", devices_.size(),
          ": create it with num_devices=", needed));
    }
    for (int64_t i = 0; i < needed; ++i) resolved.device_assignment.push_back(i);
  }
  if (int64_t(resolved.device_assignment.size()) != needed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "device assignment lists ", resolved.device_assignment.size(), " devices; module '",
        module.name(), "' runs on ", needed, " (", resolved.num_replicas, " replicas x ",
        resolved.num_partitions, " partitions)"));
  }
  std::set<int64_t> seen;
  for (int64_t id : resolved.device_assignment) {
    SYSTOLIC_RETURN_IF_ERROR(LookupDevice(id).status());
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment uses device ", id, " twice"));
    }
  }
  return resolved;
}

absl::StatusOr<std::shared_ptr<LocalExecutable>> LocalClient::CompileText(
    absl::string_view code, absl::string_view format, const CompileOptions& options) {
  std::unique_ptr<HloModule> module;
  if (format == "hlo") {
    SYSTOLIC_ASSIGN_OR_RETURN(module, ParseAndReturnUnverifiedModule(code, {"<program>", 1}));
  } else if (format == "mlir") {
    SYSTOLIC_ASSIGN_OR_RETURN(module, stablehlo::ParseStableHlo(code, "<program>"));
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown program format '", format, "': expected \"hlo\" or \"mlir\""));
  }
  return Compile(std::move(module), options);
}

absl::StatusOr<std::shared_ptr<LocalExecutable>> LocalClient::Compile(
    std::unique_ptr<HloModule> module, const CompileOptions& options) {
  CompileCache::Clock::time_point started = CompileCache::Clock::now();
  SYSTOLIC_ASSIGN_OR_RETURN(CompileOptions resolved, ResolveOptions(*module, options));
  ModuleSignature signature = ModuleSignature::Of(*module, resolved);
  std::shared_ptr<const HloModule> shared(std::move(module));
  return cache_.GetOrCompile(
      signature, started,
      [&](int64_t program_id) -> absl::StatusOr<std::shared_ptr<LocalExecutable>> {
        SYSTOLIC_ASSIGN_OR_RETURN(std::shared_ptr<const HloModule> program,
                                  backend_->ProgramForParticipants(shared, resolved));
        SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<BackendExecutable> compiled,
                                  backend_->Compile(*program, resolved));
        std::vector<LocalDevice*> devices;
        for (int64_t id : resolved.device_assignment) devices.push_back(devices_[id].get());
        return LocalExecutable::Create(program_id, signature.fingerprint, std::move(program),
                                       std::move(compiled), resolved, std::move(devices));
      });
}

std::shared_ptr<LocalBuffer> LocalClient::MakeBuffer(std::string name, Shape shape,
                                                     LocalDevice* device,
                                                     MemoryReservation reservation,
                                                     AsyncEventPtr ready,
                                                     std::shared_ptr<BufferValue> value) {
  return std::make_shared<LocalBuffer>(next_buffer_id_++, std::move(name), std::move(shape),
                                       device, std::move(reservation), std::move(ready),
                                       std::move(value));
}

absl::StatusOr<std::shared_ptr<LocalBuffer>> LocalClient::BufferFromHost(
    const void* data, const Shape& shape, HostBufferSemantics semantics, LocalDevice* device,
    std::string name, AsyncEventPtr* done_with_host_buffer) {
  if (!shape.IsArray() && !shape.IsToken()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a buffer holds an array, not ", shape.ToString()));
  }
  int64_t bytes = LocalBuffer::SizeOf(shape);
  if (data == nullptr && bytes > 0) {
    return absl::InvalidArgumentError("BufferFromHost: no host data");
  }
  SYSTOLIC_ASSIGN_OR_RETURN(
      MemoryReservation reservation,
      device->memory().Reserve(bytes, name.empty() ? "a host transfer" : absl::StrCat("'", name, "'")));
  auto value = std::make_shared<BufferValue>();
  value->literal = Literal(shape);
  if (semantics == HostBufferSemantics::kImmutableOnlyDuringCall || bytes == 0) {
    if (bytes > 0) std::memcpy(value->literal.untyped_data(), data, size_t(bytes));
    if (done_with_host_buffer) *done_with_host_buffer = AsyncEvent::CreateReady();
    return MakeBuffer(std::move(name), shape, device, std::move(reservation),
                      AsyncEvent::CreateReady(), std::move(value));
  }
  AsyncEventPtr ready = AsyncEvent::Create();
  AsyncEventPtr done = AsyncEvent::Create();
  if (done_with_host_buffer) *done_with_host_buffer = done;
  auto buffer = MakeBuffer(std::move(name), shape, device, std::move(reservation), ready, value);
  std::lock_guard<std::mutex> lock(enqueue_mu_);
  device->worker().Enqueue([value, data, bytes, ready, done] {
    std::memcpy(value->literal.untyped_data(), data, size_t(bytes));
    done->Set(absl::OkStatus());
    ready->Set(absl::OkStatus());
  });
  return buffer;
}

absl::StatusOr<AsyncEventPtr> LocalClient::ToHost(const LocalBuffer& buffer, void* dst,
                                                  int64_t dst_size) {
  if (dst_size != buffer.size_bytes()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ToHost of ", buffer.Label(), " (", buffer.shape().ToString(), "): the destination has ",
        dst_size, " bytes, the buffer ", buffer.size_bytes()));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(BufferUse use, buffer.AcquireUse());
  AsyncEventPtr done = AsyncEvent::Create();
  // Runs on the producer's worker when the value is defined, or here.
  use.ready->AndThen([value = use.value, dst, dst_size, done](const absl::Status& status) {
    if (status.ok() && dst_size > 0) {
      std::memcpy(dst, value->literal.untyped_data(), size_t(dst_size));
    }
    done->Set(status);
  });
  return done;
}

absl::StatusOr<std::shared_ptr<LocalBuffer>> LocalClient::CopyToDevice(const LocalBuffer& buffer,
                                                                       LocalDevice* device) {
  SYSTOLIC_ASSIGN_OR_RETURN(BufferUse use, buffer.AcquireUse());
  std::string name = buffer.name().empty() ? absl::StrCat("copy of #", buffer.id())
                                           : absl::StrCat(buffer.name(), " (copy)");
  SYSTOLIC_ASSIGN_OR_RETURN(MemoryReservation reservation,
                            device->memory().Reserve(buffer.size_bytes(), absl::StrCat("'", name, "'")));
  auto value = std::make_shared<BufferValue>();
  AsyncEventPtr ready = AsyncEvent::Create();
  auto copy = MakeBuffer(std::move(name), buffer.shape(), device, std::move(reservation), ready,
                         value);
  std::lock_guard<std::mutex> lock(enqueue_mu_);
  device->worker().Enqueue([use = std::move(use), value, ready] {
    absl::Status status = use.ready->Await();
    if (status.ok()) value->literal = use.value->literal.Clone();
    ready->Set(status);
  });
  return copy;
}

absl::Status LocalClient::CheckArguments(
    const LocalExecutable& executable,
    const std::vector<std::vector<LocalBuffer*>>& arguments) const {
  const auto& devices = executable.devices();
  if (arguments.size() != devices.size()) {
    return absl::InvalidArgumentError(absl::StrCat(executable.Label(), " runs on ", devices.size(),
                                                   " devices; got ", arguments.size(),
                                                   " argument lists"));
  }
  const auto& parameters = executable.parameters();
  for (size_t d = 0; d < arguments.size(); ++d) {
    if (arguments[d].size() != parameters.size()) {
      return absl::InvalidArgumentError(absl::StrCat(executable.Label(), " takes ",
                                                     parameters.size(), " arguments; got ",
                                                     arguments[d].size(), " for device ",
                                                     devices[d]->name()));
    }
    for (size_t i = 0; i < parameters.size(); ++i) {
      const LocalBuffer* buffer = arguments[d][i];
      if (buffer == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(executable.Label(), ": argument ", i, " is null"));
      }
      if (buffer->device() != devices[d]) {
        return absl::InvalidArgumentError(absl::StrCat(
            executable.Label(), ": argument ", i, " (", buffer->Label(), ") is on ",
            buffer->device()->name(), " but this participant runs on ", devices[d]->name()));
      }
      if (buffer->shape() != parameters[i].shape) {
        return absl::InvalidArgumentError(absl::StrCat(
            executable.Label(), ": argument ", i, " (", buffer->Label(), ") is ",
            buffer->shape().ToString(), ", the parameter is ", parameters[i].shape.ToString()));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LocalClient::ExecuteResult> LocalClient::Execute(
    std::shared_ptr<const LocalExecutable> executable,
    const std::vector<std::vector<LocalBuffer*>>& arguments,
    const std::vector<int64_t>& non_donatable) {
  SYSTOLIC_RETURN_IF_ERROR(CheckArguments(*executable, arguments));
  const auto& devices = executable->devices();
  const auto& outputs = executable->outputs();
  const std::vector<int64_t>& aliases = executable->output_aliases();
  const std::string label = executable->Label();
  size_t n = devices.size();

  std::vector<ExecuteLaunch::Participant> participants(n);
  for (size_t d = 0; d < n; ++d) {
    for (LocalBuffer* buffer : arguments[d]) {
      SYSTOLIC_ASSIGN_OR_RETURN(BufferUse use, buffer->AcquireUse());
      participants[d].arguments.push_back(std::move(use));
    }
  }

  // Memory for the outputs: donated arguments hand theirs over; the rest is
  // reserved first, so a failure leaves every argument alive.
  auto donated = [&](int64_t parameter) {
    return parameter >= 0 &&
           std::find(non_donatable.begin(), non_donatable.end(), parameter) == non_donatable.end();
  };
  std::vector<std::vector<MemoryReservation>> reservations(n);
  for (size_t d = 0; d < n; ++d) {
    reservations[d].resize(outputs.size());
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (donated(aliases[o])) continue;
      SYSTOLIC_ASSIGN_OR_RETURN(
          reservations[d][o],
          devices[d]->memory().Reserve(LocalBuffer::SizeOf(outputs[o].shape),
                                       absl::StrCat("output ", o, " of ", label)));
    }
  }
  struct Donation {
    LocalBuffer* buffer;
    size_t device, output;
  };
  std::vector<Donation> donations;
  for (size_t d = 0; d < n; ++d) {
    for (size_t o = 0; o < outputs.size(); ++o) {
      if (!donated(aliases[o])) continue;
      LocalBuffer* donor = arguments[d][aliases[o]];
      for (size_t i = 0; i < arguments[d].size(); ++i) {
        if (arguments[d][i] == donor && int64_t(i) != aliases[o]) {
          absl::Status error = absl::InvalidArgumentError(absl::StrCat(
              label, ": ", donor->Label(), " is passed as arguments ", aliases[o], " and ", i,
              " but argument ", aliases[o], " is donated"));
          for (Donation& done : donations) {
            done.buffer->UndoDonation(std::move(reservations[done.device][done.output]),
                                      participants[done.device].arguments[aliases[done.output]].value);
          }
          return error;
        }
      }
      absl::StatusOr<MemoryReservation> memory = donor->Donate(label);
      if (!memory.ok()) {
        for (Donation& done : donations) {
          done.buffer->UndoDonation(std::move(reservations[done.device][done.output]),
                                    participants[done.device].arguments[aliases[done.output]].value);
        }
        return memory.status();
      }
      reservations[d][o] = *std::move(memory);
      donations.push_back(Donation{donor, d, o});
    }
  }

  ExecuteResult result;
  result.outputs.resize(n);
  for (size_t d = 0; d < n; ++d) {
    participants[d].done = AsyncEvent::Create();
    result.done.push_back(participants[d].done);
    for (size_t o = 0; o < outputs.size(); ++o) {
      auto value = std::make_shared<BufferValue>();
      participants[d].outputs.push_back(value);
      result.outputs[d].push_back(MakeBuffer(absl::StrCat(executable->name(), " output ", o),
                                             outputs[o].shape, devices[d],
                                             std::move(reservations[d][o]), participants[d].done,
                                             std::move(value)));
    }
  }
  bool inputs_ready = true;
  for (const BufferUse& use : participants[0].arguments) inputs_ready &= use.ready->IsReady();
  auto launch = std::make_shared<ExecuteLaunch>(executable, backend_.get(), std::move(participants));
  // A cheap program whose inputs are ready runs here when its device is
  // idle: a worker hand-off would cost more than the program.
  if (executable->is_cheap() && inputs_ready &&
      devices[0]->worker().TryRunInline([&launch] { launch->Run(0); })) {
    return result;
  }
  std::lock_guard<std::mutex> lock(enqueue_mu_);
  for (size_t d = 0; d < n; ++d) {
    devices[d]->worker().Enqueue([launch, d] { launch->Run(int(d)); });
  }
  return result;
}

}  // namespace systolic::runtime
