#include "core/runtime/cpu_backend.h"

#include "absl/strings/str_cat.h"
#include "core/runtime/evaluator_runner.h"

namespace systolic::runtime {
namespace {

// The module carries everything the evaluator needs.
class CpuExecutable : public BackendExecutable {
 public:
  CpuExecutable(int64_t replicas, int64_t partitions)
      : replicas_(replicas), partitions_(partitions) {}
  int64_t replicas() const { return replicas_; }
  int64_t partitions() const { return partitions_; }

 private:
  int64_t replicas_, partitions_;
};

class CpuBackend : public Backend {
 public:
  std::string platform_name() const override { return "cpu"; }
  std::string platform_version() const override { return "reference evaluator"; }
  std::string timing_support() const override { return "none"; }

  absl::StatusOr<BackendPlatform> Configure(const ClientConfig& config) override {
    if (!config.topology.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the cpu plugin has no topologies (got '", config.topology,
          "'): use num_devices, or the systolic plugin for chips"));
    }
    BackendPlatform platform;
    int64_t n = config.num_devices > 0 ? config.num_devices : 1;
    for (int64_t i = 0; i < n; ++i) {
      BackendDevice device;
      device.kind = "cpu";
      device.memory_limit_bytes = 0;
      device.memory_kind = "device";
      platform.devices.push_back(device);
    }
    platform.topology.platform_name = "cpu";
    platform.topology.chip = "host";
    platform.topology.cores_per_chip = n;
    return platform;
  }

  absl::StatusOr<std::shared_ptr<const HloModule>> ProgramForParticipants(
      std::shared_ptr<const HloModule> module, const CompileOptions& options) override {
    return PartitionedProgram(std::move(module), options);
  }

  absl::StatusOr<std::unique_ptr<BackendExecutable>> Compile(
      const HloModule& module, const CompileOptions& options) override {
    if (module.entry_computation() == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("module '", module.name(), "' has no entry computation"));
    }
    return std::make_unique<CpuExecutable>(options.num_replicas, options.num_partitions);
  }

  absl::StatusOr<std::vector<Literal>> Execute(
      const BackendExecutable& executable, const HloModule& module,
      const std::vector<std::vector<const Literal*>>& arguments,
      std::vector<ExecutionTiming>* timings) override {
    const auto& cpu = static_cast<const CpuExecutable&>(executable);
    timings->assign(arguments.size(),
                    ExecutionTiming{false, 0, 0, "the cpu plugin does not time programs"});
    return RunOnEvaluator(module, arguments, cpu.replicas(), cpu.partitions());
  }
};

}  // namespace

std::unique_ptr<Backend> NewCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace systolic::runtime
