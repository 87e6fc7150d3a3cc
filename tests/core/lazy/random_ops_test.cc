// Random numbers from the device's seeded generator: in range, with the
// right moments, reproducible from a seed, and reseeding never recompiles.
#include <cmath>

#include "core/lazy/creation_ops.h"
#include "core/lazy/random_ops.h"
#include "gtest/gtest.h"
#include "tests/core/lazy/lazy_test_backend.h"

namespace systolic::lazy {
namespace {

std::vector<float> Values(const Tensor& t) {
  absl::StatusOr<Literal> l = t.ToLiteral();
  EXPECT_TRUE(l.ok()) << l.status();
  if (!l.ok()) return {};
  return {l->data<float>().begin(), l->data<float>().end()};
}

TEST(RandomOpsTest, UniformIsInRangeWithTheRightMean) {
  LazyDevice device(testing::MakeTestBackend());
  std::vector<float> v = Values(RandomUniform(device, {64, 64}, -2, 3));
  ASSERT_EQ(v.size(), 4096u);
  double sum = 0;
  for (float x : v) {
    EXPECT_GE(x, -2.0f);
    EXPECT_LT(x, 3.0f);
    sum += x;
  }
  EXPECT_NEAR(sum / v.size(), 0.5, 0.1);
}

TEST(RandomOpsTest, NormalHasTheRightMoments) {
  LazyDevice device(testing::MakeTestBackend());
  std::vector<float> v = Values(RandomNormal(device, {64, 64}, 1.0, 2.0));
  double sum = 0, squares = 0;
  for (float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    squares += x * x;
  }
  const double mean = sum / v.size();
  const double variance = squares / v.size() - mean * mean;
  EXPECT_NEAR(mean, 1.0, 0.15);
  EXPECT_NEAR(std::sqrt(variance), 2.0, 0.15);
}

TEST(RandomOpsTest, DrawsAdvanceAndSeedsReproduce) {
  LazyDevice device(testing::MakeTestBackend(), {.seed = 42});
  std::vector<float> first = Values(RandomUniform(device, {8}));
  ASSERT_TRUE(device.MarkStep().ok());
  std::vector<float> second = Values(RandomUniform(device, {8}));
  ASSERT_TRUE(device.MarkStep().ok());
  EXPECT_NE(first, second);
  device.SetSeed(42);
  std::vector<float> again = Values(RandomUniform(device, {8}));
  ASSERT_TRUE(device.MarkStep().ok());
  EXPECT_EQ(first, again);
  // The generator's state is device data: reseeding is not a new program.
  int64_t misses = 0;
  for (const trace::CompileEvent& e : device.compile_events()) misses += !e.cache_hit;
  EXPECT_LE(misses, 2);  // the read of `first`, then the mark_step programs
  EXPECT_EQ(device.compile_events().back().cache_hit, true);
}

}  // namespace
}  // namespace systolic::lazy
