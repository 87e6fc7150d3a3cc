#include "core/hlo/hlo_verifier.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<HloModule> Parse(absl::string_view text) {
  HloParseOptions options;
  options.filename = "test.hlo";
  auto module = ParseAndReturnUnverifiedModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// "ok" or the verifier's message.
std::string Verify(const HloModule& module, const HloVerifierOptions& options = {}) {
  absl::Status status = VerifyHloModule(module, options);
  return status.ok() ? "ok" : std::string(status.message());
}

std::string VerifyText(absl::string_view text, const HloVerifierOptions& options = {}) {
  std::unique_ptr<HloModule> module = Parse(text);
  if (module == nullptr) return "parse error";
  return Verify(*module, options);
}

Shape F32(std::vector<int64_t> dims) { return Shape(systolic::F32, dims); }

// A module whose entry computation (`entry`) is built by the test.
struct ApiModule {
  std::unique_ptr<HloModule> module = std::make_unique<HloModule>("m");
  std::unique_ptr<HloComputation> entry = std::make_unique<HloComputation>("entry");

  HloInstruction* Parameter(int64_t number, const Shape& shape, std::string name) {
    return entry->AddParameter(HloInstruction::CreateParameter(number, shape, std::move(name)));
  }
  HloInstruction* Add(std::unique_ptr<HloInstruction> instr) {
    return entry->AddInstruction(std::move(instr));
  }
  // Moves the entry into the module (names are assigned then).
  HloModule& Finish(HloInstruction* root) {
    entry->set_root_instruction(root);
    module->AddEntryComputation(std::move(entry));
    return *module;
  }
};

// --- Well-formed modules --------------------------------------------------------

constexpr absl::string_view kValidModule = R"(HloModule valid

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

cond {
  state = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  limit = s32[] constant(10)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

body {
  state = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  v = f32[4] get-tuple-element(state), index=1
  doubled = f32[4] add(v, v)
  ROOT t = (s32[], f32[4]) tuple(next, doubled)
}

fused {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  ROOT m = f32[4] multiply(x, y)
}

ENTRY main {
  p = f32[4] parameter(0)
  w = f32[4,8] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, p)
  loop = (s32[], f32[4]) while(init), condition=cond, body=body
  v = f32[4] get-tuple-element(loop), index=1
  f = f32[4] fusion(v, p), kind=kLoop, calls=fused
  d = f32[8] dot(f, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  c = f32[] constant(0)
  r = f32[] reduce(d, c), dimensions={0}, to_apply=add
  b = f32[2,8] broadcast(d), dimensions={1}
  ROOT out = (f32[], f32[2,8]) tuple(r, b)
}
)";

TEST(HloVerifier, AcceptsAWellFormedModule) { EXPECT_EQ(VerifyText(kValidModule), "ok"); }

TEST(HloVerifier, NamesAreScopedByComputationUnlessAskedOtherwise) {
  HloVerifierOptions options;
  options.unique_names_across_module = true;
  EXPECT_EQ(VerifyText(kValidModule, options),
            "test.hlo:17:3: %state: the name %state is already used by an instruction of "
            "computation %cond");
}

TEST(HloVerifier, AcceptsEveryOpcodeGroup) {
  EXPECT_EQ(VerifyText(R"(HloModule ops, replica_count=2

max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}

wrapped {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}

ENTRY main {
  p = f32[2,8,8,3] parameter(0)
  k = f32[3,3,3,4] parameter(1)
  v = f32[4] parameter(2)
  idx = s32[2,1] parameter(3)
  conv = f32[2,4,4,4] convolution(p, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  zero = f32[] constant(0)
  pool = f32[2,2,2,4] reduce-window(conv, zero), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=max
  rev = f32[2,2,2,4] reverse(pool), dimensions={1,2}
  tr = f32[4,2,2,2] transpose(rev), dimensions={3,0,1,2}
  rs = f32[4,8] reshape(tr)
  sl = f32[4,4] slice(rs), slice={[0:4], [0:8:2]}
  pd = f32[6,9] pad(sl, zero), padding=1_1x1_1_1
  cat = f32[12,9] concatenate(pd, pd), dimensions={0}
  io = s32[12,9] iota(), iota_dimension=0
  cv = f32[12,9] convert(io)
  sum = f32[12,9] add(cat, cv)
  g = f32[2,9] gather(sum, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,9}
  iota32 = s32[2,9] iota(), iota_dimension=1
  sorted = (f32[2,9], s32[2,9]) sort(g, iota32), dimensions={1}, to_apply=less
  ar = f32[4] all-reduce(v), replica_groups={{0,1}}, to_apply=max
  ag = f32[8] all-gather(ar), replica_groups={{0,1}}, dimensions={0}
  start = ((f32[4]), f32[4], s32[]) async-start(v), calls=wrapped
  update = ((f32[4]), f32[4], s32[]) async-update(start), calls=wrapped
  done = f32[4] async-done(update), calls=wrapped
  cs = (f32[4], f32[4], u32[]) copy-start(done)
  cd = f32[4] copy-done(cs)
  bc = u32[8] bitcast-convert(ag)
  tk = token[] after-all()
  ROOT out = (f32[4], u32[8], (f32[2,9], s32[2,9]), token[]) tuple(cd, bc, sorted, tk)
}
)"),
            "ok");
}

// --- Message format ------------------------------------------------------------------

TEST(HloVerifier, ShapeMismatchNamesFileLineInstructionAndBothShapes) {
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT s = f32[3] add(a, b)
}
)"),
            "test.hlo:5:3: %s: add has the wrong shape, expected f32[2] but the instruction says "
            "f32[3]");
}

TEST(HloVerifier, InstructionsWithoutLocationNameTheirComputation) {
  ApiModule m;
  HloInstruction* a = m.Parameter(0, F32({2}), "a");
  HloInstruction* add = m.Add(HloInstruction::CreateBinary(F32({3}), HloOpcode::kAdd, a, a));
  EXPECT_EQ(Verify(m.Finish(add)),
            "computation %entry: %add: add has the wrong shape, expected f32[2] but the "
            "instruction says f32[3]");
}

TEST(HloVerifier, ParseAndReturnVerifiedModuleRunsTheVerifier) {
  HloParseOptions options;
  options.filename = "bad.hlo";
  auto module = ParseAndReturnVerifiedModule(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  ROOT n = s32[2] negate(a)
}
)",
                                             options);
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(module.status().message(),
              HasSubstr("bad.hlo:4:3: %n: negate has the wrong shape, expected f32[2] but the "
                        "instruction says s32[2]"));
}

TEST(HloVerifier, LayoutsArePrintedWhenTheyAreTheDifference) {
  HloVerifierOptions layout_sensitive;
  layout_sensitive.layout_sensitive = true;
  constexpr absl::string_view text = R"(HloModule m
ENTRY e {
  p = (f32[2,3]{1,0}, f32[]) parameter(0)
  ROOT g = f32[2,3]{0,1} get-tuple-element(p), index=0
}
)";
  EXPECT_EQ(VerifyText(text), "ok");
  EXPECT_EQ(VerifyText(text, layout_sensitive),
            "test.hlo:4:3: %g: get-tuple-element has the wrong shape, expected f32[2,3]{1,0} but "
            "the instruction says f32[2,3]{0,1}");
}

// --- Elementwise rules ---------------------------------------------------------------

TEST(HloVerifier, RejectsImplicitBroadcasting) {
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[2,3] add(a, b)
}
)"),
            "test.hlo:5:3: %s: add needs operands of the same dimensions (HLO has no implicit "
            "broadcasting), but got f32[2,3] and f32[]");
}

TEST(HloVerifier, MixedPrecisionIsAnOption) {
  constexpr absl::string_view text = R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  b = bf16[2] parameter(1)
  ROOT s = f32[2] add(a, b)
}
)";
  EXPECT_EQ(VerifyText(text),
            "test.hlo:5:3: %s: add mixes floating-point types f32 and bf16 in its operands "
            "(mixed precision is not allowed)");
  HloVerifierOptions mixed;
  mixed.allow_mixed_precision = true;
  EXPECT_EQ(VerifyText(text, mixed), "ok");
  // Dot chooses its own result type, so its operands may differ.
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  a = bf16[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"),
            "ok");
}

TEST(HloVerifier, ComparesDynamicDimensions) {
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  p = f32[<=4,2] parameter(0)
  ROOT n = f32[4,2] negate(p)
}
)"),
            "test.hlo:4:3: %n: negate has the wrong shape, expected f32[<=4,2] but the instruction "
            "says f32[4,2]");
}

TEST(HloVerifier, CompareTypeMustSuitTheOperands) {
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  ROOT c = pred[2] compare(a, a), direction=LT, type=SIGNED
}
)"),
            "test.hlo:4:3: %c: compare type=SIGNED does not suit f32 operands");
}

// --- Called computations ---------------------------------------------------------------

TEST(HloVerifier, ReducerTypesMustMatch) {
  EXPECT_EQ(VerifyText(R"(HloModule m
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[] reduce(p, c), dimensions={0}, to_apply=add_s32
}
)"),
            "test.hlo:10:3: %r: the reducer (s32[], s32[]) -> s32[] accumulates s32[] but the "
            "init value is f32[]");
}

TEST(HloVerifier, WhileComputationsMustFitTheLoopState) {
  EXPECT_EQ(VerifyText(R"(HloModule m
cond {
  s = (s32[]) parameter(0)
  ROOT i = s32[] get-tuple-element(s), index=0
}
body {
  ROOT s = (s32[]) parameter(0)
}
ENTRY e {
  p = (s32[]) parameter(0)
  ROOT w = (s32[]) while(p), condition=cond, body=body
}
)"),
            "test.hlo:11:3: %w: the while condition ((s32[])) -> s32[] must return pred[]");
  EXPECT_EQ(VerifyText(R"(HloModule m
cond {
  s = (s32[]) parameter(0)
  ROOT t = pred[] constant(true)
}
body {
  s = (s32[]) parameter(0)
  ROOT i = s32[] get-tuple-element(s), index=0
}
ENTRY e {
  p = (s32[]) parameter(0)
  ROOT w = (s32[]) while(p), condition=cond, body=body
}
)"),
            "test.hlo:12:3: %w: the while body ((s32[])) -> s32[] must take and return the loop "
            "state (s32[])");
}

TEST(HloVerifier, ConditionalBranchesMustAgree) {
  EXPECT_EQ(VerifyText(R"(HloModule m
to_f32 {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}
to_s32 {
  x = f32[] parameter(0)
  ROOT c = s32[] convert(x)
}
ENTRY e {
  i = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT r = f32[] conditional(i, x, x), branch_computations={to_f32, to_s32}
}
)"),
            "test.hlo:13:3: %r: branch 1 returns s32[] but branch 0 returns f32[]");
}

TEST(HloVerifier, FusionParametersMustMatchOperands) {
  EXPECT_EQ(VerifyText(R"(HloModule m
fused {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[3] parameter(0)
  ROOT f = f32[4] fusion(p), kind=kLoop, calls=fused
}
)"),
            "test.hlo:8:3: %f: operand 0 is f32[3] but parameter 0 of (f32[4]) -> f32[4] is "
            "f32[4]");
}

TEST(HloVerifier, FusedComputationsBelongToOneFusion) {
  EXPECT_EQ(VerifyText(R"(HloModule m
fused {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  f = f32[4] fusion(p), kind=kLoop, calls=fused
  ROOT c = f32[4] call(f), to_apply=fused
}
)"),
            "test.hlo:9:3: %c: calls %fused, the fused computation of %f");
}

TEST(HloVerifier, OnlyCallersCallComputations) {
  ApiModule m;
  HloInstruction* a = m.Parameter(0, F32({2}), "a");
  HloInstruction* add = m.Add(HloInstruction::CreateBinary(F32({2}), HloOpcode::kAdd, a, a));
  auto helper = std::make_unique<HloComputation>("helper");
  helper->AddParameter(HloInstruction::CreateParameter(0, F32({}), "x"));
  add->AppendCalledComputation(m.module->AddEmbeddedComputation(std::move(helper)));
  EXPECT_EQ(Verify(m.Finish(add)), "computation %entry: %add: add cannot call computations, but "
                                   "calls %helper");
}

TEST(HloVerifier, CalledComputationsMustBeInTheModuleAndNotRecursive) {
  {
    ApiModule m;
    HloInstruction* a = m.Parameter(0, F32({}), "a");
    HloComputation orphan("orphan");
    orphan.AddParameter(HloInstruction::CreateParameter(0, F32({}), "x"));
    HloInstruction* call = m.Add(HloInstruction::CreateCall(F32({}), {a}, &orphan));
    EXPECT_EQ(Verify(m.Finish(call)),
              "computation %entry: %call: calls %orphan, which is not a computation of the "
              "module");
  }
  {
    // first calls second calls first.
    auto module = std::make_unique<HloModule>("m");
    HloComputation* first = module->AddEmbeddedComputation(std::make_unique<HloComputation>("first"));
    HloComputation* second =
        module->AddEmbeddedComputation(std::make_unique<HloComputation>("second"));
    for (auto [caller, callee] : {std::pair{first, second}, std::pair{second, first}}) {
      HloInstruction* x = caller->AddParameter(HloInstruction::CreateParameter(0, F32({}), "x"));
      caller->set_root_instruction(
          caller->AddInstruction(HloInstruction::CreateCall(F32({}), {x}, callee)));
    }
    auto entry = std::make_unique<HloComputation>("main");
    HloInstruction* p = entry->AddParameter(HloInstruction::CreateParameter(0, F32({}), "p"));
    entry->set_root_instruction(entry->AddInstruction(HloInstruction::CreateCall(F32({}), {p}, first)));
    module->AddEntryComputation(std::move(entry));
    EXPECT_EQ(Verify(*module), "computation %first: calls itself (through %second)");
  }
}

TEST(HloVerifier, TheEntryIsNotCalled) {
  auto module = std::make_unique<HloModule>("m");
  auto entry = std::make_unique<HloComputation>("main");
  HloInstruction* p = entry->AddParameter(HloInstruction::CreateParameter(0, F32({}), "p"));
  HloComputation* main = module->AddEntryComputation(std::move(entry));
  auto other = std::make_unique<HloComputation>("other");
  HloInstruction* x = other->AddParameter(HloInstruction::CreateParameter(0, F32({}), "x"));
  other->set_root_instruction(other->AddInstruction(HloInstruction::CreateCall(F32({}), {x}, main)));
  module->AddEmbeddedComputation(std::move(other));
  main->set_root_instruction(p);
  EXPECT_EQ(Verify(*module), "computation %other: %call: calls the entry computation %main");
}

// --- Graph structure -------------------------------------------------------------------

TEST(HloVerifier, OperandCountsFollowTheOpcode) {
  ApiModule m;
  HloInstruction* a = m.Parameter(0, F32({2}), "a");
  HloInstruction* add = m.Add(HloInstruction::Create(HloOpcode::kAdd, F32({2}), {a}));
  EXPECT_EQ(Verify(m.Finish(add)), "computation %entry: %add: add takes 2 operands but has 1");
}

TEST(HloVerifier, ParametersAreNumberedWithoutHoles) {
  {
    ApiModule m;
    HloInstruction* p1 = m.Parameter(1, F32({2}), "p1");
    EXPECT_EQ(Verify(m.Finish(p1)), "computation %entry: has no parameter(0) but has parameters "
                                    "after it");
  }
  {
    // A parameter added as an ordinary instruction is not registered.
    ApiModule m;
    HloInstruction* p0 = m.Parameter(0, F32({2}), "p0");
    m.Add(HloInstruction::CreateParameter(0, F32({2}), "again"));
    EXPECT_EQ(Verify(m.Finish(p0)),
              "computation %entry: %again: parameter(0) is not registered as parameter 0 of the "
              "computation (defined twice or added without AddParameter)");
  }
}

TEST(HloVerifier, EveryComputationHasARoot) {
  ApiModule m;
  m.Parameter(0, F32({2}), "p");
  EXPECT_EQ(Verify(m.Finish(nullptr)), "computation %entry: has no root instruction");
}

TEST(HloVerifier, RejectsCycles) {
  ApiModule m;
  HloInstruction* p = m.Parameter(0, F32({2}), "p");
  HloInstruction* add = m.Add(HloInstruction::CreateBinary(F32({2}), HloOpcode::kAdd, p, p));
  HloInstruction* neg = m.Add(HloInstruction::CreateUnary(F32({2}), HloOpcode::kNegate, add));
  add->ReplaceOperandWith(1, neg);
  EXPECT_EQ(Verify(m.Finish(neg)),
            "computation %entry: %add: is part of a cycle: it depends on itself through %negate");
}

TEST(HloVerifier, NamesAreUniqueInAComputation) {
  ApiModule m;
  HloInstruction* p = m.Parameter(0, F32({2}), "x");
  HloInstruction* neg = m.Add(HloInstruction::CreateUnary(F32({2}), HloOpcode::kNegate, p));
  neg->SetName("x");
  EXPECT_EQ(Verify(m.Finish(neg)),
            "computation %entry: %x: the name %x is used twice in the computation");
}

TEST(HloVerifier, ConstantsMatchTheirValue) {
  ApiModule m;
  HloInstruction* c = m.Add(HloInstruction::CreateConstant(Literal::CreateR1<float>({1, 2})));
  *c->mutable_shape() = F32({3});
  EXPECT_EQ(Verify(m.Finish(c)),
            "computation %entry: %constant: the constant's value has shape f32[2] but the "
            "instruction says f32[3]");
}

TEST(HloVerifier, ScheduleOrdersOperandsFirst) {
  ApiModule m;
  HloInstruction* p = m.Parameter(0, F32({2}), "p");
  HloInstruction* neg = m.Add(HloInstruction::CreateUnary(F32({2}), HloOpcode::kNegate, p));
  HloModule& module = m.Finish(neg);
  module.set_is_scheduled(true);
  const HloComputation* entry = module.entry_computation();
  module.set_schedule(entry, {p, neg});
  EXPECT_EQ(Verify(module), "ok");
  module.set_schedule(entry, {neg, p});
  EXPECT_EQ(Verify(module), "computation %entry: %negate: is scheduled before its operand %p");
  module.set_schedule(entry, {p});
  EXPECT_EQ(Verify(module), "computation %entry: its schedule lists 1 of its 2 instructions");
}

// --- Attributes -------------------------------------------------------------------------

TEST(HloVerifier, AttributeIndexesAreCheckedBeforeUse) {
  // Instructions built with missing or out-of-range attributes get errors.
  ApiModule m;
  HloInstruction* p = m.Parameter(0, F32({2, 3}), "p");
  HloInstruction* cat = m.Add(HloInstruction::Create(HloOpcode::kConcatenate, F32({4, 3}), {p, p}));
  EXPECT_EQ(Verify(m.Finish(cat)),
            "computation %entry: %concatenate: concatenate needs exactly one dimension in "
            "dimensions={}");

  ApiModule iota;
  HloInstruction* i = iota.Add(HloInstruction::Create(HloOpcode::kIota, F32({4}), {}));
  EXPECT_EQ(Verify(iota.Finish(i)),
            "computation %entry: %iota: iota needs exactly one dimension in dimensions={}");

  ApiModule gte;
  HloInstruction* t = gte.Parameter(0, Shape::MakeTuple({F32({1})}), "t");
  HloInstruction* g = gte.Add(HloInstruction::Create(HloOpcode::kGetTupleElement, F32({1}), {t}));
  g->set_tuple_index(3);
  EXPECT_EQ(Verify(gte.Finish(g)),
            "computation %entry: %get-tuple-element: get-tuple-element index=3 is out of range "
            "for (f32[1])");

  ApiModule reduce;
  HloInstruction* x = reduce.Parameter(0, F32({2}), "x");
  HloInstruction* r = reduce.Add(HloInstruction::Create(HloOpcode::kReduce, F32({}), {x, x}));
  EXPECT_EQ(Verify(reduce.Finish(r)),
            "computation %entry: %reduce: reduce needs 1 called computation but has 0");
}

TEST(HloVerifier, RejectsMalformedLayouts) {
  // The parser rejects these too; modules built in code are checked here.
  ApiModule m;
  Shape repeated = F32({2, 3});
  repeated.set_layout(Layout({0, 0}));
  HloInstruction* p = m.Parameter(0, repeated, "p");
  EXPECT_EQ(Verify(m.Finish(p)),
            "computation %entry: %p: its shape f32[2,3]{0,0} has a layout {0,0} that is not a "
            "permutation of its 2 dimensions");
  ApiModule short_layout;
  Shape one = F32({2, 3});
  one.set_layout(Layout({0}));
  HloInstruction* q = short_layout.Parameter(0, one, "q");
  EXPECT_EQ(Verify(short_layout.Finish(q)),
            "computation %entry: %q: its shape f32[2,3]{0} has a layout {0} that is not a "
            "permutation of its 2 dimensions");
}

TEST(HloVerifier, LayoutSensitiveModeNeedsLayoutsAndKeepsBitcastSizes) {
  HloVerifierOptions layout_sensitive;
  layout_sensitive.layout_sensitive = true;
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  ROOT p = f32[2,3] parameter(0)
}
)",
                       layout_sensitive),
            "test.hlo:3:3: %p: its shape f32[2,3] has no layout (layout-sensitive verification)");
  constexpr absl::string_view bitcast = R"(HloModule m
ENTRY e {
  p = f32[2,3]{1,0} parameter(0)
  ROOT b = f32[7]{0} bitcast(p)
}
)";
  EXPECT_EQ(VerifyText(bitcast), "ok");
  EXPECT_EQ(VerifyText(bitcast, layout_sensitive),
            "test.hlo:4:3: %b: bitcast must keep the byte size, but f32[2,3] and f32[7] differ");
}

TEST(HloVerifier, ShardingsMustFitTheirShapes) {
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  ROOT p = f32[4,8] parameter(0), sharding={devices=[2,2,2]0,1,2,3,4,5,6,7}
}
)"),
            "test.hlo:3:3: %p: sharding={devices=[2,2,2]0,1,2,3,4,5,6,7} does not fit the shape: "
            "the tiled sharding {devices=[2,2,2]0,1,2,3,4,5,6,7} has 3 data dimensions but the "
            "shape f32[4,8] has rank 2");
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  ROOT p = f32[4,8] parameter(0), sharding={devices=[2,2,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}
}
)"),
            "ok");
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  ROOT p = (f32[4], f32[2]) parameter(0), sharding={{replicated}}
}
)"),
            "test.hlo:3:3: %p: sharding={{replicated}} does not fit the shape: the tuple sharding "
            "has 1 elements but the shape (f32[4], f32[2]) has 2 leaves");
  // One sharding for a whole tuple applies to every element.
  EXPECT_EQ(VerifyText(R"(HloModule m
ENTRY e {
  ROOT p = (f32[4], f32[2]) parameter(0), sharding={maximal device=0}
}
)"),
            "ok");
}

// --- Collectives and asynchronous pairs --------------------------------------------------

TEST(HloVerifier, ReplicaGroupsMustBeAPartition) {
  constexpr absl::string_view header = R"(HloModule m, replica_count=4
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[2] parameter(0)
)";
  auto with_root = [&](absl::string_view root) {
    return VerifyText(absl::StrCat(header, "  ROOT r = ", root, "\n}\n"));
  };
  EXPECT_EQ(with_root("f32[2] all-reduce(p), replica_groups={{0,1},{2,3}}, to_apply=sum"), "ok");
  EXPECT_EQ(with_root("f32[2] all-reduce(p), replica_groups={{0,1},{1,2,3}}, to_apply=sum"),
            "test.hlo:9:3: %r: replica_groups={{0,1},{1,2,3}} names 1 twice");
  EXPECT_EQ(with_root("f32[2] all-reduce(p), replica_groups={{0,1}}, to_apply=sum"),
            "test.hlo:9:3: %r: replica_groups={{0,1}} names 2 ids but the module has 4 replicas");
  EXPECT_EQ(with_root("f32[2] all-reduce(p), replica_groups={{0,2},{1,4}}, to_apply=sum"),
            "test.hlo:9:3: %r: replica_groups={{0,2},{1,4}} names 4 but not every id below it "
            "(the groups must cover 0..3)");
  EXPECT_EQ(with_root("f32[2] all-reduce(p), replica_groups={{0,1,2,3}}, "
                      "use_global_device_ids=true, to_apply=sum"),
            "test.hlo:9:3: %r: use_global_device_ids=true needs a channel_id");
  // all-gather grows the dimension by the group size.
  EXPECT_EQ(with_root("f32[8] all-gather(p), replica_groups={{0,1,2,3}}, dimensions={0}"), "ok");
  EXPECT_EQ(with_root("f32[4] all-gather(p), replica_groups={{0,1},{2,3}}, dimensions={0}"), "ok");
  EXPECT_EQ(with_root("f32[6] all-gather(p), replica_groups={{0,1,2,3}}, dimensions={0}"),
            "test.hlo:9:3: %r: all-gather over groups of 4 has 3 shards along dimension 0 (f32[2] "
            "vs f32[6])");
  EXPECT_EQ(with_root("f32[8] all-gather(p), replica_groups={{0,1},{2,3,4,5}}, dimensions={0}"),
            "test.hlo:9:3: %r: replica_groups={{0,1},{2,3,4,5}} must have groups of one size for "
            "all-gather");
  // reduce-scatter shrinks it.
  EXPECT_EQ(with_root("f32[1] reduce-scatter(p), replica_groups={{0,1},{2,3}}, dimensions={0}, "
                      "to_apply=sum"),
            "ok");
  EXPECT_EQ(with_root("f32[1] reduce-scatter(p), replica_groups={{0,1,2,3}}, dimensions={0}, "
                      "to_apply=sum"),
            "test.hlo:9:3: %r: reduce-scatter over groups of 4 has 2 shards along dimension 0 "
            "(f32[2] vs f32[1])");
  // all-to-all keeps the shape but needs a divisible split dimension.
  EXPECT_EQ(with_root("f32[2] all-to-all(p), replica_groups={{0,1},{2,3}}, dimensions={0}"), "ok");
  EXPECT_EQ(with_root("f32[2] all-to-all(p), replica_groups={{0,1,2,3}}, dimensions={0}"),
            "test.hlo:9:3: %r: all-to-all split dimension 0 of f32[2] is not divisible by the 4 "
            "participants");
  EXPECT_EQ(with_root("(f32[2]) all-to-all(p), replica_groups={{0,1},{2,3}}"),
            "test.hlo:9:3: %r: a tuple all-to-all over groups of 2 needs 2 operands, but has 1");
}

TEST(HloVerifier, CollectivePermutePairs) {
  constexpr absl::string_view text = R"(HloModule m, replica_count=4
ENTRY e {
  p = f32[2] parameter(0)
  ROOT r = f32[2] collective-permute(p), source_target_pairs=PAIRS
}
)";
  auto with_pairs = [&](absl::string_view pairs) {
    std::string t(text);
    t.replace(t.find("PAIRS"), 5, std::string(pairs));
    return VerifyText(t);
  };
  EXPECT_EQ(with_pairs("{{0,1},{1,2},{2,3},{3,0}}"), "ok");
  EXPECT_EQ(with_pairs("{{0,1},{0,2}}"), "test.hlo:4:3: %r: source_target_pairs sends from 0 twice");
  EXPECT_EQ(with_pairs("{{0,1},{2,1}}"), "test.hlo:4:3: %r: source_target_pairs sends to 1 twice");
  EXPECT_EQ(with_pairs("{{0,4}}"),
            "test.hlo:4:3: %r: source_target_pairs names device 4, outside [0, 4)");
}

TEST(HloVerifier, AsynchronousPairs) {
  EXPECT_EQ(VerifyText(R"(HloModule m, replica_count=2
ENTRY e {
  p = f32[2] parameter(0)
  tok = token[] after-all()
  ags = (f32[2], f32[4]) all-gather-start(p), replica_groups={{0,1}}, dimensions={0}
  agd = f32[4] all-gather-done(ags)
  cps = (f32[2], f32[2], u32[], u32[]) collective-permute-start(p), source_target_pairs={{0,1},{1,0}}
  cpd = f32[2] collective-permute-done(cps)
  snd = (f32[4], u32[], token[]) send(agd, tok), channel_id=1
  sd = token[] send-done(snd), channel_id=1
  rcv = (f32[2], u32[], token[]) recv(tok), channel_id=2
  rd = (f32[2], token[]) recv-done(rcv), channel_id=2
  ROOT t = (f32[2], token[], (f32[2], token[])) tuple(cpd, sd, rd)
}
)"),
            "ok");
  EXPECT_EQ(VerifyText(R"(HloModule m
wrapped {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  n = f32[4] negate(p)
  ROOT done = f32[4] async-done(n), calls=wrapped
}
)"),
            "test.hlo:9:3: %done: the operand of async-done must be the result of async-start, "
            "not of the negate %n");
  EXPECT_EQ(VerifyText(R"(HloModule m
wrapped {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  start = ((f32[4]), f32[8], s32[]) async-start(p), calls=wrapped
  ROOT done = f32[8] async-done(start), calls=wrapped
}
)"),
            "test.hlo:8:3: %start: async-start has the wrong shape, expected ((f32[4]), f32[4], "
            "s32[]) but the instruction says ((f32[4]), f32[8], s32[])");
}

// --- Module header ----------------------------------------------------------------------

TEST(HloVerifier, EntryComputationLayoutMatchesTheEntry) {
  EXPECT_EQ(VerifyText(R"(HloModule m, entry_computation_layout={(f32[2]{0})->f32[3]{0}}
ENTRY e {
  ROOT p = f32[2] parameter(0)
}
)"),
            "test.hlo: module m: entry_computation_layout gives the result the shape f32[3] but "
            "the root %p is f32[2]");
  EXPECT_EQ(VerifyText(R"(HloModule m, entry_computation_layout={(f32[2]{0}, s32[])->f32[2]{0}}
ENTRY e {
  ROOT p = f32[2] parameter(0)
}
)"),
            "test.hlo: module m: entry_computation_layout has 2 parameters but the entry "
            "computation %e has 1");
  // Layouts are compared only when layout-sensitive.
  constexpr absl::string_view transposed = R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY e {
  ROOT p = f32[2,3]{1,0} parameter(0)
}
)";
  EXPECT_EQ(VerifyText(transposed), "ok");
  HloVerifierOptions layout_sensitive;
  layout_sensitive.layout_sensitive = true;
  EXPECT_EQ(VerifyText(transposed, layout_sensitive),
            "test.hlo: module m: entry_computation_layout gives parameter 0 the shape "
            "f32[2,3]{0,1} but %p is f32[2,3]{1,0}");
}

TEST(HloVerifier, InputOutputAliasesNameExistingBuffersOfOneSize) {
  constexpr absl::string_view body = R"(
ENTRY e {
  a = f32[4] parameter(0)
  b = s32[4] parameter(1)
  c = f32[8] parameter(2)
  ROOT t = (f32[4], f32[8]) tuple(a, c)
}
)";
  auto with_header = [&](absl::string_view header) {
    return VerifyText(absl::StrCat("HloModule m, ", header, body));
  };
  EXPECT_EQ(with_header("input_output_alias={ {0}: (0, {}, must-alias), {1}: (2, {}) }"), "ok");
  // Same byte size, different element type: one buffer can hold both.
  EXPECT_EQ(with_header("input_output_alias={ {0}: (1, {}) }"), "ok");
  EXPECT_EQ(with_header("input_output_alias={ {2}: (0, {}) }"),
            "test.hlo: module m: input_output_alias {2}: (0, {}) names output {2}, which is not "
            "in the result (f32[4], f32[8])");
  EXPECT_EQ(with_header("input_output_alias={ {0}: (3, {}) }"),
            "test.hlo: module m: input_output_alias {0}: (3, {}) names parameter 3 but the entry "
            "computation has 3");
  EXPECT_EQ(with_header("input_output_alias={ {0}: (0, {1}) }"),
            "test.hlo: module m: input_output_alias {0}: (0, {1}) names parameter 0 at {1}, which "
            "is not in f32[4]");
  EXPECT_EQ(with_header("input_output_alias={ {1}: (0, {}) }"),
            "test.hlo: module m: input_output_alias {1}: (0, {}): the output f32[8] and the "
            "parameter f32[4] differ in size");
  EXPECT_EQ(with_header("input_output_alias={ {0}: (0, {}), {0}: (1, {}) }"),
            "test.hlo: module m: input_output_alias {0}: (1, {}): output {0} is aliased twice");
  EXPECT_EQ(with_header("input_output_alias={ {0}: (0, {}) }, buffer_donor={ (0, {}) }"),
            "test.hlo: module m: buffer_donor (0, {}) is also in input_output_alias");
  EXPECT_EQ(with_header("buffer_donor={ (5, {}) }"),
            "test.hlo: module m: buffer_donor (5, {}) names parameter 5 but the entry computation "
            "has 3");
}

// --- Robustness ---------------------------------------------------------------------------

// Modules the parser accepts but that are wrong in every way an attribute can
// be: each gets an error, none crashes the verifier.
TEST(HloVerifier, MalformedAttributesGiveErrorsNotCrashes) {
  const std::vector<std::string> roots = {
      "f32[4] broadcast(p), dimensions={7}",
      "f32[4] broadcast(p), dimensions={0,0}",
      "f32[4] transpose(p), dimensions={1}",
      "f32[4] reverse(p), dimensions={-1}",
      "f32[4] slice(p), slice={[0:9223372036854775807:1]}",
      "f32[4] slice(p), slice={[-9223372036854775807:4:1]}",
      "f32[4] slice(p), slice={[0:4:0]}",
      "f32[4] dynamic-slice(p, p), dynamic_slice_sizes={4}",
      "f32[4] pad(p, p), padding=9223372036854775807_9223372036854775807",
      "f32[4] concatenate(p, p), dimensions={5}",
      "f32[4] reduce-window(p, p), window={size=0}, to_apply=sum",
      "f32[4] reduce-window(p, p), window={size=1 stride=0}, to_apply=sum",
      "f32[4] reduce-window(p, p), window={size=9223372036854775807 lhs_dilate=9223372036854775807}, to_apply=sum",
      "f32[4] reduce(p, p), dimensions={3}, to_apply=sum",
      "f32[4] gather(p, p), offset_dims={9}, collapsed_slice_dims={}, start_index_map={}, index_vector_dim=9, slice_sizes={}",
      "f32[4] scatter(p, p, p), update_window_dims={7}, inserted_window_dims={}, scatter_dims_to_operand_dims={}, index_vector_dim=-1, to_apply=sum",
      "f32[4] dot(p, p), lhs_contracting_dims={4}, rhs_contracting_dims={0}",
      "f32[4] convolution(p, p), window={size=1}, dim_labels=b0f_0io->b0f",
      "f32[4] convolution(p, p), dim_labels=bf_io->bf, feature_group_count=0",
      "f32[4] fft(p), fft_type=RFFT, fft_length={9223372036854775807}",
      "f32[4] all-gather(p), dimensions={9}",
      "f32[3] reduce-scatter(p), dimensions={0}, to_apply=sum",
      "f32[4] all-to-all(p), dimensions={3}",
      "f32[4] iota(), iota_dimension=-3",
      "f32[4] get-tuple-element(p), index=0",
      "f32[4] sort(p), dimensions={2}, to_apply=sum",
      "f32[4] map(p), dimensions={1}, to_apply=sum",
      "f32[4] topk(p), k=-1",
      "f32[4] batch-norm-inference(p, p, p, p, p), epsilon=0.001, feature_index=4",
      "f32[4] rng-bit-generator(p), algorithm=rng_default",
      "f32[4] conditional(p), branch_computations={sum}",
      "f32[4] while(p), condition=sum, body=sum",
      "f32[4] reduce-precision(p), exponent_bits=0, mantissa_bits=-1",
      "f32[4] get-dimension-size(p), dimensions={1}",
      "f32[4] custom-call(p), custom_call_target=\"x\", output_to_operand_aliasing={{9}: (5, {})}",
  };
  int verified = 0;
  for (const std::string& root : roots) {
    const std::string text = absl::StrCat(R"(HloModule m
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = )",
                                          root, "\n}\n");
    HloParseOptions options;
    options.filename = "test.hlo";
    auto module = ParseAndReturnUnverifiedModule(text, options);
    if (!module.ok()) continue;  // the parser caught it first
    ++verified;
    EXPECT_THAT(Verify(**module), StartsWith("test.hlo:9:3: %r: ")) << root;
  }
  // Most of them get past the parser, so the verifier is what catches them.
  EXPECT_GE(verified, 25);
}

}  // namespace
}  // namespace systolic
