// Helpers for the runtime's tests: clients of the test plugin, modules from
// text, literals in and out of buffers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/literal.h"
#include "core/runtime/client.h"
#include "gtest/gtest.h"

namespace systolic::runtime::testing {

inline std::unique_ptr<Client> MakeClient(ClientOptions options = {}) {
  if (options.device.empty()) options.device = "test";
  auto client = Client::Create(options);
  EXPECT_TRUE(client.ok()) << client.status();
  return client.ok() ? *std::move(client) : nullptr;
}

inline std::unique_ptr<HloModule> ParseModule(absl::string_view text) {
  auto module = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

inline std::unique_ptr<Buffer> ToDevice(Client& client, const Literal& literal, int device = 0,
                                        const std::string& name = "") {
  auto buffer = client.BufferFromHostLiteral(literal, client.devices()[device], name);
  EXPECT_TRUE(buffer.ok()) << buffer.status();
  return buffer.ok() ? *std::move(buffer) : nullptr;
}

inline Literal R1F(std::initializer_list<float> values) { return Literal::CreateR1<float>(values); }

// y = x + x
constexpr char kDoubleModule[] = R"(
HloModule double
ENTRY e {
  x = f32[4] parameter(0)
  ROOT y = f32[4] add(x, x)
})";

}  // namespace systolic::runtime::testing
