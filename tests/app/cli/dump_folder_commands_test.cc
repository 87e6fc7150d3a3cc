// `systolic import DIR` and `systolic passes` on an XLA dump folder written
// by the tests in XLA's naming, run as a user runs them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "nlohmann/json.hpp"
#include "tests/app/cli/cli_runner.h"
#include "tests/support/xla_dump_folder.h"

namespace systolic::testing {
namespace {

TEST(DumpFolderCommands, ImportWritesAProfileOfEveryModuleAndItsPasses) {
  const std::string folder = CliTempPath("xla_dump");
  const XlaDumpFolderContents contents = WriteXlaDumpFolder(folder);
  const std::string output = CliTempPath("xla_dump.sysprof");

  CliResult run = RunCli("import " + folder + " -o " + output + " --json", false);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["modules"].size(), 3u);
  const nlohmann::json& mlp = j["modules"][0];
  EXPECT_EQ(mlp["name"], contents.mlp_module);
  ASSERT_EQ(mlp["stages"].size(), contents.mlp_passes.size());
  for (size_t i = 0; i < contents.mlp_passes.size(); ++i) {
    EXPECT_EQ(mlp["stages"][i]["pass"], contents.mlp_passes[i]);
  }
  EXPECT_EQ(mlp["stages"][0]["instructions"], 13);
  ASSERT_EQ(mlp["execution_snapshots"].size(), 1u);
  EXPECT_TRUE(absl::EndsWith(mlp["execution_snapshots"][0].get<std::string>(),
                             contents.mlp_snapshot_file));
  EXPECT_EQ(j["modules"][1]["stages"].size(), 2u);
  EXPECT_EQ(j["skipped"].size(), contents.skipped_files.size());
  ASSERT_EQ(j["errors"].size(), 1u);
  EXPECT_TRUE(absl::StrContains(j["errors"][0].get<std::string>(), contents.truncated_file));

  // The profile holds the programs and their stages.
  CliResult info = RunCli("info " + output + " --json", false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json summary = nlohmann::json::parse(info.out);
  EXPECT_EQ(summary["programs"], 3);
  EXPECT_EQ(summary["stages"], 8 + 2 + 2);

  // The text report names the stages, the skipped files and the error.
  CliResult text = RunCli("import " + folder + " -o " + output);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "module 0 jit_mlp.1: 8 stages")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "fusion.1/priority-fusion")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "skipped execution_options.txt")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "runnable input")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "error: ")) << text.out;
}

TEST(DumpFolderCommands, AFolderWithoutHloIsAnError) {
  const std::string folder = CliTempPath("not_a_dump");
  std::filesystem::create_directories(folder);
  CliResult run = RunCli("import " + folder + " -o " + CliTempPath("none.sysprof"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(absl::StrContains(run.out, "no HLO text")) << run.out;
}

TEST(DumpFolderCommands, PassesListsWhatEachPassChanged) {
  const std::string folder = CliTempPath("xla_dump_passes");
  const XlaDumpFolderContents contents = WriteXlaDumpFolder(folder);

  CliResult run = RunCli("passes " + folder + " --module " + contents.mlp_module + " --json", false);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["programs"].size(), 1u);
  const nlohmann::json& stages = j["programs"][0]["stages"];
  ASSERT_EQ(stages.size(), contents.mlp_passes.size() - 1);
  EXPECT_EQ(stages[0]["pass"], "simplification/algsimp");
  EXPECT_EQ(stages[0]["instructions_before"], 13);
  const std::vector<std::string> removed = stages[0]["removed"];
  EXPECT_NE(std::find(removed.begin(), removed.end(), "multiply.6"), removed.end());
  EXPECT_TRUE(stages[1]["added"].empty() && stages[1]["removed"].empty() &&
              stages[1]["changed"].empty());  // cse changed nothing

  // A saved profile gives the same changes as its folder.
  const std::string output = CliTempPath("xla_dump_passes.sysprof");
  ASSERT_EQ(RunCli("import " + folder + " -o " + output).exit_code, 0);
  CliResult from_profile =
      RunCli("passes " + output + " --module " + contents.mlp_module + " --json", false);
  ASSERT_EQ(from_profile.exit_code, 0) << from_profile.out;
  EXPECT_EQ(nlohmann::json::parse(from_profile.out)["programs"], j["programs"]);

  CliResult text = RunCli("passes " + output);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "removed: ")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, contents.loss_module)) << text.out;

  EXPECT_EQ(RunCli("passes " + output + " --module no_such_module").exit_code, 1);
  EXPECT_EQ(RunCli("passes").exit_code, 2);
}

}  // namespace
}  // namespace systolic::testing
