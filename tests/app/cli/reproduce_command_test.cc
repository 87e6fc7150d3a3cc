// `systolic reproduce maxtext-v5e` and `systolic decoder` as a user runs
// them: one cell as JSON beside its published figure, the traced program
// written to open on its own, a named model on two slices, and clear errors
// for a table, cell or model that does not exist.
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

TEST(DecoderCommand, ANamedModelIsPredictedOnTheSlicesGiven) {
  CliResult r = RunCli("decoder llama2-7b --topology v5e:4x4*2 --sequence 512 --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["chips"], 32);
  EXPECT_EQ(j["fsdp"], 16);
  EXPECT_EQ(j["topology"], "v5e:4x4*2");
  // 512 tokens per chip leave the weights' gathers exposed: a low MFU, but
  // one that TFLOP/s per chip and the chip's peak agree on.
  EXPECT_GT(j["mfu"].get<double>(), 0.0);
  EXPECT_LT(j["mfu"].get<double>(), 0.9);
  EXPECT_NEAR(j["tflops_per_chip"].get<double>(), j["mfu"].get<double>() * 196.608, 1e-3);
  EXPECT_NEAR(j["tokens_per_second"].get<double>(),
              32 * 512 / j["step_seconds"].get<double>(), 1e-6 * j["tokens_per_second"].get<double>());
}

TEST(DecoderCommand, AnUnknownModelListsTheKnownOnes) {
  CliResult r = RunCli("decoder gpt-5");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("llama3.1-405b"));
  CliResult tensor = RunCli("decoder llama3-8b --topology v5e:4x4 --tensor 3");
  EXPECT_EQ(tensor.exit_code, 2);
  EXPECT_THAT(tensor.out, HasSubstr("does not divide"));
}

}  // namespace
}  // namespace systolic
