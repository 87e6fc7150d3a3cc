#include "core/device/hbm_bandwidth_arbiter.h"

#include <algorithm>
#include <numeric>

namespace systolic::device {

std::vector<double> HbmBandwidthArbiter::Share(absl::Span<const double> caps) const {
  std::vector<double> rates(caps.size());
  std::vector<size_t> order(caps.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return caps[a] < caps[b]; });
  // Smallest caps first: a transfer that cannot use its fair share returns
  // the rest to those after it.
  double left = bytes_per_cycle_;
  for (size_t n = 0; n < order.size(); ++n) {
    const double fair = left / double(order.size() - n);
    const double rate = std::min(caps[order[n]], fair);
    rates[order[n]] = rate;
    left -= rate;
  }
  return rates;
}

}  // namespace systolic::device
