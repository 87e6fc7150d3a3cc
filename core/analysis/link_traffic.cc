#include "core/analysis/link_traffic.h"

#include <algorithm>

namespace systolic::analysis {

LinkTrafficMap::PairKey LinkTrafficMap::Key(int32_t a, int32_t b, int32_t axis) {
  return {std::min(a, b), std::max(a, b), axis};
}

LinkTrafficMap::LinkTrafficMap(const trace::TopologyRecord& topology) {
  for (const trace::TopologyLink& link : topology.links) {
    LinkPairTraffic& pair = pairs_[Key(link.source_chip, link.target_chip, link.axis)];
    pair.bytes += link.bytes;
    pair.busy_ps = std::max(pair.busy_ps, link.busy_ps);
    busiest_bytes_ = std::max(busiest_bytes_, pair.bytes);
    busiest_busy_ps_ = std::max(busiest_busy_ps_, pair.busy_ps);
  }
}

LinkPairTraffic LinkTrafficMap::Between(int32_t a, int32_t b, int32_t axis) const {
  auto it = pairs_.find(Key(a, b, axis));
  return it == pairs_.end() ? LinkPairTraffic{} : it->second;
}

double LinkTrafficMap::Share(int32_t a, int32_t b, int32_t axis) const {
  return busiest_bytes_ > 0 ? double(Between(a, b, axis).bytes) / double(busiest_bytes_) : 0;
}

}  // namespace systolic::analysis
