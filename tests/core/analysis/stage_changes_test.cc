// What each pass changed, stage by stage, and the stages of an imported XLA
// dump folder linked op by op as the graph view links them.
#include "core/analysis/stage_changes.h"

#include <filesystem>

#include "core/analysis/snapshot_link.h"
#include "core/analysis/stage_module.h"
#include "core/trace/xla_dump_importer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/xla_dump_folder.h"

namespace systolic::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

trace::ModuleSnapshot Stage(const std::string& pass, const std::string& text, int64_t count) {
  trace::ModuleSnapshot snapshot;
  snapshot.pass_name = pass;
  snapshot.hlo_text = text;
  snapshot.instruction_count = count;
  return snapshot;
}

constexpr char kInput[] = R"(HloModule m
ENTRY main {
  a = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  scaled = f32[4] multiply(a, ones)
  ROOT out = f32[4] negate(scaled)
}
)";

constexpr char kSimplified[] = R"(HloModule m
ENTRY main {
  a = f32[4] parameter(0)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  ROOT out = f32[4] negate(a)
}
)";

constexpr char kCleaned[] = R"(HloModule m
ENTRY main {
  a = f32[4] parameter(0)
  extra = f32[4] abs(a)
  ROOT out = f32[4] negate(a)
}
)";

TEST(StageChangesTest, AddedRemovedAndChangedByName) {
  trace::ProgramRecord program;
  program.snapshots = {Stage("input", kInput, 5), Stage("algsimp", kSimplified, 4),
                       Stage("cse", kSimplified, 4), Stage("dce", kCleaned, 3)};
  absl::StatusOr<std::vector<StageChange>> changes = StageChanges(program);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->size(), 3u);

  const StageChange& algsimp = (*changes)[0];
  EXPECT_EQ(algsimp.stage, 1);
  EXPECT_EQ(algsimp.pass_name, "algsimp");
  EXPECT_EQ(algsimp.instructions_before, 5);
  EXPECT_EQ(algsimp.instructions_after, 4);
  EXPECT_THAT(algsimp.added, IsEmpty());
  EXPECT_THAT(algsimp.removed, ElementsAre("scaled"));
  EXPECT_THAT(algsimp.changed, ElementsAre("out"));  // its operand is now `a`

  const StageChange& cse = (*changes)[1];
  EXPECT_THAT(cse.added, IsEmpty());
  EXPECT_THAT(cse.removed, IsEmpty());
  EXPECT_THAT(cse.changed, IsEmpty());

  const StageChange& dce = (*changes)[2];
  EXPECT_EQ(dce.stage, 3);
  EXPECT_THAT(dce.added, ElementsAre("extra"));
  EXPECT_THAT(dce.removed, ElementsAre("one", "ones"));
  EXPECT_THAT(dce.changed, IsEmpty());
  EXPECT_EQ(dce.instructions_after, 3);
}

TEST(StageChangesTest, AStageThatDoesNotParseIsNamed) {
  trace::ProgramRecord program;
  program.snapshots = {Stage("input", kInput, 5), Stage("broken-pass", "HloModule m\nENTRY {", 0)};
  absl::StatusOr<std::vector<StageChange>> changes = StageChanges(program);
  ASSERT_FALSE(changes.ok());
  EXPECT_THAT(changes.status().message(), HasSubstr("broken-pass"));
}

TEST(StageChangesTest, AnImportedDumpFolderComparesAndLinksXlaPasses) {
  const std::string folder =
      (std::filesystem::temp_directory_path() / "systolic_stage_changes_dump").string();
  const testing::XlaDumpFolderContents contents = testing::WriteXlaDumpFolder(folder);
  absl::StatusOr<trace::Profile> profile = trace::ImportXlaDumpFolder(folder);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const trace::ProgramRecord& mlp = profile->programs[0];
  absl::StatusOr<std::vector<StageChange>> changes = StageChanges(mlp);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->size(), mlp.snapshots.size() - 1);
  // algsimp drops the multiply by one; dce then drops the dead negate.
  EXPECT_THAT((*changes)[0].removed, ::testing::Contains("multiply.6"));
  EXPECT_THAT((*changes)[2].removed, ::testing::Contains("dead.9"));
  EXPECT_THAT((*changes)[3].added, ::testing::Contains(HasSubstr("fusion")));

  // The graph view's linking: the input's maximum is found in the fusion
  // that absorbed it, and the other way round.
  absl::StatusOr<std::unique_ptr<StageModule>> input = StageModule::Parse(mlp.snapshots[0]);
  absl::StatusOr<std::unique_ptr<StageModule>> fused = StageModule::Parse(mlp.snapshots[4]);
  ASSERT_TRUE(input.ok() && fused.ok());
  const HloInstruction* maximum = (*input)->FindInstruction("maximum.10");
  ASSERT_NE(maximum, nullptr);
  std::vector<const HloInstruction*> linked = LinkedInstructions(**input, maximum, **fused);
  ASSERT_FALSE(linked.empty());
  bool reaches_a_fusion = false;
  for (const HloInstruction* instruction : linked) {
    if (instruction->opcode() == HloOpcode::kFusion) reaches_a_fusion = true;
  }
  EXPECT_TRUE(reaches_a_fusion);
  const HloInstruction* dot = (*fused)->FindInstruction("dot.1");
  if (dot != nullptr) {
    EXPECT_THAT(LinkedInstructions(**fused, dot, **input),
                ElementsAre((*input)->FindInstruction("dot.1")));
  }
}

}  // namespace
}  // namespace systolic::analysis
