// Feeds arbitrary text to the chip spec loader (the text a user's
// --chip FILE holds). Nothing may crash; a spec that loads must print and
// load back to the same spec.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/device/chip_spec_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<systolic::device::ChipSpec> spec = systolic::device::ParseChipSpec(text, "fuzz");
  if (!spec.ok()) return 0;
  const std::string printed = systolic::device::ChipSpecToText(*spec);
  absl::StatusOr<systolic::device::ChipSpec> again =
      systolic::device::ParseChipSpec(printed, "printed");
  if (!again.ok() || again->SerializeAsString() != spec->SerializeAsString()) {
    std::fprintf(stderr, "a chip spec does not load back as printed: %s\n",
                 again.ok() ? "it differs" : std::string(again.status().message()).c_str());
    std::abort();
  }
  return 0;
}
