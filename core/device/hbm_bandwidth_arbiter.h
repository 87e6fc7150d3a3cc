// How the chip's HBM bandwidth is split among the DMA transfers running at
// once: max-min fair (water-filling). Each transfer gets an equal share,
// capped by its own engine's rate; what a capped one leaves goes to the rest.
#pragma once

#include <vector>

#include "absl/types/span.h"

namespace systolic::device {

class HbmBandwidthArbiter {
 public:
  explicit HbmBandwidthArbiter(double bytes_per_cycle) : bytes_per_cycle_(bytes_per_cycle) {}

  // Rates (bytes per cycle) for transfers whose engines can do at most
  // `caps[i]`; their sum never exceeds the HBM bandwidth.
  std::vector<double> Share(absl::Span<const double> caps) const;

 private:
  double bytes_per_cycle_;
};

}  // namespace systolic::device
