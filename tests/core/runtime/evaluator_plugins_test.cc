// The `cpu` and `systolic` plugins: the reference evaluator behind the C
// ABI, and simulated chips with their topology, memories and (pending)
// timing.
#include "core/device/chip_spec_loader.h"
#include "core/eval/hlo_evaluator.h"
#include "core/runtime/client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/runtime_test_util.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;
using testing::MakeClient;
using testing::ToDevice;

constexpr char kMatmul[] = R"(
HloModule matmul
ENTRY e {
  x = f32[2,3] parameter(0)
  w = f32[3,2] parameter(1)
  d = f32[2,2] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[2,2], f32[2,3]) tuple(d, x)
})";

constexpr char kAllReduce[] = R"(
HloModule sum_replicas, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={{0,1,2,3}}, to_apply=add
})";

// kAllReduce run with device d holding {d, 1}; the inputs live as long as this.
struct FourDeviceRun {
  std::vector<std::unique_ptr<Buffer>> inputs;
  absl::StatusOr<ExecuteResult> result;
};

FourDeviceRun ExecuteAllReduceOnFourDevices(Client& client, Executable& executable) {
  FourDeviceRun run{{}, absl::UnknownError("not run")};
  std::vector<std::vector<Buffer*>> lists;
  for (int d = 0; d < 4; ++d) {
    run.inputs.push_back(ToDevice(client, testing::R1F({float(d), 1}), d));
    lists.push_back({run.inputs.back().get()});
  }
  run.result = executable.ExecuteOnDevices(lists);
  return run;
}

class EvaluatorPluginTest : public ::testing::TestWithParam<const char*> {};

TEST_P(EvaluatorPluginTest, MatchesTheEvaluator) {
  auto client = MakeClient({.device = GetParam()});
  ASSERT_NE(client, nullptr);
  auto executable = client->CompileText(kMatmul, "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status();
  Literal x = Literal::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  Literal w = Literal::CreateR2<float>({{1, 0}, {0, 1}, {1, 1}});
  auto bx = ToDevice(*client, x);
  auto bw = ToDevice(*client, w);
  auto outputs = (*executable)->Execute({bx.get(), bw.get()});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(outputs->size(), 2u);
  EXPECT_EQ(*(*outputs)[0]->ToLiteralSync(), Literal::CreateR2<float>({{4, 5}, {10, 11}}));
  EXPECT_EQ(*(*outputs)[1]->ToLiteralSync(), x);

  auto module = testing::ParseModule(kMatmul);
  HloEvaluator evaluator;
  std::vector<const Literal*> arguments = {&x, &w};
  auto expected = evaluator.Evaluate(*module, absl::MakeConstSpan(arguments));
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(*(*outputs)[0]->ToLiteralSync(), expected->tuple_element(0));
}

TEST_P(EvaluatorPluginTest, ReplicasMeetInCollectives) {
  auto client = MakeClient({.device = GetParam(), .num_devices = 4});
  ASSERT_NE(client, nullptr);
  auto executable = client->CompileText(kAllReduce, "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->num_replicas(), 4);
  FourDeviceRun run = ExecuteAllReduceOnFourDevices(*client, **executable);
  const absl::StatusOr<ExecuteResult>& result = run.result;
  ASSERT_TRUE(result.ok()) << result.status();
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(*result->outputs[d][0]->ToLiteralSync(), testing::R1F({6, 4}));
  }
}

// x split by rows over 4 partitions, w replicated: each partition's
// matmul takes its rows of x, and the result stays split by rows.
constexpr char kShardedMatmul[] = R"(
HloModule sharded_matmul, num_partitions=4
ENTRY e {
  x = f32[8,3] parameter(0), sharding={devices=[4,1]0,1,2,3}
  w = f32[3,2] parameter(1), sharding={replicated}
  ROOT d = f32[8,2] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0},
    sharding={devices=[4,1]0,1,2,3}
})";

TEST_P(EvaluatorPluginTest, ShardedModulesRunPartitionedOnShards) {
  auto client = MakeClient({.device = GetParam(), .num_devices = 4});
  ASSERT_NE(client, nullptr);
  auto executable = client->CompileText(kShardedMatmul, "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ((*executable)->num_partitions(), 4);
  // As a PJRT SPMD executable: parameters and outputs are the shards.
  ASSERT_EQ((*executable)->parameter_shapes().size(), 2u);
  EXPECT_EQ((*executable)->parameter_shapes()[0].ToString(), "f32[2,3]");
  EXPECT_EQ((*executable)->parameter_shapes()[1].ToString(), "f32[3,2]");
  EXPECT_EQ((*executable)->output_shapes()[0].ToString(), "f32[2,2]");

  Literal w = Literal::CreateR2<float>({{1, 0}, {0, 1}, {1, 1}});
  std::vector<std::unique_ptr<Buffer>> inputs;
  std::vector<std::vector<Buffer*>> lists;
  for (int p = 0; p < 4; ++p) {
    // Partition p holds rows 2p and 2p+1 of x, x[i][j] = 3i + j.
    Literal rows(Shape(F32, {2, 3}));
    for (int k = 0; k < 6; ++k) rows.data<float>()[k] = float(6 * p + k);
    inputs.push_back(ToDevice(*client, rows, p));
    inputs.push_back(ToDevice(*client, w, p));
    lists.push_back({inputs[inputs.size() - 2].get(), inputs.back().get()});
  }
  auto result = (*executable)->ExecuteOnDevices(lists);
  ASSERT_TRUE(result.ok()) << result.status();
  for (int p = 0; p < 4; ++p) {
    // Row i of x times w: (x0 + x2, x1 + x2) = (6i + 2, 6i + 3).
    const float a = float(2 * p), b = float(2 * p + 1);
    EXPECT_EQ(*result->outputs[p][0]->ToLiteralSync(),
              Literal::CreateR2<float>({{6 * a + 2, 6 * a + 3}, {6 * b + 2, 6 * b + 3}}))
        << "partition " << p;
  }
}

TEST_P(EvaluatorPluginTest, APartitioningErrorNamesTheInstruction) {
  auto client = MakeClient({.device = GetParam(), .num_devices = 2});
  ASSERT_NE(client, nullptr);
  auto executable = client->CompileText(R"(
HloModule too_many_tiles, num_partitions=2
ENTRY e {
  x = f32[8] parameter(0), sharding={devices=[4]0,1,2,3}
  ROOT y = f32[8] negate(x)
})", "hlo");
  ASSERT_FALSE(executable.ok());
  EXPECT_THAT(executable.status().message(), HasSubstr("names 4 devices"));
  EXPECT_THAT(executable.status().message(), HasSubstr("partitioning x (line 4)"));
}

TEST_P(EvaluatorPluginTest, EvaluatorErrorsReachTheBuffers) {
  auto client = MakeClient({.device = GetParam()});
  auto executable = client->CompileText(R"(
HloModule bad
ENTRY e {
  x = f32[2] parameter(0)
  ROOT y = f32[2] custom-call(x), custom_call_target="no_such_target"
})", "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto x = ToDevice(*client, testing::R1F({1, 2}));
  auto outputs = (*executable)->Execute({x.get()});
  ASSERT_TRUE(outputs.ok());
  absl::Status status = (*outputs)[0]->GetReadyEvent().Await();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("execute of 'bad' (program 0) failed"));
}

INSTANTIATE_TEST_SUITE_P(Plugins, EvaluatorPluginTest, ::testing::Values("cpu", "systolic"));

TEST(CpuPluginTest, DescribesItself) {
  auto client = MakeClient({.device = "cpu", .num_devices = 2});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->platform_name(), "cpu");
  EXPECT_EQ(client->platform_version(), "reference evaluator");
  EXPECT_EQ(client->devices().size(), 2u);
  EXPECT_EQ(client->devices()[1]->debug_string(), "cpu:1");
  EXPECT_EQ(client->devices()[0]->default_memory()->kind(), "device");
  EXPECT_EQ(client->devices()[0]->memory_stats()->bytes_limit, 0);
  EXPECT_EQ(client->plugin().attributes().at("timing"), "none");
  EXPECT_FALSE(Client::Create({.device = "cpu", .topology = "v4:2x2"}).ok());
}

TEST(SystolicPluginTest, ChipsCoresAndMemoryFromTheChipSpec) {
  auto client = MakeClient({.device = "systolic", .chip = "v4"});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->platform_name(), "systolic");
  EXPECT_THAT(client->platform_version(), HasSubstr("simulated v4"));
  ASSERT_EQ(client->devices().size(), 2u);  // two TensorCores per v4 chip
  Device* core1 = client->devices()[1];
  EXPECT_EQ(core1->kind(), "systolic v4 core");
  EXPECT_EQ(core1->core_on_chip(), 1);
  EXPECT_EQ(core1->coords(), (ChipCoords{0, 0, 0}));
  EXPECT_EQ(core1->default_memory()->kind(), "hbm");
  // 32 GiB of HBM per chip, shared by its two cores.
  EXPECT_EQ(core1->memory_stats()->bytes_limit, int64_t(16) << 30);
  EXPECT_EQ(client->topology().ToString(), "v4:1x1x1");
  EXPECT_EQ(client->topology().cores_per_chip, 2);
}

TEST(SystolicPluginTest, TopologyGivesChipsCoordinates) {
  auto client = MakeClient({.device = "systolic", .topology = "v4:2x2x1"});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->topology().num_chips(), 4);
  EXPECT_EQ(client->topology().bounds, (std::array<int64_t, 3>{2, 2, 1}));
  ASSERT_EQ(client->devices().size(), 8u);
  EXPECT_EQ(client->devices()[2]->coords(), (ChipCoords{1, 0, 0}));
  EXPECT_EQ(client->devices()[7]->coords(), (ChipCoords{1, 1, 0}));
  EXPECT_EQ(client->devices()[7]->core_on_chip(), 1);
  auto mismatch = Client::Create({.device = "systolic", .chip = "v5e", .topology = "v4:2x2x1"});
  EXPECT_THAT(mismatch.status().message(), HasSubstr("is of chip v4, the client's chip is v5e"));
  auto unknown = Client::Create({.device = "systolic", .chip = "v9"});
  EXPECT_FALSE(unknown.ok());
}

TEST(SystolicPluginTest, LoadsBesideAHostWithItsOwnDeviceLayer) {
  // The host registers the chip-spec descriptors in its protobuf...
  auto spec = device::LoadChipSpec("v5e");
  ASSERT_TRUE(spec.ok()) << spec.status();
  // ...and the plugin, with its own copy, still loads and works.
  auto client = MakeClient({.device = "systolic", .chip = "v5e"});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->devices().size(), size_t(spec->tensor_cores_per_chip()));
}

TEST(SystolicPluginTest, ExecutionsReportSimulatedTime) {
  auto client = MakeClient({.device = "systolic"});
  EXPECT_THAT(client->plugin().attributes().at("timing"), HasSubstr("simulated"));
  auto executable = client->CompileText(testing::kDoubleModule, "hlo");
  ASSERT_TRUE(executable.ok());
  auto x = ToDevice(*client, testing::R1F({1, 2, 3, 4}));
  auto outputs = (*executable)->Execute({x.get()});
  ASSERT_TRUE((*outputs)[0]->GetReadyEvent().Await().ok());
  auto timing = client->LastExecutionTiming(*client->devices()[0]);
  ASSERT_TRUE(timing.ok());
  EXPECT_TRUE(timing->available) << timing->note;
  EXPECT_GT(timing->cycles, 0);
  EXPECT_GT(timing->time_ps, 0);
  EXPECT_THAT(timing->note, HasSubstr("simulated on v4"));
}

TEST(SystolicPluginTest, ReplicasAreTimedOnTheSliceWithTheirCollectives) {
  auto client = MakeClient({.device = "systolic", .topology = "v5e:2x2"});
  ASSERT_NE(client, nullptr);
  auto executable = client->CompileText(kAllReduce, "hlo");
  ASSERT_TRUE(executable.ok()) << executable.status();
  FourDeviceRun run = ExecuteAllReduceOnFourDevices(*client, **executable);
  const absl::StatusOr<ExecuteResult>& result = run.result;
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->outputs[0][0]->GetReadyEvent().Await().ok());
  auto timing = client->LastExecutionTiming(*client->devices()[0]);
  ASSERT_TRUE(timing.ok());
  EXPECT_TRUE(timing->available) << timing->note;
  EXPECT_THAT(timing->note, HasSubstr("simulated on v5e:2x2"));
  // At least the all-reduce's ICI latency (1 us a hop on v5e): axis by axis
  // on 2x2, one step per axis to reduce-scatter and one to all-gather.
  EXPECT_GT(timing->time_ps, 4 * 1'000'000);
}

TEST(SystolicPluginTest, CompileForAnotherChipIsADifferentProgram) {
  auto client = MakeClient({.device = "systolic"});
  CompileOptions v5e;
  v5e.chip = "v5e";
  ASSERT_TRUE(client->CompileText(testing::kDoubleModule, "hlo").ok());
  ASSERT_TRUE(client->CompileText(testing::kDoubleModule, "hlo", v5e).ok());
  auto events = client->CompileEvents();
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].cause.text, "compile options differ: chip now v5e, before v4");
  CompileOptions bogus;
  bogus.chip = "v99";
  EXPECT_FALSE(client->CompileText(testing::kDoubleModule, "hlo", bogus).ok());
}

}  // namespace
}  // namespace systolic::runtime
