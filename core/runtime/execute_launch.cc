#include "core/runtime/execute_launch.h"

#include "absl/strings/str_cat.h"

namespace systolic::runtime {

ExecuteLaunch::ExecuteLaunch(std::shared_ptr<const LocalExecutable> executable, Backend* backend,
                             std::vector<Participant> participants)
    : executable_(std::move(executable)),
      backend_(backend),
      participants_(std::move(participants)) {}

absl::Status ExecuteLaunch::AwaitArguments(int p) {
  const std::vector<BufferUse>& arguments = participants_[p].arguments;
  for (size_t i = 0; i < arguments.size(); ++i) {
    absl::Status status = arguments[i].ready->Await();
    if (!status.ok()) {
      // The first failure upstream reaches everything that depends on it,
      // with the original message kept for the user.
      return absl::Status(status.code(),
                          absl::StrCat(executable_->Label(), ": argument ", i,
                                       " has no value because its producer failed: ",
                                       status.message()));
    }
  }
  return absl::OkStatus();
}

void ExecuteLaunch::Run(int p) {
  absl::Status status = AwaitArguments(p);
  std::unique_lock<std::mutex> lock(mu_);
  if (!status.ok() && argument_error_.ok()) argument_error_ = status;
  if (++arrived_ < int(participants_.size())) {
    // The device stays busy with this launch until the program has run.
    cv_.wait(lock, [this] { return finished_; });
    return;
  }
  absl::Status result = argument_error_;
  lock.unlock();
  if (result.ok()) result = RunProgram();
  Finish(result);
}

absl::Status ExecuteLaunch::RunProgram() {
  const LocalExecutable& executable = *executable_;
  std::vector<std::vector<const Literal*>> arguments(participants_.size());
  std::vector<Literal> tuple_storage;
  tuple_storage.reserve(participants_.size() * executable.module().entry_computation()->num_parameters());
  for (size_t p = 0; p < participants_.size(); ++p) {
    std::vector<const Literal*> leaves;
    for (const BufferUse& use : participants_[p].arguments) leaves.push_back(&use.value->literal);
    arguments[p] = executable.AssembleParameters(leaves, &tuple_storage);
  }
  std::vector<ExecutionTiming> timings;
  absl::StatusOr<std::vector<Literal>> results =
      backend_->Execute(executable.compiled(), executable.module(), arguments, &timings);
  if (!results.ok()) {
    return absl::Status(results.status().code(),
                        absl::StrCat(executable.Label(), " failed: ", results.status().message()));
  }
  if (results->size() != participants_.size()) {
    return absl::InternalError(absl::StrCat(executable.Label(), ": the backend returned ",
                                            results->size(), " results for ",
                                            participants_.size(), " devices"));
  }
  for (size_t p = 0; p < participants_.size(); ++p) {
    std::vector<Literal> leaves = LocalExecutable::SplitResult(std::move((*results)[p]));
    if (leaves.size() != participants_[p].outputs.size()) {
      return absl::InternalError(absl::StrCat(executable.Label(), ": the program produced ",
                                              leaves.size(), " outputs, expected ",
                                              participants_[p].outputs.size()));
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      participants_[p].outputs[i]->literal = std::move(leaves[i]);
    }
    if (p < timings.size()) executable.devices()[p]->set_last_timing(std::move(timings[p]));
  }
  return absl::OkStatus();
}

void ExecuteLaunch::Finish(const absl::Status& status) {
  for (Participant& participant : participants_) participant.done->Set(status);
  {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
  }
  cv_.notify_all();
}

}  // namespace systolic::runtime
