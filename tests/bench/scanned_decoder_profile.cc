#include "tests/bench/scanned_decoder_profile.h"

#include <cstdio>
#include <string>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/hlo/hlo_file.h"

namespace systolic::bench {

const trace::Profile* ScannedDecoderProfile() {
  static const trace::Profile* profile = []() -> const trace::Profile* {
    const std::string path =
        std::string(SYSTOLIC_BENCH_SAMPLES_DIR) + "/hlo/scanned_decoder_step_spmd.hlo";
    auto loaded = LoadHloFile(path, /*verify=*/true);
    absl::Status status = loaded.ok() ? absl::OkStatus() : loaded.status();
    if (status.ok() && (loaded->empty() || !(*loaded)[0].module.ok())) {
      status = loaded->empty() ? absl::NotFoundError("no module") : (*loaded)[0].module.status();
    }
    absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec("v5p");
    if (status.ok()) status = chip.status();
    if (!status.ok()) {
      std::fprintf(stderr, "scanned decoder sample: %s\n", std::string(status.message()).c_str());
      return nullptr;
    }
    absl::StatusOr<trace::Profile> made = device::CompileRunAndProfile(
        **(*loaded)[0].module, *chip, {}, kScannedDecoderSteps, "systolic bench");
    if (!made.ok()) {
      std::fprintf(stderr, "scanned decoder sample: %s\n", std::string(made.status().message()).c_str());
      return nullptr;
    }
    return new trace::Profile(*std::move(made));
  }();
  return profile;
}

}  // namespace systolic::bench
