#include "core/eval/collective_rendezvous.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace systolic::eval {

CollectiveRendezvous::CollectiveRendezvous(int64_t device_count)
    : state_(size_t(std::max<int64_t>(device_count, 0)), State::kRunning) {}

absl::Status CollectiveRendezvous::BlockedReason(const Round& round, const std::string& key) const {
  for (size_t i = 0; i < round.participants.size(); ++i) {
    const int64_t p = round.participants[i];
    if (!round.arrived[i] && state_[p] == State::kFinished) {
      return absl::FailedPreconditionError(absl::StrCat(
          "collective ", key, ": device ", p, " finished without joining it (devices {",
          absl::StrJoin(round.participants, ","), "})"));
    }
  }
  // Every live device blocked: nothing can complete this round.
  bool any_running = false;
  for (State s : state_) any_running = any_running || s == State::kRunning;
  if (!any_running) {
    return absl::FailedPreconditionError(absl::StrCat(
        "collective ", key, ": every device is waiting on another (devices {",
        absl::StrJoin(round.participants, ","), "} never all arrive)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const std::vector<Literal>>> CollectiveRendezvous::Exchange(
    const std::string& key, absl::Span<const int64_t> participants, int64_t device,
    Literal contribution) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  auto position = std::find(participants.begin(), participants.end(), device);
  if (device < 0 || device >= int64_t(state_.size()) || position == participants.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("collective ", key, ": device ", device, " is not among its participants"));
  }
  for (int64_t p : participants) {
    if (p < 0 || p >= int64_t(state_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("collective ", key, " names device ", p,
                                                     " of ", state_.size()));
    }
  }
  Round& round = rounds_[key];
  if (round.participants.empty()) {
    round.participants.assign(participants.begin(), participants.end());
    round.contributions.resize(participants.size());
    round.arrived.assign(participants.size(), false);
  } else if (!std::equal(participants.begin(), participants.end(), round.participants.begin(),
                         round.participants.end())) {
    failure_ = absl::InvalidArgumentError(absl::StrCat(
        "collective ", key, ": devices disagree on the group ({",
        absl::StrJoin(round.participants, ","), "} vs {", absl::StrJoin(participants, ","), "})"));
    cv_.notify_all();
    return failure_;
  }
  const size_t index = size_t(position - participants.begin());
  if (round.arrived[index]) {
    return absl::InternalError(absl::StrCat("collective ", key, ": device ", device, " arrived twice"));
  }
  round.contributions[index] = std::move(contribution);
  round.arrived[index] = true;
  ++round.arrived_count;
  if (round.arrived_count == int64_t(participants.size())) {
    round.result = std::make_shared<const std::vector<Literal>>(std::move(round.contributions));
    // The waiters are running again as of now (for the deadlock check).
    for (int64_t p : round.participants) {
      if (p != device && state_[p] == State::kWaiting) state_[p] = State::kRunning;
    }
    cv_.notify_all();
  } else {
    state_[device] = State::kWaiting;
    while (round.result == nullptr && failure_.ok()) {
      absl::Status blocked = BlockedReason(round, key);
      if (!blocked.ok()) {
        failure_ = blocked;
        cv_.notify_all();
        break;
      }
      cv_.wait(lock);
    }
    if (state_[device] == State::kWaiting) state_[device] = State::kRunning;
  }
  std::shared_ptr<const std::vector<Literal>> result = round.result;
  if (result == nullptr) return failure_;
  if (++round.taken == int64_t(round.participants.size())) rounds_.erase(key);
  return result;
}

void CollectiveRendezvous::DeviceFinished(int64_t device, const absl::Status& status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (device >= 0 && device < int64_t(state_.size())) state_[device] = State::kFinished;
  if (!status.ok() && failure_.ok()) {
    failure_ = absl::Status(status.code(),
                            absl::StrCat("device ", device, " failed: ", status.message()));
  }
  cv_.notify_all();
}

}  // namespace systolic::eval
