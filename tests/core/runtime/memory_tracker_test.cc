#include "core/runtime/memory_tracker.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;

TEST(MemoryTrackerTest, CountsPeakAndLargest) {
  MemoryTracker tracker("dev:0", 1000);
  auto a = tracker.Reserve(300, "a");
  auto b = tracker.Reserve(500, "b");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(tracker.stats().bytes_in_use, 800);
  EXPECT_EQ(tracker.stats().largest_alloc_size, 500);
  b->Release();
  EXPECT_EQ(tracker.stats().bytes_in_use, 300);
  EXPECT_EQ(tracker.stats().peak_bytes_in_use, 800);
  EXPECT_EQ(tracker.stats().num_allocs, 1);
}

TEST(MemoryTrackerTest, MovedReservationsAreFreedOnce) {
  MemoryTracker tracker("dev:0", 0);  // unlimited
  MemoryReservation moved;
  {
    auto r = tracker.Reserve(64, "x");
    ASSERT_TRUE(r.ok());
    moved = *std::move(r);
  }
  EXPECT_EQ(tracker.stats().bytes_in_use, 64);
  moved.Relabel("y");
  moved = MemoryReservation();
  EXPECT_EQ(tracker.stats().bytes_in_use, 0);
}

TEST(MemoryTrackerTest, OutOfMemoryListsTheLargestLiveBuffers) {
  MemoryTracker tracker("systolic:0", 3 << 20);
  auto a = tracker.Reserve(1 << 20, "buffer #1 'w1'");
  auto b = tracker.Reserve(3 << 19, "buffer #2 'w2'");
  auto c = tracker.Reserve(100, "buffer #3 'b'");
  auto d = tracker.Reserve(1 << 20, "'activations'");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(d.status().message(),
            "out of memory on systolic:0: allocating 1.0 MiB for 'activations' would exceed the "
            "limit of 3.0 MiB (2.5 MiB in use by 3 buffers); largest live buffers: buffer #2 "
            "'w2' 1.5 MiB, buffer #1 'w1' 1.0 MiB, buffer #3 'b' 100 B");
}

TEST(MemoryTrackerTest, HumanBytes) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(1536), "1.5 KiB");
  EXPECT_EQ(HumanBytes(int64_t(32) << 30), "32.0 GiB");
}

}  // namespace
}  // namespace systolic::runtime
