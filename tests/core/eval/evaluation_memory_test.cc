// Host memory planned before evaluating: the peak of the live values, the
// limit it is held to, and the error that stops a program too big to
// evaluate before anything is allocated.
#include "core/eval/evaluation_memory.h"

#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_parser.h"
#include "tests/core/eval/eval_test_util.h"
#include "gtest/gtest.h"

namespace systolic::eval {
namespace {

// Sets SYSTOLIC_MEMORY_LIMIT for one test.
class ScopedMemoryLimit {
 public:
  explicit ScopedMemoryLimit(const char* limit) { setenv("SYSTOLIC_MEMORY_LIMIT", limit, 1); }
  ~ScopedMemoryLimit() { unsetenv("SYSTOLIC_MEMORY_LIMIT"); }
};

std::unique_ptr<HloModule> Parse(const std::string& text) {
  auto module = ParseAndReturnVerifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return *std::move(module);
}

TEST(EvaluationMemory, SizesParseWithTheirUnits) {
  EXPECT_EQ(ParseByteSize("8G").value(), int64_t{8} << 30);
  EXPECT_EQ(ParseByteSize("512m").value(), int64_t{512} << 20);
  EXPECT_EQ(ParseByteSize("1.5k").value(), 1536);
  EXPECT_EQ(ParseByteSize("2GiB").value(), int64_t{2} << 30);
  EXPECT_EQ(ParseByteSize("1000").value(), 1000);
  EXPECT_EQ(ParseByteSize("1.5MB").value(), 1500000);
  EXPECT_EQ(ParseByteSize("64KiB").value(), 65536);
  EXPECT_EQ(ParseByteSize("0").value(), 0);
  for (const char* bad : {"", "G", "lots", "-1G", "8Q", "1e30T"}) {
    EXPECT_FALSE(ParseByteSize(bad).ok()) << bad;
  }
}

TEST(EvaluationMemory, TheLimitComesFromTheEnvironmentOrTheHost) {
  {
    ScopedMemoryLimit limit("3G");
    absl::StatusOr<HostMemory> host = HostMemoryLimit();
    ASSERT_TRUE(host.ok()) << host.status();
    EXPECT_EQ(host->bytes, int64_t{3} << 30);
    EXPECT_EQ(host->source, "SYSTOLIC_MEMORY_LIMIT");
  }
  {
    ScopedMemoryLimit limit("plenty");
    absl::StatusOr<HostMemory> host = HostMemoryLimit();
    ASSERT_FALSE(host.ok());
    EXPECT_TRUE(absl::StrContains(host.status().message(), "SYSTOLIC_MEMORY_LIMIT")) << host.status();
  }
  {
    ScopedMemoryLimit limit("0");
    EXPECT_FALSE(HostMemoryLimit().ok());
  }
  absl::StatusOr<HostMemory> host = HostMemoryLimit();
  ASSERT_TRUE(host.ok());
  EXPECT_GT(host->bytes, 0);
}

// Each value lives from its instruction to its last use: a, b, c and d are
// all live when d is made (4 × 4 KiB); e reuses nothing but b and c are
// gone by then.
TEST(EvaluationMemory, ThePeakIsTheLargestSetOfLiveValues) {
  auto module = Parse(R"(
HloModule live
ENTRY main {
  a = f32[1024] parameter(0)
  b = f32[1024] exponential(a)
  c = f32[1024] exponential(b)
  d = f32[1024] add(b, c)
  unused = f32[4,1024] broadcast(a), dimensions={1}
  ROOT e = f32[1024] negate(d)
})");
  // unused (16 KiB) is dead code: never evaluated, never counted.
  const EvaluationMemory plan = PlanEvaluationMemory(*module->entry_computation());
  EXPECT_EQ(plan.peak_bytes, 4 * 4096.0);
  ASSERT_EQ(plan.at_peak.size(), 4u);
  for (const LiveValue& v : plan.at_peak) EXPECT_EQ(v.bytes, 4096.0);
}

// A loop's body holds its own values while it runs.
TEST(EvaluationMemory, ALoopAddsItsBodysPeak) {
  auto module = Parse(R"(
HloModule loop
cond {
  p = (s32[], f32[1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[1024]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[1024] get-tuple-element(p), index=1
  big = f32[1024,256] broadcast(x), dimensions={0}
  zero = f32[] constant(0)
  sum = f32[1024] reduce(big, zero), dimensions={1}, to_apply=add
  ROOT t = (s32[], f32[1024]) tuple(next, sum)
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  a = f32[1024] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[1024]) tuple(zero, a)
  w = (s32[], f32[1024]) while(init), condition=cond, body=body
  ROOT r = f32[1024] get-tuple-element(w), index=1
})");
  const EvaluationMemory plan = PlanEvaluationMemory(*module->entry_computation());
  // The body's 1 MiB broadcast dominates.
  EXPECT_GT(plan.peak_bytes, 1024.0 * 256 * 4);
  EXPECT_LT(plan.peak_bytes, 1024.0 * 256 * 4 + 64 * 1024);
}

// 32 × 39296 × 63 × 128 f32 is 40 GB (37.8 GiB): the evaluator refuses before
// allocating anything, and says what to do.
constexpr char kTooBig[] = R"(
HloModule too_big
ENTRY main {
  p = f32[] parameter(0)
  huge = f32[32,39296,63,128] broadcast(p), dimensions={}
  ROOT s = f32[32,39296,63,128] add(huge, huge)
})";

TEST(EvaluationMemory, AProgramTooBigForTheHostStopsBeforeItRuns) {
  ScopedMemoryLimit limit("4G");
  auto module = Parse(kTooBig);
  const absl::Status fits = CheckEvaluationFits(*module, 1);
  ASSERT_EQ(fits.code(), absl::StatusCode::kResourceExhausted) << fits;
  const std::string message(fits.message());
  EXPECT_TRUE(absl::StrContains(message, "evaluating too_big needs about 75.6 GiB")) << message;
  EXPECT_TRUE(absl::StrContains(message, "4.0 GiB may be used (SYSTOLIC_MEMORY_LIMIT)"))
      << message;
  EXPECT_TRUE(absl::StrContains(message, "%huge f32[32,39296,63,128] 37.8 GiB")) << message;
  EXPECT_TRUE(absl::StrContains(message, "--timing-only")) << message;

  Literal one = eval_test::R0<float>(1);
  HloEvaluator evaluator;
  absl::StatusOr<Literal> result = evaluator.Evaluate(*module, {&one});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kResourceExhausted);
}

// Every device of an SPMD run holds its own values at once.
TEST(EvaluationMemory, DevicesRunningAtOnceNeedTheirSum) {
  ScopedMemoryLimit limit("48M");
  auto module = Parse(R"(
HloModule replicated, replica_count=4
ENTRY main {
  p = f32[] parameter(0)
  b = f32[2048,2048] broadcast(p), dimensions={}
  ROOT n = f32[2048,2048] negate(b)
})");
  // 32 MiB on one device fits 48 MiB; four devices need 128 MiB.
  EXPECT_TRUE(CheckEvaluationFits(*module, 1).ok());
  const absl::Status four = CheckEvaluationFits(*module, 4);
  ASSERT_EQ(four.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(four.message(), "needs about 128.0 MiB of host memory at its "
                                                "peak (4 devices \u00d7 32.0 MiB)"))
      << four;
  std::vector<std::vector<Literal>> args(1);
  args[0].push_back(eval_test::R0<float>(1));
  absl::StatusOr<std::vector<Literal>> results = EvaluateSpmd(*module, args, 4, 1);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kResourceExhausted) << results.status();
}

}  // namespace
}  // namespace systolic::eval
