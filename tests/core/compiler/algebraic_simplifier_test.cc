// Every rewrite of the algebraic simplifier, on a small module: the
// expression at the root after the pass, and what the run log says.
#include "core/compiler/algebraic_simplifier.h"

#include "absl/strings/str_cat.h"
#include "core/compiler/hlo_dce.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic {
namespace {

using testing::ParseModule;
using testing::RootExpr;

// Runs the simplifier (then DCE) on an entry computation with parameters
// `params` ("x: f32[4]") and body lines; returns the root expression.
struct Simplified {
  std::string root;
  bool changed = false;
  bool changed_numerics = false;
  std::map<std::string, int64_t> rewrites;
};

Simplified Simplify(const std::string& params, const std::string& body,
                    AlgebraicSimplifierOptions options = {}) {
  std::string text = absl::StrCat(
      "HloModule m\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}\n\n"
      "%max (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n  ROOT %s = f32[] maximum(f32[] %a, f32[] %b)\n}\n\n"
      "%addi (a: s32[], b: s32[]) -> s32[] {\n  %a = s32[] parameter(0)\n"
      "  %b = s32[] parameter(1)\n  ROOT %s = s32[] add(s32[] %a, s32[] %b)\n}\n\n"
      "ENTRY %main (", params, ") -> f32[] {\n", body, "}\n");
  auto module = ParseModule(text);
  Simplified out;
  if (!module) return out;
  AlgebraicSimplifier simplifier(options);
  out.changed = testing::RunPass(simplifier, module.get());
  out.changed_numerics = simplifier.run_log().changed_numerics;
  out.rewrites = simplifier.run_log().rewrites;
  HloDCE dce;
  testing::RunPass(dce, module.get());
  out.root = RootExpr(*module);
  return out;
}

TEST(AlgebraicSimplifierTest, AddZeroFloatFollowsXlaAndFlagsSignedZero) {
  Simplified s = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %z = f32[] constant(0)\n"
                          "  %zb = f32[4] broadcast(%z), dimensions={}\n"
                          "  ROOT %r = f32[4] add(%x, %zb)\n");
  EXPECT_EQ(s.root, "x");
  EXPECT_EQ(s.rewrites["add(A, 0) => A"], 1);
  EXPECT_TRUE(s.changed_numerics) << "-0 + +0 is +0, not -0";
}

TEST(AlgebraicSimplifierTest, AddNegativeZeroIsExact) {
  Simplified s = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %z = f32[] constant(-0)\n"
                          "  %zb = f32[4] broadcast(%z), dimensions={}\n"
                          "  ROOT %r = f32[4] add(%zb, %x)\n");
  EXPECT_EQ(s.root, "x");
  EXPECT_EQ(s.rewrites["add(0, A) => A"], 1);
  EXPECT_FALSE(s.changed_numerics);
}

TEST(AlgebraicSimplifierTest, AddZeroInteger) {
  Simplified s = Simplify("x: s32[3]",
                          "  %x = s32[3] parameter(0)\n  %z = s32[3] constant({0, 0, 0})\n"
                          "  ROOT %r = s32[3] add(%x, %z)\n");
  EXPECT_EQ(s.root, "x");
  EXPECT_FALSE(s.changed_numerics);
}

TEST(AlgebraicSimplifierTest, SubtractZero) {
  Simplified s = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %z = f32[] constant(0)\n"
                          "  %zb = f32[4] broadcast(%z), dimensions={}\n"
                          "  ROOT %r = f32[4] subtract(%x, %zb)\n");
  EXPECT_EQ(s.root, "x");
  EXPECT_FALSE(s.changed_numerics) << "x - (+0) is x for every x, -0 included";
}

TEST(AlgebraicSimplifierTest, SubtractSelfOnlyForIntegers) {
  Simplified i = Simplify("x: s32[4]",
                          "  %x = s32[4] parameter(0)\n  ROOT %r = s32[4] subtract(%x, %x)\n");
  EXPECT_EQ(i.root, "broadcast(0)");
  EXPECT_EQ(i.rewrites["subtract(A, A) => 0 (integers)"], 1);
  Simplified f = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  ROOT %r = f32[4] subtract(%x, %x)\n");
  EXPECT_EQ(f.root, "subtract(x, x)") << "inf - inf is NaN";
  EXPECT_FALSE(f.changed);
}

TEST(AlgebraicSimplifierTest, MultiplyByOne) {
  Simplified s = Simplify("x: f32[2,3]",
                          "  %x = f32[2,3] parameter(0)\n  %one = f32[] constant(1)\n"
                          "  %ones = f32[2,3] broadcast(%one), dimensions={}\n"
                          "  ROOT %r = f32[2,3] multiply(%ones, %x)\n");
  EXPECT_EQ(s.root, "x");
  EXPECT_EQ(s.rewrites["multiply(1, A) => A"], 1);
  EXPECT_FALSE(s.changed_numerics);
}

TEST(AlgebraicSimplifierTest, MultiplyByZeroOnlyForIntegers) {
  Simplified i = Simplify("x: s32[4]",
                          "  %x = s32[4] parameter(0)\n  %z = s32[] constant(0)\n"
                          "  %zb = s32[4] broadcast(%z), dimensions={}\n"
                          "  ROOT %r = s32[4] multiply(%x, %zb)\n");
  EXPECT_EQ(i.root, "broadcast(0)");
  Simplified f = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %z = f32[] constant(0)\n"
                          "  %zb = f32[4] broadcast(%z), dimensions={}\n"
                          "  ROOT %r = f32[4] multiply(%x, %zb)\n");
  EXPECT_EQ(f.root, "multiply(x, broadcast(0))") << "NaN * 0 is NaN";
}

TEST(AlgebraicSimplifierTest, DivideByOne) {
  Simplified s = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %one = f32[4] constant({1, 1, 1, 1})\n"
                          "  ROOT %r = f32[4] divide(%x, %one)\n");
  EXPECT_EQ(s.root, "x");
}

TEST(AlgebraicSimplifierTest, AndOrIdentitiesAndAbsorbingValues) {
  EXPECT_EQ(Simplify("p: pred[4]",
                     "  %p = pred[4] parameter(0)\n  %t = pred[] constant(true)\n"
                     "  %tb = pred[4] broadcast(%t), dimensions={}\n"
                     "  ROOT %r = pred[4] and(%p, %tb)\n")
                .root,
            "p");
  EXPECT_EQ(Simplify("p: pred[4]",
                     "  %p = pred[4] parameter(0)\n  %f = pred[] constant(false)\n"
                     "  %fb = pred[4] broadcast(%f), dimensions={}\n"
                     "  ROOT %r = pred[4] or(%fb, %p)\n")
                .root,
            "p");
  EXPECT_EQ(Simplify("p: pred[4]",
                     "  %p = pred[4] parameter(0)\n  %f = pred[] constant(false)\n"
                     "  %fb = pred[4] broadcast(%f), dimensions={}\n"
                     "  ROOT %r = pred[4] and(%p, %fb)\n")
                .root,
            "broadcast(false)");
  EXPECT_EQ(Simplify("p: pred[4]",
                     "  %p = pred[4] parameter(0)\n  %t = pred[] constant(true)\n"
                     "  %tb = pred[4] broadcast(%t), dimensions={}\n"
                     "  ROOT %r = pred[4] or(%p, %tb)\n")
                .root,
            "broadcast(true)");
  // For integers the identity of `and` is all ones.
  EXPECT_EQ(Simplify("x: u8[4]",
                     "  %x = u8[4] parameter(0)\n  %m = u8[] constant(255)\n"
                     "  %mb = u8[4] broadcast(%m), dimensions={}\n"
                     "  ROOT %r = u8[4] and(%x, %mb)\n")
                .root,
            "x");
  EXPECT_EQ(Simplify("x: s32[4]", "  %x = s32[4] parameter(0)\n  ROOT %r = s32[4] or(%x, %x)\n").root,
            "x");
}

TEST(AlgebraicSimplifierTest, DoubleNegateAndAbs) {
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n  %n = f32[4] negate(%x)\n"
                     "  ROOT %r = f32[4] negate(%n)\n")
                .root,
            "x");
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n  %a = f32[4] abs(%x)\n"
                     "  ROOT %r = f32[4] abs(%a)\n")
                .root,
            "abs(x)");
}

TEST(AlgebraicSimplifierTest, ConvertToSameType) {
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n  ROOT %r = f32[4] convert(%x)\n")
                .root,
            "x");
}

TEST(AlgebraicSimplifierTest, LosslessConvertChains) {
  // f16 -> f32 -> f16 is the identity.
  EXPECT_EQ(Simplify("x: f16[4]",
                     "  %x = f16[4] parameter(0)\n  %w = f32[4] convert(%x)\n"
                     "  ROOT %r = f16[4] convert(%w)\n")
                .root,
            "x");
  // s8 -> s32 -> f32 is s8 -> f32.
  EXPECT_EQ(Simplify("x: s8[4]",
                     "  %x = s8[4] parameter(0)\n  %w = s32[4] convert(%x)\n"
                     "  ROOT %r = f32[4] convert(%w)\n")
                .root,
            "convert(x)");
  // f32 -> f16 rounds: the chain stays.
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n  %n = f16[4] convert(%x)\n"
                     "  ROOT %r = f32[4] convert(%n)\n")
                .root,
            "convert(convert(x))");
  // s32 -> f32 loses integers above 2^24: stays.
  EXPECT_EQ(Simplify("x: s32[4]",
                     "  %x = s32[4] parameter(0)\n  %f = f32[4] convert(%x)\n"
                     "  ROOT %r = s32[4] convert(%f)\n")
                .root,
            "convert(convert(x))");
}

TEST(AlgebraicSimplifierTest, Reshapes) {
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3] parameter(0)\n  ROOT %r = f32[2,3] reshape(%x)\n")
                .root,
            "x");
  Simplified chain = Simplify("x: f32[2,3]",
                              "  %x = f32[2,3] parameter(0)\n  %a = f32[6] reshape(%x)\n"
                              "  ROOT %r = f32[3,2] reshape(%a)\n");
  EXPECT_EQ(chain.root, "reshape(x)");
  EXPECT_EQ(chain.rewrites["reshape(reshape(A)) => reshape(A)"], 1);
  EXPECT_EQ(Simplify("x: f32[]",
                     "  %x = f32[] parameter(0)\n  %b = f32[6] broadcast(%x), dimensions={}\n"
                     "  ROOT %r = f32[2,3] reshape(%b)\n")
                .root,
            "broadcast(x)");
}

TEST(AlgebraicSimplifierTest, Transposes) {
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3] parameter(0)\n"
                     "  ROOT %r = f32[2,3] transpose(%x), dimensions={0,1}\n")
                .root,
            "x");
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3] parameter(0)\n"
                     "  %t = f32[3,2] transpose(%x), dimensions={1,0}\n"
                     "  ROOT %r = f32[2,3] transpose(%t), dimensions={1,0}\n")
                .root,
            "x");
  auto module = ParseModule(
      "HloModule m\n\nENTRY %main (x: f32[2,3,4]) -> f32[4,2,3] {\n"
      "  %x = f32[2,3,4] parameter(0)\n"
      "  %t = f32[3,4,2] transpose(%x), dimensions={1,2,0}\n"
      "  ROOT %r = f32[4,2,3] transpose(%t), dimensions={1,2,0}\n}\n");
  AlgebraicSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_EQ(root->opcode(), HloOpcode::kTranspose);
  EXPECT_EQ(root->dimensions(), (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(root->operand(0)->name(), "x");
}

TEST(AlgebraicSimplifierTest, Broadcasts) {
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3] parameter(0)\n"
                     "  ROOT %r = f32[2,3] broadcast(%x), dimensions={0,1}\n")
                .root,
            "x");
  auto module = ParseModule(
      "HloModule m\n\nENTRY %main (x: f32[3]) -> f32[5,2,3] {\n"
      "  %x = f32[3] parameter(0)\n  %b = f32[2,3] broadcast(%x), dimensions={1}\n"
      "  ROOT %r = f32[5,2,3] broadcast(%b), dimensions={1,2}\n}\n");
  AlgebraicSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_EQ(root->opcode(), HloOpcode::kBroadcast);
  EXPECT_EQ(root->dimensions(), (std::vector<int64_t>{2}));
  EXPECT_EQ(root->operand(0)->name(), "x");
}

TEST(AlgebraicSimplifierTest, Slices) {
  EXPECT_EQ(Simplify("x: f32[4,6]",
                     "  %x = f32[4,6] parameter(0)\n"
                     "  ROOT %r = f32[4,6] slice(%x), slice={[0:4], [0:6]}\n")
                .root,
            "x");
  auto module = ParseModule(
      "HloModule m\n\nENTRY %main (x: f32[20]) -> f32[3] {\n"
      "  %x = f32[20] parameter(0)\n  %a = f32[8] slice(%x), slice={[2:18:2]}\n"
      "  ROOT %r = f32[3] slice(%a), slice={[1:7:2]}\n}\n");
  AlgebraicSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  const HloInstruction* root = module->entry_computation()->root_instruction();
  ASSERT_EQ(root->opcode(), HloOpcode::kSlice);
  EXPECT_EQ(root->operand(0)->name(), "x");
  // Elements 1, 3, 5 of x[2:18:2] are x[4], x[8], x[12].
  EXPECT_EQ(root->slice_starts(), (std::vector<int64_t>{4}));
  EXPECT_EQ(root->slice_strides(), (std::vector<int64_t>{4}));
  EXPECT_EQ(root->slice_limits(), (std::vector<int64_t>{13}));
}

TEST(AlgebraicSimplifierTest, ConcatenateOfOneAndPadByNothing) {
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n"
                     "  ROOT %r = f32[4] concatenate(%x), dimensions={0}\n")
                .root,
            "x");
  EXPECT_EQ(Simplify("x: f32[4]",
                     "  %x = f32[4] parameter(0)\n  %z = f32[] constant(0)\n"
                     "  ROOT %r = f32[4] pad(%x, %z), padding=0_0\n")
                .root,
            "x");
}

TEST(AlgebraicSimplifierTest, ReduceOverNoDimensions) {
  Simplified s = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n  %i = f32[] constant(2)\n"
                          "  ROOT %r = f32[4] reduce(%x, %i), dimensions={}, to_apply=%add\n");
  EXPECT_EQ(s.root, "add(broadcast(2), x)");
  EXPECT_FALSE(s.changed_numerics);
  Simplified ones = Simplify("x: f32[4,1]",
                             "  %x = f32[4,1] parameter(0)\n  %i = f32[] constant(-inf)\n"
                             "  ROOT %r = f32[4] reduce(%x, %i), dimensions={1}, to_apply=%max\n");
  EXPECT_EQ(ones.root, "reshape(maximum(broadcast(-inf), x))");
}

TEST(AlgebraicSimplifierTest, ReduceOfBroadcast) {
  // Integers: 6 copies summed is 6 * x exactly.
  Simplified i = Simplify("x: s32[]",
                          "  %x = s32[] parameter(0)\n"
                          "  %b = s32[2,3] broadcast(%x), dimensions={}\n  %z = s32[] constant(0)\n"
                          "  ROOT %r = s32[] reduce(%b, %z), dimensions={0,1}, to_apply=%addi\n");
  EXPECT_EQ(i.root, "add(0, multiply(x, 6))");  // the simplifier's next pass drops the 0
  EXPECT_FALSE(i.changed_numerics);
  Simplified m = Simplify("x: f32[3]",
                          "  %x = f32[3] parameter(0)\n"
                          "  %b = f32[5,3] broadcast(%x), dimensions={1}\n  %i = f32[] constant(-inf)\n"
                          "  ROOT %r = f32[3] reduce(%b, %i), dimensions={0}, to_apply=%max\n");
  EXPECT_EQ(m.root, "maximum(broadcast(-inf), x)");
  Simplified f = Simplify("x: f32[]",
                          "  %x = f32[] parameter(0)\n"
                          "  %b = f32[8] broadcast(%x), dimensions={}\n  %z = f32[] constant(0)\n"
                          "  ROOT %r = f32[] reduce(%b, %z), dimensions={0}, to_apply=%add\n");
  EXPECT_EQ(f.root, "add(0, multiply(x, 8))");
  EXPECT_TRUE(f.changed_numerics) << "8 * x rounds once, the sum seven times";
}

TEST(AlgebraicSimplifierTest, DotOfVectorsBecomesMultiplyAndReduce) {
  Simplified s = Simplify("a: f32[8], b: f32[8]",
                          "  %a = f32[8] parameter(0)\n  %b = f32[8] parameter(1)\n"
                          "  ROOT %r = f32[] dot(%a, %b), lhs_contracting_dims={0}, "
                          "rhs_contracting_dims={0}\n");
  EXPECT_EQ(s.root, "reduce(multiply(a, b), 0)");
  EXPECT_TRUE(s.changed_numerics);
}

TEST(AlgebraicSimplifierTest, MatrixVectorDotBecomesMultiplyAndReduce) {
  Simplified s = Simplify("a: f32[4,8], b: f32[8]",
                          "  %a = f32[4,8] parameter(0)\n  %b = f32[8] parameter(1)\n"
                          "  ROOT %r = f32[4] dot(%a, %b), lhs_contracting_dims={1}, "
                          "rhs_contracting_dims={0}\n");
  EXPECT_EQ(s.root, "reduce(multiply(a, broadcast(b)), 0)");
}

TEST(AlgebraicSimplifierTest, OuterProductDotBecomesMultiply) {
  Simplified s = Simplify("a: f32[4], b: f32[3]",
                          "  %a = f32[4] parameter(0)\n  %b = f32[3] parameter(1)\n"
                          "  ROOT %r = f32[4,3] dot(%a, %b)\n");
  EXPECT_EQ(s.root, "multiply(broadcast(a), broadcast(b))");
  Simplified k1 = Simplify("a: f32[4,1], b: f32[1,3]",
                           "  %a = f32[4,1] parameter(0)\n  %b = f32[1,3] parameter(1)\n"
                           "  ROOT %r = f32[4,3] dot(%a, %b), lhs_contracting_dims={1}, "
                           "rhs_contracting_dims={0}\n");
  EXPECT_EQ(k1.root, "reshape(multiply(broadcast(a), broadcast(transpose(b))))");
}

TEST(AlgebraicSimplifierTest, RealMatmulStaysADot) {
  Simplified s = Simplify("a: f32[4,8], b: f32[8,3]",
                          "  %a = f32[4,8] parameter(0)\n  %b = f32[8,3] parameter(1)\n"
                          "  ROOT %r = f32[4,3] dot(%a, %b), lhs_contracting_dims={1}, "
                          "rhs_contracting_dims={0}\n");
  EXPECT_EQ(s.root, "dot(a, b)");
  EXPECT_FALSE(s.changed);
}

TEST(AlgebraicSimplifierTest, SelectWithConstantPredicateOrSameBranches) {
  EXPECT_EQ(Simplify("a: f32[4], b: f32[4]",
                     "  %a = f32[4] parameter(0)\n  %b = f32[4] parameter(1)\n"
                     "  %t = pred[] constant(true)\n  %tb = pred[4] broadcast(%t), dimensions={}\n"
                     "  ROOT %r = f32[4] select(%tb, %a, %b)\n")
                .root,
            "a");
  EXPECT_EQ(Simplify("a: f32[4], b: f32[4]",
                     "  %a = f32[4] parameter(0)\n  %b = f32[4] parameter(1)\n"
                     "  %f = pred[4] constant({0, 0, 0, 0})\n"
                     "  ROOT %r = f32[4] select(%f, %a, %b)\n")
                .root,
            "b");
  EXPECT_EQ(Simplify("p: pred[4], a: f32[4]",
                     "  %p = pred[4] parameter(0)\n  %a = f32[4] parameter(1)\n"
                     "  ROOT %r = f32[4] select(%p, %a, %a)\n")
                .root,
            "a");
}

TEST(AlgebraicSimplifierTest, CompareOfConstants) {
  EXPECT_EQ(Simplify("",
                     "  %a = f32[] constant(1)\n  %b = f32[] constant(2)\n"
                     "  ROOT %r = pred[] compare(%a, %b), direction=LT\n")
                .root,
            "true");
  // NaN compares unequal to itself.
  EXPECT_EQ(Simplify("",
                     "  %a = f32[] constant(nan)\n"
                     "  ROOT %r = pred[] compare(%a, %a), direction=EQ\n")
                .root,
            "false");
  EXPECT_EQ(Simplify("x: s32[4]",
                     "  %x = s32[4] parameter(0)\n"
                     "  ROOT %r = pred[4] compare(%x, %x), direction=GE\n")
                .root,
            "broadcast(true)");
  Simplified f = Simplify("x: f32[4]",
                          "  %x = f32[4] parameter(0)\n"
                          "  ROOT %r = pred[4] compare(%x, %x), direction=EQ\n");
  EXPECT_EQ(f.root, "compare(x, x)") << "x == x is false for NaN";
}

TEST(AlgebraicSimplifierTest, CopyRemoval) {
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3]{1,0} parameter(0)\n"
                     "  ROOT %r = f32[2,3]{1,0} copy(%x)\n")
                .root,
            "x");
  // Once layouts are assigned, a copy that changes the layout is a transpose.
  AlgebraicSimplifierOptions sensitive;
  sensitive.is_layout_sensitive = true;
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3]{1,0} parameter(0)\n"
                     "  ROOT %r = f32[2,3]{0,1} copy(%x)\n",
                     sensitive)
                .root,
            "copy(x)");
  EXPECT_EQ(Simplify("x: f32[2,3]",
                     "  %x = f32[2,3]{1,0} parameter(0)\n"
                     "  %c = f32[2,3]{0,1} copy(%x)\n"
                     "  ROOT %r = f32[2,3]{1,0} copy(%c)\n",
                     sensitive)
                .root,
            "x");
}

TEST(AlgebraicSimplifierTest, SinksReshapesBelowElementwise) {
  Simplified s = Simplify("a: f32[2,3], b: f32[2,3]",
                          "  %a = f32[2,3] parameter(0)\n  %b = f32[2,3] parameter(1)\n"
                          "  %ra = f32[6] reshape(%a)\n  %rb = f32[6] reshape(%b)\n"
                          "  %c = f32[] constant(3)\n  %cb = f32[6] broadcast(%c), dimensions={}\n"
                          "  %m = f32[6] multiply(%ra, %rb)\n"
                          "  ROOT %r = f32[6] add(%m, %cb)\n");
  EXPECT_EQ(s.root, "reshape(add(multiply(a, b), broadcast(3)))");
  EXPECT_EQ(s.rewrites["elementwise(reshape(A), ...) => reshape(elementwise(A, ...))"], 2);
}

TEST(AlgebraicSimplifierTest, SinksTransposesBelowElementwise) {
  Simplified s = Simplify("a: f32[2,3], b: f32[2,3]",
                          "  %a = f32[2,3] parameter(0)\n  %b = f32[2,3] parameter(1)\n"
                          "  %ta = f32[3,2] transpose(%a), dimensions={1,0}\n"
                          "  %tb = f32[3,2] transpose(%b), dimensions={1,0}\n"
                          "  ROOT %r = f32[3,2] subtract(%ta, %tb)\n");
  EXPECT_EQ(s.root, "transpose(subtract(a, b))");
}

TEST(AlgebraicSimplifierTest, DoesNotSinkReshapesWithOtherUsers) {
  Simplified s = Simplify("a: f32[2,3], b: f32[2,3]",
                          "  %a = f32[2,3] parameter(0)\n  %b = f32[2,3] parameter(1)\n"
                          "  %ra = f32[6] reshape(%a)\n  %rb = f32[6] reshape(%b)\n"
                          "  %m = f32[6] multiply(%ra, %rb)\n"
                          "  ROOT %t = (f32[6], f32[6]) tuple(%m, %ra)\n");
  EXPECT_EQ(s.root, "tuple(multiply(reshape(a), reshape(b)), reshape(a))");
}

TEST(AlgebraicSimplifierTest, NewInstructionsCarryTheProvenanceOfWhatTheyReplace) {
  auto module = ParseModule(
      "HloModule m\n\nENTRY %main (a: f32[8], b: f32[8]) -> f32[] {\n"
      "  %a = f32[8] parameter(0)\n  %b = f32[8] parameter(1)\n"
      "  ROOT %d = f32[] dot(%a, %b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n");
  const int64_t dot_id = testing::FindInstruction(*module, "d")->unique_id();
  AlgebraicSimplifier simplifier;
  ASSERT_TRUE(testing::RunPass(simplifier, module.get()));
  for (const HloComputation* c : module->computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->opcode() == HloOpcode::kParameter && c->IsEntryComputation()) continue;
      ASSERT_FALSE(instr->provenance().empty()) << instr->ToString();
      EXPECT_EQ(instr->provenance().front().unique_id, dot_id) << instr->ToString();
    }
  }
}

}  // namespace
}  // namespace systolic
