// Pipelines, fixed points, the verifier between passes and the snapshots
// they record.
#include "core/compiler/hlo_pass_pipeline.h"

#include "core/compiler/algebraic_simplifier.h"
#include "core/compiler/hlo_dce.h"
#include "core/compiler/hlo_pass_fix.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

constexpr char kModule[] = R"(
HloModule m

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  %zero = f32[] constant(0)
  %zeros = f32[4]{0} broadcast(%zero), dimensions={}
  %a = f32[4]{0} add(%x, %zeros)
  %dead = f32[4]{0} multiply(%x, %y)
  ROOT %r = f32[4]{0} multiply(%a, %y)
}
)";

// Says it changed the module `changes` times, then no more.
class CountingPass : public HloPassInterface {
 public:
  CountingPass(std::string name, int changes) : name_(std::move(name)), changes_(changes) {}
  absl::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(HloModule*) override {
    ++runs;
    if (changes_ == 0) return false;
    --changes_;
    run_log().CountRewrite("pretended");
    return true;
  }
  int runs = 0;

 private:
  std::string name_;
  int changes_;
};

class FailingPass : public HloPassInterface {
 public:
  absl::string_view name() const override { return "failing"; }
  absl::StatusOr<bool> Run(HloModule*) override { return absl::InternalError("boom"); }
};

// Breaks the module: an add whose shape is wrong.
class BreakingPass : public HloPassInterface {
 public:
  absl::string_view name() const override { return "breaking"; }
  absl::StatusOr<bool> Run(HloModule* module) override {
    HloInstruction* root = module->entry_computation()->root_instruction();
    *root->mutable_shape() = Shape(F32, {7});
    return true;
  }
};

TEST(HloPassPipelineTest, RunsPassesInOrderAndRecordsASnapshotAfterEach) {
  auto module = testing::ParseModule(kModule);
  CompilationHistory history;
  history.RecordInput(*module);
  HloPassPipeline pipeline("main");
  pipeline.set_history(&history);
  pipeline.AddPass<AlgebraicSimplifier>();
  pipeline.AddPass<HloDCE>();
  pipeline.AddPass<HloDCE>();
  ASSERT_TRUE(testing::RunPass(pipeline, module.get()));
  ASSERT_EQ(history.size(), 4);
  EXPECT_EQ(history.snapshot(0).pass_name, "input");
  EXPECT_EQ(history.snapshot(1).pass_name, "algsimp");
  EXPECT_EQ(history.snapshot(1).pipeline, "main");
  EXPECT_TRUE(history.snapshot(1).changed);
  EXPECT_EQ(history.snapshot(1).log.rewrites.at("add(A, 0) => A"), 1);
  EXPECT_EQ(history.snapshot(2).pass_name, "dce");
  EXPECT_TRUE(history.snapshot(2).changed);
  EXPECT_FALSE(history.snapshot(3).changed);
  // An unchanged module is not captured again.
  EXPECT_EQ(history.snapshot(3).state.get(), history.snapshot(2).state.get());
  EXPECT_EQ(history.snapshot(3).hlo_text(), module->ToString());
  EXPECT_EQ(history.snapshot(0).counts().instructions, 7);
  EXPECT_EQ(history.snapshot(3).counts().instructions, 3);
  for (const PassSnapshot& s : history.snapshots()) EXPECT_GE(s.duration_ns, 0);
}

TEST(HloPassPipelineTest, FixedPointRunsUntilNothingChanges) {
  auto module = testing::ParseModule(kModule);
  HloPassFix<HloPassPipeline> fix("fix");
  auto& pass = fix.AddPass<CountingPass>("counting", 3);
  CompilationHistory history;
  history.RecordInput(*module);
  fix.set_history(&history);
  ASSERT_TRUE(testing::RunPass(fix, module.get()));
  EXPECT_EQ(pass.runs, 4);
  EXPECT_EQ(fix.iterations(), 4);
  ASSERT_EQ(history.size(), 5);
  EXPECT_EQ(history.snapshot(1).pipeline, "fix#1");
  EXPECT_EQ(history.snapshot(4).pipeline, "fix#4");
  EXPECT_FALSE(history.snapshot(4).changed);
}

TEST(HloPassPipelineTest, FixedPointStopsAtItsIterationLimit) {
  auto module = testing::ParseModule(kModule);
  HloPassFix<CountingPass> fix("always", 1000);
  fix.set_iteration_limit(5);
  EXPECT_TRUE(testing::RunPass(fix, module.get()));
  EXPECT_EQ(fix.runs, 5);
  ASSERT_EQ(fix.run_log().decisions.size(), 1u);
  EXPECT_NE(fix.run_log().decisions[0].find("5 iterations"), std::string::npos);
}

TEST(HloPassPipelineTest, NestedPipelinesNameTheirPasses) {
  auto module = testing::ParseModule(kModule);
  CompilationHistory history;
  history.RecordInput(*module);
  HloPassPipeline outer("outer");
  outer.set_history(&history);
  auto& inner = outer.AddPass<HloPassPipeline>("inner");
  inner.AddPass<CountingPass>("a", 1);
  outer.AddPass<CountingPass>("b", 0);
  ASSERT_TRUE(testing::RunPass(outer, module.get()));
  ASSERT_EQ(history.size(), 3);
  EXPECT_EQ(history.snapshot(1).pass_name, "a");
  EXPECT_EQ(history.snapshot(1).pipeline, "outer/inner");
  EXPECT_EQ(history.snapshot(2).pass_name, "b");
  EXPECT_EQ(history.snapshot(2).pipeline, "outer");
}

TEST(HloPassPipelineTest, AFailingPassIsNamedInTheError) {
  auto module = testing::ParseModule(kModule);
  HloPassPipeline pipeline("main");
  pipeline.AddPass<FailingPass>();
  absl::StatusOr<bool> result = pipeline.Run(module.get());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("pass failing"), std::string::npos);
  EXPECT_NE(result.status().message().find("boom"), std::string::npos);
}

TEST(HloPassPipelineTest, TheVerifierBetweenPassesNamesThePassThatBrokeTheModule) {
  auto broken = testing::ParseModule(kModule);
  *broken->entry_computation()->root_instruction()->mutable_shape() = Shape(F32, {7});
  if (VerifyHloModule(*broken).ok()) GTEST_SKIP() << "the verifier does not check shapes yet";
  auto module = testing::ParseModule(kModule);
  HloPassPipeline pipeline("main");
  pipeline.set_verify_between_passes(true);
  pipeline.AddPass<BreakingPass>();
  absl::StatusOr<bool> result = pipeline.Run(module.get());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("invalid after pass breaking"), std::string::npos)
      << result.status();
}

TEST(HloPassPipelineTest, SnapshotsIdentifyInstructionsStructurally) {
  auto module = testing::ParseModule(kModule);
  CompilationHistory history;
  history.RecordInput(*module);
  HloPassPipeline pipeline("main");
  pipeline.set_history(&history);
  pipeline.AddPass<AlgebraicSimplifier>();
  pipeline.AddPass<HloDCE>();
  ASSERT_TRUE(testing::RunPass(pipeline, module.get()));
  const ModuleState& before = *history.snapshot(0).state;
  const ModuleState& after = *history.snapshot(2).state;
  // %y is untouched: same identity. %r now multiplies %x instead of %a.
  const InstructionRecord* y0 = before.FindByName("main", "y");
  const InstructionRecord* y1 = after.FindByName("main", "y");
  ASSERT_TRUE(y0 && y1);
  EXPECT_EQ(y0->structural_hash, y1->structural_hash);
  const InstructionRecord* r0 = before.FindByName("main", "r");
  const InstructionRecord* r1 = after.FindByName("main", "r");
  ASSERT_TRUE(r0 && r1);
  EXPECT_NE(r0->structural_hash, r1->structural_hash);
  EXPECT_EQ(r0->unique_id, r1->unique_id);
  // Original instructions are their own origin.
  ASSERT_EQ(r0->origins.size(), 1u);
  EXPECT_EQ(r0->origins[0].unique_id, r0->unique_id);
}

TEST(HloPassPipelineTest, TheMapperLinksInstructionsBothWays) {
  auto module = testing::ParseModule(kModule);
  const int64_t x = testing::FindInstruction(*module, "x")->unique_id();
  const int64_t a = testing::FindInstruction(*module, "a")->unique_id();
  CompilationHistory history;
  history.RecordInput(*module);
  HloPassPipeline pipeline("main");
  pipeline.set_history(&history);
  pipeline.AddPass<AlgebraicSimplifier>();
  pipeline.AddPass<HloDCE>();
  ASSERT_TRUE(testing::RunPass(pipeline, module.get()));
  ProvenanceMapper mapper = history.Mapper(0, 2);
  // %a = x + 0 became %x.
  auto forward = mapper.Forward(a);
  ASSERT_EQ(forward.size(), 1u);
  EXPECT_EQ(forward[0]->name, "x");
  auto backward = mapper.Backward(x);
  ASSERT_EQ(backward.size(), 2u);
  EXPECT_EQ(backward[0]->name, "x");
  EXPECT_EQ(backward[1]->name, "a");
  EXPECT_TRUE(mapper.Forward(12345).empty());
}


// A module whose weights, f32[16,16], hold i * 0.01 + `offset` at element i.
std::unique_ptr<HloModule> WeightedModule(float offset) {
  auto module = testing::ParseModule(R"(
HloModule m

ENTRY %main (x: f32[2,16]) -> f32[2,16] {
  %x = f32[2,16]{1,0} parameter(0)
  %w = f32[16,16]{1,0} constant({...})
  ROOT %d = f32[2,16]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)");
  Literal weights(Shape(F32, {16, 16}));
  for (int64_t i = 0; i < 256; ++i) weights.data<float>()[i] = float(i) * 0.01f + offset;
  for (HloInstruction* instr : module->entry_computation()->instructions()) {
    if (instr->name() == "w") instr->set_literal(std::move(weights));
  }
  return module;
}

// Adds `delta` to every weight: the module's text stays the same.
class ReweighPass : public HloPassInterface {
 public:
  explicit ReweighPass(float delta) : delta_(delta) {}
  absl::string_view name() const override { return "reweigh"; }
  absl::StatusOr<bool> Run(HloModule* module) override {
    for (HloInstruction* instr : module->entry_computation()->instructions()) {
      if (instr->opcode() != HloOpcode::kConstant) continue;
      Literal changed = instr->literal().Clone();
      for (float& v : changed.data<float>()) v += delta_;
      instr->set_literal(std::move(changed));
    }
    return true;
  }

 private:
  float delta_;
};

TEST(HloPassPipelineTest, SnapshotsPrintLargeConstantsWithoutTheirValues) {
  auto module = WeightedModule(0.5f);
  CompilationHistory history;
  history.RecordInput(*module);
  const std::string& text = history.snapshot(0).hlo_text();
  EXPECT_NE(text.find("%w = f32[16,16]{1,0} constant({...})"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.51"), std::string::npos) << text;  // element 1
  // The module itself still prints every value.
  EXPECT_NE(module->ToString().find("0.51"), std::string::npos);
}

TEST(HloPassPipelineTest, StagesThatDifferOnlyInAConstantsValuesAreDifferent) {
  auto module = WeightedModule(0.5f);
  CompilationHistory history;
  history.RecordInput(*module);
  HloPassPipeline pipeline("main");
  pipeline.set_history(&history);
  pipeline.AddPass<ReweighPass>(0.25f);
  pipeline.AddPass<ReweighPass>(0.0f);
  ASSERT_TRUE(testing::RunPass(pipeline, module.get()));
  ASSERT_EQ(history.size(), 3);
  const ModuleState& before = *history.snapshot(0).state;
  const ModuleState& after = *history.snapshot(1).state;
  const ModuleState& same = *history.snapshot(2).state;
  EXPECT_EQ(before.hlo_text, after.hlo_text);  // both print {...}
  EXPECT_NE(before.structural_hash, after.structural_hash);
  EXPECT_NE(before.FindByName("main", "w")->structural_hash,
            after.FindByName("main", "w")->structural_hash);
  EXPECT_NE(before.FindByName("main", "d")->structural_hash,
            after.FindByName("main", "d")->structural_hash);
  // Adding zero changed nothing: the same identity.
  EXPECT_EQ(after.structural_hash, same.structural_hash);
  // Another module with the same values is the same stage.
  EXPECT_EQ(CaptureModuleState(*WeightedModule(0.5f))->structural_hash, before.structural_hash);
  EXPECT_NE(CaptureModuleState(*WeightedModule(0.5f))->structural_hash, after.structural_hash);
}

}  // namespace
}  // namespace systolic
