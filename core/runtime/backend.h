// What a plugin's device does, behind the runtime engine: describe its
// devices, compile a module, run a compiled module on argument values. The
// engine (LocalClient) adds everything else — buffers, futures, workers,
// memory accounting, donation, the compile cache — so a backend is only the
// part that differs between the reference evaluator, the simulated chip and
// the test backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/literal.h"
#include "core/runtime/compile_options.h"
#include "core/runtime/topology_description.h"

namespace systolic::runtime {

// Options a client is created with ("chip", "num_devices", "topology",
// "memory_limit_bytes"), already parsed.
struct ClientConfig {
  std::string chip;      // "" = the backend's default
  std::string topology;  // "" = one chip
  int64_t num_devices = 0;         // 0 = the backend's default
  int64_t memory_limit_bytes = -1;  // -1 = the chip's HBM (0 = unlimited)
};

struct BackendDevice {
  std::string kind;
  ChipCoords coords = {0, 0, 0};
  int64_t core_on_chip = 0;
  int64_t memory_limit_bytes = 0;  // 0 = unlimited
  std::string memory_kind = "device";  // "hbm" on the chip
};

struct BackendPlatform {
  std::vector<BackendDevice> devices;
  TopologyDescription topology;
};

// Simulated time of one execution on one device.
struct ExecutionTiming {
  bool available = false;
  int64_t cycles = 0;
  int64_t time_ps = 0;
  std::string note;  // why timing is unavailable, or how it was obtained
};

class BackendExecutable {
 public:
  virtual ~BackendExecutable() = default;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string platform_name() const = 0;
  virtual std::string platform_version() const = 0;
  // "none", "simulated", or "pending: <why>".
  virtual std::string timing_support() const = 0;

  // Called once, before anything else.
  virtual absl::StatusOr<BackendPlatform> Configure(const ClientConfig& config) = 0;

  // The program every participant runs, when it differs from the module
  // compiled: a module laid out across partitions by sharding annotations
  // becomes the per-partition program, whose parameters and results are
  // the shards (as a PJRT client's SPMD executables take and return them).
  // Default: the module itself.
  virtual absl::StatusOr<std::shared_ptr<const HloModule>> ProgramForParticipants(
      std::shared_ptr<const HloModule> module, const CompileOptions& options) {
    (void)options;
    return module;
  }

  // `options` are resolved (no zeros, a full device assignment); `module` is
  // what ProgramForParticipants returned.
  virtual absl::StatusOr<std::unique_ptr<BackendExecutable>> Compile(
      const HloModule& module, const CompileOptions& options) = 0;

  // arguments[p][i] is parameter i of participant p (p = replica *
  // num_partitions + partition); returns each participant's root value.
  // `timings` receives one entry per participant. May run on any worker
  // thread, concurrently with other calls for other executables.
  virtual absl::StatusOr<std::vector<Literal>> Execute(
      const BackendExecutable& executable, const HloModule& module,
      const std::vector<std::vector<const Literal*>>& arguments,
      std::vector<ExecutionTiming>* timings) = 0;
};

}  // namespace systolic::runtime
