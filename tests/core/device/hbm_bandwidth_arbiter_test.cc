#include "core/device/hbm_bandwidth_arbiter.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

using ::testing::ElementsAre;

TEST(HbmBandwidthArbiterTest, AloneAtEngineRate) {
  EXPECT_THAT(HbmBandwidthArbiter(16).Share({8.0}), ElementsAre(8.0));
}

TEST(HbmBandwidthArbiterTest, EqualSharesWhenSaturated) {
  EXPECT_THAT(HbmBandwidthArbiter(8).Share({8.0, 8.0}), ElementsAre(4.0, 4.0));
  EXPECT_THAT(HbmBandwidthArbiter(16).Share({8.0, 8.0}), ElementsAre(8.0, 8.0));
}

// A slow engine keeps its cap; the fast ones split what it leaves.
TEST(HbmBandwidthArbiterTest, MaxMinFair) {
  EXPECT_THAT(HbmBandwidthArbiter(12).Share({10.0, 2.0, 10.0}), ElementsAre(5.0, 2.0, 5.0));
}

TEST(HbmBandwidthArbiterTest, NoTransfers) { EXPECT_TRUE(HbmBandwidthArbiter(8).Share({}).empty()); }

}  // namespace
}  // namespace systolic::device
