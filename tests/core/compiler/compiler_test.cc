// The default pipeline end to end on the project's samples.
#include "core/compiler/compiler.h"

#include <filesystem>

#include "core/compiler/differential_check.h"
#include "core/hlo/hlo_file.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

std::string SamplePath(const std::string& name) {
  return std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name;
}

TEST(CompilerTest, MlpLayerSampleFusesSchedulesAndKeepsItsResults) {
  auto loaded = LoadHloFile(SamplePath("mlp_layer.hlo"), /*verify=*/false);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  std::unique_ptr<HloModule> original = std::move((*loaded)[0].module).value();
  CompileOptions options;
  options.verify_between_passes = true;
  Compiler compiler(options);
  auto result = compiler.Compile(original->Clone());
  ASSERT_TRUE(result.ok()) << result.status();

  const CompilationHistory& history = result->history;
  EXPECT_EQ(history.snapshot(0).pass_name, "input");
  std::vector<std::string> passes;
  for (const PassSnapshot& s : history.snapshots()) passes.push_back(s.pass_name);
  // The memory scheduler, then the latency-hiding passes (no collectives
  // here, so they leave its order).
  ASSERT_GE(passes.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(passes.end() - 3, passes.end()),
            (std::vector<std::string>{"scheduler", "async-collective-conversion",
                                      "latency-hiding-scheduler"}));
  const ModuleCounts& final_counts = history.snapshots().back().counts();
  EXPECT_GE(final_counts.fusions_by_kind.count(FusionKind::kOutput), 1u) << "dot + bias + relu";
  EXPECT_GE(final_counts.fusions_by_kind.count(FusionKind::kInput), 1u) << "the softmax reductions";
  EXPECT_LT(final_counts.instructions, history.snapshot(0).counts().instructions + 40);
  EXPECT_TRUE(result->module->is_scheduled());
  ASSERT_TRUE(result->buffer_assignment.has_value());
  EXPECT_GT(result->buffer_assignment->peak_bytes(), 32 * 64 * 4);

  DifferentialOptions check;
  check.exact = !history.changed_numerics();
  auto same = CheckSameResults(*original, *result->module, check);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_TRUE(same->same) << same->mismatch;
}

TEST(CompilerTest, ChosenPassesRunInTheGivenOrder) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %n = f32[4] negate(%x)
  ROOT %m = f32[4] negate(%n)
}
)");
  CompileOptions options;
  options.passes = {"algsimp", "dce"};
  auto result = Compiler(options).Compile(std::move(module));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->history.size(), 3);
  EXPECT_EQ(result->history.snapshot(1).pass_name, "algsimp");
  EXPECT_EQ(result->history.snapshot(2).pass_name, "dce");
  EXPECT_EQ(testing::RootExpr(*result->module), "x");

  CompileOptions unknown;
  unknown.passes = {"no-such-pass"};
  auto failed = Compiler(unknown).Compile(testing::ParseModule("HloModule m\n\nENTRY %e () -> f32[] {\n  ROOT %c = f32[] constant(1)\n}\n"));
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("known passes: dce"), std::string::npos);
}

}  // namespace
}  // namespace systolic
