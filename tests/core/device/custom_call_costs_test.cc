// Custom calls on the simulated chip: annotations are free, fused attention
// costs a tiled attention from its operand shapes, unknown targets are named.
#include "core/device/custom_call_costs.h"

#include <string>

#include "absl/strings/match.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic::device {
namespace {

ProgramTiming Time(const std::string& text) {
  auto module = ParseAndReturnVerifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  auto spec = LoadChipSpec("v5p");
  EXPECT_TRUE(spec.ok());
  auto timing = TimeCompiledModule(**module, *spec);
  EXPECT_TRUE(timing.ok()) << timing.status();
  return *std::move(timing);
}

// As TransformerEngine's JAX binding calls it: sequence lengths first, then
// Q [batch, seq, heads, head] and K, V packed [batch, seq, 2, kv heads, head]
// (grouped-query attention: 32 query heads share 8).
constexpr char kForward[] = R"(
HloModule attention
ENTRY main {
  lens = s32[2] parameter(0)
  offsets = s32[2] parameter(1)
  q = bf16[2,2048,32,128] parameter(2)
  kv = bf16[2,2048,2,8,128] parameter(3)
  ROOT att = (bf16[2,2048,32,128], f32[2,32,2048,1]) custom-call(lens, offsets, q, kv), custom_call_target="te_fused_attn_forward_ffi"
})";

TEST(CustomCallCosts, FusedAttentionCostsATiledAttentionOnTheMxu) {
  const ProgramTiming t = Time(kForward);
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
  // QKᵀ and PV: 2 × 2·B·H·S·S·D, plus the softmax on the vector unit.
  const double matmuls = 2 * 2.0 * 2 * 32 * 2048.0 * 2048 * 128;
  ASSERT_EQ(t.ops.size(), 1u);
  EXPECT_EQ(t.ops[0].unit, "MXU");
  EXPECT_GE(t.ops[0].flops, matmuls);
  EXPECT_LT(t.ops[0].flops, 1.1 * matmuls);
  // The scores never go to HBM: the traffic is Q, K, V and the output
  // (read again per tile), less than writing the bf16 scores once.
  const double qkvo = 2 * (2 * 2048 * 32 * 128 * 2.0) + 2 * 2048 * 2 * 8 * 128 * 2.0;
  EXPECT_GT(double(t.ops[0].bytes), qkvo);
  EXPECT_LT(double(t.ops[0].bytes), 2 * 32 * 2048 * 2048 * 2.0);
}

TEST(CustomCallCosts, ACausalMaskHalvesTheWork) {
  const ProgramTiming full = Time(kForward);
  std::string text = kForward;
  text.replace(text.find("custom_call_target="),
               0, "backend_config={attn_heads = 32 : i64, mask_type = 2 : i64}, ");
  const ProgramTiming causal = Time(text);
  EXPECT_NEAR(causal.flops / full.flops, 0.5, 0.02);
}

TEST(CustomCallCosts, TheBackwardPassDoesTwoAndAHalfTimesTheForwardsWork) {
  const ProgramTiming forward = Time(kForward);
  const ProgramTiming backward = Time(R"(
HloModule attention_backward
ENTRY main {
  lens = s32[2] parameter(0)
  q = bf16[2,2048,32,128] parameter(1)
  kv = bf16[2,2048,2,8,128] parameter(2)
  stats = f32[2,32,2048,1] parameter(3)
  o = bf16[2,2048,32,128] parameter(4)
  do = bf16[2,2048,32,128] parameter(5)
  ROOT grads = (bf16[2,2048,32,128], bf16[2,2048,2,8,128]) custom-call(lens, q, kv, stats, o, do), custom_call_target="te_fused_attn_backward_ffi"
})");
  EXPECT_NEAR(backward.flops / forward.flops, 2.5, 0.1);
}

TEST(CustomCallCosts, AnnotationsAreFreeAndUnknownTargetsAreNamed) {
  EXPECT_TRUE(IsBookkeepingCustomCall("Sharding"));
  EXPECT_TRUE(IsBookkeepingCustomCall("SPMDFullToShardShape"));
  EXPECT_TRUE(IsBookkeepingCustomCall("xla.sdy.GlobalToLocalShape"));
  EXPECT_FALSE(IsBookkeepingCustomCall("my_kernel"));
  const ProgramTiming t = Time(R"(
HloModule calls
ENTRY main {
  x = f32[1024,1024] parameter(0)
  s = f32[1024,1024] custom-call(x), custom_call_target="Sharding", sharding={replicated}
  a = f32[1024,1024] custom-call(s), custom_call_target="my_kernel"
  ROOT b = f32[1024,1024] custom-call(a), custom_call_target="my_kernel"
})");
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_TRUE(absl::StrContains(t.warnings[0], "custom call my_kernel (2 calls per run)"))
      << t.warnings[0];
  for (const OpTiming& op : t.ops) EXPECT_NE(op.instruction, "s");
}

}  // namespace
}  // namespace systolic::device
