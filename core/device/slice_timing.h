// The simulated time of a compiled program on a slice of chips. Every
// device runs the same program (SPMD), so one chip's simulation stands for
// each of them; each collective takes what the ICI simulation of its
// transfers on the slice gives, charged on every core's ICI unit (see
// hlo_lowering.h). Device d runs on chip d.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compiler/compiler.h"
#include "core/device/collective_lowering.h"
#include "core/device/program_timing.h"
#include "core/device/slice.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_module.h"

namespace systolic::device {

struct SliceTiming {
  std::string slice;  // "v4:2x2x2"
  SpmdDeviceCounts devices;
  ProgramTiming chip;                        // one device's run, collectives included
  std::vector<CollectiveTiming> collectives;  // of the entry computation's program
  int64_t device_count() const { return devices.replicas * devices.partitions; }
  // The cycle at which `instruction` started on the chip; -1 if it ran no op.
  int64_t StartCycleOf(const std::string& instruction) const;
};

// `devices` defaults to what the module needs (RequiredDeviceCounts).
// Errors: more devices than the slice has chips, and those of lowering.
// `lowering`'s collective times are replaced by the slice's.
absl::StatusOr<SliceTiming> TimeCompiledModuleOnSlice(
    const HloModule& module, const Slice& slice,
    std::optional<SpmdDeviceCounts> devices = std::nullopt, LoweringOptions lowering = {});

struct TimedSliceCompilation {
  CompilationResult compilation;
  SliceTiming timing;
};

absl::StatusOr<TimedSliceCompilation> CompileAndTimeOnSlice(
    std::unique_ptr<HloModule> module, const Slice& slice,
    std::optional<SpmdDeviceCounts> devices = std::nullopt, CompileOptions options = {},
    const LoweringOptions& lowering = {});

}  // namespace systolic::device
