#include "core/runtime/event.h"

namespace systolic::runtime {

Event& Event::operator=(Event&& other) noexcept {
  if (this == &other) return *this;
  this->~Event();
  plugin_ = std::exchange(other.plugin_, nullptr);
  event_ = std::exchange(other.event_, nullptr);
  status_ = std::move(other.status_);
  return *this;
}

Event::~Event() {
  if (event_ == nullptr) return;
  SYSTOLIC_Event_Destroy_Args args{SYSTOLIC_Event_Destroy_Args_STRUCT_SIZE, nullptr, event_};
  plugin_->ToStatus(plugin_->api()->Event_Destroy(&args)).IgnoreError();
  event_ = nullptr;
}

bool Event::IsReady() const {
  if (event_ == nullptr) return true;
  SYSTOLIC_Event_IsReady_Args args{SYSTOLIC_Event_IsReady_Args_STRUCT_SIZE, nullptr, event_, false};
  if (!plugin_->ToStatus(plugin_->api()->Event_IsReady(&args)).ok()) return true;
  return args.is_ready;
}

absl::Status Event::Await() const {
  if (event_ == nullptr) return status_;
  SYSTOLIC_Event_Await_Args args{SYSTOLIC_Event_Await_Args_STRUCT_SIZE, nullptr, event_};
  return plugin_->ToStatus(plugin_->api()->Event_Await(&args));
}

namespace {

struct CallbackState {
  const Plugin* plugin;
  std::function<void(absl::Status)> callback;
};

void RunCallback(SYSTOLIC_Error* error, void* user_arg) {
  std::unique_ptr<CallbackState> state(static_cast<CallbackState*>(user_arg));
  state->callback(state->plugin->ToStatus(error));
}

}  // namespace

void Event::OnReady(std::function<void(absl::Status)> callback) const {
  if (event_ == nullptr) {
    callback(status_);
    return;
  }
  auto* state = new CallbackState{plugin_, std::move(callback)};
  SYSTOLIC_Event_OnReady_Args args{SYSTOLIC_Event_OnReady_Args_STRUCT_SIZE, nullptr, event_,
                                   &RunCallback, state};
  absl::Status status = plugin_->ToStatus(plugin_->api()->Event_OnReady(&args));
  if (!status.ok()) {
    std::unique_ptr<CallbackState> owned(state);
    owned->callback(status);
  }
}

}  // namespace systolic::runtime
