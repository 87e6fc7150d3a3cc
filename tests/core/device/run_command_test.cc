// `systolic run` and `systolic profile` as a user runs them: the figures, the
// comparison with the reference, profiles that `systolic info` reads back,
// and bad input.
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace systolic::device {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
};

Result RunCli(const std::string& args, bool with_stderr = true) {
  Result result;
  const std::string command =
      absl::StrCat(SYSTOLIC_CLI, " ", args, with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string Sample(const std::string& name) {
  return std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name;
}

std::string TempPath(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "systolic_run_cli_tests";
  fs::create_directories(dir);
  fs::remove(dir / name);
  return (dir / name).string();
}

TEST(RunCommand, JsonReportsTimeBelowPeakAndNoDifferenceFromTheReference) {
  Result r = RunCli("run " + Sample("mlp_layer.hlo") + " --chip v4 --compare-reference --json",
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["chip"], "v4");
  EXPECT_GT(j["simulated_seconds"].get<double>(), 0);
  EXPECT_GT(j["tflops"].get<double>(), 0);
  EXPECT_LT(j["tflops"].get<double>(), j["peak_tflops"].get<double>());
  EXPECT_NEAR(j["peak_tflops"].get<double>(), 275.0, 1.0);
  EXPECT_EQ(j["max_abs_diff"].get<double>(), 0);
  EXPECT_EQ(j["max_rel_diff"].get<double>(), 0);
  ASSERT_FALSE(j["ops"].empty());
  bool mxu = false;
  for (const auto& op : j["ops"]) mxu |= op["unit"] == "MXU";
  EXPECT_TRUE(mxu) << "the dense layer runs on the MXU";
  ASSERT_EQ(j["outputs"].size(), 1u);
}

TEST(RunCommand, TextPrintsTheOpTableAndTheProfileReadsBack) {
  const std::string profile = TempPath("mlp.sysprof");
  Result r = RunCli("run " + Sample("mlp_layer.hlo") + " --timing-only --profile " + profile);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("simulated time:"));
  EXPECT_THAT(r.out, HasSubstr("TFLOP/s peak"));
  EXPECT_THAT(r.out, HasSubstr("instruction"));
  EXPECT_THAT(r.out, HasSubstr("fusion"));

  Result info = RunCli("info " + profile + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["chip"]["name"], "v4");
  EXPECT_EQ(j["programs"], 1);
  EXPECT_GT(j["stages"].get<int>(), 1) << "a snapshot per pass";
  EXPECT_GT(j["timeline"]["events"].get<int>(), 0);
}

TEST(RunCommand, BadInputIsAClearError) {
  Result missing = RunCli("run /no/such/file.hlo");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.out, HasSubstr("/no/such/file.hlo"));
  Result chip = RunCli("run " + Sample("mlp_layer.hlo") + " --chip v99");
  EXPECT_EQ(chip.exit_code, 2);
  EXPECT_THAT(chip.out, HasSubstr("v99"));
  Result args = RunCli("run " + Sample("mlp_layer.hlo") + " --args a.npy");
  EXPECT_EQ(args.exit_code, 2);
  EXPECT_THAT(args.out, HasSubstr("4 parameters"));
}

TEST(ProfileCommand, WritesTheProfileOfEveryStepForInfoAndTheStudio) {
  const std::string path = TempPath("profiled.sysprof");
  Result r = RunCli("profile " + Sample("mlp_layer.hlo") + " --chip v5e --steps 4 -o " + path +
                        " --json",
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["module"], "mlp_layer");
  EXPECT_EQ(j["chip"], "v5e");
  EXPECT_EQ(j["steps"], 4);
  EXPECT_EQ(j["programs"], 1);
  EXPECT_EQ(j["compiles"], 4);  // one compile, then a cache hit per later step
  EXPECT_GT(j["stages"].get<int64_t>(), 2);
  EXPECT_GT(j["events"].get<int64_t>(), 4);
  EXPECT_GT(j["span_ps"].get<int64_t>(), 0);

  // The file is a complete profile: `info` reads back what was written.
  Result info = RunCli("info " + path + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i["steps"], 4);
  EXPECT_EQ(i["compiles"]["total"], 4);
  EXPECT_EQ(i["compiles"]["cache_misses"], 1);
  EXPECT_EQ(i["chip"]["name"], "v5e");
  EXPECT_EQ(i["stages"], j["stages"]);
}

TEST(ProfileCommand, BadInputIsAClearErrorAndWritesNothing) {
  const std::string out = TempPath("never.sysprof");
  Result no_output = RunCli("profile " + Sample("mlp_layer.hlo"));
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_THAT(no_output.out, HasSubstr("give one program file and -o OUT"));

  const std::string bad = TempPath("bad.hlo");
  {
    std::FILE* f = std::fopen(bad.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("HloModule bad\nENTRY e {\n  ROOT p = f32[2] frobnicate()\n}\n", f);
    std::fclose(f);
  }
  Result malformed = RunCli("profile " + bad + " -o " + out);
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_THAT(malformed.out, HasSubstr("bad.hlo:3:19: unknown opcode 'frobnicate'"));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace systolic::device
