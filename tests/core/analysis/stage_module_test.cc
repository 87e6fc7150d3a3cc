// Pass stages parsed back from their snapshots, tied to their provenance,
// and linked op by op; the stages compared first.
#include "core/analysis/stage_module.h"

#include <algorithm>

#include "core/analysis/program_profile.h"
#include "core/analysis/snapshot_link.h"
#include "core/analysis/stage_pair.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAreArray;

constexpr char kInput[] = R"(
HloModule mlp
ENTRY %main (x: f32[8,16], w: f32[16,4], b: f32[4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0)
  %w = f32[16,4]{1,0} parameter(1)
  %b = f32[4]{0} parameter(2)
  %dot = f32[8,4]{1,0} dot(f32[8,16]{1,0} %x, f32[16,4]{1,0} %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %bias = f32[8,4]{1,0} broadcast(f32[4]{0} %b), dimensions={1}
  %add = f32[8,4]{1,0} add(f32[8,4]{1,0} %dot, f32[8,4]{1,0} %bias)
  %zero = f32[] constant(0)
  %zeros = f32[8,4]{1,0} broadcast(f32[] %zero), dimensions={}
  %relu = f32[8,4]{1,0} maximum(f32[8,4]{1,0} %add, f32[8,4]{1,0} %zeros)
  ROOT %exp = f32[8,4]{1,0} exponential(f32[8,4]{1,0} %relu)
}
)";

constexpr char kFused[] = R"(
HloModule mlp

%fused_dot (p0: f32[8,16], p1: f32[16,4], p2: f32[4]) -> f32[8,4] {
  %p0 = f32[8,16]{1,0} parameter(0)
  %p1 = f32[16,4]{1,0} parameter(1)
  %p2 = f32[4]{0} parameter(2)
  %dot.1 = f32[8,4]{1,0} dot(f32[8,16]{1,0} %p0, f32[16,4]{1,0} %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %bias.1 = f32[8,4]{1,0} broadcast(f32[4]{0} %p2), dimensions={1}
  %add.1 = f32[8,4]{1,0} add(f32[8,4]{1,0} %dot.1, f32[8,4]{1,0} %bias.1)
  %zero.1 = f32[] constant(0)
  %zeros.1 = f32[8,4]{1,0} broadcast(f32[] %zero.1), dimensions={}
  ROOT %relu.1 = f32[8,4]{1,0} maximum(f32[8,4]{1,0} %add.1, f32[8,4]{1,0} %zeros.1)
}

%fused_exp (q0: f32[8,4]) -> f32[8,4] {
  %q0 = f32[8,4]{1,0} parameter(0)
  ROOT %exp.1 = f32[8,4]{1,0} exponential(f32[8,4]{1,0} %q0)
}

ENTRY %main (x: f32[8,16], w: f32[16,4], b: f32[4]) -> f32[8,4] {
  %x = f32[8,16]{1,0} parameter(0)
  %w = f32[16,4]{1,0} parameter(1)
  %b = f32[4]{0} parameter(2)
  %fusion = f32[8,4]{1,0} fusion(f32[8,16]{1,0} %x, f32[16,4]{1,0} %w, f32[4]{0} %b), kind=kOutput, calls=%fused_dot
  ROOT %fusion.1 = f32[8,4]{1,0} fusion(f32[8,4]{1,0} %fusion), kind=kLoop, calls=%fused_exp
}
)";

const HloInstruction* Find(const HloModule& module, absl::string_view name) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (i->name() == name) return i;
    }
  }
  return nullptr;
}

// The fused module as a fusion pass leaves it: "dot.1" made from "dot",
// each fusion from what it fused.
std::unique_ptr<HloModule> FusedWithProvenance(const HloModule& input) {
  auto fused = ParseAndReturnUnverifiedModule(kFused);
  EXPECT_TRUE(fused.ok()) << fused.status();
  // What a pass creates gets ids past every original one.
  int64_t next_id = 0;
  for (const HloComputation* c : input.computations()) {
    for (const HloInstruction* i : c->instructions()) next_id = std::max(next_id, i->unique_id() + 1);
  }
  for (HloComputation* c : (*fused)->computations()) {
    for (HloInstruction* i : c->instructions()) i->SetUniqueId(next_id++);
  }
  for (HloComputation* c : (*fused)->MakeComputationPostOrder()) {
    for (HloInstruction* i : c->instructions()) {
      std::string base = i->name();
      if (base.size() > 2 && base.substr(base.size() - 2) == ".1") base.resize(base.size() - 2);
      if (const HloInstruction* original = Find(input, base);
          original && i->opcode() != HloOpcode::kFusion) {
        i->set_provenance({{original->unique_id(), original->name()}});
      }
      if (i->opcode() == HloOpcode::kFusion) {
        std::vector<ProvenanceEntry> merged;
        for (const HloInstruction* inner : i->fused_instructions_computation()->instructions()) {
          for (const ProvenanceEntry& e : inner->provenance()) merged.push_back(e);
        }
        i->set_provenance(merged);
      }
    }
  }
  return std::move(*fused);
}

std::vector<std::string> Names(const std::vector<const HloInstruction*>& instructions) {
  std::vector<std::string> names;
  for (const HloInstruction* i : instructions) names.push_back(i->name());
  return names;
}

class StageModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto input = ParseAndReturnUnverifiedModule(kInput);
    ASSERT_TRUE(input.ok()) << input.status();
    input_module_ = std::move(*input);
    fused_module_ = FusedWithProvenance(*input_module_);
    input_snapshot_ = trace::SnapshotModule(*input_module_, "input", 0, false);
    fused_snapshot_ = trace::SnapshotModule(*fused_module_, "priority-fusion", 1000, true);
  }
  std::unique_ptr<HloModule> input_module_, fused_module_;
  trace::ModuleSnapshot input_snapshot_, fused_snapshot_;
};

TEST_F(StageModuleTest, ParsedStagesKnowWhereEachInstructionCameFrom) {
  auto before = StageModule::Parse(input_snapshot_);
  auto after = StageModule::Parse(fused_snapshot_);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ((*after)->pass_name(), "priority-fusion");
  const HloInstruction* dot = (*before)->FindInstruction("dot");
  ASSERT_NE(dot, nullptr);
  // An original instruction is its own origin.
  EXPECT_THAT((*before)->OriginsOf(dot),
              ElementsAre(Find(*input_module_, "dot")->unique_id()));
  const HloInstruction* fusion = (*after)->FindInstruction("fusion");
  ASSERT_NE(fusion, nullptr);
  std::vector<int64_t> expected;
  for (const char* name : {"dot", "bias", "add", "zero", "zeros", "relu"}) {
    expected.push_back(Find(*input_module_, name)->unique_id());
  }
  EXPECT_THAT((*after)->OriginsOf(fusion), UnorderedElementsAreArray(expected));
  EXPECT_EQ(*(*after)->OriginName(Find(*input_module_, "relu")->unique_id()), "relu");
  EXPECT_EQ((*after)->MadeFrom(Find(*input_module_, "exp")->unique_id()).size(), 2u);
  EXPECT_THAT((*after)->OriginsOf(nullptr), IsEmpty());
  EXPECT_EQ((*after)->FindInstruction("nothing"), nullptr);
}

TEST_F(StageModuleTest, LinkedSelectionGoesBothWays) {
  auto before = StageModule::Parse(input_snapshot_);
  auto after = StageModule::Parse(fused_snapshot_);
  ASSERT_TRUE(before.ok() && after.ok());
  // What "dot" became: the fused dot and the fusion holding it.
  EXPECT_THAT(Names(LinkedInstructions(**before, (*before)->FindInstruction("dot"), **after)),
              ElementsAre("dot.1", "fusion"));
  // What the fusion came from, in the input's program order.
  EXPECT_THAT(Names(LinkedInstructions(**after, (*after)->FindInstruction("fusion"), **before)),
              ElementsAre("dot", "bias", "add", "zero", "zeros", "relu"));
  EXPECT_THAT(Names(LinkedInstructions(**after, (*after)->FindInstruction("x"), **before)),
              ElementsAre("x"));
  // Fused parameters were made by the pass from nothing before it.
  EXPECT_THAT(LinkedInstructions(**after, (*after)->FindInstruction("p0"), **before), IsEmpty());
  // Several at once, merged without repeats.
  EXPECT_THAT(Names(LinkedInstructions(
                  **before,
                  std::vector<const HloInstruction*>{(*before)->FindInstruction("exp"),
                                                     (*before)->FindInstruction("relu")},
                  **after)),
              ElementsAre("relu.1", "exp.1", "fusion", "fusion.1"));
}

TEST_F(StageModuleTest, AdoptedModulesNeedNoParsing) {
  const HloModule* raw = fused_module_.get();
  auto after = StageModule::Adopt(std::move(fused_module_), fused_snapshot_);
  EXPECT_EQ(&after->module(), raw);
  auto before = StageModule::Adopt(std::move(input_module_), input_snapshot_);
  EXPECT_THAT(Names(LinkedInstructions(*after, after->FindInstruction("fusion.1"), *before)),
              ElementsAre("exp"));
}

TEST_F(StageModuleTest, RepeatedNamesMatchInOrderAndBrokenTextIsAnError) {
  constexpr char kText[] = R"(
HloModule twice
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}
ENTRY %main (x: f32[4]) -> f32[] {
  %x = f32[4]{0} parameter(0)
  %zero = f32[] constant(0)
  ROOT %r = f32[] reduce(f32[4]{0} %x, f32[] %zero), dimensions={0}, to_apply=%add
}
)";
  auto module = ParseAndReturnUnverifiedModule(kText);
  ASSERT_TRUE(module.ok());
  const trace::ModuleSnapshot snapshot = trace::SnapshotModule(**module, "input", 0, false);
  auto stage = StageModule::Parse(snapshot);
  ASSERT_TRUE(stage.ok()) << stage.status();
  // Two instructions are named x: the entry's is the one found by name, and
  // each keeps its own origin.
  const HloInstruction* entry_x = (*stage)->FindInstruction("x");
  ASSERT_NE(entry_x, nullptr);
  EXPECT_EQ(entry_x->parent(), (*stage)->module().entry_computation());
  EXPECT_THAT((*stage)->OriginsOf(entry_x),
              ElementsAre((*module)->entry_computation()->parameter_instruction(0)->unique_id()));

  trace::ModuleSnapshot broken = snapshot;
  broken.hlo_text = "HloModule broken\n...";
  EXPECT_FALSE(StageModule::Parse(broken).ok());
}

TEST_F(StageModuleTest, ProgramFilesBecomeProfilesOfInputStages) {
  const trace::Profile profile =
      ProfileOfModules({input_module_.get(), fused_module_.get()}, "two programs");
  EXPECT_EQ(profile.info.title, "two programs");
  ASSERT_EQ(profile.programs.size(), 2u);
  EXPECT_EQ(profile.programs[0].id, 1);
  EXPECT_EQ(profile.programs[1].id, 2);
  EXPECT_EQ(profile.programs[0].name, "mlp");
  ASSERT_EQ(profile.programs[0].snapshots.size(), 1u);
  EXPECT_EQ(profile.programs[0].snapshots[0].pass_name, "input");
  EXPECT_EQ(profile.programs[0].snapshots[0].instruction_count, 10);
  EXPECT_EQ(profile.FindProgram(2)->snapshots[0].hlo_text, fused_module_->ToString());
  EXPECT_EQ(profile.timeline.plane_count(), 0);
}

TEST(DefaultStagePair, BeforeAndAfterFusion) {
  auto stage = [](const char* name, bool changed) {
    trace::ModuleSnapshot s;
    s.pass_name = name;
    s.changed = changed;
    return s;
  };
  trace::ProgramRecord program;
  EXPECT_EQ(DefaultStagePair(program).before, -1);
  program.snapshots.push_back(stage("input", false));
  EXPECT_EQ(DefaultStagePair(program).before, 0);
  EXPECT_EQ(DefaultStagePair(program).after, -1);
  program.snapshots.push_back(stage("dce", true));
  program.snapshots.push_back(stage("layout-assignment", true));
  EXPECT_EQ(DefaultStagePair(program).before, 0);
  EXPECT_EQ(DefaultStagePair(program).after, 2);
  program.snapshots.push_back(stage("priority-fusion", true));
  program.snapshots.push_back(stage("multi-output-fusion", false));
  program.snapshots.push_back(stage("scheduling", true));
  EXPECT_EQ(DefaultStagePair(program).before, 2);
  EXPECT_EQ(DefaultStagePair(program).after, 4);
}

}  // namespace
}  // namespace systolic::analysis
