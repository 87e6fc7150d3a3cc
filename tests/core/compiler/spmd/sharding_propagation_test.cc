// Sharding propagation: the exact sharding each op family passes forward
// (operand to result) and backward (result to operand), annotations that
// never change, loops and conditionals, and whole programs (the samples and
// the corpus's SPMD modules) where every value ends up with a sharding and
// computes what it computed before.
#include "core/compiler/spmd/sharding_propagation.h"

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/compiler/pass_registry.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

using testing::FindInstruction;
using testing::ParseModule;
using testing::RunPass;

// Parses `text` and runs the pass, which must report a change.
std::unique_ptr<HloModule> Propagate(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseModule(text);
  if (module == nullptr) return nullptr;
  ShardingPropagation pass;
  EXPECT_TRUE(RunPass(pass, module.get()));
  return module;
}

// The sharding of the instruction named `name`, as text.
std::string ShardingOf(const HloModule& module, const std::string& name) {
  const HloInstruction* instr = FindInstruction(module, name);
  if (instr == nullptr) return "<no instruction " + name + ">";
  return instr->has_sharding() ? instr->sharding().ToString() : "<none>";
}

// The computations that must carry shardings: the entry and what it reaches
// through while, conditional and call.
std::vector<const HloComputation*> ShardedComputations(const HloModule& module) {
  std::vector<const HloComputation*> out = {module.entry_computation()};
  for (size_t i = 0; i < out.size(); ++i) {
    for (const HloInstruction* instr : out[i]->instructions()) {
      const HloOpcode op = instr->opcode();
      if (op != HloOpcode::kWhile && op != HloOpcode::kConditional && op != HloOpcode::kCall) {
        continue;
      }
      for (const HloComputation* callee : instr->called_computations()) {
        if (std::find(out.begin(), out.end(), callee) == out.end()) out.push_back(callee);
      }
    }
  }
  return out;
}

void ExpectEveryInstructionSharded(const HloModule& module, const std::string& where) {
  for (const HloComputation* computation : ShardedComputations(module)) {
    for (const HloInstruction* instr : computation->instructions()) {
      EXPECT_TRUE(instr->has_sharding()) << where << ": " << instr->name() << " has no sharding";
    }
  }
  // Every sharding fits its shape (tuple shardings match the leaves, tiled
  // ones the rank).
  EXPECT_TRUE(VerifyHloModule(module).ok()) << where << ": " << VerifyHloModule(module);
}

// Whether any instruction of `module` carries a sharding.
bool HasAnySharding(const HloModule& module) {
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instr : computation->instructions()) {
      if (instr->has_sharding()) return true;
    }
  }
  return false;
}

// The module's text with every sharding removed.
std::string TextWithoutShardings(const HloModule& module) {
  std::unique_ptr<HloModule> copy = module.Clone();
  for (HloComputation* computation : copy->computations()) {
    for (HloInstruction* instr : computation->instructions()) instr->clear_sharding();
  }
  return copy->ToString();
}

// Outputs of every device on seeded arguments, or an error.
absl::StatusOr<std::vector<Literal>> EvaluateOnDevices(const HloModule& module) {
  const SpmdDeviceCounts counts = RequiredDeviceCounts(module);
  std::vector<std::vector<Literal>> args;
  for (int64_t d = 0; d < counts.replicas * counts.partitions; ++d) {
    args.push_back(MakeRandomArguments(*module.entry_computation(), 7, uint64_t(d)));
  }
  return EvaluateSpmd(module, args, counts.replicas, counts.partitions);
}

// Whether the reference evaluator runs `module` quickly: no opaque ops and
// no large arrays.
bool CheapToEvaluate(const HloModule& module) {
  constexpr int64_t kMaxElements = int64_t{1} << 18;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instr : computation->instructions()) {
      switch (instr->opcode()) {
        case HloOpcode::kCustomCall:
        case HloOpcode::kInfeed:
        case HloOpcode::kOutfeed:
        case HloOpcode::kSend:
        case HloOpcode::kRecv:
          return false;
        default:
          break;
      }
      if (instr->shape().IsArray() && instr->shape().num_elements() > kMaxElements) return false;
      for (const HloInstruction* operand : instr->operands()) {
        if (operand->shape().IsArray() && operand->shape().num_elements() > kMaxElements) {
          return false;
        }
      }
    }
  }
  return true;
}

// Runs the pass on `module` and checks what every whole program must hold:
// every value sharded, annotations untouched, nothing but shardings changed,
// and the same outputs when cheap to evaluate. Returns whether it evaluated.
bool CheckWholeProgram(HloModule* module, const std::string& where) {
  std::vector<std::pair<std::string, std::string>> annotated;
  for (const HloComputation* computation : module->computations()) {
    for (const HloInstruction* instr : computation->instructions()) {
      if (instr->has_sharding()) annotated.emplace_back(instr->name(), instr->sharding().ToString());
    }
  }
  const std::string before_text = TextWithoutShardings(*module);
  const bool evaluate = CheapToEvaluate(*module);
  absl::StatusOr<std::vector<Literal>> before;
  if (evaluate) before = EvaluateOnDevices(*module);

  ShardingPropagation pass;
  RunPass(pass, module);

  ExpectEveryInstructionSharded(*module, where);
  for (const auto& [name, sharding] : annotated) {
    EXPECT_EQ(ShardingOf(*module, name), sharding) << where << ": annotation of " << name;
  }
  EXPECT_EQ(TextWithoutShardings(*module), before_text) << where;
  if (!evaluate) return false;
  EXPECT_TRUE(before.ok()) << where << ": " << before.status();
  absl::StatusOr<std::vector<Literal>> after = EvaluateOnDevices(*module);
  EXPECT_TRUE(after.ok()) << where << ": " << after.status();
  if (!before.ok() || !after.ok()) return false;
  EXPECT_EQ(after->size(), before->size()) << where;
  for (size_t d = 0; d < after->size() && d < before->size(); ++d) {
    EXPECT_EQ((*after)[d], (*before)[d]) << where << ": device " << d;
  }
  return true;
}

TEST(ShardingPropagationTest, IsRegisteredByName) {
  auto pass = CreatePass("sharding-propagation", PassContext{});
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ((*pass)->name(), "sharding-propagation");
}

TEST(ShardingPropagationTest, ModuleWithoutShardingsIsUntouched) {
  std::unique_ptr<HloModule> module = ParseModule(R"(
HloModule m
ENTRY e {
  p = f32[8,4] parameter(0)
  ROOT n = f32[8,4] negate(p)
})");
  const std::string before = module->ToString();
  ShardingPropagation pass;
  EXPECT_FALSE(RunPass(pass, module.get()));
  EXPECT_EQ(module->ToString(), before);
}

TEST(ShardingPropagationTest, SecondRunChangesNothing) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[8,4] parameter(0), sharding={devices=[2,2]<=[4]}
  ROOT n = f32[8,4] negate(p)
})");
  const std::string once = module->ToString();
  ShardingPropagation pass;
  EXPECT_FALSE(RunPass(pass, module.get()));
  EXPECT_EQ(module->ToString(), once);
}

TEST(ShardingPropagationTest, ElementwiseForward) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p0 = f32[8,4] parameter(0), sharding={devices=[2,2]<=[4]}
  p1 = f32[8,4] parameter(1)
  sum = f32[8,4] add(p0, p1)
  ROOT neg = f32[8,4] negate(sum)
})");
  EXPECT_EQ(ShardingOf(*module, "sum"), "{devices=[2,2]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "neg"), "{devices=[2,2]<=[4]}");
  // The other operand of the add takes its sharding backward.
  EXPECT_EQ(ShardingOf(*module, "p1"), "{devices=[2,2]<=[4]}");
}

TEST(ShardingPropagationTest, ElementwiseBackwardThroughCompareSelectClampConvert) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p0 = f32[8,4] parameter(0)
  p1 = f32[8,4] parameter(1)
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  cmp = pred[8,4] compare(p0, p1), direction=LT
  sel = f32[8,4] select(cmp, p0, p1)
  cl = f32[8,4] clamp(lo, sel, hi)
  ROOT cv = s32[8,4] convert(cl), sharding={devices=[4,1]<=[4]}
})");
  for (const char* name : {"p0", "p1", "cmp", "sel", "cl"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[4,1]<=[4]}") << name;
  }
  // Scalar bounds hold the whole (one-element) value everywhere.
  EXPECT_EQ(ShardingOf(*module, "lo"), "{replicated}");
  EXPECT_EQ(ShardingOf(*module, "hi"), "{replicated}");
}

TEST(ShardingPropagationTest, BroadcastMapsDimensionsBothWays) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[8] parameter(0), sharding={devices=[4]<=[4]}
  up = f32[2,8,3] broadcast(p), dimensions={1}
  q = f32[8] parameter(1)
  ROOT down = f32[8,6] broadcast(q), dimensions={0}, sharding={devices=[2,2]<=[4]}
})");
  // New dimensions are untiled.
  EXPECT_EQ(ShardingOf(*module, "up"), "{devices=[1,4,1]<=[4]}");
  // The operand lacks the result's tiled dimension 1: replicated over it.
  EXPECT_EQ(ShardingOf(*module, "q"), "{devices=[2,2]<=[4] last_tile_dim_replicate}");
}

TEST(ShardingPropagationTest, ReshapeSplitsAndMergesCompatibleTiling) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  a = f32[4,6] parameter(0), sharding={devices=[2,1]<=[2]}
  merged = f32[24] reshape(a)
  b = f32[24] parameter(1), sharding={devices=[4]<=[4]}
  split = f32[4,6] reshape(b)
  c = f32[4,6] parameter(2), sharding={devices=[1,2]<=[2]}
  minor = f32[24] reshape(c)
  d = f32[4,6] parameter(3), sharding={devices=[2,2]<=[4]}
  both = f32[24] reshape(d)
  e = f32[6,4] parameter(4)
  ROOT back = f32[2,3,4] reshape(e), sharding={devices=[2,1,2]<=[4]}
})");
  EXPECT_EQ(ShardingOf(*module, "merged"), "{devices=[2]<=[2]}");
  EXPECT_EQ(ShardingOf(*module, "split"), "{devices=[4,1]<=[4]}");
  // A tiled minor dimension cannot stay contiguous under a merge.
  EXPECT_EQ(ShardingOf(*module, "minor"), "{replicated}");
  // Only the minor dimension's tiling is dropped.
  EXPECT_EQ(ShardingOf(*module, "both"), "{devices=[2,2]<=[4] last_tile_dim_replicate}");
  // Backward: [2,3] merges into 6 tiled by 2 (2 divides 6), 4 stays.
  EXPECT_EQ(ShardingOf(*module, "e"), "{devices=[2,2]<=[4]}");
}

TEST(ShardingPropagationTest, TransposePermutesTiles) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[8,4,2] parameter(0), sharding={devices=[2,1,4]<=[8]}
  t = f32[2,8,4] transpose(p), dimensions={2,0,1}
  q = f32[8,4] parameter(1)
  ROOT u = f32[4,8] transpose(q), dimensions={1,0}, sharding={devices=[4,2]<=[8]}
})");
  // Result dimension i is operand dimension dimensions[i]; each device keeps
  // its tile.
  EXPECT_EQ(ShardingOf(*module, "t"), "{devices=[4,2,1]<=[2,4]T(1,0)}");
  EXPECT_EQ(ShardingOf(*module, "q"), "{devices=[2,4]<=[4,2]T(1,0)}");
}

TEST(ShardingPropagationTest, SlicesKeepTilingOnUnslicedDimensions) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[8,16] parameter(0), sharding={devices=[2,2]<=[4]}
  s = f32[8,8] slice(p), slice={[0:8], [0:8]}
  i0 = s32[] constant(0)
  i1 = s32[] constant(3)
  ds = f32[8,4] dynamic-slice(p, i0, i1), dynamic_slice_sizes={8,4}
  u = f32[8,4] parameter(1)
  ROOT dus = f32[8,16] dynamic-update-slice(p, u, i0, i1)
})");
  EXPECT_EQ(ShardingOf(*module, "s"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "ds"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "dus"), "{devices=[2,2]<=[4]}");
  // The update holds only part of dimension 1: replicated along it.
  EXPECT_EQ(ShardingOf(*module, "u"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "i0"), "{replicated}");
  EXPECT_EQ(ShardingOf(*module, "i1"), "{replicated}");
}

TEST(ShardingPropagationTest, ConcatenatePadAndReverse) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  a = f32[8,4] parameter(0), sharding={devices=[2,2]<=[4]}
  b = f32[8,6] parameter(1)
  cat = f32[8,10] concatenate(a, b), dimensions={1}
  zero = f32[] constant(0)
  padded = f32[8,6] pad(a, zero), padding=0_0x1_1
  r = f32[8,4] parameter(2), sharding={devices=[2,1]<=[2]}
  ROOT rev = f32[8,4] reverse(r), dimensions={0}
})");
  EXPECT_EQ(ShardingOf(*module, "cat"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "b"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "padded"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "zero"), "{replicated}");
  // Reversed rows: the device that held the first rows now holds the last.
  EXPECT_EQ(ShardingOf(*module, "rev"), "{devices=[2,1]1,0}");
}

TEST(ShardingPropagationTest, DotWithShardedContractingDimensionIsPartiallyReplicated) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  lhs = f32[8,16] parameter(0), sharding={devices=[2,2]<=[4]}
  rhs = f32[16,4] parameter(1)
  ROOT dot = f32[8,4] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  // Rows follow the lhs; the devices splitting the contracting dimension
  // hold partial sums of the same rows: replicated over that mesh dimension.
  EXPECT_EQ(ShardingOf(*module, "dot"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  // The rhs splits its contracting dimension like the lhs.
  EXPECT_EQ(ShardingOf(*module, "rhs"),
            "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
}

TEST(ShardingPropagationTest, DotMergesRowsOfOneOperandWithColumnsOfTheOther) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  lhs = f32[8,16] parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  rhs = f32[16,4] parameter(1), sharding={devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}
  ROOT dot = f32[8,4] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_EQ(ShardingOf(*module, "dot"), "{devices=[2,2]<=[4]}");
}

TEST(ShardingPropagationTest, DotBatchDimensionsForwardAndBackward) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  lhs = f32[4,8,16] parameter(0), sharding={devices=[4,1,1]<=[4]}
  rhs = f32[4,16,2] parameter(1)
  ROOT dot = f32[4,8,2] dot(lhs, rhs), lhs_batch_dims={0}, rhs_batch_dims={0},
    lhs_contracting_dims={2}, rhs_contracting_dims={1}
})");
  EXPECT_EQ(ShardingOf(*module, "dot"), "{devices=[4,1,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "rhs"), "{devices=[4,1,1]<=[4]}");
}

TEST(ShardingPropagationTest, ConvolutionSpatialBatchAndFeatureDimensions) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  image = f32[8,32,32,4] parameter(0), sharding={devices=[1,2,2,1]<=[4]}
  kernel = f32[3,3,4,16] parameter(1)
  spatial = f32[8,32,32,16] convolution(image, kernel), window={size=3x3 pad=1_1x1_1},
    dim_labels=b01f_01io->b01f
  batch = f32[8,32,32,4] parameter(2),
    sharding={devices=[2,1,1,1,2]<=[4] last_tile_dim_replicate}
  features = f32[3,3,4,16] parameter(3),
    sharding={devices=[1,1,1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}
  ROOT both = f32[8,32,32,16] convolution(batch, features), window={size=3x3 pad=1_1x1_1},
    dim_labels=b01f_01io->b01f
})");
  EXPECT_EQ(ShardingOf(*module, "spatial"), "{devices=[1,2,2,1]<=[4]}");
  // The kernel shares no dimension with the tiled spatial ones.
  EXPECT_EQ(ShardingOf(*module, "kernel"), "{replicated}");
  // Batch from the input, output features from the kernel, merged.
  EXPECT_EQ(ShardingOf(*module, "both"), "{devices=[2,1,1,2]<=[4]}");
}

TEST(ShardingPropagationTest, ReduceDropsReducedDimensionsIntoReplication) {
  auto module = Propagate(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[8,16,4] parameter(0), sharding={devices=[2,2,1]<=[4]}
  zero = f32[] constant(0)
  r = f32[8,4] reduce(p, zero), dimensions={1}, to_apply=add
  q = f32[8,16] parameter(1)
  ROOT rq = f32[8] reduce(q, zero), dimensions={1}, to_apply=add, sharding={devices=[4]<=[4]}
})");
  EXPECT_EQ(ShardingOf(*module, "r"), "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "q"), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "zero"), "{replicated}");
  // The reducer needs no sharding.
  EXPECT_EQ(ShardingOf(*module, "s"), "<none>");
}

TEST(ShardingPropagationTest, ReduceWindowAndSelectAndScatterPassThrough) {
  auto module = Propagate(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY e {
  p = f32[8,8] parameter(0), sharding={devices=[2,2]<=[4]}
  zero = f32[] constant(0)
  rw = f32[8,8] reduce-window(p, zero), window={size=3x3 pad=1_1x1_1}, to_apply=add
  source = f32[4,4] parameter(1)
  ROOT sas = f32[8,8] select-and-scatter(p, source, zero), window={size=2x2 stride=2x2},
    select=ge, scatter=add
})");
  EXPECT_EQ(ShardingOf(*module, "rw"), "{devices=[2,2]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "sas"), "{devices=[2,2]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "source"), "{devices=[2,2]<=[4]}");
}

TEST(ShardingPropagationTest, GatherAndScatterPassthroughAndBatchDimensions) {
  auto module = Propagate(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  table = f32[16,8] parameter(0), sharding={devices=[1,4]<=[4]}
  idx = s32[5,1] parameter(1)
  rows = f32[5,8] gather(table, idx), offset_dims={1}, collapsed_slice_dims={0},
    start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  table2 = f32[16,8] parameter(2)
  idx2 = s32[4,1] parameter(3), sharding={devices=[4,1]<=[4]}
  rows2 = f32[4,8] gather(table2, idx2), offset_dims={1}, collapsed_slice_dims={0},
    start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  updates = f32[5,8] parameter(4)
  ROOT scattered = f32[16,8] scatter(table, idx, updates), update_window_dims={1},
    inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})");
  // Whole rows gathered keep the operand's column tiling.
  EXPECT_EQ(ShardingOf(*module, "rows"), "{devices=[1,4]<=[4]}");
  // Gathered rows follow the indices' batch dimension.
  EXPECT_EQ(ShardingOf(*module, "rows2"), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "scattered"), "{devices=[1,4]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "updates"), "{devices=[1,4]<=[4]}");
  // Nothing ties the first indices to a tiling.
  EXPECT_EQ(ShardingOf(*module, "idx"), "{replicated}");
}

TEST(ShardingPropagationTest, WhileLoopStateSharesOneTupleSharding) {
  auto module = Propagate(R"(
HloModule m
body {
  state = (s32[], f32[8,4]) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  x = f32[8,4] get-tuple-element(state), index=1
  one = s32[] constant(1)
  next_i = s32[] add(i, one)
  y = f32[8,4] negate(x)
  ROOT next = (s32[], f32[8,4]) tuple(next_i, y)
}
cond {
  cstate = (s32[], f32[8,4]) parameter(0)
  ci = s32[] get-tuple-element(cstate), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(ci, n), direction=LT
}
ENTRY e {
  a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  zero = s32[] constant(0)
  init = (s32[], f32[8,4]) tuple(zero, a)
  loop = (s32[], f32[8,4]) while(init), body=body, condition=cond
  ROOT out = f32[8,4] get-tuple-element(loop), index=1
})");
  const std::string state = "{{replicated}, {devices=[4,1]<=[4]}}";
  for (const char* name : {"init", "loop", "state", "next", "cstate"}) {
    EXPECT_EQ(ShardingOf(*module, name), state) << name;
  }
  EXPECT_EQ(ShardingOf(*module, "y"), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "out"), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "lt"), "{replicated}");
}

TEST(ShardingPropagationTest, AnnotatedLoopMemberDecidesForTheLoop) {
  auto module = Propagate(R"(
HloModule m
body {
  state = f32[8,4] parameter(0), sharding={devices=[1,4]<=[4]}
  ROOT y = f32[8,4] negate(state)
}
cond {
  cstate = f32[8,4] parameter(0)
  ROOT t = pred[] constant(false)
}
ENTRY e {
  a = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  ROOT loop = f32[8,4] while(a), body=body, condition=cond
})");
  for (const char* name : {"state", "y", "cstate", "loop"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[1,4]<=[4]}") << name;
  }
  EXPECT_EQ(ShardingOf(*module, "a"), "{devices=[4,1]<=[4]}");
}

TEST(ShardingPropagationTest, ConditionalBranchesFollowOperandsAndResult) {
  auto module = Propagate(R"(
HloModule m
negate_branch {
  x = f32[8,4] parameter(0)
  ROOT neg = f32[8,4] negate(x)
}
copy_branch {
  y = f32[8,4] parameter(0)
  ROOT cp = f32[8,4] copy(y)
}
ENTRY e {
  pick = pred[] parameter(0)
  a = f32[8,4] parameter(1), sharding={devices=[2,2]<=[4]}
  b = f32[8,4] parameter(2)
  ROOT cond = f32[8,4] conditional(pick, a, b), true_computation=negate_branch,
    false_computation=copy_branch
})");
  // Branch parameters from the operands, the result from the branch roots,
  // and back into the other branch and its operand.
  for (const char* name : {"x", "neg", "cond", "cp", "y", "b"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[2,2]<=[4]}") << name;
  }
  EXPECT_EQ(ShardingOf(*module, "pick"), "{replicated}");
}

TEST(ShardingPropagationTest, CallParametersAndResult) {
  auto module = Propagate(R"(
HloModule m
callee {
  cp = f32[8,4] parameter(0)
  ROOT ce = f32[8,4] exponential(cp)
}
ENTRY e {
  a = f32[8,4] parameter(0)
  ROOT c = f32[8,4] call(a), to_apply=callee, sharding={devices=[4,1]<=[4]}
})");
  for (const char* name : {"ce", "cp", "a"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[4,1]<=[4]}") << name;
  }
}

TEST(ShardingPropagationTest, ShardingCustomCallAnnotatesItsOperand) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[8,4] parameter(0)
  a = f32[8,4] exponential(p)
  s = f32[8,4] custom-call(a), custom_call_target="Sharding", sharding={devices=[1,4]<=[4]}
  ROOT n = f32[8,4] negate(s)
})");
  EXPECT_EQ(ShardingOf(*module, "s"), "{devices=[1,4]<=[4]}");
  for (const char* name : {"p", "a", "n"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[1,4]<=[4]}") << name;
  }
}

TEST(ShardingPropagationTest, AnnotationsWinAndAreNeverChanged) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  rows = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  cols = f32[8,4] parameter(1), sharding={devices=[1,4]<=[4]}
  sum = f32[8,4] add(rows, cols), sharding={replicated}
  after = f32[8,4] negate(sum)
  ROOT mixed = f32[8,4] multiply(rows, cols)
})");
  EXPECT_EQ(ShardingOf(*module, "rows"), "{devices=[4,1]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "cols"), "{devices=[1,4]<=[4]}");
  EXPECT_EQ(ShardingOf(*module, "sum"), "{replicated}");
  // The annotated add decides for what follows it (its tiled operands would
  // say otherwise).
  EXPECT_EQ(ShardingOf(*module, "after"), "{replicated}");
  // Two equally specific candidates that do not combine: the first operand's.
  EXPECT_EQ(ShardingOf(*module, "mixed"), "{devices=[4,1]<=[4]}");
}

TEST(ShardingPropagationTest, ManualShardingsStayManual) {
  auto module = Propagate(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  full = f32[8,4] parameter(0), sharding={manual}
  neg_full = f32[8,4] negate(full)
  part = f32[8,4] parameter(1), sharding={devices=[2,1,2]<=[4] last_tile_dims={manual}}
  neg = f32[8,4] negate(part)
  zero = f32[] constant(0)
  ROOT r = f32[4] reduce(neg, zero), dimensions={0}, to_apply=add
})");
  EXPECT_EQ(ShardingOf(*module, "neg_full"), "{manual}");
  EXPECT_EQ(ShardingOf(*module, "neg"), "{devices=[2,1,2]<=[4] last_tile_dims={manual}}");
  // The reduced dimension's devices replicate; the manual subgroup stays,
  // ahead of the replication dimension.
  EXPECT_EQ(ShardingOf(*module, "r"),
            "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}");
  EXPECT_EQ(ShardingOf(*module, "zero"),
            "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}");
}

TEST(ShardingPropagationTest, PartialReplicationSurvivesBroadcastAndTranspose) {
  auto module = Propagate(R"(
HloModule m
ENTRY e {
  p = f32[4,3] parameter(0), sharding={devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}
  b = f32[4,4,3] broadcast(p), dimensions={1,2}
  ROOT t = f32[3,4] transpose(p), dimensions={1,0}
})");
  EXPECT_EQ(ShardingOf(*module, "b"),
            "{devices=[1,1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");
  EXPECT_EQ(ShardingOf(*module, "t"),
            "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");
}

TEST(ShardingPropagationTest, SamplesAreShardedEverywhere) {
  int evaluated = 0;
  for (const char* name : {"sharded_mlp.hlo", "sharded_matmul_2d.hlo", "sharded_conv.hlo"}) {
    const std::string path = std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/" + name;
    std::unique_ptr<HloModule> module = ParseModule(testing::ReadFileOrDie(path));
    ASSERT_NE(module, nullptr) << name;
    if (CheckWholeProgram(module.get(), name)) {
      std::cout << name << ": same outputs before and after\n";
      ++evaluated;
    }
  }
  // At least the MLP is small enough to compare outputs.
  EXPECT_GT(evaluated, 0);
}

TEST(ShardingPropagationTest, MlpSampleFollowsTheMegatronLayout) {
  const std::string path = std::string(SYSTOLIC_SOURCE_DIR) + "/samples/hlo/sharded_mlp.hlo";
  std::unique_ptr<HloModule> module = Propagate(testing::ReadFileOrDie(path));
  ASSERT_NE(module, nullptr);
  // Column-split first layer: hidden activations split by columns.
  for (const char* name : {"h", "b1b", "hb", "zeros", "relu"}) {
    EXPECT_EQ(ShardingOf(*module, name), "{devices=[1,8]<=[8]}") << name;
  }
  EXPECT_EQ(ShardingOf(*module, "zero"), "{replicated}");
}

// The corpus's inputs of the SPMD partitioner's own tests.
bool IsSpmdPartitionerInput(const std::filesystem::path& path) {
  return path.filename().string().rfind("spmd_partitioner_test__", 0) == 0;
}

TEST(ShardingPropagationTest, CorpusSpmdModulesAreShardedEverywhere) {
  auto dir = testing::CorpusDir();
  if (!dir) GTEST_SKIP() << "no corpus folder on this machine";
  int checked = 0, evaluated = 0;
  for (const auto& path : testing::FilesUnder(*dir / "hlo" / "extracted_2023", {".hlo"})) {
    if (!IsSpmdPartitionerInput(path)) continue;
    auto module = ParseAndReturnVerifiedModule(testing::ReadFileOrDie(path));
    ASSERT_TRUE(module.ok()) << path << ": " << module.status();
    evaluated += CheckWholeProgram(module->get(), path.filename().string());
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no SPMD modules in the corpus";
  std::cout << "propagated through " << checked << " corpus modules, " << evaluated
            << " of them also evaluated before and after\n";
  EXPECT_GT(evaluated, 0);
}

// Any other corpus module carrying a sharding (import tests, runner data,
// other passes' inputs) propagates to every value too.
TEST(ShardingPropagationTest, EveryShardedCorpusModuleIsShardedEverywhere) {
  auto dir = testing::CorpusDir();
  if (!dir) GTEST_SKIP() << "no corpus folder on this machine";
  int checked = 0;
  for (const auto& path : testing::FilesUnder(*dir / "hlo", {".hlo", ".hlotxt"})) {
    const std::string text = testing::ReadFileOrDie(path);
    if (IsSpmdPartitionerInput(path) || text.find("sharding=") == std::string::npos) continue;
    for (const HloTextChunk& chunk : SplitHloText(text)) {
      auto module = ParseAndReturnVerifiedModule(chunk.text);
      // Chunks that do not parse or verify are the parser's corpus tests' concern.
      if (!module.ok() || !HasAnySharding(**module)) continue;
      CheckWholeProgram(module->get(), path.filename().string() + ":" +
                                           std::to_string(chunk.first_line));
      ++checked;
    }
  }
  std::cout << "propagated through " << checked << " other sharded corpus modules\n";
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace systolic
