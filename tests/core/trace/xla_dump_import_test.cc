// An XLA dump folder (written by the tests in XLA's naming from the
// project's own passes) imported as a profile: every module with its stages
// in order, instructions linked by name, broken and odd files reported.
#include "core/trace/xla_dump_importer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "tests/support/xla_dump_folder.h"

namespace systolic::trace {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// A path of the running test's own: CTest runs the tests of this file side
// by side, and one test's SetUp must not delete another's folder.
std::string TempFolder(const std::string& name) {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return (fs::temp_directory_path() / "systolic_xla_dump_tests" / test / name).string();
}

const InstructionProvenance* Find(const ModuleSnapshot& snapshot, const std::string& name) {
  for (const InstructionProvenance& record : snapshot.provenance) {
    if (record.name == name) return &record;
  }
  return nullptr;
}

std::vector<int64_t> OriginIds(const InstructionProvenance& record) {
  std::vector<int64_t> ids;
  for (const ProvenanceOrigin& origin : record.origins) ids.push_back(origin.unique_id);
  if (ids.empty()) ids.push_back(record.unique_id);
  return ids;
}

class XlaDumpImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = TempFolder("dump");
    contents_ = testing::WriteXlaDumpFolder(folder_);
  }
  std::string folder_;
  testing::XlaDumpFolderContents contents_;
};

TEST_F(XlaDumpImportTest, EveryModuleWithItsStagesInOrder) {
  XlaDumpImportReport report;
  std::vector<int64_t> progress;
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(
      folder_, &report, [&](int64_t done, int64_t total) {
        progress.push_back(done);
        EXPECT_EQ(total, 13);  // 8 + 2 + 3 HLO text stage files, the broken one included
      });
  ASSERT_TRUE(profile.ok()) << profile.status();
  EXPECT_EQ(progress.size(), 13u);
  EXPECT_EQ(progress.back(), 13);
  ASSERT_EQ(profile->programs.size(), 3u);

  const ProgramRecord& mlp = profile->programs[0];
  EXPECT_EQ(mlp.name, contents_.mlp_module);
  std::vector<std::string> passes;
  for (const ModuleSnapshot& snapshot : mlp.snapshots) passes.push_back(snapshot.pass_name);
  EXPECT_THAT(passes, ElementsAreArray(contents_.mlp_passes));

  // The input has the multiply by one and the dead negate; algsimp removes
  // the multiply, dce the negate, fusion makes a fusion; cse changes nothing
  // and after optimizations is the last pass's module again.
  const std::vector<ModuleSnapshot>& s = mlp.snapshots;
  EXPECT_FALSE(s[0].changed);
  EXPECT_NE(Find(s[0], "multiply.6"), nullptr);
  EXPECT_NE(Find(s[0], "dead.9"), nullptr);
  EXPECT_TRUE(s[1].changed);
  EXPECT_EQ(Find(s[1], "multiply.6"), nullptr);
  EXPECT_FALSE(s[2].changed);  // cse
  EXPECT_EQ(Find(s[3], "dead.9"), nullptr);
  EXPECT_TRUE(s[4].changed);  // priority-fusion
  EXPECT_TRUE(absl::StrContains(s[4].hlo_text, "fusion("));
  EXPECT_GT(s[4].computation_count, s[0].computation_count);
  EXPECT_FALSE(s.back().changed);
  EXPECT_EQ(s.back().hlo_text, s[s.size() - 2].hlo_text);
  EXPECT_EQ(s[0].instruction_count, 13);
  EXPECT_EQ(s[0].computation_count, 1);

  // The passes of jit_loss were not dumped: before and after optimizations.
  const ProgramRecord& loss = profile->programs[1];
  EXPECT_EQ(loss.name, contents_.loss_module);
  ASSERT_EQ(loss.snapshots.size(), 2u);
  EXPECT_EQ(loss.snapshots[0].pass_name, "input");
  EXPECT_EQ(loss.snapshots[1].pass_name, "sm_8.0_gpu_after_optimizations");
  EXPECT_TRUE(loss.snapshots[1].changed);
}

TEST_F(XlaDumpImportTest, InstructionsAreLinkedAcrossStagesByName) {
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(folder_);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const std::vector<ModuleSnapshot>& s = profile->programs[0].snapshots;
  // The dot keeps its id through every stage it survives with its name.
  const InstructionProvenance* input_dot = Find(s[0], "dot.1");
  ASSERT_NE(input_dot, nullptr);
  EXPECT_TRUE(input_dot->origins.empty());
  const InstructionProvenance* dce_dot = Find(s[3], "dot.1");
  ASSERT_NE(dce_dot, nullptr);
  EXPECT_EQ(dce_dot->unique_id, input_dot->unique_id);
  // Ids of different instructions differ.
  EXPECT_NE(Find(s[0], "add.3")->unique_id, input_dot->unique_id);

  // Every fusion made by the fusion pass stands for original instructions
  // of the input, and the root's maximum is among them.
  const int64_t maximum_id = Find(s[0], "maximum.10")->unique_id;
  bool maximum_fused = false;
  int fusions = 0;
  for (const InstructionProvenance& record : s[4].provenance) {
    if (!absl::StartsWith(record.name, "fusion")) continue;
    ++fusions;
    ASSERT_FALSE(record.origins.empty()) << record.name;
    for (int64_t id : OriginIds(record)) {
      bool in_input = std::any_of(s[0].provenance.begin(), s[0].provenance.end(),
                                  [&](const InstructionProvenance& r) { return r.unique_id == id; });
      EXPECT_TRUE(in_input) << record.name << " origin " << id;
      if (id == maximum_id) maximum_fused = true;
    }
  }
  EXPECT_GT(fusions, 0);
  EXPECT_TRUE(maximum_fused);
}

TEST_F(XlaDumpImportTest, ReportsSkippedFilesSnapshotsAndTheBrokenFile) {
  XlaDumpImportReport report;
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(folder_, &report);
  ASSERT_TRUE(profile.ok()) << profile.status();
  std::vector<std::string> skipped;
  for (const XlaDumpSkippedFile& file : report.skipped) skipped.push_back(file.file);
  EXPECT_THAT(skipped, ::testing::UnorderedElementsAreArray(contents_.skipped_files));

  ASSERT_EQ(report.modules.size(), 3u);
  ASSERT_EQ(report.modules[0].execution_snapshots.size(), 1u);
  EXPECT_EQ(fs::path(report.modules[0].execution_snapshots[0]).filename(),
            contents_.mlp_snapshot_file);
  EXPECT_TRUE(report.modules[1].execution_snapshots.empty());

  // The truncated pass file is named; the module's other stages import.
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_THAT(report.errors[0], HasSubstr(contents_.truncated_file));
  const ProgramRecord& broken = profile->programs[2];
  EXPECT_EQ(broken.name, contents_.broken_module);
  ASSERT_EQ(broken.snapshots.size(), 2u);
  EXPECT_EQ(broken.snapshots[1].pass_name, "tpu_after_optimizations");
  EXPECT_TRUE(broken.snapshots[1].changed);
  // The error and the snapshot are kept in the profile's notes.
  const std::vector<std::string>& notes = profile->info.notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& note) {
    return absl::StrContains(note, contents_.truncated_file);
  }));
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& note) {
    return absl::StrContains(note, contents_.mlp_snapshot_file);
  }));
}

TEST_F(XlaDumpImportTest, SurvivesTheProfileFile) {
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(folder_);
  ASSERT_TRUE(profile.ok()) << profile.status();
  const std::string file = TempFolder("dump.sysprof");
  ASSERT_TRUE(WriteProfileFile(*profile, file).ok());
  absl::StatusOr<Profile> read = ReadProfileFile(file);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->programs, profile->programs);
}

TEST(XlaDumpImportErrorsTest, FolderWithoutHloIsAClearError) {
  const std::string folder = TempFolder("empty_dump");
  fs::remove_all(folder);
  fs::create_directories(folder);
  { std::ofstream(fs::path(folder) / "module_0000.f.cpu_after_optimizations.dot") << "digraph {}"; }
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(folder);
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.status().message(), HasSubstr(folder));
  EXPECT_THAT(profile.status().message(), HasSubstr("no HLO text"));
  EXPECT_FALSE(IsXlaDumpFolder(TempFolder("missing")));
  EXPECT_TRUE(IsXlaDumpFolder(folder));

  absl::StatusOr<Profile> missing = ImportXlaDumpFolder(TempFolder("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("not a folder"));
}

TEST(XlaDumpImportErrorsTest, EveryStageBrokenIsAnErrorNamingTheFile) {
  const std::string folder = TempFolder("broken_dump");
  fs::remove_all(folder);
  fs::create_directories(folder);
  { std::ofstream(fs::path(folder) / "module_0000.f.before_optimizations.txt") << "HloModule f\n\nENTRY main {\n  a = f32[2] parameter(0"; }
  absl::StatusOr<Profile> profile = ImportXlaDumpFolder(folder);
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.status().message(), HasSubstr("module_0000.f.before_optimizations.txt"));
}

}  // namespace
}  // namespace systolic::trace
