#include "core/runtime/systolic_backend.h"

#include "absl/strings/str_cat.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/device_plan.h"
#include "core/device/program_run.h"
#include "core/device/slice.h"
#include "core/hlo/status_macros.h"
#include "core/runtime/evaluator_runner.h"

namespace systolic::runtime {
namespace {

constexpr char kDefaultChip[] = "v4";
constexpr char kTimingNote[] =
    "simulated: each executable is compiled for the chip, lowered onto its units and "
    "simulated once; values come from the reference evaluator";

class SystolicExecutable : public BackendExecutable {
 public:
  SystolicExecutable(device::ChipSpec spec, int64_t replicas, int64_t partitions,
                     ExecutionTiming timing)
      : spec_(std::move(spec)),
        replicas_(replicas),
        partitions_(partitions),
        timing_(std::move(timing)) {}
  const device::ChipSpec& spec() const { return spec_; }
  int64_t replicas() const { return replicas_; }
  int64_t partitions() const { return partitions_; }
  // The same every execution: the simulated program does not depend on values.
  const ExecutionTiming& timing() const { return timing_; }

 private:
  device::ChipSpec spec_;
  int64_t replicas_, partitions_;
  ExecutionTiming timing_;
};

ExecutionTiming Unavailable(const absl::Status& why) {
  return ExecutionTiming{false, 0, 0, absl::StrCat("no simulated time: ", why.message())};
}

ExecutionTiming Simulated(const device::ProgramTiming& t, const std::string& where) {
  return ExecutionTiming{true, t.cycles, int64_t(t.seconds * 1e12),
                         absl::StrCat("simulated on ", where, ": ", t.cycles, " cycles, ",
                                      t.ops.size(), " kernels")};
}

// The simulated time of `module` on one chip, or (several devices) on the
// client's slice when it has a chip per device, else on the squarest slice
// that holds them; unavailable (with the reason) when the module cannot be
// compiled or lowered, which does not stop its values.
ExecutionTiming SimulateTiming(const HloModule& module, const device::ChipSpec& spec,
                               const std::array<int64_t, 3>& bounds, SpmdDeviceCounts devices) {
  device::RunRequest request;
  request.devices.replicas = devices.replicas;
  request.devices.partitions = devices.partitions;
  if (devices.replicas * devices.partitions > 1) {
    auto client_slice = device::MakeSlice(spec, {bounds.begin(), bounds.end()});
    if (client_slice.ok() &&
        client_slice->topology.chip_count() >= devices.replicas * devices.partitions) {
      request.devices.topology = *std::move(client_slice);
    }
  }
  auto run = device::CompileAndRun(module.Clone(), spec, std::move(request));
  if (!run.ok()) return Unavailable(run.status());
  return Simulated(run->timing(), run->TargetName());
}

class SystolicBackend : public Backend {
 public:
  std::string platform_name() const override { return "systolic"; }
  std::string platform_version() const override {
    return absl::StrCat("simulated ", spec_.name().empty() ? kDefaultChip : spec_.name(),
                        " (values: reference evaluator)");
  }
  std::string timing_support() const override { return kTimingNote; }

  absl::StatusOr<BackendPlatform> Configure(const ClientConfig& config) override {
    device::TopologyText topology;
    if (!config.topology.empty()) {
      SYSTOLIC_ASSIGN_OR_RETURN(topology, device::ParseTopologyText(config.topology));
      if (topology.slices > 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology '", config.topology,
            "': the runtime's devices form one slice; several slices are simulated by "
            "`systolic run --topology` and `systolic reproduce`"));
      }
    }
    std::string chip = config.chip;
    if (chip.empty()) chip = topology.chip.empty() ? kDefaultChip : topology.chip;
    if (!topology.chip.empty() && topology.chip != chip) {
      return absl::InvalidArgumentError(absl::StrCat("topology '", config.topology,
                                                     "' is of chip ", topology.chip,
                                                     ", the client's chip is ", chip));
    }
    SYSTOLIC_ASSIGN_OR_RETURN(spec_, device::LoadChipSpec(chip));
    chip_ = chip;
    int64_t cores = spec_.tensor_cores_per_chip();
    if (config.num_devices > 0) {
      if (!config.topology.empty()) {
        return absl::InvalidArgumentError("give a topology or num_devices, not both");
      }
      // Chips in a row, enough for the cores asked for.
      topology.bounds = {(config.num_devices + cores - 1) / cores, 1, 1};
    }
    BackendPlatform platform;
    platform.topology.platform_name = "systolic";
    platform.topology.chip = chip;
    platform.topology.bounds = topology.bounds;
    bounds_ = topology.bounds;
    platform.topology.cores_per_chip = cores;
    bool torus_3d = spec_.ici().topology() == device::TORUS_3D;
    bool torus_2d = spec_.ici().topology() == device::TORUS_2D;
    for (int axis = 0; axis < 3; ++axis) {
      platform.topology.wraparound[axis] =
          topology.bounds[axis] > 2 && (torus_3d || (torus_2d && axis < 2));
    }
    int64_t limit = device::HbmBytes(spec_) / cores;
    int64_t wanted = config.num_devices > 0 ? config.num_devices : platform.topology.num_cores();
    for (int64_t z = 0; z < topology.bounds[2]; ++z) {
      for (int64_t y = 0; y < topology.bounds[1]; ++y) {
        for (int64_t x = 0; x < topology.bounds[0]; ++x) {
          for (int64_t core = 0; core < cores; ++core) {
            if (int64_t(platform.devices.size()) == wanted) break;
            BackendDevice device;
            device.kind = absl::StrCat("systolic ", spec_.name(), " core");
            device.coords = {x, y, z};
            device.core_on_chip = core;
            device.memory_limit_bytes = limit;
            device.memory_kind = "hbm";
            platform.devices.push_back(device);
          }
        }
      }
    }
    return platform;
  }

  absl::StatusOr<std::shared_ptr<const HloModule>> ProgramForParticipants(
      std::shared_ptr<const HloModule> module, const CompileOptions& options) override {
    return PartitionedProgram(std::move(module), options);
  }

  absl::StatusOr<std::unique_ptr<BackendExecutable>> Compile(
      const HloModule& module, const CompileOptions& options) override {
    device::ChipSpec spec = spec_;
    if (!options.chip.empty() && options.chip != chip_) {
      SYSTOLIC_ASSIGN_OR_RETURN(spec, device::LoadChipSpec(options.chip));
    }
    // 0 replicas or partitions: the module's.
    device::DeviceRequest request;
    if (options.num_replicas > 0) request.replicas = options.num_replicas;
    if (options.num_partitions > 0) request.partitions = options.num_partitions;
    SYSTOLIC_ASSIGN_OR_RETURN(SpmdDeviceCounts counts, device::DeviceCountsFor(module, request));
    ExecutionTiming timing = SimulateTiming(module, spec, bounds_, counts);
    return std::make_unique<SystolicExecutable>(std::move(spec), options.num_replicas,
                                                options.num_partitions, std::move(timing));
  }

  absl::StatusOr<std::vector<Literal>> Execute(
      const BackendExecutable& executable, const HloModule& module,
      const std::vector<std::vector<const Literal*>>& arguments,
      std::vector<ExecutionTiming>* timings) override {
    const auto& systolic = static_cast<const SystolicExecutable&>(executable);
    timings->assign(arguments.size(), systolic.timing());
    return RunOnEvaluator(module, arguments, systolic.replicas(), systolic.partitions());
  }

 private:
  std::string chip_;
  device::ChipSpec spec_;
  std::array<int64_t, 3> bounds_ = {1, 1, 1};  // the client's chips per axis
};

}  // namespace

std::unique_ptr<Backend> NewSystolicBackend() { return std::make_unique<SystolicBackend>(); }

}  // namespace systolic::runtime
