#include "core/runtime/executable.h"

#include <atomic>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/runtime_test_util.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;
using testing::R1F;
using testing::MakeClient;
using testing::ToDevice;

std::unique_ptr<Executable> CompileOrDie(Client& client, absl::string_view text,
                                         const CompileOptions& options = {}) {
  auto executable = client.CompileText(text, "hlo", options);
  EXPECT_TRUE(executable.ok()) << executable.status();
  return executable.ok() ? *std::move(executable) : nullptr;
}

constexpr char kSlowDouble[] = R"(
HloModule slow_double
ENTRY e {
  x = f32[4] parameter(0)
  s = f32[4] custom-call(x), custom_call_target="test.sleep", backend_config="50"
  ROOT y = f32[4] add(s, s)
})";

constexpr char kFail[] = R"(
HloModule fails
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = f32[4] custom-call(x), custom_call_target="test.fail", backend_config="the unit overheated"
})";

TEST(ExecuteTest, RunsAndDescribesItself) {
  auto client = MakeClient();
  auto executable = CompileOrDie(*client, testing::kDoubleModule);
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(executable->name(), "double");
  EXPECT_EQ(executable->fingerprint().size(), 32u);
  EXPECT_EQ(executable->num_replicas(), 1);
  EXPECT_EQ(executable->num_partitions(), 1);
  ASSERT_EQ(executable->addressable_devices().size(), 1u);
  EXPECT_EQ(executable->addressable_devices()[0], client->devices()[0]);
  EXPECT_EQ(executable->parameter_shapes(), std::vector<Shape>{Shape(F32, {4})});
  EXPECT_EQ(executable->output_shapes(), std::vector<Shape>{Shape(F32, {4})});
  auto x = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto outputs = executable->Execute({x.get()});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ(*(*outputs)[0]->ToLiteralSync(), R1F({2, 4, 6, 8}));
  EXPECT_EQ((*outputs)[0]->name(), "double output 0");
}

TEST(ExecuteTest, ReturnsAtOnceAndOutputsFeedTheNextExecute) {
  auto client = MakeClient();
  auto slow = CompileOrDie(*client, kSlowDouble);
  auto fast = CompileOrDie(*client, testing::kDoubleModule);
  auto x = ToDevice(*client, R1F({1, 1, 1, 1}));
  auto first = slow->Execute({x.get()});
  ASSERT_TRUE(first.ok());
  // The output is a future: not ready, yet a valid argument.
  EXPECT_FALSE((*first)[0]->GetReadyEvent().IsReady());
  auto second = fast->Execute({(*first)[0].get()});
  ASSERT_TRUE(second.ok()) << second.status();
  auto third = slow->Execute({(*second)[0].get()});
  ASSERT_TRUE(third.ok());
  // Execute only enqueues: the chain's last output waits on two sleeps.
  EXPECT_FALSE((*third)[0]->GetReadyEvent().IsReady());
  EXPECT_EQ(*(*third)[0]->ToLiteralSync(), R1F({8, 8, 8, 8}));
  EXPECT_TRUE((*first)[0]->GetReadyEvent().IsReady());
}

TEST(ExecuteTest, WorkOnAnotherDeviceWaitsForItsInputs) {
  auto client = MakeClient();
  auto slow = CompileOrDie(*client, kSlowDouble);
  CompileOptions on_device_1;
  on_device_1.device_assignment = {1};
  auto fast = CompileOrDie(*client, testing::kDoubleModule, on_device_1);
  ASSERT_EQ(fast->addressable_devices()[0], client->devices()[1]);
  auto x = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto first = slow->Execute({x.get()});
  ASSERT_TRUE(first.ok());
  auto moved = (*first)[0]->CopyToDevice(client->devices()[1]);
  ASSERT_TRUE(moved.ok());
  auto second = fast->Execute({moved->get()});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*(*second)[0]->ToLiteralSync(), R1F({4, 8, 12, 16}));
}

TEST(ExecuteTest, AnErrorReachesEveryDependent) {
  auto client = MakeClient();
  auto fails = CompileOrDie(*client, kFail);
  auto fast = CompileOrDie(*client, testing::kDoubleModule);
  auto x = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto result = fails->ExecuteOnDevices({{x.get()}});
  ASSERT_TRUE(result.ok()) << result.status();  // the failure is asynchronous
  Buffer* failed = result->outputs[0][0].get();
  auto next = fast->Execute({failed});
  ASSERT_TRUE(next.ok());
  auto copy = (*next)[0]->CopyToDevice(client->devices()[1]);
  ASSERT_TRUE(copy.ok());

  absl::Status done = result->done[0].Await();
  EXPECT_EQ(done.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(done.message(),
              HasSubstr("execute of 'fails' (program 0) failed: the unit overheated"));
  for (Buffer* buffer : {failed, (*next)[0].get(), copy->get()}) {
    absl::Status status = buffer->GetReadyEvent().Await();
    EXPECT_EQ(status.code(), absl::StatusCode::kAborted);
    EXPECT_THAT(status.message(), HasSubstr("the unit overheated"));
    EXPECT_FALSE(buffer->ToLiteralSync().ok());
  }
  EXPECT_THAT((*next)[0]->GetReadyEvent().Await().message(),
              HasSubstr("execute of 'double' (program 1): argument 0 has no value because its "
                        "producer failed"));
  // Unrelated work goes on.
  auto fine = fast->Execute({x.get()});
  ASSERT_TRUE(fine.ok());
  EXPECT_TRUE((*fine)[0]->ToLiteralSync().ok());
}

TEST(ExecuteTest, ArgumentErrorsAreClear) {
  auto client = MakeClient();
  auto executable = CompileOrDie(*client, testing::kDoubleModule);
  auto wrong_shape = ToDevice(*client, R1F({1, 2}), 0, "short");
  auto status = executable->Execute({wrong_shape.get()}).status();
  EXPECT_THAT(status.message(), HasSubstr("execute of 'double' (program 0): argument 0 (buffer "
                                          "#0 'short') is f32[2], the parameter is f32[4]"));
  auto elsewhere = ToDevice(*client, R1F({1, 2, 3, 4}), 1);
  EXPECT_THAT(executable->Execute({elsewhere.get()}).status().message(),
              HasSubstr("is on test:1 but this participant runs on test:0"));
  EXPECT_THAT(executable->Execute(std::vector<Buffer*>{}).status().message(),
              HasSubstr("takes 1 arguments; got 0"));
}

constexpr char kDonating[] = R"(
HloModule step, input_output_alias={ {0}: (0, {}, must-alias) }
ENTRY e {
  w = f32[4] parameter(0)
  g = f32[4] parameter(1)
  n = f32[4] subtract(w, g)
  ROOT t = (f32[4], f32[4]) tuple(n, g)
})";

TEST(ExecuteTest, DonationKillsTheArgumentAndReusesItsMemory) {
  auto client = MakeClient();
  auto step = CompileOrDie(*client, kDonating);
  EXPECT_EQ(step->output_shapes().size(), 2u);
  auto w = ToDevice(*client, R1F({10, 10, 10, 10}), 0, "weights");
  auto g = ToDevice(*client, R1F({1, 2, 3, 4}), 0, "grads");
  EXPECT_EQ(client->devices()[0]->memory_stats()->bytes_in_use, 32);
  auto outputs = step->Execute({w.get(), g.get()});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_TRUE(w->IsDeleted());
  EXPECT_FALSE(g->IsDeleted());
  // The new weights took the donated memory; only the second output is new.
  EXPECT_EQ(client->devices()[0]->memory_stats()->bytes_in_use, 48);
  EXPECT_EQ(*(*outputs)[0]->ToLiteralSync(), R1F({9, 8, 7, 6}));

  auto again = step->Execute({w.get(), g.get()});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(again.status().message(),
              HasSubstr("buffer #0 'weights' (f32[4] on test:0) was donated to execute of 'step' "
                        "(program 0) and can no longer be used"));
  EXPECT_FALSE(w->ToLiteralSync().ok());

  // Chained steps: each donates the previous step's output.
  std::unique_ptr<Buffer> current = std::move((*outputs)[0]);
  for (int i = 0; i < 3; ++i) {
    auto next = step->Execute({current.get(), g.get()});
    ASSERT_TRUE(next.ok()) << next.status();
    current = std::move((*next)[0]);
  }
  EXPECT_EQ(*current->ToLiteralSync(), R1F({6, 2, -2, -6}));
}

TEST(ExecuteTest, NonDonatableArgumentsSurvive) {
  auto client = MakeClient();
  auto step = CompileOrDie(*client, kDonating);
  auto w = ToDevice(*client, R1F({10, 10, 10, 10}));
  auto g = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto outputs = step->Execute({w.get(), g.get()}, {.non_donatable_input_indices = {0}});
  ASSERT_TRUE(outputs.ok());
  EXPECT_FALSE(w->IsDeleted());
  EXPECT_EQ(*w->ToLiteralSync(), R1F({10, 10, 10, 10}));
}

TEST(ExecuteTest, ADonatedBufferPassedTwiceIsRefused) {
  auto client = MakeClient();
  auto step = CompileOrDie(*client, kDonating);
  auto w = ToDevice(*client, R1F({10, 10, 10, 10}), 0, "w");
  auto status = step->Execute({w.get(), w.get()}).status();
  EXPECT_THAT(status.message(), HasSubstr("is passed as arguments 0 and 1 but argument 0 is donated"));
  EXPECT_FALSE(w->IsDeleted());
}

TEST(ExecuteTest, OutputAllocationBeyondTheLimitFailsBeforeDonating) {
  auto client = MakeClient({.memory_limit_bytes = 40});
  auto step = CompileOrDie(*client, kDonating);
  auto w = ToDevice(*client, R1F({10, 10, 10, 10}), 0, "w");
  auto g = ToDevice(*client, R1F({1, 2, 3, 4}), 0, "g");
  auto status = step->Execute({w.get(), g.get()}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("for output 1 of execute of 'step'"));
  EXPECT_THAT(status.message(), HasSubstr("buffer #0 'w' 16 B"));
  EXPECT_FALSE(w->IsDeleted());
}

TEST(ExecuteTest, TupleParametersAreFlattened) {
  auto client = MakeClient();
  auto executable = CompileOrDie(*client, R"(
HloModule tuple_in
ENTRY e {
  p = (f32[2], f32[2]) parameter(0)
  a = f32[2] get-tuple-element(p), index=0
  b = f32[2] get-tuple-element(p), index=1
  ROOT r = f32[2] multiply(a, b)
})");
  ASSERT_EQ(executable->parameter_shapes().size(), 2u);
  auto a = ToDevice(*client, R1F({2, 3}));
  auto b = ToDevice(*client, R1F({4, 5}));
  auto outputs = executable->Execute({a.get(), b.get()});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(*(*outputs)[0]->ToLiteralSync(), R1F({8, 15}));
}

TEST(ExecuteTest, ReplicatedProgramRunsOnEveryDevice) {
  auto client = MakeClient({.num_devices = 4});
  CompileOptions options;
  options.num_replicas = 4;
  auto executable = CompileOrDie(*client, testing::kDoubleModule, options);
  ASSERT_EQ(executable->addressable_devices().size(), 4u);
  std::vector<std::unique_ptr<Buffer>> inputs;
  std::vector<std::vector<Buffer*>> lists;
  for (int d = 0; d < 4; ++d) {
    inputs.push_back(ToDevice(*client, R1F({float(d), 1, 2, 3}), d));
    lists.push_back({inputs.back().get()});
  }
  auto result = executable->ExecuteOnDevices(lists);
  ASSERT_TRUE(result.ok()) << result.status();
  for (int d = 0; d < 4; ++d) {
    EXPECT_TRUE(result->done[d].Await().ok());
    EXPECT_EQ(result->outputs[d][0]->device(), client->devices()[d]);
    EXPECT_EQ(*result->outputs[d][0]->ToLiteralSync(), R1F({2.f * d, 2, 4, 6}));
  }
  CompileOptions too_many;
  too_many.num_replicas = 8;
  auto refused = client->CompileText(testing::kDoubleModule, "hlo", too_many);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("needs 8 devices (8 replicas x 1 partitions); the test client has 4"));
}

TEST(ExecuteTest, CallbacksRunWhenReady) {
  auto client = MakeClient();
  auto slow = CompileOrDie(*client, kSlowDouble);
  auto x = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto result = slow->ExecuteOnDevices({{x.get()}});
  ASSERT_TRUE(result.ok());
  std::atomic<bool> called{false};
  result->done[0].OnReady([&](absl::Status status) {
    EXPECT_TRUE(status.ok());
    called = true;
  });
  EXPECT_TRUE(result->done[0].Await().ok());
  for (int i = 0; i < 100 && !called; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(called);
}

TEST(ExecuteTest, CompileErrorsAndBadPrograms) {
  auto client = MakeClient();
  auto bad_text = client->CompileText("HloModule m\nENTRY e {\n  ROOT x = f32[] bogus()\n}", "hlo");
  EXPECT_FALSE(bad_text.ok());
  EXPECT_THAT(client->CompileText("x", "onnx").status().message(),
              HasSubstr("unknown program format 'onnx'"));
  auto refused = client->CompileText(R"(
HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT y = f32[2] custom-call(x), custom_call_target="test.compile_error"
})", "hlo");
  EXPECT_THAT(refused.status().message(), HasSubstr("compile error requested"));
}

TEST(ExecuteTest, TimingIsReportedAsUnavailableByTheTestBackend) {
  auto client = MakeClient();
  auto executable = CompileOrDie(*client, testing::kDoubleModule);
  auto x = ToDevice(*client, R1F({1, 2, 3, 4}));
  auto outputs = executable->Execute({x.get()});
  ASSERT_TRUE((*outputs)[0]->GetReadyEvent().Await().ok());
  auto timing = client->LastExecutionTiming(*client->devices()[0]);
  ASSERT_TRUE(timing.ok());
  EXPECT_FALSE(timing->available);
  EXPECT_EQ(timing->note, "the test backend does not time programs");
}

}  // namespace
}  // namespace systolic::runtime
