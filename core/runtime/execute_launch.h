// One execute of an executable on all its devices. Each participating
// device's worker runs its part: it waits for that device's arguments, then
// meets the other participants (a replicated or partitioned program runs as
// one, since its collectives need every participant); the last to arrive
// runs the backend for all and publishes every output, or the first error,
// to all participants' buffers and events.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "core/runtime/backend.h"
#include "core/runtime/local_buffer.h"
#include "core/runtime/local_executable.h"

namespace systolic::runtime {

class ExecuteLaunch {
 public:
  struct Participant {
    std::vector<BufferUse> arguments;  // leaves, in parameter order
    std::vector<std::shared_ptr<BufferValue>> outputs;
    AsyncEventPtr done;  // the outputs' ready event
  };

  ExecuteLaunch(std::shared_ptr<const LocalExecutable> executable, Backend* backend,
                std::vector<Participant> participants);

  // Runs participant `p`'s part; blocks until the whole launch is done.
  void Run(int p);

 private:
  // Waits for participant p's arguments; the first error, if any.
  absl::Status AwaitArguments(int p);
  // Runs the backend for every participant; fills outputs.
  absl::Status RunProgram();
  void Finish(const absl::Status& status);

  const std::shared_ptr<const LocalExecutable> executable_;
  Backend* const backend_;
  std::vector<Participant> participants_;

  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  bool finished_ = false;
  absl::Status argument_error_;
};

}  // namespace systolic::runtime
