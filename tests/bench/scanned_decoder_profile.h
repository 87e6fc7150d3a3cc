// The benchmarks' real-sized profile: the bundled scanned decoder training
// step (samples/hlo/scanned_decoder_step_spmd.hlo: 8 layers run by scanned
// forward and rematerialising backward loops, FSDP over 8 chips) compiled
// for v5p and simulated for enough steps to pass a million events, with
// every lane and flow a real run leaves. Built once per process.
#pragma once

#include "core/trace/profile.h"

namespace systolic::bench {

// Steps simulated: 3 x ~425K events.
inline constexpr int64_t kScannedDecoderSteps = 3;

// Null (with the reason on stderr) if the sample cannot be read or run.
const trace::Profile* ScannedDecoderProfile();

}  // namespace systolic::bench
