// The meeting point of the devices of an SPMD evaluation. Each execution of a
// collective is a round: every participant brings its contribution and
// blocks until all have arrived, then each reads all contributions in group
// order. A device that fails or finishes without joining a round, and devices
// that wait on one another in a cycle, end the rounds with an error instead
// of hanging.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/hlo/literal.h"

namespace systolic::eval {

class CollectiveRendezvous {
 public:
  explicit CollectiveRendezvous(int64_t device_count);

  // `key` names the round (the same on every participant); `participants`
  // are global device ids in group order and include `device`.
  absl::StatusOr<std::shared_ptr<const std::vector<Literal>>> Exchange(
      const std::string& key, absl::Span<const int64_t> participants, int64_t device,
      Literal contribution);

  // `device` ran to the end (or failed with `status`): rounds waiting on it
  // fail.
  void DeviceFinished(int64_t device, const absl::Status& status);

 private:
  enum class State { kRunning, kWaiting, kFinished };
  struct Round {
    std::vector<int64_t> participants;
    std::vector<Literal> contributions;
    std::vector<bool> arrived;
    int64_t arrived_count = 0;
    int64_t taken = 0;
    std::shared_ptr<const std::vector<Literal>> result;
  };
  // With mu_ held: the first reason the round cannot complete, if any.
  absl::Status BlockedReason(const Round& round, const std::string& key) const;

  std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, Round> rounds_;
  std::vector<State> state_;
  absl::Status failure_;
};

}  // namespace systolic::eval
