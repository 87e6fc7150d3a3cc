// The compile cache seen through a client: hits, misses with causes, and
// events convertible to the profile's compile events.
#include <string>

#include "core/runtime/client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/runtime_test_util.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;
using testing::MakeClient;

std::string Scale(int batch, const std::string& factor = "2") {
  return "HloModule scale\nENTRY e {\n  x = f32[" + std::to_string(batch) +
         ",128] parameter(0)\n  c = f32[] constant(" + factor + ")\n  b = f32[" +
         std::to_string(batch) + ",128] broadcast(c), dimensions={}\n  ROOT y = f32[" +
         std::to_string(batch) + ",128] multiply(x, b)\n}\n";
}

TEST(CompileEventsTest, HitsMissesAndCauses) {
  auto client = MakeClient();
  ASSERT_NE(client, nullptr);
  auto a = client->CompileText(Scale(8), "hlo");
  auto b = client->CompileText(Scale(8), "hlo");
  auto c = client->CompileText(Scale(16), "hlo");
  auto d = client->CompileText(Scale(16, "3"), "hlo");
  CompileOptions two;
  two.num_replicas = 2;
  auto e = client->CompileText(Scale(8), "hlo", two);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && d.ok() && e.ok());
  EXPECT_EQ((*a)->fingerprint(), (*b)->fingerprint());
  EXPECT_NE((*a)->fingerprint(), (*c)->fingerprint());

  auto events = client->CompileEvents();
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 5u);
  const auto& ev = *events;
  EXPECT_FALSE(ev[0].cache_hit);
  EXPECT_EQ(ev[0].cause.kind, trace::RecompilationKind::kFirstCompile);
  EXPECT_EQ(ev[0].cause.text, "never seen: first compile of 'scale'");
  EXPECT_EQ(ev[0].module_name, "scale");
  EXPECT_EQ(ev[0].program_id, 0);
  EXPECT_EQ(ev[0].compared_program_id, -1);
  EXPECT_EQ(ev[0].fingerprint, (*a)->fingerprint());
  EXPECT_GT(ev[0].compile_time_ns, 0);

  EXPECT_TRUE(ev[1].cache_hit);
  EXPECT_EQ(ev[1].cause.kind, trace::RecompilationKind::kNone);
  EXPECT_EQ(ev[1].cause.text, "");
  EXPECT_EQ(ev[1].program_id, 0);
  EXPECT_GE(ev[1].timestamp_ns, ev[0].timestamp_ns);

  EXPECT_FALSE(ev[2].cache_hit);
  EXPECT_EQ(ev[2].cause.kind, trace::RecompilationKind::kArgumentShape);
  EXPECT_EQ(ev[2].cause.text, "argument 0 (x): now f32[16,128], before f32[8,128]");
  EXPECT_EQ(ev[2].program_id, 1);
  EXPECT_EQ(ev[2].compared_program_id, 0);

  // The nearest program is the batch-16 one: only the constant differs.
  EXPECT_EQ(ev[3].cause.kind, trace::RecompilationKind::kChangedConstant);
  EXPECT_EQ(ev[3].compared_program_id, 1);
  EXPECT_THAT(ev[3].cause.text, HasSubstr("now `%c = f32[] constant(3)`, before `%c = f32[] constant(2)`"));

  EXPECT_EQ(ev[4].cause.kind, trace::RecompilationKind::kCompileOptions);
  EXPECT_EQ(ev[4].compared_program_id, 0);
  EXPECT_THAT(ev[4].cause.text, HasSubstr("replicas now 2, before 1"));
}

TEST(CompileEventsTest, RenamedValuesHitTheCache) {
  auto client = MakeClient();
  ASSERT_TRUE(client->CompileText(testing::kDoubleModule, "hlo").ok());
  auto renamed = client->CompileText(R"(
HloModule double_again
ENTRY main {
  input = f32[4] parameter(0), metadata={op_name="jit(f)/x"}
  ROOT twice = f32[4] add(input, input)
})", "hlo");
  ASSERT_TRUE(renamed.ok());
  auto events = client->CompileEvents();
  ASSERT_EQ(events->size(), 2u);
  EXPECT_TRUE((*events)[1].cache_hit);
  EXPECT_EQ((*events)[1].module_name, "double_again");
}

TEST(CompileEventsTest, AModuleObjectCompilesLikeItsText) {
  auto client = MakeClient();
  auto module = testing::ParseModule(testing::kDoubleModule);
  auto executable = client->Compile(*module);
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto again = client->CompileText(testing::kDoubleModule, "hlo");
  EXPECT_EQ((*executable)->fingerprint(), (*again)->fingerprint());
  EXPECT_TRUE((*client->CompileEvents())[1].cache_hit);
}

TEST(CompileEventsTest, FailedCompilesAreNotCached) {
  auto client = MakeClient();
  const char* kBad = R"(
HloModule bad
ENTRY e {
  x = f32[2] parameter(0)
  ROOT y = f32[2] custom-call(x), custom_call_target="test.compile_error"
})";
  EXPECT_FALSE(client->CompileText(kBad, "hlo").ok());
  EXPECT_FALSE(client->CompileText(kBad, "hlo").ok());
  EXPECT_TRUE(client->CompileEvents()->empty());
}

TEST(CompileEventsTest, ManyEventsArriveInBatches) {
  auto client = MakeClient();
  for (int i = 0; i < 70; ++i) ASSERT_TRUE(client->CompileText(Scale(1 + i % 3), "hlo").ok());
  auto events = client->CompileEvents();
  ASSERT_EQ(events->size(), 70u);
  int misses = 0;
  for (const trace::CompileEvent& event : *events) misses += !event.cache_hit;
  EXPECT_EQ(misses, 3);
}

}  // namespace
}  // namespace systolic::runtime
