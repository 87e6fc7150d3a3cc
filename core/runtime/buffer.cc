#include "core/runtime/buffer.h"

#include "core/hlo/status_macros.h"
#include "core/runtime/buffer_type.h"
#include "core/runtime/client.h"

namespace systolic::runtime {

absl::StatusOr<std::unique_ptr<Buffer>> Buffer::Wrap(Client* client, SYSTOLIC_Buffer* handle) {
  std::unique_ptr<Buffer> buffer(new Buffer(client, handle));
  SYSTOLIC_Buffer_Describe_Args args{};
  args.struct_size = SYSTOLIC_Buffer_Describe_Args_STRUCT_SIZE;
  args.buffer = handle;
  const Plugin& plugin = client->plugin();
  // Describe only reads the handle; it cannot fail on a valid one.
  plugin.ToStatus(plugin.api()->Buffer_Describe(&args)).IgnoreError();
  buffer->id_ = args.id;
  buffer->name_ = args.name ? std::string(args.name, args.name_size) : std::string();
  SYSTOLIC_ASSIGN_OR_RETURN(buffer->shape_, ShapeOfBuffer(args.type, args.dims, args.num_dims));
  buffer->device_ = client->DeviceFor(args.device);
  buffer->size_bytes_ = int64_t(args.on_device_size_in_bytes);
  return buffer;
}

Buffer::~Buffer() {
  SYSTOLIC_Buffer_Destroy_Args args{SYSTOLIC_Buffer_Destroy_Args_STRUCT_SIZE, nullptr, buffer_};
  client_->plugin().ToStatus(client_->plugin().api()->Buffer_Destroy(&args)).IgnoreError();
}

bool Buffer::IsDeleted() const {
  SYSTOLIC_Buffer_Describe_Args args{};
  args.struct_size = SYSTOLIC_Buffer_Describe_Args_STRUCT_SIZE;
  args.buffer = buffer_;
  client_->plugin().ToStatus(client_->plugin().api()->Buffer_Describe(&args)).IgnoreError();
  return args.is_deleted;
}

void Buffer::Delete() {
  SYSTOLIC_Buffer_Destroy_Args args{SYSTOLIC_Buffer_Destroy_Args_STRUCT_SIZE, nullptr, buffer_};
  client_->plugin().ToStatus(client_->plugin().api()->Buffer_Delete(&args)).IgnoreError();
}

Event Buffer::GetReadyEvent() const {
  SYSTOLIC_Buffer_ReadyEvent_Args args{SYSTOLIC_Buffer_ReadyEvent_Args_STRUCT_SIZE, nullptr,
                                       buffer_, nullptr};
  absl::Status status =
      client_->plugin().ToStatus(client_->plugin().api()->Buffer_ReadyEvent(&args));
  if (!status.ok()) return Event(status);
  return Event(&client_->plugin(), args.event);
}

Future<Literal> Buffer::ToLiteral() const {
  auto literal = std::make_shared<Literal>(shape_);
  SYSTOLIC_Buffer_ToHostBuffer_Args args{SYSTOLIC_Buffer_ToHostBuffer_Args_STRUCT_SIZE,
                                         nullptr,
                                         buffer_,
                                         literal->untyped_data(),
                                         size_t(literal->size_bytes()),
                                         nullptr};
  absl::Status status =
      client_->plugin().ToStatus(client_->plugin().api()->Buffer_ToHostBuffer(&args));
  if (!status.ok()) return Future<Literal>(status);
  return Future<Literal>(Event(&client_->plugin(), args.event), std::move(literal));
}

absl::StatusOr<std::unique_ptr<Buffer>> Buffer::CopyToDevice(Device* device) const {
  SYSTOLIC_Buffer_CopyToDevice_Args args{SYSTOLIC_Buffer_CopyToDevice_Args_STRUCT_SIZE, nullptr,
                                         buffer_, device->c_device(), nullptr};
  SYSTOLIC_RETURN_IF_ERROR(
      client_->plugin().ToStatus(client_->plugin().api()->Buffer_CopyToDevice(&args)));
  return Wrap(client_, args.dst_buffer);
}

}  // namespace systolic::runtime
