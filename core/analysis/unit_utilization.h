// Utilisation over time of a chip's units, per core and unit kind (MXU,
// vector, DMA, ICI), as the studio's utilisation chart draws it: the
// chip's time span cut into equal buckets, each bucket the fraction of the
// kind's units that were busy in it (four MXUs half busy: 0.5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/timeline.h"

namespace systolic::analysis {

struct UtilizationSeries {
  int32_t core = 0;
  trace::LaneKind kind = trace::LaneKind::kOther;
  std::string name;  // "core 0 · MXU"
  int32_t units = 0;  // lanes of this kind on the core
  std::vector<double> busy;  // per bucket, 0..1
  double mean = 0;           // over the span
};

struct UnitUtilization {
  int64_t start_ps = 0;
  int64_t bucket_ps = 0;
  std::vector<UtilizationSeries> series;  // by core, then MXU, vector, DMA, ICI
};

// The units of chip plane `plane` (its lanes with a core) over its span in
// `buckets` buckets; empty when the plane has no unit lanes or no events.
UnitUtilization UnitUtilizationOf(const trace::Timeline& timeline, int32_t plane, int buckets);

}  // namespace systolic::analysis
