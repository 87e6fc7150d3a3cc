#include "core/runtime/c_api_plugin.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/runtime/buffer_type.h"
#include "core/runtime/local_client.h"

using systolic::runtime::AsyncEventPtr;
using systolic::runtime::LocalBuffer;
using systolic::runtime::LocalClient;
using systolic::runtime::LocalDevice;
using systolic::runtime::LocalExecutable;

// The opaque types of the header, defined for this side only.
struct SYSTOLIC_Error {
  absl::Status status;
};
struct SYSTOLIC_Event {
  AsyncEventPtr event;
};
struct SYSTOLIC_Memory {
  int64_t id = 0;
  std::string kind;
  std::string debug_string;
  SYSTOLIC_Device* device = nullptr;
};
struct SYSTOLIC_Device {
  LocalDevice* device = nullptr;
  SYSTOLIC_Memory* memory = nullptr;
  std::mutex timing_mu;
  std::string timing_note;  // what the last timing query returned
};
struct SYSTOLIC_TopologyDescription {
  systolic::runtime::TopologyDescription topology;
  std::string text;
};
struct SYSTOLIC_Client {
  std::unique_ptr<LocalClient> client;
  std::deque<SYSTOLIC_Device> device_storage;
  std::deque<SYSTOLIC_Memory> memory_storage;
  std::vector<SYSTOLIC_Device*> devices;
  std::vector<SYSTOLIC_Memory*> memories;
  SYSTOLIC_TopologyDescription topology;
  std::string platform_name;
  std::string platform_version;
};
struct SYSTOLIC_Buffer {
  std::shared_ptr<LocalBuffer> buffer;
  SYSTOLIC_Client* client = nullptr;
};
struct SYSTOLIC_LoadedExecutable {
  std::shared_ptr<LocalExecutable> executable;
  SYSTOLIC_Client* client = nullptr;
  std::vector<SYSTOLIC_Device*> devices;
};

namespace systolic::runtime {
namespace {

BackendFactory g_factory = nullptr;

static_assert(int(SYSTOLIC_Error_Code_RESOURCE_EXHAUSTED) == int(absl::StatusCode::kResourceExhausted));

SYSTOLIC_Error* MakeError(absl::Status status) {
  if (status.ok()) return nullptr;
  return new SYSTOLIC_Error{std::move(status)};
}

// A caller built against an older header passes smaller structs; fields it
// does not know are not read. Structs smaller than the first version's are
// refused.
SYSTOLIC_Error* CheckSize(const char* name, size_t given, size_t expected) {
  if (given >= expected) return nullptr;
  return MakeError(absl::InvalidArgumentError(absl::StrCat(
      name, ": struct_size is ", given, ", at least ", expected,
      " expected (was struct_size set to the SYSTOLIC_*_STRUCT_SIZE constant?)")));
}

#define SYSTOLIC_CHECK_ARGS(type)                                                   \
  if (SYSTOLIC_Error* size_error = CheckSize(#type, args->struct_size, type##_STRUCT_SIZE)) \
  return size_error

#define SYSTOLIC_RETURN_C_ERROR(expr)                       \
  do {                                                     \
    absl::Status _status = (expr);                         \
    if (!_status.ok()) return MakeError(std::move(_status)); \
  } while (0)

std::string ToString(const char* data, size_t size) {
  return data == nullptr ? std::string() : std::string(data, size);
}

// --- Errors -----------------------------------------------------------------

void ErrorDestroy(SYSTOLIC_Error_Destroy_Args* args) { delete args->error; }

void ErrorMessage(SYSTOLIC_Error_Message_Args* args) {
  absl::string_view message = args->error->status.message();
  args->message = message.data();
  args->message_size = message.size();
}

SYSTOLIC_Error* ErrorGetCode(SYSTOLIC_Error_GetCode_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Error_GetCode_Args);
  args->code = SYSTOLIC_Error_Code(args->error->status.code());
  return nullptr;
}

// --- Plugin -----------------------------------------------------------------

SYSTOLIC_Error* PluginInitialize(SYSTOLIC_Plugin_Initialize_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Plugin_Initialize_Args);
  return nullptr;
}

struct PluginAttributes {
  std::string platform, version, timing, api_version;
  std::vector<SYSTOLIC_NamedValue> values;
};

SYSTOLIC_NamedValue StringValue(const char* name, const std::string& value) {
  SYSTOLIC_NamedValue v;
  std::memset(&v, 0, sizeof v);
  v.struct_size = SYSTOLIC_NamedValue_STRUCT_SIZE;
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = SYSTOLIC_NamedValue_kString;
  v.string_value = value.c_str();
  v.value_size = value.size();
  return v;
}

SYSTOLIC_Error* PluginAttributesFn(SYSTOLIC_Plugin_Attributes_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Plugin_Attributes_Args);
  static PluginAttributes* attributes = [] {
    auto* a = new PluginAttributes;
    std::unique_ptr<Backend> backend = g_factory();
    a->platform = backend->platform_name();
    a->version = backend->platform_version();
    a->timing = backend->timing_support();
    a->api_version = absl::StrCat(SYSTOLIC_API_MAJOR, ".", SYSTOLIC_API_MINOR);
    a->values = {StringValue("platform", a->platform), StringValue("platform_version", a->version),
                 StringValue("timing", a->timing), StringValue("api_version", a->api_version)};
    return a;
  }();
  args->attributes = attributes->values.data();
  args->num_attributes = attributes->values.size();
  return nullptr;
}

// --- Events -----------------------------------------------------------------

SYSTOLIC_Event* WrapEvent(AsyncEventPtr event) { return new SYSTOLIC_Event{std::move(event)}; }

SYSTOLIC_Error* EventDestroy(SYSTOLIC_Event_Destroy_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Event_Destroy_Args);
  delete args->event;
  return nullptr;
}

SYSTOLIC_Error* EventIsReady(SYSTOLIC_Event_IsReady_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Event_IsReady_Args);
  args->is_ready = args->event->event->IsReady();
  return nullptr;
}

SYSTOLIC_Error* EventError(SYSTOLIC_Event_Error_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Event_Error_Args);
  if (!args->event->event->IsReady()) {
    return MakeError(absl::FailedPreconditionError("Event_Error: the event is not ready"));
  }
  return MakeError(args->event->event->status());
}

SYSTOLIC_Error* EventAwait(SYSTOLIC_Event_Await_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Event_Await_Args);
  return MakeError(args->event->event->Await());
}

SYSTOLIC_Error* EventOnReady(SYSTOLIC_Event_OnReady_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Event_OnReady_Args);
  SYSTOLIC_Event_Callback callback = args->callback;
  void* user_arg = args->user_arg;
  args->event->event->AndThen(
      [callback, user_arg](const absl::Status& status) { callback(MakeError(status), user_arg); });
  return nullptr;
}

// --- Client -----------------------------------------------------------------

absl::StatusOr<ClientConfig> ParseClientOptions(const SYSTOLIC_NamedValue* options, size_t count) {
  ClientConfig config;
  for (size_t i = 0; i < count; ++i) {
    const SYSTOLIC_NamedValue& option = options[i];
    std::string name = ToString(option.name, option.name_size);
    auto want = [&](SYSTOLIC_NamedValue_Type type, const char* type_name) -> absl::Status {
      if (option.type == type) return absl::OkStatus();
      return absl::InvalidArgumentError(
          absl::StrCat("client option '", name, "' must be a ", type_name));
    };
    if (name == "chip" || name == "topology") {
      if (absl::Status s = want(SYSTOLIC_NamedValue_kString, "string"); !s.ok()) return s;
      (name == "chip" ? config.chip : config.topology) =
          ToString(option.string_value, option.value_size);
    } else if (name == "num_devices" || name == "memory_limit_bytes") {
      if (absl::Status s = want(SYSTOLIC_NamedValue_kInt64, "64-bit integer"); !s.ok()) return s;
      (name == "num_devices" ? config.num_devices : config.memory_limit_bytes) =
          option.int64_value;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown client option '", name,
                       "' (known: chip, topology, num_devices, memory_limit_bytes)"));
    }
  }
  return config;
}

SYSTOLIC_Error* ClientCreate(SYSTOLIC_Client_Create_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_Create_Args);
  absl::StatusOr<ClientConfig> config = ParseClientOptions(args->create_options, args->num_options);
  if (!config.ok()) return MakeError(config.status());
  absl::StatusOr<std::unique_ptr<LocalClient>> local = LocalClient::Create(g_factory(), *config);
  if (!local.ok()) return MakeError(local.status());
  auto* client = new SYSTOLIC_Client;
  client->client = *std::move(local);
  client->platform_name = client->client->backend().platform_name();
  client->platform_version = client->client->backend().platform_version();
  client->topology.topology = client->client->topology();
  client->topology.text = client->topology.topology.ToString();
  for (const auto& device : client->client->devices()) {
    SYSTOLIC_Device& d = client->device_storage.emplace_back();
    SYSTOLIC_Memory& m = client->memory_storage.emplace_back();
    d.device = device.get();
    d.memory = &m;
    m.id = device->id();
    m.kind = device->description().memory_kind;
    m.debug_string = absl::StrCat(m.kind, " of ", device->name());
    m.device = &d;
    client->devices.push_back(&d);
    client->memories.push_back(&m);
  }
  args->client = client;
  return nullptr;
}

SYSTOLIC_Error* ClientDestroy(SYSTOLIC_Client_Destroy_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_Destroy_Args);
  delete args->client;
  return nullptr;
}

SYSTOLIC_Error* ClientPlatformName(SYSTOLIC_Client_String_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_String_Args);
  args->value = args->client->platform_name.c_str();
  args->value_size = args->client->platform_name.size();
  return nullptr;
}

SYSTOLIC_Error* ClientPlatformVersion(SYSTOLIC_Client_String_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_String_Args);
  args->value = args->client->platform_version.c_str();
  args->value_size = args->client->platform_version.size();
  return nullptr;
}

SYSTOLIC_Error* ClientDevices(SYSTOLIC_Client_Devices_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_Devices_Args);
  args->devices = args->client->devices.data();
  args->num_devices = args->client->devices.size();
  return nullptr;
}

SYSTOLIC_Error* ClientAddressableMemories(SYSTOLIC_Client_AddressableMemories_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_AddressableMemories_Args);
  args->memories = args->client->memories.data();
  args->num_memories = args->client->memories.size();
  return nullptr;
}

SYSTOLIC_Error* ClientLookupDevice(SYSTOLIC_Client_LookupDevice_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_LookupDevice_Args);
  absl::StatusOr<LocalDevice*> device = args->client->client->LookupDevice(args->id);
  if (!device.ok()) return MakeError(device.status());
  args->device = args->client->devices[args->id];
  return nullptr;
}

SYSTOLIC_Error* ClientTopologyDescription(SYSTOLIC_Client_TopologyDescription_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_TopologyDescription_Args);
  args->topology = &args->client->topology;
  return nullptr;
}

SYSTOLIC_Error* ClientCompile(SYSTOLIC_Client_Compile_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_Compile_Args);
  if (args->program == nullptr) {
    return MakeError(absl::InvalidArgumentError("Client_Compile: no program"));
  }
  if (SYSTOLIC_Error* e =
          CheckSize("SYSTOLIC_Program", args->program->struct_size, SYSTOLIC_Program_STRUCT_SIZE)) {
    return e;
  }
  CompileOptions options;
  if (const SYSTOLIC_CompileOptions* o = args->options) {
    if (SYSTOLIC_Error* e =
            CheckSize("SYSTOLIC_CompileOptions", o->struct_size, SYSTOLIC_CompileOptions_STRUCT_SIZE)) {
      return e;
    }
    options.chip = ToString(o->chip, o->chip_size);
    options.topology = ToString(o->topology, o->topology_size);
    options.num_replicas = o->num_replicas;
    options.num_partitions = o->num_partitions;
    if (o->device_assignment != nullptr) {
      options.device_assignment.assign(o->device_assignment,
                                       o->device_assignment + o->device_assignment_size);
    }
  }
  absl::StatusOr<std::shared_ptr<LocalExecutable>> executable = args->client->client->CompileText(
      absl::string_view(args->program->code, args->program->code_size),
      absl::string_view(args->program->format ? args->program->format : "",
                        args->program->format_size),
      options);
  if (!executable.ok()) return MakeError(executable.status());
  auto* handle = new SYSTOLIC_LoadedExecutable{*std::move(executable), args->client, {}};
  for (LocalDevice* device : handle->executable->devices()) {
    handle->devices.push_back(args->client->devices[device->id()]);
  }
  args->executable = handle;
  return nullptr;
}

SYSTOLIC_Buffer* WrapBuffer(std::shared_ptr<LocalBuffer> buffer, SYSTOLIC_Client* client) {
  return new SYSTOLIC_Buffer{std::move(buffer), client};
}

SYSTOLIC_Error* ClientBufferFromHostBuffer(SYSTOLIC_Client_BufferFromHostBuffer_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_BufferFromHostBuffer_Args);
  if (args->device == nullptr) {
    return MakeError(absl::InvalidArgumentError("BufferFromHostBuffer: no device"));
  }
  absl::StatusOr<PrimitiveType> element = PrimitiveTypeOf(args->type);
  if (!element.ok()) {
    return MakeError(absl::InvalidArgumentError(
        absl::StrCat("BufferFromHostBuffer: ", element.status().message())));
  }
  const PrimitiveType type = *element;
  for (size_t i = 0; i < args->num_dims; ++i) {
    if (args->dims[i] < 0) {
      return MakeError(absl::InvalidArgumentError(
          absl::StrCat("BufferFromHostBuffer: dimension ", i, " is ", args->dims[i])));
    }
  }
  Shape shape = type == TOKEN ? Shape::MakeToken()
                              : Shape(type, absl::MakeConstSpan(args->dims, args->num_dims));
  AsyncEventPtr done;
  absl::StatusOr<std::shared_ptr<LocalBuffer>> buffer = args->client->client->BufferFromHost(
      args->data, shape, HostBufferSemantics(args->host_buffer_semantics), args->device->device,
      ToString(args->name, args->name_size), &done);
  if (!buffer.ok()) return MakeError(buffer.status());
  args->buffer = WrapBuffer(*std::move(buffer), args->client);
  args->done_with_host_buffer = WrapEvent(std::move(done));
  return nullptr;
}

// --- Devices, memories, topology --------------------------------------------

SYSTOLIC_Error* DeviceDescribe(SYSTOLIC_Device_Describe_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Device_Describe_Args);
  const DeviceDescription& d = args->device->device->description();
  args->id = d.id;
  args->process_index = d.process_index;
  args->core_on_chip = d.core_on_chip;
  for (int i = 0; i < 3; ++i) args->coords[i] = d.coords[i];
  args->is_addressable = true;
  args->kind = d.kind.c_str();
  args->kind_size = d.kind.size();
  args->debug_string = d.debug_string.c_str();
  args->debug_string_size = d.debug_string.size();
  return nullptr;
}

SYSTOLIC_Error* DeviceDefaultMemory(SYSTOLIC_Device_DefaultMemory_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Device_DefaultMemory_Args);
  args->memory = args->device->memory;
  return nullptr;
}

SYSTOLIC_Error* DeviceMemoryStats(SYSTOLIC_Device_MemoryStats_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Device_MemoryStats_Args);
  MemoryStats stats = args->device->device->memory().stats();
  args->bytes_in_use = stats.bytes_in_use;
  args->peak_bytes_in_use = stats.peak_bytes_in_use;
  args->bytes_limit = stats.bytes_limit;
  args->num_allocs = stats.num_allocs;
  args->largest_alloc_size = stats.largest_alloc_size;
  return nullptr;
}

SYSTOLIC_Error* MemoryDescribe(SYSTOLIC_Memory_Describe_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Memory_Describe_Args);
  SYSTOLIC_Memory* m = args->memory;
  args->id = m->id;
  args->kind = m->kind.c_str();
  args->kind_size = m->kind.size();
  args->debug_string = m->debug_string.c_str();
  args->debug_string_size = m->debug_string.size();
  args->devices = &m->device;
  args->num_devices = 1;
  return nullptr;
}

SYSTOLIC_Error* TopologyDescribe(SYSTOLIC_TopologyDescription_Describe_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_TopologyDescription_Describe_Args);
  const TopologyDescription& t = args->topology->topology;
  args->platform_name = t.platform_name.c_str();
  args->platform_name_size = t.platform_name.size();
  args->chip = t.chip.c_str();
  args->chip_size = t.chip.size();
  args->text = args->topology->text.c_str();
  args->text_size = args->topology->text.size();
  for (int i = 0; i < 3; ++i) {
    args->bounds[i] = t.bounds[i];
    args->wraparound[i] = t.wraparound[i];
  }
  args->num_chips = t.num_chips();
  args->cores_per_chip = t.cores_per_chip;
  return nullptr;
}

// --- Executables -------------------------------------------------------------

SYSTOLIC_Error* ExecutableDestroy(SYSTOLIC_LoadedExecutable_Destroy_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_LoadedExecutable_Destroy_Args);
  delete args->executable;
  return nullptr;
}

SYSTOLIC_Error* ExecutableDescribe(SYSTOLIC_LoadedExecutable_Describe_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_LoadedExecutable_Describe_Args);
  const LocalExecutable& e = *args->executable->executable;
  args->name = e.name().c_str();
  args->name_size = e.name().size();
  args->fingerprint = e.fingerprint().c_str();
  args->fingerprint_size = e.fingerprint().size();
  args->num_replicas = e.options().num_replicas;
  args->num_partitions = e.options().num_partitions;
  args->num_parameters = e.parameters().size();
  args->num_outputs = e.outputs().size();
  args->addressable_devices = args->executable->devices.data();
  args->num_addressable_devices = args->executable->devices.size();
  return nullptr;
}

SYSTOLIC_Error* ExecutableValueShape(SYSTOLIC_LoadedExecutable_ValueShape_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_LoadedExecutable_ValueShape_Args);
  const LocalExecutable& e = *args->executable->executable;
  const std::vector<ValueLeaf>& leaves = args->output ? e.outputs() : e.parameters();
  if (args->index >= leaves.size()) {
    return MakeError(absl::OutOfRangeError(absl::StrCat(
        args->output ? "output " : "parameter ", args->index, " of '", e.name(),
        "' does not exist (", leaves.size(), args->output ? " outputs)" : " parameters)")));
  }
  const Shape& shape = leaves[args->index].shape;
  args->type = BufferTypeOf(shape.element_type());
  args->dims = shape.dimensions().data();
  args->num_dims = shape.dimensions().size();
  return nullptr;
}

SYSTOLIC_Error* ExecutableExecute(SYSTOLIC_LoadedExecutable_Execute_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_LoadedExecutable_Execute_Args);
  std::vector<int64_t> non_donatable;
  if (const SYSTOLIC_ExecuteOptions* o = args->options) {
    if (SYSTOLIC_Error* e =
            CheckSize("SYSTOLIC_ExecuteOptions", o->struct_size, SYSTOLIC_ExecuteOptions_STRUCT_SIZE)) {
      return e;
    }
    if (o->non_donatable_input_indices != nullptr) {
      non_donatable.assign(o->non_donatable_input_indices,
                           o->non_donatable_input_indices + o->num_non_donatable_input_indices);
    }
  }
  std::vector<std::vector<LocalBuffer*>> arguments(args->num_devices);
  SYSTOLIC_Client* client = args->executable->client;
  for (size_t d = 0; d < args->num_devices; ++d) {
    for (size_t i = 0; i < args->num_args; ++i) {
      SYSTOLIC_Buffer* buffer = args->argument_lists[d][i];
      arguments[d].push_back(buffer ? buffer->buffer.get() : nullptr);
    }
  }
  absl::StatusOr<LocalClient::ExecuteResult> result =
      client->client->Execute(args->executable->executable, arguments, non_donatable);
  if (!result.ok()) return MakeError(result.status());
  for (size_t d = 0; d < result->outputs.size(); ++d) {
    for (size_t o = 0; o < result->outputs[d].size(); ++o) {
      args->output_lists[d][o] = WrapBuffer(std::move(result->outputs[d][o]), client);
    }
    if (args->device_complete_events != nullptr) {
      args->device_complete_events[d] = WrapEvent(result->done[d]);
    }
  }
  return nullptr;
}

// --- Buffers -----------------------------------------------------------------

SYSTOLIC_Error* BufferDestroy(SYSTOLIC_Buffer_Destroy_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_Destroy_Args);
  if (args->buffer) args->buffer->buffer->Delete();
  delete args->buffer;
  return nullptr;
}

SYSTOLIC_Error* BufferDelete(SYSTOLIC_Buffer_Destroy_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_Destroy_Args);
  args->buffer->buffer->Delete();
  return nullptr;
}

SYSTOLIC_Error* BufferDescribe(SYSTOLIC_Buffer_Describe_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_Describe_Args);
  const LocalBuffer& b = *args->buffer->buffer;
  args->id = b.id();
  args->type = BufferTypeOf(b.shape().element_type());
  args->dims = b.shape().dimensions().data();
  args->num_dims = b.shape().dimensions().size();
  args->on_device_size_in_bytes = size_t(b.size_bytes());
  SYSTOLIC_Device* device = args->buffer->client->devices[b.device()->id()];
  args->device = device;
  args->memory = device->memory;
  args->is_deleted = b.IsDeleted();
  args->name = b.name().c_str();
  args->name_size = b.name().size();
  return nullptr;
}

SYSTOLIC_Error* BufferToHostBuffer(SYSTOLIC_Buffer_ToHostBuffer_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_ToHostBuffer_Args);
  absl::StatusOr<AsyncEventPtr> event = args->src->client->client->ToHost(
      *args->src->buffer, args->dst, int64_t(args->dst_size));
  if (!event.ok()) return MakeError(event.status());
  args->event = WrapEvent(*std::move(event));
  return nullptr;
}

SYSTOLIC_Error* BufferCopyToDevice(SYSTOLIC_Buffer_CopyToDevice_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_CopyToDevice_Args);
  SYSTOLIC_Client* client = args->buffer->client;
  absl::StatusOr<std::shared_ptr<LocalBuffer>> copy =
      client->client->CopyToDevice(*args->buffer->buffer, args->dst_device->device);
  if (!copy.ok()) return MakeError(copy.status());
  args->dst_buffer = WrapBuffer(*std::move(copy), client);
  return nullptr;
}

SYSTOLIC_Error* BufferReadyEvent(SYSTOLIC_Buffer_ReadyEvent_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Buffer_ReadyEvent_Args);
  args->event = WrapEvent(args->buffer->buffer->ready_event());
  return nullptr;
}

// --- Extensions ----------------------------------------------------------------

SYSTOLIC_Error* ClientCompileEvents(SYSTOLIC_Client_CompileEvents_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Client_CompileEvents_Args);
  const CompileCache& cache = args->client->client->compile_cache();
  size_t total = cache.event_count();
  args->num_total = total;
  args->num_copied = 0;
  for (size_t i = args->first; i < total && args->num_copied < args->capacity; ++i) {
    const trace::CompileEvent& e = cache.event(i);
    SYSTOLIC_CompileEvent& out = args->events[args->num_copied++];
    if (out.struct_size < SYSTOLIC_CompileEvent_STRUCT_SIZE_1_0) {
      return CheckSize("SYSTOLIC_CompileEvent", out.struct_size,
                       SYSTOLIC_CompileEvent_STRUCT_SIZE_1_0);
    }
    out.timestamp_ns = e.timestamp_ns;
    out.module_name = e.module_name.c_str();
    out.fingerprint = e.fingerprint.c_str();
    out.cache_hit = e.cache_hit;
    out.compile_time_ns = e.compile_time_ns;
    out.program_id = e.program_id;
    out.compared_program_id = e.compared_program_id;
    out.cause_kind = int(e.cause.kind);
    out.cause = e.cause.text.c_str();
    // Callers built against API 1.0 have no room for the cause's fields.
    if (out.struct_size >= SYSTOLIC_CompileEvent_STRUCT_SIZE) {
      out.cause_argument = e.cause.argument;
      out.cause_instruction = e.cause.instruction;
      out.cause_before = e.cause.before.c_str();
      out.cause_now = e.cause.now.c_str();
    }
  }
  return nullptr;
}

SYSTOLIC_Error* DeviceLastExecutionTiming(SYSTOLIC_Device_LastExecutionTiming_Args* args) {
  SYSTOLIC_CHECK_ARGS(SYSTOLIC_Device_LastExecutionTiming_Args);
  ExecutionTiming timing = args->device->device->last_timing();
  std::lock_guard<std::mutex> lock(args->device->timing_mu);
  args->device->timing_note = std::move(timing.note);
  args->available = timing.available;
  args->cycles = timing.cycles;
  args->time_ps = timing.time_ps;
  args->note = args->device->timing_note.c_str();
  args->note_size = args->device->timing_note.size();
  return nullptr;
}

SYSTOLIC_CompileEvents_Extension g_compile_events_extension;
SYSTOLIC_ExecutionTiming_Extension g_timing_extension;
SYSTOLIC_Api g_api;

void BuildApi() {
  g_timing_extension.base.struct_size = SYSTOLIC_ExecutionTiming_Extension_STRUCT_SIZE;
  g_timing_extension.base.type = SYSTOLIC_Extension_Type_ExecutionTiming;
  g_timing_extension.base.next = nullptr;
  g_timing_extension.Device_LastExecutionTiming = &DeviceLastExecutionTiming;
  g_compile_events_extension.base.struct_size = SYSTOLIC_CompileEvents_Extension_STRUCT_SIZE;
  g_compile_events_extension.base.type = SYSTOLIC_Extension_Type_CompileEvents;
  g_compile_events_extension.base.next = &g_timing_extension.base;
  g_compile_events_extension.Client_CompileEvents = &ClientCompileEvents;

  SYSTOLIC_Api& api = g_api;
  api.struct_size = SYSTOLIC_Api_STRUCT_SIZE;
  api.extension_start = &g_compile_events_extension.base;
  api.version.struct_size = SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Api_Version, minor_version);
  api.version.extension_start = nullptr;
  api.version.major_version = SYSTOLIC_API_MAJOR;
  api.version.minor_version = SYSTOLIC_API_MINOR;
  api.Error_Destroy = &ErrorDestroy;
  api.Error_Message = &ErrorMessage;
  api.Error_GetCode = &ErrorGetCode;
  api.Plugin_Initialize = &PluginInitialize;
  api.Plugin_Attributes = &PluginAttributesFn;
  api.Event_Destroy = &EventDestroy;
  api.Event_IsReady = &EventIsReady;
  api.Event_Error = &EventError;
  api.Event_Await = &EventAwait;
  api.Event_OnReady = &EventOnReady;
  api.Client_Create = &ClientCreate;
  api.Client_Destroy = &ClientDestroy;
  api.Client_PlatformName = &ClientPlatformName;
  api.Client_PlatformVersion = &ClientPlatformVersion;
  api.Client_Devices = &ClientDevices;
  api.Client_AddressableDevices = &ClientDevices;
  api.Client_AddressableMemories = &ClientAddressableMemories;
  api.Client_LookupDevice = &ClientLookupDevice;
  api.Client_TopologyDescription = &ClientTopologyDescription;
  api.Client_Compile = &ClientCompile;
  api.Client_BufferFromHostBuffer = &ClientBufferFromHostBuffer;
  api.Device_Describe = &DeviceDescribe;
  api.Device_DefaultMemory = &DeviceDefaultMemory;
  api.Device_MemoryStats = &DeviceMemoryStats;
  api.Memory_Describe = &MemoryDescribe;
  api.TopologyDescription_Describe = &TopologyDescribe;
  api.LoadedExecutable_Destroy = &ExecutableDestroy;
  api.LoadedExecutable_Describe = &ExecutableDescribe;
  api.LoadedExecutable_ValueShape = &ExecutableValueShape;
  api.LoadedExecutable_Execute = &ExecutableExecute;
  api.Buffer_Destroy = &BufferDestroy;
  api.Buffer_Delete = &BufferDelete;
  api.Buffer_Describe = &BufferDescribe;
  api.Buffer_ToHostBuffer = &BufferToHostBuffer;
  api.Buffer_CopyToDevice = &BufferCopyToDevice;
  api.Buffer_ReadyEvent = &BufferReadyEvent;
}

}  // namespace

const SYSTOLIC_Api* MakeSystolicApi(BackendFactory factory) {
  static std::once_flag once;
  std::call_once(once, [factory] {
    g_factory = factory;
    BuildApi();
  });
  return &g_api;
}

}  // namespace systolic::runtime
