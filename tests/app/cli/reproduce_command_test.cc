// `systolic reproduce maxtext-v5e` as a user runs it: one cell as JSON beside
// its published figure, the traced program written to open on its own, and
// clear errors for a table or a cell that does not exist.
#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/app/cli/cli_runner.h"

namespace systolic {
namespace {

using ::systolic::testing::CliResult;
using ::systolic::testing::CliTempPath;
using ::systolic::testing::RunCli;
using ::testing::HasSubstr;

TEST(ReproduceCommand, ACellIsPredictedBesideItsPublishedFigure) {
  CliResult r = RunCli("reproduce maxtext-v5e --model 16b --slices 2 --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["cells"].size(), 1u);
  const nlohmann::json& cell = j["cells"][0];
  EXPECT_EQ(cell["topology"], "v5e:16x16*2");
  EXPECT_EQ(cell["chips"], 512);
  EXPECT_DOUBLE_EQ(cell["published_mfu"].get<double>(), 0.5937);
  EXPECT_LT(std::abs(cell["difference_points"].get<double>()), 10.0);
  EXPECT_NEAR(cell["difference_points"].get<double>(),
              100 * (cell["mfu"].get<double>() - 0.5937), 1e-9);
}

TEST(ReproduceCommand, TheTracedProgramIsWrittenAndRunsOnItsOwn) {
  const std::string dir = CliTempPath("reproduce_hlo");
  std::filesystem::create_directories(dir);
  CliResult r = RunCli("reproduce maxtext-v5e --model 16b --slices 1 --hlo-out " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string program = dir + "/maxtext_16b_1slice.hlo";
  ASSERT_TRUE(std::filesystem::exists(program));
  CliResult parsed = RunCli("parse " + program);
  EXPECT_EQ(parsed.exit_code, 0) << parsed.out;
  EXPECT_THAT(parsed.out, HasSubstr("1 passed"));
}

TEST(ReproduceCommand, UnknownTablesAndCellsAreClearErrors) {
  CliResult table = RunCli("reproduce mlperf");
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_THAT(table.out, HasSubstr("maxtext-v5e"));
  CliResult cell = RunCli("reproduce maxtext-v5e --model 24b");
  EXPECT_EQ(cell.exit_code, 2);
  EXPECT_THAT(cell.out, HasSubstr("no cell"));
}

}  // namespace
}  // namespace systolic
