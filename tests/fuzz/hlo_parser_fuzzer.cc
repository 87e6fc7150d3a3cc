// Feeds arbitrary text to the HLO parser. Nothing may crash; a module that
// parses and verifies must also survive a print / parse round trip.
#include <cstdint>
#include <cstdlib>
#include <cstdio>

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = systolic::ParseAndReturnUnverifiedModule(text);
  if (!module.ok()) return 0;
  if (!systolic::VerifyHloModule(**module).ok()) return 0;
  absl::Status round_trip = systolic::CheckTextRoundTrip(**module);
  if (!round_trip.ok()) {
    std::fprintf(stderr, "verified module does not round-trip: %s\n",
                 std::string(round_trip.message()).c_str());
    std::abort();
  }
  return 0;
}
