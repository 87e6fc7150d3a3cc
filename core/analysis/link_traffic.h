// ICI traffic on a profile's topology as the sharding view's heat map reads
// it: the traffic between two neighbouring chips (both directions of their
// link along an axis) and its share of the busiest pair's, to scale colours.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>

#include "core/trace/topology_record.h"

namespace systolic::analysis {

struct LinkPairTraffic {
  int64_t bytes = 0;    // both directions
  int64_t busy_ps = 0;  // of the busier direction
};

class LinkTrafficMap {
 public:
  explicit LinkTrafficMap(const trace::TopologyRecord& topology);

  // Chips `a` and `b` joined along `axis` (either may be the source).
  LinkPairTraffic Between(int32_t a, int32_t b, int32_t axis) const;
  // 0 (idle) .. 1 (the busiest pair).
  double Share(int32_t a, int32_t b, int32_t axis) const;
  // The most bytes any pair carried; 0 when no traffic was recorded.
  int64_t busiest_bytes() const { return busiest_bytes_; }
  int64_t busiest_busy_ps() const { return busiest_busy_ps_; }

 private:
  using PairKey = std::tuple<int32_t, int32_t, int32_t>;  // low chip, high chip, axis
  static PairKey Key(int32_t a, int32_t b, int32_t axis);

  std::map<PairKey, LinkPairTraffic> pairs_;
  int64_t busiest_bytes_ = 0;
  int64_t busiest_busy_ps_ = 0;
};

}  // namespace systolic::analysis
