// `systolic run` and `systolic profile` (of a file or a lazy sample) as a
// user runs them: the figures, the comparison with the reference, profiles
// that `systolic info` reads back, and bad input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/compiler/differential_check.h"
#include "core/eval/npy_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "samples/lazy/lazy_sample.h"
#include "tests/app/cli/cli_runner.h"

namespace systolic::device {
namespace {

using ::systolic::testing::CliResult;
using ::systolic::testing::CliTempPath;
using ::systolic::testing::RunCli;
using ::systolic::testing::SampleHlo;
using ::testing::HasSubstr;
namespace fs = std::filesystem;


TEST(RunCommand, JsonReportsTimeBelowPeakAndNoDifferenceFromTheReference) {
  CliResult r = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --chip v4 --compare-reference --json",
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
  // The dense layer's multiply-adds are counted (a layer this small waits
  // mostly on DMA latency, so its busiest unit is DMA, not the MXU).
  double most_flops = 0;
  for (const auto& op : j["ops"]) most_flops = std::max(most_flops, op["flops"].get<double>());
  EXPECT_GE(most_flops, 2.0 * 32 * 64 * 128);
  ASSERT_EQ(j["outputs"].size(), 1u);
}

// Memory is planned before any value is made: over the limit, the run
// stops with the largest values and the way out; timing needs no values.
TEST(RunCommand, AProgramOverTheMemoryLimitStopsBeforeItRuns) {
  CliResult over = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --memory-limit 64k");
  EXPECT_EQ(over.exit_code, 1) << over.out;
  EXPECT_THAT(over.out, HasSubstr("evaluating mlp_layer needs about 108.8 KiB of host memory"));
  EXPECT_THAT(over.out, HasSubstr("64.0 KiB may be used (SYSTOLIC_MEMORY_LIMIT)"));
  EXPECT_THAT(over.out, HasSubstr("%w f32[64,128] 32.0 KiB"));
  EXPECT_THAT(over.out, HasSubstr("--timing-only"));
  CliResult eval = RunCli("eval " + SampleHlo("mlp_layer.hlo") + " --memory-limit 64k");
  EXPECT_NE(eval.exit_code, 0) << eval.out;
  EXPECT_THAT(eval.out, HasSubstr("needs about 108.8 KiB"));
  CliResult timing =
      RunCli("run " + SampleHlo("mlp_layer.hlo") + " --memory-limit 64k --timing-only");
  EXPECT_EQ(timing.exit_code, 0) << timing.out;
  CliResult enough = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --memory-limit 1M");
  EXPECT_EQ(enough.exit_code, 0) << enough.out;
  CliResult bad = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --memory-limit lots");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("'lots' is not a size"));
}

TEST(RunCommand, TextPrintsTheOpTableAndTheProfileReadsBack) {
  const std::string profile = CliTempPath("mlp.sysprof");
  CliResult r = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --timing-only --profile " + profile);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("simulated time:"));
  EXPECT_THAT(r.out, HasSubstr("TFLOP/s peak"));
  EXPECT_THAT(r.out, HasSubstr("instruction"));
  EXPECT_THAT(r.out, HasSubstr("fusion"));

  CliResult info = RunCli("info " + profile + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["chip"]["name"], "v4");
  EXPECT_EQ(j["programs"], 1);
  EXPECT_GT(j["stages"].get<int>(), 1) << "a snapshot per pass";
  EXPECT_GT(j["timeline"]["events"].get<int>(), 0);
}

TEST(RunCommand, BadInputIsAClearError) {
  CliResult missing = RunCli("run /no/such/file.hlo");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.out, HasSubstr("/no/such/file.hlo"));
  CliResult chip = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --chip v99");
  EXPECT_EQ(chip.exit_code, 2);
  EXPECT_THAT(chip.out, HasSubstr("v99"));
  CliResult args = RunCli("run " + SampleHlo("mlp_layer.hlo") + " --args a.npy");
  EXPECT_EQ(args.exit_code, 2);
  EXPECT_THAT(args.out, HasSubstr("4 parameters"));
}

// A binary file opened as a program (an image, an archive, a profile under
// another name) is named as such in one line, with no bytes of it quoted.
TEST(RunCommand, ABinaryFileIsNotTextAtItsFirstBinaryByte) {
  const std::string path = CliTempPath("random.hlo");
  {
    std::ofstream out(path, std::ios::binary);
    out << "HloModule m\nENTRY e {\n  ";
    out.write("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18);
  }
  for (const std::string command : {"run ", "parse ", "compile "}) {
    CliResult r = RunCli(command + path);
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_THAT(r.out, HasSubstr(path + ":4:1: not a text file: byte 30 is 0x1A")) << command;
    EXPECT_EQ(r.out.find("IHDR"), std::string::npos) << r.out;
  }
}

// Four replicas sum their vectors: a value every device must agree on.
constexpr char kSummedReplicas[] = R"(HloModule summed, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[1024] parameter(0)
  ROOT y = f32[1024] all-reduce(x), replica_groups={}, to_apply=add
}
)";

std::string WriteText(const std::string& name, const std::string& text) {
  const std::string path = CliTempPath(name);
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  return path;
}

TEST(RunCommand, OnASliceEachCollectiveHasItsTimeAndBytes) {
  const std::string profile = CliTempPath("allgather.sysprof");
  CliResult r = RunCli("run " + SampleHlo("allgather_overlap.hlo") +
                        " --topology v4:2x2x2 --timing-only --json --profile " + profile,
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["topology"], "v4:2x2x2");
  EXPECT_EQ(j["devices"], 8);
  EXPECT_EQ(j["partitions"], 8);
  ASSERT_EQ(j["collectives"].size(), 1u);
  const nlohmann::json& gather = j["collectives"][0];
  EXPECT_EQ(gather["collective"], "all-gather");
  EXPECT_EQ(gather["bytes"], 4096 * 4096 * 2);  // the gathered bf16 weights
  const double seconds = gather["simulated_seconds"].get<double>();
  EXPECT_GT(seconds, 0);
  // The chip spends it on its ICI unit, inside the run.
  bool on_ici = false;
  for (const auto& op : j["ops"]) {
    if (op["unit"] != "ICI") continue;
    on_ici = true;
    EXPECT_NEAR(op["seconds"].get<double>(), seconds, 1e-8);
  }
  EXPECT_TRUE(on_ici);
  EXPECT_GE(j["simulated_seconds"].get<double>(), seconds);

  CliResult info = RunCli("info " + profile + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json p = nlohmann::json::parse(info.out);
  EXPECT_GT(p["timeline"]["flows"].get<int>(), 0) << info.out;
}

TEST(RunCommand, OnASliceEveryDeviceMatchesEval) {
  const std::string hlo = WriteText("summed.hlo", kSummedReplicas);
  CliResult run = RunCli("run " + hlo + " --topology v5e:2x2 --seed 3 --json --compare-reference",
                      /*with_stderr=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  CliResult eval = RunCli("eval " + hlo + " --seed 3 --json", /*with_stderr=*/false);
  ASSERT_EQ(eval.exit_code, 0) << eval.out;
  const nlohmann::json r = nlohmann::json::parse(run.out);
  const nlohmann::json e = nlohmann::json::parse(eval.out)["modules"][0];
  ASSERT_EQ(r["device_outputs"].size(), 4u);
  ASSERT_EQ(e["devices"].size(), 4u);
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(r["device_outputs"][d]["outputs"][0]["value"], e["devices"][d]["outputs"][0]["value"]);
  }
  EXPECT_EQ(r["device_outputs"][0]["outputs"][0]["value"],
            r["device_outputs"][3]["outputs"][0]["value"]);
  EXPECT_EQ(r["max_abs_diff"].get<double>(), 0);
  ASSERT_EQ(r["collectives"].size(), 1u);
  EXPECT_EQ(r["collectives"][0]["bytes"], 4096);
}

TEST(RunCommand, AShardedModuleRunsPartitionedOnWholeArgumentsAndMatchesEval) {
  const fs::path dir = fs::temp_directory_path() / "systolic_run_cli_tests";
  const std::string run_dir = (dir / "sharded_run").string();
  const std::string eval_dir = (dir / "sharded_eval").string();
  for (const std::string& d : {run_dir, eval_dir}) {
    fs::remove_all(d);
    fs::create_directories(d);
  }
  CliResult run = RunCli("run " + SampleHlo("sharded_mlp.hlo") +
                          " --topology v4:4x2 --seed 5 --json --compare-reference --out " + run_dir,
                      /*with_stderr=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const nlohmann::json r = nlohmann::json::parse(run.out);
  EXPECT_EQ(r["partitions"], 8);
  // Gathered whole: one result of the module's full shape.
  ASSERT_EQ(r["outputs"].size(), 1u) << run.out;
  EXPECT_EQ(r["outputs"][0]["shape"], "f32[64,256]");
  EXPECT_LT(r["max_abs_diff"].get<double>(), 1e-3);
  // The second layer's partial sums meet in one all-reduce of the result.
  ASSERT_EQ(r["collectives"].size(), 1u) << run.out;
  EXPECT_EQ(r["collectives"][0]["collective"], "all-reduce");
  EXPECT_EQ(r["collectives"][0]["bytes"], 64 * 256 * 4);

  CliResult eval = RunCli("eval " + SampleHlo("sharded_mlp.hlo") + " --seed 5 --partitions 1 --out " + eval_dir,
                       /*with_stderr=*/false);
  ASSERT_EQ(eval.exit_code, 0) << eval.out;
  auto sharded = ReadNpyFile(run_dir + "/out.npy");
  auto whole = ReadNpyFile(eval_dir + "/out.npy");
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  ASSERT_TRUE(whole.ok()) << whole.status();
  // Partial sums of 1024 products add up in another order.
  DifferentialOptions tolerance;
  tolerance.exact = false;
  tolerance.absolute_tolerance = 1e-3;
  EXPECT_EQ(FirstDifference(*whole, *sharded, "out", tolerance), "");
}

TEST(CompileCommand, AShardedModuleIsPartitionedOverTheSliceWithItsCollectivesListed) {
  CliResult r = RunCli("compile " + SampleHlo("sharded_conv.hlo") + " --topology v4:2x2 --check --json",
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json m = nlohmann::json::parse(r.out)["modules"][0];
  EXPECT_EQ(m["partitions"], 4);
  EXPECT_EQ(m["check"]["same"], true);
  // One halo row from each neighbour: two collective-permutes.
  ASSERT_EQ(m["collectives"].size(), 2u) << r.out;
  for (const auto& c : m["collectives"]) {
    EXPECT_EQ(c["collective"], "collective-permute");
    EXPECT_EQ(c["bytes"], 8 * 1 * 64 * 32 * 4);
    EXPECT_EQ(c["op_name"], "conv/conv2d");
  }
  CliResult text = RunCli("compile " + SampleHlo("sharded_conv.hlo") + " --partitions 4 --stats");
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("spmd-partitioner"));
  EXPECT_THAT(text.out, HasSubstr("collectives (4 partitions): 2"));
}

TEST(CompileCommand, ShardingsNamingMoreDevicesThanPartitionsAreAClearError) {
  CliResult r = RunCli("compile " + SampleHlo("sharded_conv.hlo") + " --partitions 2");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("partitioning image"));
  EXPECT_THAT(r.out, HasSubstr("names 4 devices, the program has 2 partitions"));
}

TEST(RunCommand, TimingOnlyGivesTheSameTimesAsAFullRun) {
  const std::string hlo = WriteText("summed_timing.hlo", kSummedReplicas);
  for (const std::string& target : {SampleHlo("mlp_layer.hlo") + " --chip v5e",
                                    hlo + " --topology v4:2x2"}) {
    CliResult full = RunCli("run " + target + " --json", /*with_stderr=*/false);
    CliResult timed = RunCli("run " + target + " --json --timing-only", /*with_stderr=*/false);
    ASSERT_EQ(full.exit_code, 0) << full.out;
    ASSERT_EQ(timed.exit_code, 0) << timed.out;
    const nlohmann::json f = nlohmann::json::parse(full.out);
    const nlohmann::json t = nlohmann::json::parse(timed.out);
    EXPECT_EQ(f["cycles"], t["cycles"]) << target;
    EXPECT_EQ(f["ops"], t["ops"]) << target;
    EXPECT_FALSE(t.contains("outputs") || t.contains("device_outputs"));
  }
}

TEST(RunCommand, APodTrainingStepIsTimedWithoutValues) {
  // A billion bf16 weights on each of 4,096 chips: far beyond what the host
  // could compute, timed from shapes alone.
  CliResult r = RunCli("run " + SampleHlo("pod_training_step.hlo") +
                        " --topology v4:16x16x16 --timing-only --json",
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["devices"], 4096);
  ASSERT_EQ(j["collectives"].size(), 1u);
  EXPECT_EQ(j["collectives"][0]["bytes"], int64_t(32768) * 32768 * 4);
  const double all_reduce = j["collectives"][0]["simulated_seconds"].get<double>();
  // A torus all-reduce moves about the buffer once each way along the
  // longest axis: S / (2 links x 45 GB/s) x 2 x 15/16, plus the short axes.
  const double bytes = 32768.0 * 32768 * 4;
  const double longest_axis = 2 * (15.0 / 16) * (bytes / 2) / 45e9;
  EXPECT_GT(all_reduce, longest_axis);
  EXPECT_LT(all_reduce, 1.2 * longest_axis);
  EXPECT_GT(j["simulated_seconds"].get<double>(), all_reduce);
  EXPECT_GT(j["tflops"].get<double>(), 0);
}

TEST(RunCommand, ASliceTooSmallOrOfAnotherChipIsAClearError) {
  CliResult small = RunCli("run " + SampleHlo("allgather_overlap.hlo") + " --topology v4:2x2");
  EXPECT_EQ(small.exit_code, 1);
  EXPECT_THAT(small.out, HasSubstr("8 devices"));
  EXPECT_THAT(small.out, HasSubstr("4 chips"));
  CliResult shape = RunCli("run " + SampleHlo("allgather_overlap.hlo") + " --topology v5e:2x2x2");
  EXPECT_EQ(shape.exit_code, 2);
  CliResult chips = RunCli("run " + SampleHlo("allgather_overlap.hlo") + " --chip v5e --topology v4:2x2x2");
  EXPECT_EQ(chips.exit_code, 2);
  EXPECT_THAT(chips.out, HasSubstr("--chip says v5e"));
}

// Two runs of one program, on v4 and on v5e, compared: every instruction's
// change of self time, with the idle and unattributed rows, sums to the
// change of the step time.
TEST(DiffCommand, PerInstructionChangesSumToTheStepTimeChange) {
  const std::string v4 = CliTempPath("diff_v4.sysprof");
  const std::string v5e = CliTempPath("diff_v5e.sysprof");
  ASSERT_EQ(RunCli("profile " + SampleHlo("mlp_layer.hlo") + " --chip v4 --steps 2 -o " + v4).exit_code, 0);
  ASSERT_EQ(RunCli("profile " + SampleHlo("mlp_layer.hlo") + " --chip v5e --steps 3 -o " + v5e).exit_code, 0);
  CliResult r = RunCli("diff " + v4 + " " + v5e + " --json", /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["before"]["chip"], "v4");
  EXPECT_EQ(j["after"]["chip"], "v5e");
  EXPECT_EQ(j["before"]["steps"], 2);
  EXPECT_EQ(j["after"]["steps"], 3);
  // Each run's FLOP/s against its own chip's peak (v5e: 197 TFLOP/s).
  const double v5e_share = j["after"]["flop_utilization"].get<double>();
  EXPECT_GT(v5e_share, 0);
  EXPECT_NEAR(v5e_share, j["after"]["tflops"].get<double>() / 197.0, 0.02 * v5e_share);
  const double step_delta = j["step_delta_seconds"].get<double>();
  EXPECT_NEAR(step_delta,
              j["after"]["step_seconds"].get<double>() - j["before"]["step_seconds"].get<double>(),
              1e-9 * std::abs(step_delta));
  EXPECT_NE(step_delta, 0);
  double sum = 0, before = 0, after = 0;
  for (const nlohmann::json& op : j["ops"]) {
    sum += op["delta_seconds"].get<double>();
    before += op["before_seconds"].get<double>();
    after += op["after_seconds"].get<double>();
  }
  EXPECT_NEAR(sum, step_delta, 1e-12 + 1e-9 * std::abs(step_delta));
  EXPECT_NEAR(before, j["before"]["step_seconds"].get<double>(), 1e-12);
  EXPECT_NEAR(after, j["after"]["step_seconds"].get<double>(), 1e-12);

  CliResult text = RunCli("diff " + v4 + " " + v5e + " --top 3");
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("step time"));
  EXPECT_THAT(text.out, HasSubstr("more (--top N)"));
  CliResult one = RunCli("diff " + v4);
  EXPECT_EQ(one.exit_code, 2);
  CliResult missing = RunCli("diff " + v4 + " " + CliTempPath("missing.sysprof"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.out, HasSubstr("cannot open"));
}

TEST(ProfileCommand, WritesTheProfileOfEveryStepForInfoAndTheStudio) {
  const std::string path = CliTempPath("profiled.sysprof");
  CliResult r = RunCli("profile " + SampleHlo("mlp_layer.hlo") + " --chip v5e --steps 4 -o " + path +
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
  CliResult info = RunCli("info " + path + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i["steps"], 4);
  EXPECT_EQ(i["compiles"]["total"], 4);
  EXPECT_EQ(i["compiles"]["cache_misses"], 1);
  EXPECT_EQ(i["chip"]["name"], "v5e");
  EXPECT_EQ(i["stages"], j["stages"]);
  EXPECT_EQ(i["producer"], "systolic profile");
}

TEST(ProfileCommand, AShardedProgramIsProfiledOnItsSlice) {
  const std::string path = CliTempPath("sharded.sysprof");
  CliResult r = RunCli("profile " + SampleHlo("allgather_overlap.hlo") + " --topology v5e:4x2 --steps 2 -o " +
                        path + " --json",
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["chip"], "v5e");
  EXPECT_EQ(j["topology"], "4x2");
  CliResult info = RunCli("info " + path + " --json", /*with_stderr=*/false);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  const nlohmann::json i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i["timeline"]["chips"], 8) << info.out;
  EXPECT_GT(i["timeline"]["flows"].get<int>(), 0);
}

TEST(ProfileCommand, EverySamplesProfileReadsBackWhole) {
  CliResult list = RunCli("samples --json", /*with_stderr=*/false);
  ASSERT_EQ(list.exit_code, 0) << list.out;
  const nlohmann::json samples = nlohmann::json::parse(list.out)["samples"];
  ASSERT_FALSE(samples.empty());
  for (const nlohmann::json& sample : samples) {
    const std::string name = sample["name"];
    const std::string path = CliTempPath(name + ".sysprof");
    CliResult written = RunCli("profile --sample " + name + " --steps 2 -o " + path + " --json",
                            /*with_stderr=*/false);
    ASSERT_EQ(written.exit_code, 0) << name << ": " << written.out;
    const nlohmann::json w = nlohmann::json::parse(written.out);
    CliResult read = RunCli("info " + path + " --json", /*with_stderr=*/false);
    ASSERT_EQ(read.exit_code, 0) << name << ": " << read.out;
    const nlohmann::json r = nlohmann::json::parse(read.out);
    // What was in memory when written is what the file gives back.
    EXPECT_EQ(r["programs"], w["programs"]) << name;
    EXPECT_EQ(r["stages"], w["stages"]) << name;
    EXPECT_EQ(r["compiles"]["total"], w["compiles"]) << name;
    EXPECT_EQ(r["timeline"]["events"], w["events"]) << name;
    EXPECT_EQ(r["timeline"]["duration_ps"], w["span_ps"]) << name;
    EXPECT_EQ(r["steps"], 2) << name;
    EXPECT_EQ(r["producer"], "systolic profile") << name;
  }
}

TEST(ProfileCommand, BadInputIsAClearErrorAndWritesNothing) {
  const std::string out = CliTempPath("never.sysprof");
  CliResult no_output = RunCli("profile " + SampleHlo("mlp_layer.hlo"));
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_THAT(no_output.out, HasSubstr("give one program file and -o OUT"));

  const std::string bad = CliTempPath("bad.hlo");
  {
    std::FILE* f = std::fopen(bad.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("HloModule bad\nENTRY e {\n  ROOT p = f32[2] frobnicate()\n}\n", f);
    std::fclose(f);
  }
  CliResult malformed = RunCli("profile " + bad + " -o " + out);
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_THAT(malformed.out, HasSubstr("bad.hlo:3:19: unknown opcode 'frobnicate'"));
  EXPECT_FALSE(fs::exists(out));
}

// The smallest lazy sample: data parallel over four chips, and a last
// partial batch that makes it compile a second program.
constexpr char kSample[] = "mlp_ddp";

// The training the profile command runs, as `systolic samples` reports it.
nlohmann::json Training(int steps) {
  CliResult r = RunCli(absl::StrCat("samples ", kSample, " --steps ", steps, " --json"),
                    /*with_stderr=*/false);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return nlohmann::json::parse(r.out);
}

nlohmann::json Info(const std::string& path) {
  CliResult info = RunCli("info " + path + " --json", /*with_stderr=*/false);
  EXPECT_EQ(info.exit_code, 0) << info.out;
  return nlohmann::json::parse(info.out);
}

TEST(ProfileCommand, ASampleIsTrainedAndEveryStepProfiledOnItsSlice) {
  const std::string path = CliTempPath("sample.sysprof");
  CliResult r = RunCli(absl::StrCat("profile --sample ", kSample, " --steps 3 -o ", path, " --json"),
                    /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["sample"], kSample);
  EXPECT_TRUE(j["file"].is_null());
  EXPECT_EQ(j["steps"], 3);
  EXPECT_EQ(j["profile"], path);

  const nlohmann::json training = Training(3);
  const nlohmann::json i = Info(path);
  EXPECT_EQ(i["producer"], "systolic profile");
  EXPECT_GE(i["programs"].get<int>(), 1);
  EXPECT_EQ(i["compiles"]["total"], training["compiles"].size());
  EXPECT_EQ(i["steps"], 3);
  EXPECT_EQ(i["timeline"]["chips"], training["devices"]) << "a plane per device";
  EXPECT_EQ(i["topology"]["chips"], training["devices"]);
  EXPECT_GT(i["timeline"]["events"].get<int64_t>(), 0);
  EXPECT_GT(i["timeline"]["flows"].get<int64_t>(), 0) << "the gradients' all-reduce";
}

// A sample that states its model FLOPs gets them and its MFU: model FLOPs
// per second of the last step over the chips' peak.
TEST(ProfileCommand, TheScannedTransformerPrintsItsModelFlopsAndMfu) {
  const std::string path = CliTempPath("transformer_scan.sysprof");
  CliResult r = RunCli("profile --sample transformer_scan --steps 2 -o " + path + " --json",
                       /*with_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const double model = j["model_flops_per_step"];
  const double seconds = j["step_seconds"];
  const double mfu = j["mfu"];
  EXPECT_DOUBLE_EQ(model, samples::FindLazySample("transformer_scan")->model_flops_per_step);
  EXPECT_GT(seconds, 0);
  // 4 chips of v5p at 459 TFLOP/s each.
  EXPECT_NEAR(mfu, model / seconds / (4 * 458.752e12), 1e-3 * mfu);
  EXPECT_GT(mfu, 0);
  EXPECT_LT(mfu, 1);

  CliResult text = RunCli("profile --sample transformer_scan --steps 2 -o " + path);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("model FLOPs per step: "));
  EXPECT_THAT(text.out, HasSubstr("MFU "));
  EXPECT_THAT(text.out, HasSubstr("of 4 x v5p"));
}

TEST(ProfileCommand, ASampleThatRecompilesHasEveryProgramAndEveryMiss) {
  const std::string path = CliTempPath("recompiling_sample.sysprof");
  // Enough steps to reach the partial batch.
  const nlohmann::json training = Training(4);
  int64_t misses = 0, programs = 0;
  for (const nlohmann::json& c : training["compiles"]) {
    misses += c["cache_hit"].get<bool>() ? 0 : 1;
    programs = std::max(programs, c["program_id"].get<int64_t>() + 1);
  }
  ASSERT_GT(misses, 1) << "the partial batch compiles a new program";
  CliResult r = RunCli(absl::StrCat("profile --sample ", kSample, " --steps 4 -o ", path));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr(absl::StrCat(kSample, " on ")));

  const nlohmann::json i = Info(path);
  EXPECT_EQ(i["programs"], programs);
  EXPECT_EQ(i["compiles"]["total"], training["compiles"].size());
  EXPECT_EQ(i["compiles"]["cache_misses"], misses);
  EXPECT_EQ(i["steps"], 4);
}

TEST(ProfileCommand, AnUnknownSampleOrAFileAndASampleIsAUsageError) {
  const std::string out = CliTempPath("never_sample.sysprof");
  CliResult unknown = RunCli("profile --sample no_such_sample -o " + out);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.out, HasSubstr("no sample named 'no_such_sample'"));
  EXPECT_THAT(unknown.out, HasSubstr(kSample)) << "the known names";

  CliResult both = RunCli(absl::StrCat("profile ", SampleHlo("mlp_layer.hlo"), " --sample ", kSample,
                                    " -o ", out));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.out, HasSubstr("not both"));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace systolic::device
