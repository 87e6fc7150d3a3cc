#include "core/runtime/buffer.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/runtime_test_util.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;
using testing::R1F;
using testing::MakeClient;
using testing::ToDevice;

TEST(BufferTest, RoundTripCopyingDuringTheCall) {
  auto client = MakeClient();
  ASSERT_NE(client, nullptr);
  std::vector<float> host = {1, 2, 3, 4};
  Event done;
  auto buffer = client->BufferFromHostBuffer(host.data(), Shape(F32, {2, 2}),
                                             HostBufferSemantics::kImmutableOnlyDuringCall,
                                             client->devices()[1], "x", &done);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  EXPECT_TRUE(done.IsReady());
  host[0] = 100;  // the buffer took a copy
  EXPECT_EQ((*buffer)->shape(), Shape(F32, {2, 2}));
  EXPECT_EQ((*buffer)->device(), client->devices()[1]);
  EXPECT_EQ((*buffer)->memory(), client->devices()[1]->default_memory());
  EXPECT_EQ((*buffer)->name(), "x");
  EXPECT_EQ((*buffer)->on_device_size_in_bytes(), 16);
  auto literal = (*buffer)->ToLiteralSync();
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(*literal, Literal::CreateR2<float>({{1, 2}, {3, 4}}));
}

TEST(BufferTest, KeepsHostDataUntilTheTransferCompletes) {
  auto client = MakeClient();
  std::vector<int32_t> host = {7, 8, 9};
  Event done;
  auto buffer = client->BufferFromHostBuffer(host.data(), Shape(S32, {3}),
                                             HostBufferSemantics::kImmutableUntilTransferCompletes,
                                             client->devices()[0], "", &done);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  EXPECT_TRUE(done.Await().ok());
  EXPECT_TRUE((*buffer)->GetReadyEvent().Await().ok());
  auto literal = (*buffer)->ToLiteralSync();
  ASSERT_TRUE(literal.ok());
  EXPECT_EQ(*literal, Literal::CreateR1<int32_t>({7, 8, 9}));
}

TEST(BufferTest, ToHostIsAsynchronous) {
  auto client = MakeClient();
  auto buffer = ToDevice(*client, R1F({1.5f, -2.f}));
  Future<Literal> future = buffer->ToLiteral();
  auto value = future.Await();
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, R1F({1.5f, -2.f}));
}

TEST(BufferTest, DeviceToDevice) {
  auto client = MakeClient();
  auto buffer = ToDevice(*client, R1F({1, 2, 3}), 0, "w");
  auto copy = buffer->CopyToDevice(client->devices()[1]);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ((*copy)->device(), client->devices()[1]);
  EXPECT_EQ((*copy)->name(), "w (copy)");
  EXPECT_EQ(*(*copy)->ToLiteralSync(), R1F({1, 2, 3}));
  EXPECT_EQ(client->devices()[1]->memory_stats()->bytes_in_use, 12);
}

TEST(BufferTest, DeletedBufferIsAClearError) {
  auto client = MakeClient();
  auto buffer = ToDevice(*client, R1F({1, 2}), 0, "weights");
  EXPECT_FALSE(buffer->IsDeleted());
  buffer->Delete();
  EXPECT_TRUE(buffer->IsDeleted());
  EXPECT_EQ(client->devices()[0]->memory_stats()->bytes_in_use, 0);
  auto value = buffer->ToLiteralSync();
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(value.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(value.status().message(),
              HasSubstr("buffer #0 'weights' (f32[2] on test:0) has been deleted"));
  EXPECT_FALSE(buffer->CopyToDevice(client->devices()[1]).ok());
}

TEST(BufferTest, WrongHostSizeAndNonArrays) {
  auto client = MakeClient();
  auto tuple = Literal::MakeTupleOwned(R1F({1}), R1F({2}));
  auto buffer = client->BufferFromHostLiteral(tuple, client->devices()[0]);
  EXPECT_EQ(buffer.status().code(), absl::StatusCode::kInvalidArgument);
  auto ok = ToDevice(*client, R1F({1, 2}));
  const Plugin& plugin = client->plugin();
  float small[1];
  SYSTOLIC_Buffer_ToHostBuffer_Args args{SYSTOLIC_Buffer_ToHostBuffer_Args_STRUCT_SIZE, nullptr,
                                         ok->c_buffer(), small, sizeof small, nullptr};
  absl::Status status = plugin.ToStatus(plugin.api()->Buffer_ToHostBuffer(&args));
  EXPECT_THAT(status.message(), HasSubstr("the destination has 4 bytes, the buffer 8"));
}

TEST(BufferTest, ElementTypesRoundTrip) {
  auto client = MakeClient();
  std::vector<Literal> values;
  values.push_back(Literal::CreateR1<bool>({true, false}));
  values.push_back(Literal::CreateR1<int8_t>({-3, 4}));
  values.push_back(Literal::CreateR1<uint64_t>({1ull << 40}));
  values.push_back(Literal::CreateR1<double>({0.1, -2}));
  values.push_back(Literal::CreateR0<int32_t>(5));
  // Types whose ABI values differ from their PrimitiveType values.
  values.push_back(Literal::CreateR1<float6_e2m3fn>({float6_e2m3fn(7.5f), float6_e2m3fn(-0.125f)}));
  values.push_back(Literal::CreateR1<float6_e3m2fn>({float6_e3m2fn(28.0f)}));
  for (const Literal& literal : values) {
    auto buffer = ToDevice(*client, literal);
    auto back = buffer->ToLiteralSync();
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, literal) << literal.ToString();
  }
}

}  // namespace
}  // namespace systolic::runtime
