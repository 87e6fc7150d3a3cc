#include "core/device/program_run.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/compiler/spmd/partitioned_execution.h"
#include "core/eval/evaluation_memory.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_verifier.h"

namespace systolic::device {

const CompilationResult& ProgramRun::compilation() const {
  return on_slice ? on_slice->compilation : on_chip->compilation;
}

const ProgramTiming& ProgramRun::timing() const {
  return on_slice ? on_slice->timing.chip : on_chip->timing;
}

std::string ProgramRun::TargetName() const {
  return plan.slice ? plan.slice->Name() : chip.name();
}

trace::Profile ProgramRun::Profile(int64_t steps, const std::string& producer,
                                   const RunProgressCallback& progress) const {
  const std::string title = absl::StrCat(module_name, " on ", TargetName());
  if (on_slice) {
    return ProfileOfSliceRun(title, *plan.slice, on_slice->compilation, on_slice->timing, steps,
                             producer, progress);
  }
  return ProfileOfRun(title, chip, on_chip->compilation, on_chip->timing, steps, producer, progress);
}

namespace {

// The arguments as given, or random ones from `seed`: one list when whole
// values are split among the partitions, else one per device.
std::vector<std::vector<Literal>> ArgumentsFor(const HloComputation& entry,
                                               std::vector<std::vector<Literal>> given,
                                               uint64_t seed, int64_t lists) {
  if (!given.empty()) return given;
  std::vector<std::vector<Literal>> arguments;
  for (int64_t d = 0; d < lists; ++d) {
    arguments.push_back(MakeRandomArguments(entry, seed, uint64_t(d)));
  }
  return arguments;
}

}  // namespace

absl::StatusOr<ProgramRun> CompileAndRun(std::unique_ptr<HloModule> module, const ChipSpec& chip,
                                         RunRequest request,
                                         const RunProgressCallback& progress) {
  auto report = [&](double fraction, absl::string_view what) {
    return !progress || progress(fraction, what);
  };
  ProgramRun run;
  run.module_name = module->name();
  run.chip = chip;
  auto fail = [&](const absl::Status& status, absl::string_view what = "") {
    return absl::Status(status.code(),
                        absl::StrCat(run.module_name, ": ", what, status.message()));
  };
  const HloComputation* entry = module->entry_computation();
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(run.module_name, ": the module has no entry computation"));
  }
  absl::StatusOr<DevicePlan> plan = PlanDevices(*module, chip, request.devices);
  if (!plan.ok()) return plan.status();
  run.plan = *std::move(plan);
  const SpmdDeviceCounts counts = run.plan.counts;

  const bool recounted =
      module->replica_count() != counts.replicas || module->num_partitions() != counts.partitions;
  module->set_num_partitions(counts.partitions);
  module->set_replica_count(counts.replicas);
  // Collectives name the devices they span: a program asked to run on other
  // counts than its own is checked against them here, in the user's terms,
  // rather than failing in a pass of the compiler. (Its own counts were
  // checked when it was read.)
  if (recounted) {
    if (absl::Status fits = VerifyHloModule(*module); !fits.ok()) {
      return fail(fits, absl::StrCat("cannot run on ", counts.replicas * counts.partitions, " devices (",
                                     counts.replicas, " replicas × ", counts.partitions, " partitions): "));
    }
  }
  // With values, a module laid out across partitions runs partitioned: it
  // takes whole arguments, split by their shardings, and its results are
  // gathered.
  std::optional<SpmdSignature> signature;
  std::vector<std::vector<Literal>> arguments;
  if (request.compute_values) {
    absl::StatusOr<std::optional<SpmdSignature>> read = SpmdSignatureOf(*module, counts.partitions);
    if (!read.ok()) return fail(read.status());
    signature = *std::move(read);
    run.gathered = signature.has_value();
    // Before any argument is made: a partitioned run holds about one copy
    // of the values in shards, any other every device a copy of its own.
    if (absl::Status fits = eval::CheckEvaluationFits(*module, run.gathered ? 1 : run.plan.devices());
        !fits.ok()) {
      return fail(fits);
    }
    arguments = ArgumentsFor(*entry, std::move(request.arguments), request.seed,
                             run.gathered ? 1 : run.plan.devices());
  }
  std::unique_ptr<HloModule> original =
      request.compute_values && request.compare_reference ? module->Clone() : nullptr;

  if (!report(0.05, absl::StrCat("compiling for ", run.TargetName(), " and simulating"))) {
    return absl::CancelledError("cancelled before compiling");
  }
  if (run.plan.slice) {
    auto timed = CompileAndTimeOnSlice(std::move(module), *run.plan.slice, counts,
                                       request.compile, request.lowering);
    if (!timed.ok()) return fail(timed.status());
    run.on_slice = *std::move(timed);
  } else {
    auto timed = CompileAndTime(std::move(module), chip, request.compile, request.lowering);
    if (!timed.ok()) return fail(timed.status());
    run.on_chip = *std::move(timed);
  }
  if (!report(request.compute_values ? 0.6 : 1.0, absl::StrCat("simulated on ", run.TargetName()))) {
    return absl::CancelledError("cancelled after simulating");
  }
  if (!request.compute_values) return run;

  EvaluatorOptions options;
  options.rng_seed = request.seed;
  if (!report(0.6, "evaluating the values")) return absl::CancelledError("cancelled before evaluating");
  auto results = run.gathered
                     ? EvaluatePartitioned(*run.compilation().module, *signature, arguments[0],
                                           counts.replicas, options)
                     : EvaluateSpmd(*run.compilation().module, arguments, counts.replicas,
                                    counts.partitions, options);
  if (!results.ok()) return fail(results.status());
  run.results = *std::move(results);
  if (original) {
    if (!report(0.8, "reference")) return absl::CancelledError("cancelled before the reference");
    // The uncompiled module of a gathered run takes the whole arguments.
    auto reference = EvaluateSpmd(*original, arguments, counts.replicas,
                                  run.gathered ? 1 : counts.partitions, options);
    if (!reference.ok()) return fail(reference.status(), "reference: ");
    run.reference = *std::move(reference);
  }
  return run;
}

absl::StatusOr<trace::Profile> CompileRunAndProfile(const HloModule& module, const ChipSpec& chip,
                                                    const DeviceRequest& devices, int64_t steps,
                                                    const std::string& producer,
                                                    const RunProgressCallback& progress,
                                                    const LoweringOptions& lowering) {
  RunRequest request;
  request.devices = devices;
  request.lowering = lowering;
  // Compiling and simulating, then building the timeline of every chip
  // shown, which on a large slice is the longer part.
  constexpr double kRunShare = 0.4;
  bool cancelled = false;
  auto part = [&](double from, double share) -> RunProgressCallback {
    return [&progress, &cancelled, from, share](double fraction, absl::string_view what) {
      if (progress && !progress(from + share * fraction, what)) cancelled = true;
      return !cancelled;
    };
  };
  absl::StatusOr<ProgramRun> run = CompileAndRun(module.Clone(), chip, std::move(request), part(0, kRunShare));
  if (!run.ok()) return run.status();
  trace::Profile profile = run->Profile(steps, producer, part(kRunShare, 1 - kRunShare));
  if (cancelled) return absl::CancelledError("cancelled while building the timeline");
  if (progress) progress(1.0, "done");
  return profile;
}

}  // namespace systolic::device
