// HLO protos through the CLI as a user runs it: `export --hlo-proto` and
// `--hlo-proto-text` write a program as XLA's HloModuleProto, which `parse`,
// `eval` and `run` then read; an HloSnapshot's arguments are what `eval`
// runs with unless --args are given.
#include <fstream>
#include <string>

#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_proto_literal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/app/cli/cli_runner.h"

namespace systolic {
namespace {

using ::systolic::testing::CliResult;
using ::systolic::testing::CliTempPath;
using ::systolic::testing::RunCli;
using ::systolic::testing::SampleHlo;
using ::testing::HasSubstr;

nlohmann::json EvalJson(const std::string& file, const std::string& flags = "") {
  CliResult r = RunCli("eval " + file + " --seed 7 --json " + flags, /*with_stderr=*/false);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

TEST(HloProtoCommands, ExportedProtosParseAndEvaluateAsTheTextDoes) {
  const std::string binary = CliTempPath("mlp.hlo.pb");
  const std::string text = CliTempPath("mlp.pbtxt");
  CliResult wrote = RunCli("export " + SampleHlo("mlp_layer.hlo") + " --hlo-proto " + binary);
  ASSERT_EQ(wrote.exit_code, 0) << wrote.out;
  EXPECT_THAT(wrote.out, HasSubstr("HloModuleProto (binary) of module mlp_layer"));
  CliResult wrote_text = RunCli("export " + SampleHlo("mlp_layer.hlo") + " --hlo-proto-text " + text);
  ASSERT_EQ(wrote_text.exit_code, 0) << wrote_text.out;

  // The binary file is XLA's message: it decodes as an HloModuleProto.
  std::ifstream in(binary, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  hlo_proto::HloModuleProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  EXPECT_EQ(proto.name(), "mlp_layer");
  EXPECT_EQ(proto.entry_computation_name(), "main");
  EXPECT_EQ(proto.computations_size(), 3);

  const CliResult from_text = RunCli("parse " + SampleHlo("mlp_layer.hlo") + " --print");
  for (const std::string& file : {binary, text}) {
    CliResult parsed = RunCli("parse " + file + " --print");
    ASSERT_EQ(parsed.exit_code, 0) << parsed.out;
    EXPECT_THAT(parsed.out, HasSubstr(": OK mlp_layer"));
    EXPECT_THAT(parsed.out, HasSubstr("1 passed, 0 failed"));
    // The module printed from the proto is the module printed from the text.
    const size_t module_at = from_text.out.find("HloModule mlp_layer");
    ASSERT_NE(module_at, std::string::npos);
    const std::string module_text =
        from_text.out.substr(module_at, from_text.out.find("\n}\n", module_at) - module_at);
    EXPECT_THAT(parsed.out, HasSubstr(module_text));
  }

  const nlohmann::json expected = EvalJson(SampleHlo("mlp_layer.hlo"));
  for (const std::string& file : {binary, text}) {
    const nlohmann::json got = EvalJson(file);
    ASSERT_TRUE(got.contains("modules")) << file;
    EXPECT_EQ(got["modules"][0]["devices"], expected["modules"][0]["devices"]) << file;
    EXPECT_EQ(got["modules"][0]["arguments"][0]["source"], "random");
  }

  CliResult ran = RunCli("run " + binary + " --chip v4 --compare-reference --json",
                         /*with_stderr=*/false);
  ASSERT_EQ(ran.exit_code, 0) << ran.out;
  EXPECT_EQ(nlohmann::json::parse(ran.out)["max_abs_diff"].get<double>(), 0);
}

TEST(HloProtoCommands, ASnapshotRunsWithItsArguments) {
  const std::string program = CliTempPath("axpy.hlo");
  std::ofstream(program) << "HloModule axpy\n"
                            "ENTRY %main (a: f32[], x: f32[3]) -> f32[3] {\n"
                            "  %a = f32[] parameter(0)\n"
                            "  %x = f32[3] parameter(1)\n"
                            "  %ab = f32[3] broadcast(f32[] %a), dimensions={}\n"
                            "  ROOT %r = f32[3] multiply(f32[3] %ab, f32[3] %x)\n"
                            "}\n";
  const std::string module_file = CliTempPath("axpy.pb");
  ASSERT_EQ(RunCli("export " + program + " --hlo-proto " + module_file).exit_code, 0);
  std::ifstream in(module_file, std::ios::binary);
  hlo_proto::HloSnapshot snapshot;
  ASSERT_TRUE(snapshot.mutable_hlo()->mutable_hlo_module()->ParseFromIstream(&in));
  *snapshot.add_arguments() = LiteralToProto(Literal::CreateR0<float>(3.0f));
  *snapshot.add_arguments() = LiteralToProto(Literal::CreateR1<float>({1, -2, 0.5}));
  const std::string snapshot_file = CliTempPath("axpy.hlo_snapshot.pb");
  std::ofstream(snapshot_file, std::ios::binary) << snapshot.SerializeAsString();

  const nlohmann::json got = EvalJson(snapshot_file);
  ASSERT_TRUE(got.contains("modules"));
  EXPECT_EQ(got["modules"][0]["arguments"][1]["source"], "snapshot");
  const std::string value = got["modules"][0]["devices"][0]["outputs"][0]["value"];
  EXPECT_THAT(value, HasSubstr("3, -6, 1.5")) << got.dump(2);

  CliResult text = RunCli("eval " + snapshot_file);
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("3, -6, 1.5"));
}

TEST(HloProtoCommands, BrokenProtosAreClearErrors) {
  const std::string cut = CliTempPath("cut.hlo.pb");
  ASSERT_EQ(RunCli("export " + SampleHlo("mlp_layer.hlo") + " --hlo-proto " + cut).exit_code, 0);
  std::ifstream in(cut, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::ofstream(cut, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  CliResult parsed = RunCli("parse " + cut);
  EXPECT_NE(parsed.exit_code, 0);
  EXPECT_THAT(parsed.out, HasSubstr(cut + ": a binary HloModuleProto that is truncated or corrupt"));

  const std::string garbage = CliTempPath("garbage.pb");
  std::ofstream(garbage, std::ios::binary) << std::string("\x01\x02\x03\xff junk", 9);
  CliResult evaluated = RunCli("eval " + garbage);
  EXPECT_NE(evaluated.exit_code, 0);
  EXPECT_THAT(evaluated.out, HasSubstr(garbage + ": not an HLO proto"));
}

}  // namespace
}  // namespace systolic
