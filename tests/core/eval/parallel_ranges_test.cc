#include "core/eval/parallel_ranges.h"

#include <atomic>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace systolic::eval {
namespace {

// Every item is run exactly once, in ranges that do not overlap.
TEST(RunInParallel, CoversEveryItemOnce) {
  for (int64_t count : {0, 1, 5, 255, 256, 257, 1000, 4099}) {
    for (int64_t min_per_thread : {1, 3, 256}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
      std::mutex mutex;
      std::set<std::pair<int64_t, int64_t>> ranges;
      RunInParallel(count, min_per_thread, [&](int64_t first, int64_t last) {
        {
          std::lock_guard<std::mutex> lock(mutex);
          ranges.insert({first, last});
        }
        for (int64_t i = first; i < last; ++i) runs[size_t(i)]++;
      });
      for (int64_t i = 0; i < count; ++i) {
        ASSERT_EQ(runs[size_t(i)].load(), 1) << "count " << count << " item " << i;
      }
      int64_t covered = 0;
      for (const auto& [first, last] : ranges) {
        EXPECT_LT(first, last);
        covered += last - first;
      }
      EXPECT_EQ(covered, count);
      // No more ranges than the work allows.
      EXPECT_LE(int64_t(ranges.size()), std::max<int64_t>(1, count / min_per_thread));
    }
  }
}

}  // namespace
}  // namespace systolic::eval
