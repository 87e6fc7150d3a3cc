#include "core/hlo/hlo_parser.h"

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_structural_equal.h"
#include "core/hlo/hlo_verifier.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<HloModule> Parse(absl::string_view text) {
  auto module = ParseAndReturnUnverifiedModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// Parses, prints, parses again and checks nothing changed.
void ExpectRoundTrip(absl::string_view text) {
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  absl::Status status = CheckTextRoundTrip(*module);
  EXPECT_TRUE(status.ok()) << status << "\n" << module->ToString();
}

TEST(HloParser, SimpleModuleWithHeader) {
  auto m = Parse(R"(
HloModule add_module, entry_computation_layout={(f32[2]{0}, f32[2]{0})->f32[2]{0}}

ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  ROOT %sum = f32[2]{0} add(f32[2]{0} %a, f32[2]{0} %b)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name(), "add_module");
  HloComputation* entry = m->entry_computation();
  EXPECT_EQ(entry->num_parameters(), 2);
  EXPECT_EQ(entry->root_instruction()->opcode(), HloOpcode::kAdd);
  EXPECT_EQ(entry->root_instruction()->operand(1)->name(), "b");
  EXPECT_EQ(m->entry_computation_layout().parameters.size(), 2u);
  EXPECT_EQ(entry->root_instruction()->source_location().line, 7);
  EXPECT_EQ(entry->root_instruction()->source_location().column, 3);
}

TEST(HloParser, HeaderlessModuleWithoutPercentOrOperandShapes) {
  auto m = Parse(R"(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[8,4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[8] reduce(p, c), dimensions={1}, to_apply=add
})");
  ASSERT_NE(m, nullptr);
  HloInstruction* root = m->entry_computation()->root_instruction();
  EXPECT_EQ(root->opcode(), HloOpcode::kReduce);
  EXPECT_EQ(root->to_apply()->name(), "add");
  EXPECT_EQ(root->dimensions(), std::vector<int64_t>{1});
}

TEST(HloParser, ConstantsOfEveryKind) {
  auto m = Parse(R"(
ENTRY e {
  a = f32[2,2] constant({ {1, 2.5}, {-inf, nan} })
  b = pred[3] constant({true, false, 1})
  c = s8[2] constant({-128, 127})
  d = u64[] constant(18446744073709551615)
  e = c64[2] constant({(1, 2), (-3, 0.5)})
  f = bf16[2] constant({0.1, -2})
  g = (f32[], s32[2]) constant((1.5, {3, 4}))
  ROOT t = (f32[2,2], pred[3], s8[2], u64[], c64[2], bf16[2], (f32[], s32[2])) tuple(a, b, c, d, e, f, g)
})");
  ASSERT_NE(m, nullptr);
  auto* t = m->entry_computation()->root_instruction();
  const Literal& a = t->operand(0)->literal();
  EXPECT_EQ(a.Get<float>({0, 1}), 2.5f);
  EXPECT_TRUE(std::isinf(a.Get<float>({1, 0})));
  EXPECT_TRUE(std::isnan(a.Get<float>({1, 1})));
  EXPECT_EQ(t->operand(1)->literal().data<bool>()[2], true);
  EXPECT_EQ(t->operand(2)->literal().data<int8_t>()[0], -128);
  EXPECT_EQ(t->operand(3)->literal().data<uint64_t>()[0], UINT64_MAX);
  EXPECT_EQ(t->operand(4)->literal().data<complex64>()[1], complex64(-3, 0.5));
  EXPECT_EQ(t->operand(6)->literal().tuple_element(1).data<int32_t>()[1], 4);
  ExpectRoundTrip(m->ToString());
}

TEST(HloParser, MxFloatConstantsRoundTrip) {
  auto m = Parse(R"(
ENTRY e {
  a = f6e2m3fn[3] constant({7.5, -0.125, 1.25})
  b = f6e3m2fn[2] constant({-28, 0.0625})
  ROOT t = (f6e2m3fn[3], f6e3m2fn[2]) tuple(a, b)
})");
  ASSERT_NE(m, nullptr);
  auto* t = m->entry_computation()->root_instruction();
  EXPECT_EQ(t->operand(0)->literal().data<float6_e2m3fn>()[0].bits(), 0x1F);
  EXPECT_EQ(t->operand(0)->literal().data<float6_e2m3fn>()[1].bits(), 0x21);
  EXPECT_EQ(t->operand(1)->literal().data<float6_e3m2fn>()[0].bits(), 0x3F);
  EXPECT_EQ(t->operand(1)->literal().GetAsDouble(1), 0.0625);
  ExpectRoundTrip(m->ToString());
}

// A constant is held whole, even elided: one larger than the host may use
// is an error at its place, not an allocation that fails.
TEST(HloParser, AConstantLargerThanTheHostIsAnError) {
  auto m = ParseAndReturnUnverifiedModule(R"(HloModule huge
ENTRY e {
  ROOT c = f32[99999999,999] constant({...})
})");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("3:"));
  EXPECT_THAT(m.status().message(),
              HasSubstr("a constant of f32[99999999,999] holds 372.2 GiB, more than the"));
}

// An unbounded dimension has no size to hold (found by the fuzzer: s8[?]
// asked for 2^63 bytes).
TEST(HloParser, AConstantOfUnboundedShapeIsAnError) {
  for (const char* shape : {"s8[?]", "pred[?,3]", "f32[2,?]"}) {
    auto m = ParseAndReturnUnverifiedModule(absl::StrCat("HloModule dyn\nENTRY e {\n  ROOT c = ", shape,
                                                         " constant({...})\n}\n"));
    ASSERT_FALSE(m.ok()) << shape;
    EXPECT_THAT(m.status().message(), HasSubstr("3:"));
    EXPECT_THAT(m.status().message(), HasSubstr("a constant needs a static shape")) << m.status();
  }
}

TEST(HloParser, EveryAttributeKindRoundTrips) {
  ExpectRoundTrip(R"(
HloModule attrs, is_scheduled=true, input_output_alias={ {0}: (0, {}, must-alias) }, buffer_donor={ (1, {}) }, replica_count=2, num_partitions=4, frontend_attributes={a="b"}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

%ge (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(f32[] %a, f32[] %b), direction=GE, type=TOTALORDER
}

%fused (p0: f32[16]) -> f32[16] {
  %p0 = f32[16]{0} parameter(0)
  ROOT %n = f32[16]{0} negate(f32[16]{0} %p0)
}

ENTRY %main (p: f32[16], q: f32[1,8,8,4]) -> f32[16] {
  %p = f32[16]{0} parameter(0), sharding={devices=[4]<=[4]}, metadata={op_type="Param" op_name="x/y" source_file="m.py" source_line=3}
  %q = f32[1,8,8,4]{3,2,1,0:T(8,128)S(1)} parameter(1), parameter_replication={false}
  %k = f32[3,3,4,8]{3,2,1,0} constant({...})
  %conv = f32[1,4,4,8]{3,2,1,0} convolution(f32[1,8,8,4]{3,2,1,0:T(8,128)S(1)} %q, f32[3,3,4,8]{3,2,1,0} %k), window={size=3x3 stride=2x2 pad=1_1x0_1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, operand_precision={highest,default}
  %slice = f32[8]{0} slice(f32[16]{0} %p), slice={[0:16:2]}
  %zero = f32[] constant(0)
  %pad = f32[20]{0} pad(f32[16]{0} %p, f32[] %zero), padding=-1_2_1
  %rw = f32[8]{0} reduce-window(f32[16]{0} %p, f32[] %zero), window={size=2 stride=2}, to_apply=%add
  %ar = f32[16]{0} all-reduce(f32[16]{0} %p), channel_id=3, replica_groups=[2,2]<=[4], use_global_device_ids=true, to_apply=%add
  %ag = f32[64]{0} all-gather(f32[16]{0} %p), replica_groups={{0,1,2,3}}, dimensions={0}
  %cp = f32[16]{0} collective-permute(f32[16]{0} %p), channel_id=2, source_target_pairs={{0,1},{1,0}}
  %sort = f32[16]{0} sort(f32[16]{0} %p), dimensions={0}, is_stable=true, to_apply=%ge
  %fusion = f32[16]{0} fusion(f32[16]{0} %ar), kind=kLoop, calls=%fused, backend_config={"k":1}
  %cc = f32[16]{0} custom-call(f32[16]{0} %fusion), custom_call_target="my_target", custom_call_has_side_effect=true, api_version=API_VERSION_STATUS_RETURNING, backend_config="opaque"
  %idx = s32[2,1]{1,0} constant({ {0}, {3} })
  %gather = f32[2,4]{1,0} gather(f32[16]{0} %p, s32[2,1]{1,0} %idx), offset_dims={1}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1, slice_sizes={4}, indices_are_sorted=true
  %state = u32[2]{0} constant({1, 2})
  %rng = (u32[2]{0}, u32[16]{0}) rng-bit-generator(u32[2]{0} %state), algorithm=rng_philox
  ROOT %out = f32[16]{0} add(f32[16]{0} %cc, f32[16]{0} %sort), control-predecessors={%cp}, frontend_attributes={_xla_stream="1"}
}
)");
}

TEST(HloParser, WhileConditionalAndAsync) {
  ExpectRoundTrip(R"(
HloModule control
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  v = f32[4] get-tuple-element(s), index=1
  ROOT t = (s32[], f32[4]) tuple(i2, v)
}
b0 {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
b1 {
  p = f32[4] parameter(0)
  ROOT a = f32[4] abs(p)
}
ENTRY main {
  x = f32[4] parameter(0)
  k = s32[] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  v = f32[4] get-tuple-element(w), index=1
  ROOT c = f32[4] conditional(k, v, v), branch_computations={b0, b1}
}
)");
}

TEST(HloParser, ShardingsAndShapes) {
  auto s = ParseSharding("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->ReplicateOnLastTileDim());
  auto t = ParseSharding("{{replicated}, {maximal device=1}, {devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}}");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->tuple_elements()[2].tile_assignment().devices(), (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(t->ToString(), "{{replicated}, {maximal device=1}, {devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}}");
  auto shape = ParseShape("(f32[2,<=3]{1,0:T(2,128)E(16)S(2)}, s4[], token[])");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "(f32[2,<=3]{1,0:T(2,128)E(16)S(2)}, s4[], token[])");
  EXPECT_FALSE(ParseShape("f32[2,3]{0}").ok());
  EXPECT_FALSE(ParseShape("f32[2,3]{0,0}").ok());
}

TEST(HloParser, CommentsAndSplitFiles) {
  std::string text = R"(// RUN: some tool
HloModule a /* block
comment */
ENTRY e { ROOT p = f32[] parameter(0) }
// -----
// CHECK: nothing
HloModule b
ENTRY e { ROOT p = s32[] parameter(0) }
)";
  std::vector<HloTextChunk> chunks = SplitHloText(text);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[1].first_line, 6);
  auto b = ParseAndReturnUnverifiedModule(chunks[1].text, {"f.hlo", chunks[1].first_line});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)->name(), "b");
  EXPECT_EQ((*b)->entry_computation()->root_instruction()->source_location().line, 8);
}

// Each malformed program and the exact error it must give.
struct Malformed {
  const char* name;
  const char* text;
  const char* error;
};

class MalformedProgramTest : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedProgramTest, GivesItsError) {
  auto module = ParseAndReturnUnverifiedModule(GetParam().text, {"bad.hlo", 1});
  ASSERT_FALSE(module.ok()) << GetParam().name;
  EXPECT_EQ(std::string(module.status().message()), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    HloParser, MalformedProgramTest,
    ::testing::Values(
        Malformed{"truncated", "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(",
                  "bad.hlo:4:26: expected an operand name\n  ROOT n = f32[2] negate(\n                         ^"},
        Malformed{"unknown_opcode", "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] frobnicate(p)\n}",
                  "bad.hlo:3:19: unknown opcode 'frobnicate'\n  ROOT n = f32[2] frobnicate(p)\n                  ^"},
        Malformed{"unbalanced_braces", "ENTRY e {\n  ROOT p = f32[2] parameter(0)\n",
                  "bad.hlo:1:9: computation %e is not closed by '}'\nENTRY e {\n        ^"},
        Malformed{"bad_attribute", "ENTRY e {\n  p = f32[2,3] parameter(0)\n  ROOT t = f32[3,2] transpose(p), dimension={1,0}\n}",
                  "bad.hlo:3:35: unexpected attribute 'dimension' for transpose\n  ROOT t = f32[3,2] transpose(p), dimension={1,0}\n                                  ^"},
        Malformed{"missing_attribute", "ENTRY e {\n  p = f32[2,3] parameter(0)\n  ROOT t = f32[3,2] transpose(p)\n}",
                  "bad.hlo:3:21: transpose %t is missing attribute 'dimensions'\n  ROOT t = f32[3,2] transpose(p)\n                    ^"},
        Malformed{"wrong_operand_count", "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT a = f32[2] add(p)\n}",
                  "bad.hlo:3:19: add takes 2 operands, but %a has 1\n  ROOT a = f32[2] add(p)\n                  ^"},
        Malformed{"undefined_operand", "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT a = f32[2] add(p, q)\n}",
                  "bad.hlo:3:26: use of undefined instruction %q\n  ROOT a = f32[2] add(p, q)\n                         ^"},
        Malformed{"self_use", "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT a = f32[2] add(p, a)\n}",
                  "bad.hlo:3:26: use of undefined instruction %a\n  ROOT a = f32[2] add(p, a)\n                         ^"},
        Malformed{"self_control_predecessor", "ENTRY e {\n  ROOT p = f32[2] parameter(0), control-predecessors={p}\n}",
                  "bad.hlo:2:55: control predecessor %p is undefined\n  ROOT p = f32[2] parameter(0), control-predecessors={p}\n                                                      ^"},
        Malformed{"undefined_computation", "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT c = f32[2] call(p), to_apply=missing\n}",
                  "bad.hlo:3:37: computation %missing is not defined\n  ROOT c = f32[2] call(p), to_apply=missing\n                                    ^"},
        Malformed{"bad_element_type", "ENTRY e {\n  ROOT p = f31[2] parameter(0)\n}",
                  "bad.hlo:2:12: unknown element type 'f31'\n  ROOT p = f31[2] parameter(0)\n           ^"},
        Malformed{"constant_too_short", "ENTRY e {\n  ROOT c = f32[3] constant({1, 2})\n}",
                  "bad.hlo:2:28: constant has 2 elements in dimension 0 but f32[3] needs 3\n  ROOT c = f32[3] constant({1, 2})\n                           ^"},
        Malformed{"constant_out_of_range", "ENTRY e {\n  ROOT c = s8[] constant(300)\n}",
                  "bad.hlo:2:26: value 300 does not fit s8\n  ROOT c = s8[] constant(300)\n                         ^"},
        Malformed{"duplicate_name", "ENTRY e {\n  p = f32[] parameter(0)\n  p = f32[] negate(p)\n}",
                  "bad.hlo:3:3: instruction %p is defined twice in computation %e\n  p = f32[] negate(p)\n  ^"},
        Malformed{"bad_layout", "ENTRY e {\n  ROOT p = f32[2,3]{0,0} parameter(0)\n}",
                  "bad.hlo:2:20: layout {0,0} is not a permutation of the shape's dimensions\n  ROOT p = f32[2,3]{0,0} parameter(0)\n                   ^"},
        Malformed{"bad_dim_labels", "ENTRY e {\n  a = f32[1,4,4,2] parameter(0)\n  b = f32[3,3,2,2] parameter(1)\n  ROOT c = f32[1,2,2,2] convolution(a, b), window={size=3x3}, dim_labels=b01f_01io\n}",
                  "bad.hlo:4:74: dim_labels 'b01f_01io' must look like 'b01f_01io->b01f'\n  ROOT c = f32[1,2,2,2] convolution(a, b), window={size=3x3}, dim_labels=b01f_01io\n                                                                         ^"},
        Malformed{"empty", "// nothing here\n", "bad.hlo:2:1: the module has no computation\n\n^"}),
    [](const ::testing::TestParamInfo<Malformed>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace systolic

namespace systolic {
namespace {

TEST(HloParser, OmittedShapesAreInferredAfterTheCalleesAreKnown) {
  auto m = Parse(R"(
HloModule m
ENTRY main {
  x = f32[8,4] parameter(0)
  init = f32[] constant(0)
  sum = reduce(x, init), dimensions={1}, to_apply=add
  pair = tuple(sum, x)
  ROOT gte = get-tuple-element(pair), index=0
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = add(a, b)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->entry_computation()->root_instruction()->shape().ToString(), "f32[8]");
  EXPECT_TRUE(VerifyHloModule(*m).ok());
}

TEST(HloParser, AnOmittedShapeThatCannotBeInferredIsALocatedError) {
  auto m = ParseAndReturnUnverifiedModule("ENTRY e {\n  x = f32[2] parameter(0)\n"
                                          "  ROOT y = broadcast(x), dimensions={0}\n}\n");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("3:12"));
  EXPECT_THAT(m.status().message(), HasSubstr("needs a shape"));
}

TEST(HloParser, OmittedShapeWithBadOperandsSaysWhy) {
  auto m = ParseAndReturnUnverifiedModule("ENTRY e {\n  x = f32[2] parameter(0)\n"
                                          "  y = s32[3] parameter(1)\n  ROOT z = add(x, y)\n}\n");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("cannot infer the shape of %z"));
}

}  // namespace
}  // namespace systolic
