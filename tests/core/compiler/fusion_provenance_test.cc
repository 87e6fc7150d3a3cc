// Before and after fusion, linked op by op through provenance: the studio's
// linked selection on a known module.
#include "core/compiler/compiler.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

constexpr char kDenseLayer[] = R"(
HloModule dense

ENTRY %main (x: f32[128,256], w: f32[256,512], b: f32[512]) -> f32[128,512] {
  %x = f32[128,256]{1,0} parameter(0)
  %w = f32[256,512]{1,0} parameter(1)
  %b = f32[512]{0} parameter(2)
  %dot = f32[128,512]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %bias = f32[128,512]{1,0} broadcast(%b), dimensions={1}
  %add = f32[128,512]{1,0} add(%dot, %bias)
  %zero = f32[] constant(0)
  %zeros = f32[128,512]{1,0} broadcast(%zero), dimensions={}
  ROOT %relu = f32[128,512]{1,0} maximum(%add, %zeros)
}
)";

std::vector<std::string> Names(const std::vector<const InstructionRecord*>& records) {
  std::vector<std::string> names;
  for (const InstructionRecord* r : records) names.push_back(r->name);
  return names;
}

TEST(FusionProvenanceTest, LinksTheOutputFusionToTheOpsItWasMadeFrom) {
  auto module = testing::ParseModule(kDenseLayer);
  const int64_t dot = testing::FindInstruction(*module, "dot")->unique_id();
  const int64_t relu = testing::FindInstruction(*module, "relu")->unique_id();
  CompileOptions options;
  options.passes = {"priority-fusion", "dce"};
  Compiler compiler(options);
  auto result = compiler.Compile(std::move(module));
  ASSERT_TRUE(result.ok()) << result.status();
  const CompilationHistory& history = result->history;
  ASSERT_EQ(history.size(), 3);
  const PassSnapshot& after = history.snapshot(2);
  ASSERT_EQ(after.counts().fusions_by_kind.at(FusionKind::kOutput), 1);

  ProvenanceMapper mapper = history.Mapper(0, 2);
  // The dot is now the fusion and the dot inside it.
  std::vector<const InstructionRecord*> forward = mapper.Forward(dot);
  ASSERT_EQ(forward.size(), 2u);
  EXPECT_TRUE(forward[0]->in_fusion);
  EXPECT_EQ(forward[0]->name, "dot");
  EXPECT_EQ(forward[0]->opcode, HloOpcode::kDot);
  EXPECT_FALSE(forward[1]->in_fusion);
  EXPECT_EQ(forward[1]->opcode, HloOpcode::kFusion);
  // The fusion is made of the dot and its whole epilogue.
  std::vector<std::string> made_of = Names(mapper.Backward(forward[1]->unique_id));
  EXPECT_EQ(made_of, (std::vector<std::string>{"dot", "bias", "add", "zero", "zeros", "relu"}));
  // The result is still the relu, fused.
  std::vector<std::string> relu_now = Names(mapper.Forward(relu));
  EXPECT_EQ(relu_now.size(), 2u);
}

TEST(FusionProvenanceTest, EveryInstructionOfEverySnapshotResolvesToOriginals) {
  auto module = testing::ParseModule(kDenseLayer);
  Compiler compiler;
  auto result = compiler.Compile(std::move(module));
  ASSERT_TRUE(result.ok()) << result.status();
  const CompilationHistory& history = result->history;
  const ModuleState& input = *history.snapshot(0).state;
  for (const PassSnapshot& s : history.snapshots()) {
    for (const InstructionRecord& r : s.instructions()) {
      ASSERT_FALSE(r.origins.empty());
      for (const ProvenanceEntry& origin : r.origins) {
        EXPECT_NE(input.Find(origin.unique_id), nullptr)
            << s.pass_name << ": %" << r.name << " comes from unknown %" << origin.name;
      }
    }
  }
}

}  // namespace
}  // namespace systolic
