// Feeds arbitrary text to the StableHLO parser and importer. Nothing may
// crash; a module that imports is verified, and its HLO text must survive
// a print / parse round trip (it is what the studio shows and saves).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/hlo/hlo_file.h"
#include "core/stablehlo/stablehlo_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = systolic::stablehlo::ParseStableHlo(text, "fuzz.mlir");
  if (!module.ok()) return 0;
  absl::Status round_trip = systolic::CheckTextRoundTrip(**module);
  if (!round_trip.ok()) {
    std::fprintf(stderr, "an imported module does not round-trip: %s\n",
                 std::string(round_trip.message()).c_str());
    std::abort();
  }
  return 0;
}
