// What the recompilations view says about a profile's compile events: each
// compile with its cause in words and the kind of cause, compiles and
// compile time per step, and whether the program keeps recompiling (and
// for what reason most often), as PyTorch/XLA users ask.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

struct StepCompiles {
  int64_t step = 0;
  int64_t misses = 0;
  int64_t hits = 0;
  int64_t compile_time_ns = 0;
  friend bool operator==(const StepCompiles&, const StepCompiles&) = default;
};

struct CauseCount {
  std::string kind;
  int64_t count = 0;
  std::string example;  // the latest cause of this kind, in words
  friend bool operator==(const CauseCount&, const CauseCount&) = default;
};

struct RecompilationReport {
  std::vector<StepCompiles> steps;  // ascending step; events without a step are left out
  int64_t misses = 0;
  int64_t hits = 0;
  // Misses beyond the first compile of each program name.
  int64_t recompiles = 0;
  int64_t compile_time_ns = 0;
  std::vector<CauseCount> recompile_causes;  // most frequent first
  // Recompiles happen in at least kKeepsRecompilingSteps different steps.
  bool keeps_recompiling = false;
  // "mlp_layer recompiled 5 times in 5 steps; top cause: argument shape (5×), e.g. …"
  std::string banner;
};

inline constexpr int64_t kKeepsRecompilingSteps = 2;

RecompilationReport ReportRecompilations(const trace::Profile& profile);

// The program a miss compiled and the one it was compared with (null when
// either is not in the profile).
struct ComparedPrograms {
  const trace::ProgramRecord* now = nullptr;
  const trace::ProgramRecord* before = nullptr;
};
ComparedPrograms ProgramsOfMiss(const trace::Profile& profile, const trace::CompileEvent& event);

}  // namespace systolic::analysis
