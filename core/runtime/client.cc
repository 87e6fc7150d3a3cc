#include "core/runtime/client.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/runtime/buffer_type.h"

namespace systolic::runtime {
namespace {

SYSTOLIC_NamedValue StringOption(const char* name, const std::string& value) {
  SYSTOLIC_NamedValue v{};
  v.struct_size = SYSTOLIC_NamedValue_STRUCT_SIZE;
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = SYSTOLIC_NamedValue_kString;
  v.string_value = value.c_str();
  v.value_size = value.size();
  return v;
}

SYSTOLIC_NamedValue IntOption(const char* name, int64_t value) {
  SYSTOLIC_NamedValue v{};
  v.struct_size = SYSTOLIC_NamedValue_STRUCT_SIZE;
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = SYSTOLIC_NamedValue_kInt64;
  v.int64_value = value;
  v.value_size = 1;
  return v;
}

std::string Str(const char* data, size_t size) {
  return data == nullptr ? std::string() : std::string(data, size);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Client>> Client::Create(const ClientOptions& options) {
  std::string device = options.device.empty() ? Plugin::DefaultName() : options.device;
  SYSTOLIC_ASSIGN_OR_RETURN(const Plugin* plugin, Plugin::Load(device, options.plugin_search_path));
  const SYSTOLIC_Api* api = plugin->api();

  std::vector<SYSTOLIC_NamedValue> create_options;
  if (!options.chip.empty()) create_options.push_back(StringOption("chip", options.chip));
  if (!options.topology.empty()) {
    create_options.push_back(StringOption("topology", options.topology));
  }
  if (options.num_devices > 0) {
    create_options.push_back(IntOption("num_devices", options.num_devices));
  }
  if (options.memory_limit_bytes >= 0) {
    create_options.push_back(IntOption("memory_limit_bytes", options.memory_limit_bytes));
  }
  SYSTOLIC_Client_Create_Args create{};
  create.struct_size = SYSTOLIC_Client_Create_Args_STRUCT_SIZE;
  create.create_options = create_options.data();
  create.num_options = create_options.size();
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Client_Create(&create)));

  std::unique_ptr<Client> client(new Client());
  client->plugin_ = plugin;
  client->client_ = create.client;

  SYSTOLIC_Client_String_Args name{SYSTOLIC_Client_String_Args_STRUCT_SIZE, nullptr,
                                   client->client_, nullptr, 0};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Client_PlatformName(&name)));
  client->platform_name_ = Str(name.value, name.value_size);
  SYSTOLIC_Client_String_Args version{SYSTOLIC_Client_String_Args_STRUCT_SIZE, nullptr,
                                      client->client_, nullptr, 0};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Client_PlatformVersion(&version)));
  client->platform_version_ = Str(version.value, version.value_size);

  SYSTOLIC_Client_Devices_Args devices{SYSTOLIC_Client_Devices_Args_STRUCT_SIZE, nullptr,
                                       client->client_, nullptr, 0};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Client_Devices(&devices)));
  for (size_t i = 0; i < devices.num_devices; ++i) {
    SYSTOLIC_Device_Describe_Args d{};
    d.struct_size = SYSTOLIC_Device_Describe_Args_STRUCT_SIZE;
    d.device = devices.devices[i];
    SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Device_Describe(&d)));
    DeviceDescription description;
    description.id = d.id;
    description.process_index = d.process_index;
    description.kind = Str(d.kind, d.kind_size);
    description.debug_string = Str(d.debug_string, d.debug_string_size);
    description.coords = {d.coords[0], d.coords[1], d.coords[2]};
    description.core_on_chip = d.core_on_chip;
    auto device_object = std::make_unique<Device>(client.get(), plugin, devices.devices[i],
                                                  std::move(description), d.is_addressable);
    Device* raw = device_object.get();
    client->by_handle_[devices.devices[i]] = raw;
    client->devices_.push_back(raw);
    if (raw->is_addressable()) client->addressable_devices_.push_back(raw);
    client->device_storage_.push_back(std::move(device_object));

    SYSTOLIC_Device_DefaultMemory_Args dm{SYSTOLIC_Device_DefaultMemory_Args_STRUCT_SIZE, nullptr,
                                          devices.devices[i], nullptr};
    SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Device_DefaultMemory(&dm)));
    SYSTOLIC_Memory_Describe_Args m{};
    m.struct_size = SYSTOLIC_Memory_Describe_Args_STRUCT_SIZE;
    m.memory = dm.memory;
    SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Memory_Describe(&m)));
    auto memory = std::make_unique<Memory>(dm.memory, m.id, Str(m.kind, m.kind_size),
                                           Str(m.debug_string, m.debug_string_size));
    memory->devices_.push_back(raw);
    raw->default_memory_ = memory.get();
    client->memories_.push_back(memory.get());
    client->memory_storage_.push_back(std::move(memory));
  }

  SYSTOLIC_Client_TopologyDescription_Args topology{
      SYSTOLIC_Client_TopologyDescription_Args_STRUCT_SIZE, nullptr, client->client_, nullptr};
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->Client_TopologyDescription(&topology)));
  SYSTOLIC_TopologyDescription_Describe_Args t{};
  t.struct_size = SYSTOLIC_TopologyDescription_Describe_Args_STRUCT_SIZE;
  t.topology = topology.topology;
  SYSTOLIC_RETURN_IF_ERROR(plugin->ToStatus(api->TopologyDescription_Describe(&t)));
  client->topology_.platform_name = Str(t.platform_name, t.platform_name_size);
  client->topology_.chip = Str(t.chip, t.chip_size);
  for (int i = 0; i < 3; ++i) {
    client->topology_.bounds[i] = t.bounds[i];
    client->topology_.wraparound[i] = t.wraparound[i];
  }
  client->topology_.cores_per_chip = t.cores_per_chip;
  return client;
}

Client::~Client() {
  if (client_ == nullptr) return;
  SYSTOLIC_Client_Destroy_Args args{SYSTOLIC_Client_Destroy_Args_STRUCT_SIZE, nullptr, client_};
  plugin_->ToStatus(plugin_->api()->Client_Destroy(&args)).IgnoreError();
}

absl::StatusOr<Device*> Client::LookupDevice(int64_t id) const {
  SYSTOLIC_Client_LookupDevice_Args args{SYSTOLIC_Client_LookupDevice_Args_STRUCT_SIZE, nullptr,
                                         client_, id, nullptr};
  SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(plugin_->api()->Client_LookupDevice(&args)));
  return DeviceFor(args.device);
}

Device* Client::DeviceFor(SYSTOLIC_Device* device) const {
  auto it = by_handle_.find(device);
  return it == by_handle_.end() ? nullptr : it->second;
}

absl::StatusOr<std::unique_ptr<Executable>> Client::Compile(const HloModule& module,
                                                            const CompileOptions& options) {
  return CompileText(module.ToString(), "hlo", options);
}

absl::StatusOr<std::unique_ptr<Executable>> Client::CompileText(absl::string_view text,
                                                                absl::string_view format,
                                                                const CompileOptions& options) {
  SYSTOLIC_Program program{SYSTOLIC_Program_STRUCT_SIZE, nullptr, text.data(), text.size(),
                           format.data(), format.size()};
  SYSTOLIC_CompileOptions c_options{};
  c_options.struct_size = SYSTOLIC_CompileOptions_STRUCT_SIZE;
  c_options.chip = options.chip.c_str();
  c_options.chip_size = options.chip.size();
  c_options.topology = options.topology.c_str();
  c_options.topology_size = options.topology.size();
  c_options.num_replicas = options.num_replicas;
  c_options.num_partitions = options.num_partitions;
  c_options.device_assignment =
      options.device_assignment.empty() ? nullptr : options.device_assignment.data();
  c_options.device_assignment_size = options.device_assignment.size();
  SYSTOLIC_Client_Compile_Args args{SYSTOLIC_Client_Compile_Args_STRUCT_SIZE, nullptr, client_,
                                    &program, &c_options, nullptr};
  SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(plugin_->api()->Client_Compile(&args)));
  return Executable::Wrap(this, args.executable);
}

absl::StatusOr<std::unique_ptr<Buffer>> Client::BufferFromHostBuffer(
    const void* data, const Shape& shape, HostBufferSemantics semantics, Device* device,
    const std::string& name, Event* done_with_host_buffer) {
  if (device == nullptr) return absl::InvalidArgumentError("BufferFromHostBuffer: no device");
  SYSTOLIC_Client_BufferFromHostBuffer_Args args{};
  args.struct_size = SYSTOLIC_Client_BufferFromHostBuffer_Args_STRUCT_SIZE;
  args.client = client_;
  args.data = data;
  args.type = BufferTypeOf(shape.element_type());
  args.dims = shape.dimensions().data();
  args.num_dims = shape.dimensions().size();
  args.host_buffer_semantics = SYSTOLIC_HostBufferSemantics(semantics);
  args.device = device->c_device();
  args.name = name.c_str();
  args.name_size = name.size();
  SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(plugin_->api()->Client_BufferFromHostBuffer(&args)));
  Event done(plugin_, args.done_with_host_buffer);
  if (done_with_host_buffer != nullptr) *done_with_host_buffer = std::move(done);
  return Buffer::Wrap(this, args.buffer);
}

absl::StatusOr<std::unique_ptr<Buffer>> Client::BufferFromHostLiteral(const Literal& literal,
                                                                      Device* device,
                                                                      const std::string& name) {
  if (!literal.shape().IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a buffer holds one array; ", literal.shape().ToString(), " must be split into its elements"));
  }
  return BufferFromHostBuffer(literal.untyped_data(), literal.shape(),
                              HostBufferSemantics::kImmutableOnlyDuringCall, device, name);
}

absl::StatusOr<std::vector<trace::CompileEvent>> Client::CompileEvents() const {
  const SYSTOLIC_CompileEvents_Extension* extension = plugin_->compile_events();
  if (extension == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("plugin ", plugin_->path(), " does not report compile events"));
  }
  std::vector<trace::CompileEvent> out;
  constexpr size_t kBatch = 64;
  SYSTOLIC_CompileEvent batch[kBatch];
  size_t first = 0;
  while (true) {
    // A plugin built against API 1.0 leaves the cause's fields as they are.
    for (SYSTOLIC_CompileEvent& e : batch) {
      e = SYSTOLIC_CompileEvent{};
      e.struct_size = SYSTOLIC_CompileEvent_STRUCT_SIZE;
      e.cause_argument = e.cause_instruction = -1;
    }
    SYSTOLIC_Client_CompileEvents_Args args{SYSTOLIC_Client_CompileEvents_Args_STRUCT_SIZE,
                                            nullptr, client_, first, batch, kBatch, 0, 0};
    SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(extension->Client_CompileEvents(&args)));
    for (size_t i = 0; i < args.num_copied; ++i) {
      const SYSTOLIC_CompileEvent& e = batch[i];
      trace::CompileEvent event;
      event.timestamp_ns = e.timestamp_ns;
      event.module_name = e.module_name;
      event.fingerprint = e.fingerprint;
      event.cache_hit = e.cache_hit;
      event.compile_time_ns = e.compile_time_ns;
      event.program_id = e.program_id;
      event.compared_program_id = e.compared_program_id;
      event.cause.kind = trace::RecompilationKind(e.cause_kind);
      event.cause.text = e.cause;
      event.cause.argument = e.cause_argument;
      event.cause.instruction = e.cause_instruction;
      if (e.cause_before != nullptr) event.cause.before = e.cause_before;
      if (e.cause_now != nullptr) event.cause.now = e.cause_now;
      out.push_back(std::move(event));
    }
    first += args.num_copied;
    if (args.num_copied == 0 || first >= args.num_total) break;
  }
  return out;
}

absl::StatusOr<ExecutionTiming> Client::LastExecutionTiming(const Device& device) const {
  const SYSTOLIC_ExecutionTiming_Extension* extension = plugin_->execution_timing();
  if (extension == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("plugin ", plugin_->path(), " does not report execution timing"));
  }
  SYSTOLIC_Device_LastExecutionTiming_Args args{};
  args.struct_size = SYSTOLIC_Device_LastExecutionTiming_Args_STRUCT_SIZE;
  args.device = device.c_device();
  SYSTOLIC_RETURN_IF_ERROR(plugin_->ToStatus(extension->Device_LastExecutionTiming(&args)));
  return ExecutionTiming{args.available, args.cycles, args.time_ps, Str(args.note, args.note_size)};
}

}  // namespace systolic::runtime
