// The engine under many threads at once: compiles, transfers, executes
// chained through futures, deletes and donations, all racing. Also built
// with ThreadSanitizer (systolic_runtime_tsan_tests).
#include <atomic>
#include <thread>
#include <vector>

#include "core/hlo/hlo_parser.h"
#include "core/runtime/local_client.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/engine_test_backend.h"

namespace systolic::runtime {
namespace {

constexpr char kAxpy[] = R"(
HloModule axpy
ENTRY e {
  a = f32[64] parameter(0)
  x = f32[64] parameter(1)
  ax = f32[64] multiply(a, x)
  ROOT y = f32[64] add(ax, x)
})";

constexpr char kStep[] = R"(
HloModule step, input_output_alias={ {}: (0, {}, must-alias) }
ENTRY e {
  w = f32[64] parameter(0)
  g = f32[64] parameter(1)
  ROOT n = f32[64] subtract(w, g)
})";

std::unique_ptr<LocalClient> NewClient(int devices) {
  ClientConfig config;
  config.num_devices = devices;
  auto client = LocalClient::Create(NewTestBackend(), config);
  EXPECT_TRUE(client.ok()) << client.status();
  return *std::move(client);
}

std::shared_ptr<LocalBuffer> Fill(LocalClient& client, float value, int device) {
  std::vector<float> data(64, value);
  auto buffer = client.BufferFromHost(data.data(), Shape(F32, {64}),
                                      HostBufferSemantics::kImmutableOnlyDuringCall,
                                      client.devices()[device].get(), "fill", nullptr);
  EXPECT_TRUE(buffer.ok()) << buffer.status();
  return *std::move(buffer);
}

float Read(LocalClient& client, const LocalBuffer& buffer) {
  std::vector<float> out(64);
  auto event = client.ToHost(buffer, out.data(), 64 * sizeof(float));
  EXPECT_TRUE(event.ok()) << event.status();
  EXPECT_TRUE((*event)->Await().ok());
  return out[0];
}

TEST(EngineConcurrencyTest, ThreadsCompileTransferAndExecuteTogether) {
  auto client = NewClient(2);
  constexpr int kThreads = 4;
  constexpr int kSteps = 20;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      int device = t % 2;
      CompileOptions options;
      options.device_assignment = {device};
      auto axpy = client->CompileText(kAxpy, "hlo", options);
      auto step = client->CompileText(kStep, "hlo", options);
      ASSERT_TRUE(axpy.ok() && step.ok());
      auto a = Fill(*client, 1, device);
      auto x = Fill(*client, 1, device);
      // x <- a * x + x, chained through futures: x doubles each step.
      for (int i = 0; i < kSteps; ++i) {
        auto result = client->Execute(*axpy, {{a.get(), x.get()}});
        ASSERT_TRUE(result.ok()) << result.status();
        x = result->outputs[0][0];
        if (i % 5 == 0) {
          auto copy = client->CopyToDevice(*x, client->devices()[1 - device].get());
          ASSERT_TRUE(copy.ok());
          (*copy)->Delete();
        }
      }
      if (Read(*client, *x) != float(1 << kSteps)) ++wrong;
      // Donating steps: w <- w - g.
      auto w = Fill(*client, 100, device);
      auto g = Fill(*client, 1, device);
      for (int i = 0; i < kSteps; ++i) {
        auto result = client->Execute(*step, {{w.get(), g.get()}});
        ASSERT_TRUE(result.ok()) << result.status();
        EXPECT_TRUE(w->IsDeleted());
        w = result->outputs[0][0];
      }
      if (Read(*client, *w) != 100.f - kSteps) ++wrong;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(client->compile_cache().event_count(), size_t(2 * kThreads));
}

TEST(EngineConcurrencyTest, DeletingWhileWorkIsInFlight) {
  auto client = NewClient(2);
  auto axpy = client->CompileText(kAxpy, "hlo", {});
  ASSERT_TRUE(axpy.ok());
  for (int i = 0; i < 20; ++i) {
    auto a = Fill(*client, 2, 0);
    auto x = Fill(*client, 3, 0);
    auto result = client->Execute(*axpy, {{a.get(), x.get()}});
    ASSERT_TRUE(result.ok());
    a->Delete();  // the execute holds the value it read
    x->Delete();
    EXPECT_EQ(Read(*client, *result->outputs[0][0]), 9.f);
  }
  EXPECT_EQ(client->devices()[0]->memory().stats().num_allocs, 0);
}

TEST(EngineConcurrencyTest, ClientDestructionWaitsForQueuedWork) {
  std::vector<float> out(64, 0);
  {
    auto client = NewClient(2);
    auto axpy = client->CompileText(kAxpy, "hlo", {});
    ASSERT_TRUE(axpy.ok());
    std::shared_ptr<LocalBuffer> x = Fill(*client, 1, 0);
    auto a = Fill(*client, 1, 0);
    for (int i = 0; i < 10; ++i) {
      auto result = client->Execute(*axpy, {{a.get(), x.get()}});
      ASSERT_TRUE(result.ok());
      x = result->outputs[0][0];
    }
    auto event = client->ToHost(*x, out.data(), 64 * sizeof(float));
    ASSERT_TRUE(event.ok());
    x.reset();
    a.reset();
  }
  EXPECT_EQ(out[0], 1024.f);
}

}  // namespace
}  // namespace systolic::runtime
