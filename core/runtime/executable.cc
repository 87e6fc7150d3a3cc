#include "core/runtime/executable.h"

#include "absl/strings/str_cat.h"
#include "core/hlo/status_macros.h"
#include "core/runtime/buffer_type.h"
#include "core/runtime/client.h"

namespace systolic::runtime {

absl::StatusOr<std::unique_ptr<Executable>> Executable::Wrap(Client* client,
                                                             SYSTOLIC_LoadedExecutable* handle) {
  std::unique_ptr<Executable> executable(new Executable(client, handle));
  const Plugin& plugin = client->plugin();
  SYSTOLIC_LoadedExecutable_Describe_Args d{};
  d.struct_size = SYSTOLIC_LoadedExecutable_Describe_Args_STRUCT_SIZE;
  d.executable = handle;
  SYSTOLIC_RETURN_IF_ERROR(plugin.ToStatus(plugin.api()->LoadedExecutable_Describe(&d)));
  executable->name_ = std::string(d.name, d.name_size);
  executable->fingerprint_ = std::string(d.fingerprint, d.fingerprint_size);
  executable->num_replicas_ = d.num_replicas;
  executable->num_partitions_ = d.num_partitions;
  for (size_t i = 0; i < d.num_addressable_devices; ++i) {
    executable->devices_.push_back(client->DeviceFor(d.addressable_devices[i]));
  }
  for (int output = 0; output < 2; ++output) {
    size_t count = output ? d.num_outputs : d.num_parameters;
    for (size_t i = 0; i < count; ++i) {
      SYSTOLIC_LoadedExecutable_ValueShape_Args v{};
      v.struct_size = SYSTOLIC_LoadedExecutable_ValueShape_Args_STRUCT_SIZE;
      v.executable = handle;
      v.output = output;
      v.index = i;
      SYSTOLIC_RETURN_IF_ERROR(plugin.ToStatus(plugin.api()->LoadedExecutable_ValueShape(&v)));
      SYSTOLIC_ASSIGN_OR_RETURN(Shape shape, ShapeOfBuffer(v.type, v.dims, v.num_dims));
      (output ? executable->output_shapes_ : executable->parameter_shapes_).push_back(shape);
    }
  }
  return executable;
}

Executable::~Executable() {
  SYSTOLIC_LoadedExecutable_Destroy_Args args{SYSTOLIC_LoadedExecutable_Destroy_Args_STRUCT_SIZE,
                                              nullptr, executable_};
  client_->plugin().ToStatus(client_->plugin().api()->LoadedExecutable_Destroy(&args)).IgnoreError();
}

absl::StatusOr<ExecuteResult> Executable::ExecuteOnDevices(
    absl::Span<const std::vector<Buffer*>> argument_lists, const ExecuteOptions& options) const {
  size_t num_devices = argument_lists.size();
  size_t num_args = num_devices ? argument_lists[0].size() : 0;
  for (const auto& list : argument_lists) {
    if (list.size() != num_args) {
      return absl::InvalidArgumentError(absl::StrCat(
          "execute of '", name_, "': every device needs the same number of arguments"));
    }
  }
  std::vector<std::vector<SYSTOLIC_Buffer*>> c_arguments(num_devices);
  std::vector<SYSTOLIC_Buffer* const*> c_argument_lists(num_devices);
  std::vector<std::vector<SYSTOLIC_Buffer*>> c_outputs(num_devices);
  std::vector<SYSTOLIC_Buffer**> c_output_lists(num_devices);
  std::vector<SYSTOLIC_Event*> c_events(num_devices, nullptr);
  for (size_t d = 0; d < num_devices; ++d) {
    for (Buffer* buffer : argument_lists[d]) {
      c_arguments[d].push_back(buffer ? buffer->c_buffer() : nullptr);
    }
    c_argument_lists[d] = c_arguments[d].data();
    c_outputs[d].resize(output_shapes_.size(), nullptr);
    c_output_lists[d] = c_outputs[d].data();
  }
  SYSTOLIC_ExecuteOptions c_options{SYSTOLIC_ExecuteOptions_STRUCT_SIZE, nullptr,
                                    options.non_donatable_input_indices.data(),
                                    options.non_donatable_input_indices.size()};
  SYSTOLIC_LoadedExecutable_Execute_Args args{};
  args.struct_size = SYSTOLIC_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  args.executable = executable_;
  args.options = &c_options;
  args.argument_lists = c_argument_lists.data();
  args.num_devices = num_devices;
  args.num_args = num_args;
  args.output_lists = c_output_lists.data();
  args.device_complete_events = c_events.data();
  const Plugin& plugin = client_->plugin();
  SYSTOLIC_RETURN_IF_ERROR(plugin.ToStatus(plugin.api()->LoadedExecutable_Execute(&args)));
  ExecuteResult result;
  result.outputs.resize(num_devices);
  // Every handle is wrapped (so owned and destroyed) before an error returns.
  absl::Status wrapped = absl::OkStatus();
  for (size_t d = 0; d < num_devices; ++d) {
    for (SYSTOLIC_Buffer* output : c_outputs[d]) {
      absl::StatusOr<std::unique_ptr<Buffer>> buffer = Buffer::Wrap(client_, output);
      if (buffer.ok()) {
        result.outputs[d].push_back(*std::move(buffer));
      } else {
        wrapped.Update(buffer.status());
      }
    }
    result.done.emplace_back(&plugin, c_events[d]);
  }
  if (!wrapped.ok()) return wrapped;
  return result;
}

absl::StatusOr<std::vector<std::unique_ptr<Buffer>>> Executable::Execute(
    const std::vector<Buffer*>& arguments, const ExecuteOptions& options) const {
  std::vector<std::vector<Buffer*>> lists = {arguments};
  SYSTOLIC_ASSIGN_OR_RETURN(ExecuteResult result, ExecuteOnDevices(lists, options));
  return std::move(result.outputs[0]);
}

}  // namespace systolic::runtime
