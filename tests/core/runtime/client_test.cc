#include "core/runtime/client.h"

#include <cstdlib>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/runtime/runtime_test_util.h"

namespace systolic::runtime {
namespace {

using ::testing::HasSubstr;
using testing::MakeClient;

TEST(PluginTest, LoadsByNameAndReportsItself) {
  auto plugin = Plugin::Load("test");
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  EXPECT_EQ((*plugin)->name(), "test");
  EXPECT_EQ((*plugin)->major_version(), SYSTOLIC_API_MAJOR);
  EXPECT_EQ((*plugin)->attributes().at("platform"), "test");
  EXPECT_EQ((*plugin)->attributes().at("timing"), "none");
  EXPECT_NE((*plugin)->compile_events(), nullptr);
  EXPECT_NE((*plugin)->execution_timing(), nullptr);
  // Loaded once.
  auto again = Plugin::Load((*plugin)->path());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *plugin);
  EXPECT_THAT(Plugin::Available(), ::testing::Contains("test"));
}

TEST(PluginTest, UnknownPluginListsWhatExists) {
  auto plugin = Plugin::Load("tpu");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(plugin.status().message(), HasSubstr("no plugin 'tpu'"));
  EXPECT_THAT(plugin.status().message(), HasSubstr("libsystolic_plugin_tpu.so"));
  EXPECT_THAT(plugin.status().message(), HasSubstr("available plugins:"));
  EXPECT_THAT(plugin.status().message(), HasSubstr("test"));
}

TEST(PluginTest, AnotherMajorVersionIsRefused) {
  auto plugin = Plugin::Load("test_major2");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(plugin.status().message(),
              HasSubstr("implements the systolic C API version 2.0, but this runtime needs major "
                        "version 1"));
  auto client = Client::Create({.device = "test_major2"});
  EXPECT_FALSE(client.ok());
}

TEST(PluginTest, ANewerMinorVersionIsAccepted) {
  auto plugin = Plugin::Load("test_minor7");
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  EXPECT_EQ((*plugin)->minor_version(), 7);
  auto client = MakeClient({.device = "test_minor7"});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->platform_name(), "test");
}

TEST(PluginTest, CheckVersionOnATable) {
  SYSTOLIC_Api api{};
  api.struct_size = SYSTOLIC_Api_STRUCT_SIZE;
  api.version.major_version = SYSTOLIC_API_MAJOR;
  api.version.minor_version = SYSTOLIC_API_MINOR;
  EXPECT_TRUE(Plugin::CheckVersion(api, "x.so").ok());
  api.struct_size = SYSTOLIC_STRUCT_SIZE(SYSTOLIC_Api, version);
  EXPECT_THAT(Plugin::CheckVersion(api, "x.so").message(), HasSubstr("fewer than"));
}

TEST(PluginTest, DeviceChosenByEnvironment) {
  setenv("SYSTOLIC_DEVICE", "test", 1);
  EXPECT_EQ(Plugin::DefaultName(), "test");
  auto client = Client::Create();
  unsetenv("SYSTOLIC_DEVICE");
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ((*client)->platform_name(), "test");
  EXPECT_EQ(Plugin::DefaultName(), "cpu");
}

TEST(ClientTest, DevicesMemoriesAndTopology) {
  auto client = MakeClient({.num_devices = 3});
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->platform_name(), "test");
  EXPECT_EQ(client->platform_version(), "test 1");
  ASSERT_EQ(client->devices().size(), 3u);
  EXPECT_EQ(client->addressable_devices().size(), 3u);
  ASSERT_EQ(client->memories().size(), 3u);
  for (int i = 0; i < 3; ++i) {
    Device* device = client->devices()[i];
    EXPECT_EQ(device->id(), i);
    EXPECT_EQ(device->debug_string(), "test:" + std::to_string(i));
    EXPECT_EQ(device->kind(), "test");
    EXPECT_TRUE(device->is_addressable());
    ASSERT_NE(device->default_memory(), nullptr);
    EXPECT_EQ(device->default_memory()->addressable_by_devices().front(), device);
    EXPECT_EQ(device->client(), client.get());
  }
  auto device = client->LookupDevice(2);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ((*device)->id(), 2);
  EXPECT_THAT(client->LookupDevice(7).status().message(),
              HasSubstr("no device 7: the test client has 3 devices"));
  EXPECT_EQ(client->topology().platform_name, "test");
  EXPECT_EQ(client->topology().num_chips(), 1);
  EXPECT_EQ(client->topology().cores_per_chip, 3);
  EXPECT_EQ(client->topology().ToString(), "host:1x1x1");
}

TEST(ClientTest, UnknownCreateOption) {
  // Options the plugin does not know are refused by the plugin.
  const Plugin* plugin = *Plugin::Load("test");
  SYSTOLIC_NamedValue option{};
  option.struct_size = SYSTOLIC_NamedValue_STRUCT_SIZE;
  option.name = "colour";
  option.name_size = 6;
  option.type = SYSTOLIC_NamedValue_kString;
  option.string_value = "red";
  option.value_size = 3;
  SYSTOLIC_Client_Create_Args args{SYSTOLIC_Client_Create_Args_STRUCT_SIZE, nullptr, &option, 1,
                                   nullptr};
  absl::Status status = plugin->ToStatus(plugin->api()->Client_Create(&args));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("unknown client option 'colour'"));
}

TEST(ClientTest, SmallStructSizeIsRefused) {
  const Plugin* plugin = *Plugin::Load("test");
  SYSTOLIC_Client_Create_Args args{8, nullptr, nullptr, 0, nullptr};
  absl::Status status = plugin->ToStatus(plugin->api()->Client_Create(&args));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("SYSTOLIC_Client_Create_Args: struct_size is 8"));
}

TEST(ClientTest, MemoryStatsAndOutOfMemory) {
  auto client = MakeClient({.memory_limit_bytes = 100});
  ASSERT_NE(client, nullptr);
  Device* device = client->devices()[0];
  auto a = testing::ToDevice(*client, Literal(Shape(F32, {10})), 0, "weights");  // 40 bytes
  auto b = testing::ToDevice(*client, Literal(Shape(F32, {5})), 0, "bias");      // 20 bytes
  auto stats = device->memory_stats();
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->bytes_in_use, 60);
  EXPECT_EQ(stats->bytes_limit, 100);
  EXPECT_EQ(stats->num_allocs, 2);
  EXPECT_EQ(stats->largest_alloc_size, 40);
  auto too_big = client->BufferFromHostLiteral(Literal(Shape(F32, {16})), device, "activations");
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(too_big.status().message(),
              HasSubstr("out of memory on test:0: allocating 64 B for 'activations' would exceed "
                        "the limit of 100 B (60 B in use by 2 buffers); largest live buffers: "
                        "buffer #0 'weights' 40 B, buffer #1 'bias' 20 B"));
  a.reset();
  stats = device->memory_stats();
  EXPECT_EQ(stats->bytes_in_use, 20);
  EXPECT_EQ(stats->peak_bytes_in_use, 60);
  auto fits = client->BufferFromHostLiteral(Literal(Shape(F32, {16})), device, "activations");
  EXPECT_TRUE(fits.ok()) << fits.status();
}

}  // namespace
}  // namespace systolic::runtime
