// Profiles built in code for the view tests, the screenshots and the
// benchmarks: the mlp_layer sample before and after a fusion pass (with
// provenance as the compiler records it) and a run of it on a 2x2 torus —
// per-core MXU, vector and DMA lanes, ICI links, events named after the
// fused instructions with their stats, flows of the collectives, steps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/hlo/hlo_module.h"
#include "core/trace/profile.h"

namespace systolic::views::testing {

// samples/hlo/mlp_layer.hlo after fusion: six fusions of the dense layer,
// the softmax and the loss.
extern const char kFusedMlpLayer[];

// The module of samples/hlo/mlp_layer.hlo.
std::unique_ptr<HloModule> LoadMlpLayer();

// Gives every instruction of `fused` the ids and provenance a fusion pass
// would: ids past the input's; an instruction named like one of `input`
// (with a ".N" suffix or not, in the computation of the same name or else
// the entry) comes from it; a fusion from everything it fused.
void AssignProvenanceByName(HloModule* fused, const HloModule& input);

struct TestProfileOptions {
  int chips = 4;
  int steps = 6;
  // Repetitions of the program's ops per step (more events per lane).
  int repeats_per_step = 1;
};

// The mlp_layer program (input, dce, priority-fusion) and its run.
trace::Profile MakeMlpProfile(const TestProfileOptions& options = {});

// Writes MakeMlpProfile(options) to `path`.
bool WriteMlpProfile(const std::string& path, const TestProfileOptions& options = {});

}  // namespace systolic::views::testing
