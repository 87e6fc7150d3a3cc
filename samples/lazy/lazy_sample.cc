#include "samples/lazy/lazy_sample.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace systolic::samples {
const std::vector<LazySample>& LazySamples() {
  static const auto* samples = new std::vector<LazySample>{
      CnnEdgeSample(), MlpDdpSample(), MlpSpmdSample(), TransformerFsdpSample(),
      TransformerScanSample()};
  return *samples;
}

const LazySample* FindLazySample(absl::string_view name) {
  for (const LazySample& s : LazySamples()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string TrainingLog::ToString() const {
  std::string out = absl::StrCat(sample, " on ", topology, " (", devices, " devices)\n");
  for (const TrainingStep& s : steps) {
    absl::StrAppend(&out, absl::StrFormat("step %3d  batch %4d  loss %.6f\n", s.step,
                                          s.batch_size, s.loss));
  }
  int64_t misses = 0;
  for (const trace::CompileEvent& e : compile_events) misses += !e.cache_hit;
  absl::StrAppend(&out, "compiles: ", misses, " of ", compile_events.size(), " requests\n");
  for (const trace::CompileEvent& e : compile_events) {
    if (e.cache_hit) continue;
    absl::StrAppend(&out, absl::StrFormat("  step %d program %d: %s (%s)\n", e.step, e.program_id,
                                          trace::CauseWithKind(e), e.source));
  }
  for (const std::string& w : warnings) absl::StrAppend(&out, "warning: ", w, "\n");
  return out;
}

}  // namespace systolic::samples
