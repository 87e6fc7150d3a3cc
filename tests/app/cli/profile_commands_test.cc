// `systolic info`, `export` and `import` run as a user runs them, on files
// written here.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xplane.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/app/cli/cli_runner.h"
#include "tests/support/synthetic_profile.h"
#include "tests/support/xspace_builder.h"

namespace systolic::trace {
namespace {

using ::systolic::testing::CliResult;
using ::systolic::testing::CliTempPath;
using ::systolic::testing::RunCli;
using ::systolic::testing::SampleHlo;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;


TEST(CliCommands, InfoSummarisesAProfile) {
  const Profile profile = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 40});
  const std::string path = CliTempPath("info.sysprof");
  ASSERT_TRUE(WriteProfileFile(profile, path).ok());

  CliResult text = RunCli("info " + path);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("programs: 2 (6 stages)"));
  EXPECT_THAT(text.out, HasSubstr("compiles: 3 (1 hits, 2 misses"));
  EXPECT_THAT(text.out, HasSubstr("core 0 / MXU 1"));
  EXPECT_THAT(text.out, HasSubstr("Metric: CompileTime"));

  CliResult json_run = RunCli("info " + path + " --json");
  ASSERT_EQ(json_run.exit_code, 0) << json_run.out;
  const nlohmann::json j = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(j["programs"], 2);
  EXPECT_EQ(j["stages"], 6);
  EXPECT_EQ(j["compiles"]["cache_misses"], 2);
  EXPECT_EQ(j["timeline"]["events"], profile.timeline.event_count());
  EXPECT_EQ(j["timeline"]["chips"], 2);
  EXPECT_EQ(j["timeline"]["end_ps"], 3000000);
  EXPECT_EQ(j["lanes"].size(), 2u * 6 + 1);
  EXPECT_EQ(j["lanes"][0]["events"], 40);
  EXPECT_EQ(j["chip"]["mxu_rows"], 128);
  EXPECT_EQ(j["format_version"], 3);
  EXPECT_TRUE(j["finished"].get<bool>());
}

TEST(CliCommands, InfoNamesDamage) {
  const std::string path = CliTempPath("cut.sysprof");
  absl::StatusOr<std::string> bytes = SerializeProfile(testing::MakeSampleProfile());
  ASSERT_TRUE(bytes.ok());
  std::ofstream(path, std::ios::binary) << bytes->substr(0, bytes->size() / 2);
  CliResult strict = RunCli("info " + path);
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_THAT(strict.out, HasSubstr("truncated: chunk 0 at byte 16"));
  CliResult missing = RunCli("info " + CliTempPath("missing.sysprof"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.out, HasSubstr("cannot open"));
}

TEST(CliCommands, ExportWritesAChromeTrace) {
  const std::string path = CliTempPath("export.sysprof");
  const std::string json_path = CliTempPath("export.json");
  ASSERT_TRUE(WriteProfileFile(testing::MakeSampleProfile({.chips = 2, .events_per_lane = 10}), path).ok());
  CliResult run = RunCli("export " + path + " --chrome " + json_path);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::ifstream in(json_path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  EXPECT_GT(trace["traceEvents"].size(), 100u);
  EXPECT_EQ(RunCli("export " + path).exit_code, 2);
}

// A profile written again in this build's format reads back equal, in
// chunks small enough that reading it never holds much at once.
TEST(CliCommands, ExportRewritesAProfileInSmallChunks) {
  const std::string path = CliTempPath("rewrite_in.sysprof");
  const std::string again = CliTempPath("rewrite_out.sysprof");
  const Profile written = testing::MakeSampleProfile({.chips = 2, .events_per_lane = 20000});
  ASSERT_TRUE(WriteProfileFile(written, path, {.max_events_per_chunk = int64_t(1) << 22}).ok());
  CliResult run = RunCli("export " + path + " --sysprof " + again);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("in format version"));
  ReadReport before, after;
  absl::StatusOr<Profile> one = ReadProfileFile(path, {}, &before);
  absl::StatusOr<Profile> two = ReadProfileFile(again, {}, &after);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_TRUE(*one == *two);
  EXPECT_GT(written.timeline.event_count(), int64_t(1) << 16);
  EXPECT_GT(after.chunk_count, before.chunk_count);
  EXPECT_EQ(RunCli("export " + path + " --chrome a.json --sysprof b.sysprof").exit_code, 2);
}

TEST(CliCommands, ImportConvertsAnXSpace) {
  xspace::XSpace space;
  xspace::XPlane* tpu = space.add_planes();
  tpu->set_name("/device:TPU:0");
  (*tpu->mutable_event_metadata())[5].set_name("fusion.1");
  xspace::XLine* ops = tpu->add_lines();
  ops->set_name("XLA Ops");
  ops->set_timestamp_ns(1000);
  for (int i = 0; i < 4; ++i) {
    xspace::XEvent* e = ops->add_events();
    e->set_metadata_id(5);
    e->set_offset_ps(i * 1000);
    e->set_duration_ps(500);
  }
  const std::string input = CliTempPath("run.xplane.pb");
  const std::string output = CliTempPath("run.sysprof");
  std::ofstream(input, std::ios::binary) << space.SerializeAsString();

  CliResult run = RunCli("import " + input + " -o " + output + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["device_planes"], 1);
  EXPECT_EQ(j["events"], 4);
  CliResult info = RunCli("info " + output + " --json");
  ASSERT_EQ(info.exit_code, 0) << info.out;
  EXPECT_EQ(nlohmann::json::parse(info.out)["timeline"]["events"], 4);
  EXPECT_EQ(RunCli("import " + input).exit_code, 2);
}

// A real profile's programs come with it: the metadata plane's HloProtos.
TEST(CliCommands, ImportReadsTheProgramsOfAnXSpace) {
  const systolic::testing::TwoProgramXSpace made = systolic::testing::MakeTwoProgramXSpace();
  const std::string input = CliTempPath("programs.xplane.pb");
  const std::string output = CliTempPath("programs.sysprof");
  std::ofstream(input, std::ios::binary) << made.space.SerializeAsString();

  CliResult run = RunCli("import " + input + " -o " + output + " --json", /*with_stderr=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["programs"].size(), 2u);
  EXPECT_EQ(j["programs"][0]["name"], "jit_eval_step");
  EXPECT_EQ(j["programs"][0]["id"], uint64_t(made.eval_id));  // unsigned, as XLA prints it
  EXPECT_EQ(j["programs"][1]["name"], "jit_train_step");
  EXPECT_EQ(j["programs"][1]["instructions"], 4);
  ASSERT_EQ(j["program_errors"].size(), 1u);
  EXPECT_THAT(j["program_errors"][0].get<std::string>(), HasSubstr("program 7 (jit_broken(7))"));
  CliResult info = RunCli("info " + output + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  EXPECT_EQ(nlohmann::json::parse(info.out)["programs"], 2);

  CliResult text = RunCli("import " + input + " -o " + output);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("2 programs"));
  EXPECT_THAT(text.out, HasSubstr("program jit_train_step (42): 4 instructions"));
  EXPECT_THAT(text.out, Not(HasSubstr("skipped plane /host:metadata")));
}

// A real profile against the simulator: per instruction, measured and
// simulated time side by side, for each program apart.
TEST(CliCommands, CompareSimulatesARealProfilesPrograms) {
  const systolic::testing::TwoProgramXSpace made = systolic::testing::MakeTwoProgramXSpace();
  const std::string input = CliTempPath("compare.xplane.pb");
  std::ofstream(input, std::ios::binary) << made.space.SerializeAsString();
  const std::string imported = CliTempPath("compare.sysprof");
  ASSERT_EQ(RunCli("import " + input + " -o " + imported).exit_code, 0);

  for (const std::string& file : {input, imported}) {
    CliResult run = RunCli("compare " + file + " --chip v5e --json", /*with_stderr=*/false);
    ASSERT_EQ(run.exit_code, 0) << run.out;
    const nlohmann::json j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["chip"], "v5e");
    ASSERT_EQ(j["programs"].size(), 2u);
    const nlohmann::json& train = j["programs"][1];
    EXPECT_EQ(train["name"], "jit_train_step");
    EXPECT_EQ(train["measured_runs"], 1);
    EXPECT_DOUBLE_EQ(train["measured_run_seconds"].get<double>(), 1e-6);
    EXPECT_GT(train["simulated_run_seconds"].get<double>(), 0);
    ASSERT_EQ(train["ops"].size(), 2u);
    for (const nlohmann::json& op : train["ops"]) {
      EXPECT_GT(op["simulated_seconds"].get<double>(), 0) << op.dump();
      EXPECT_NEAR(op["ratio"].get<double>(),
                  op["simulated_seconds"].get<double>() / op["measured_seconds"].get<double>(), 1e-9);
    }
  }
  CliResult text = RunCli("compare " + imported + " --chip v5p --top 1");
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("against simulated on v5p"));
  EXPECT_THAT(text.out, HasSubstr("program jit_train_step (42)"));
  EXPECT_THAT(text.out, HasSubstr("… 1 more (--top N)"));

  // Without a chip, or a profile with nothing to compare.
  EXPECT_EQ(RunCli("compare " + imported).exit_code, 2);
  EXPECT_EQ(RunCli("compare " + imported + " --chip v99").exit_code, 2);
  const std::string simulated = CliTempPath("compare_simulated.sysprof");
  ASSERT_EQ(RunCli("run " + SampleHlo("mlp_layer.hlo") + " --timing-only --profile " + simulated).exit_code, 0);
  CliResult nothing = RunCli("compare " + simulated + " --chip v5e");
  EXPECT_EQ(nothing.exit_code, 1);
  EXPECT_THAT(nothing.out, HasSubstr("nothing measured to compare"));
}

}  // namespace
}  // namespace systolic::trace
