// Opcodes that apply computations: reduce, reduce-window, select-and-scatter,
// sort, map, call, while, conditional, fusion; and tuples, random numbers,
// tokens and custom calls.
#include "core/eval/rng_bit_generator.h"
#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

const char kAdd[] = R"(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
})";

TEST(ReduceTest, RowsColumnsAndEverything) {
  Literal m = Literal::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  Literal zero = R0<float>(0);
  ExpectNear(RunOp("reduce", {&m, &zero}, "f32[2]", "dimensions={1}, to_apply=add", kAdd), {6, 15}, 0);
  ExpectNear(RunOp("reduce", {&m, &zero}, "f32[3]", "dimensions={0}, to_apply=add", kAdd), {5, 7, 9}, 0);
  ExpectNear(RunOp("reduce", {&m, &zero}, "f32[]", "dimensions={0,1}, to_apply=add", kAdd), {21}, 0);
  Literal ten = R0<float>(10);
  ExpectNear(RunOp("reduce", {&m, &ten}, "f32[2,3]", "dimensions={}, to_apply=add", kAdd),
             {11, 12, 13, 14, 15, 16}, 0);
}

TEST(ReduceTest, VariadicArgMaxAndGeneralReducer) {
  const std::string text = R"(
HloModule argmax
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v1, v0), direction=GT
  eq = pred[] compare(v1, v0), direction=EQ
  lower = pred[] compare(i1, i0), direction=LT
  tie = pred[] and(eq, lower)
  take = pred[] or(gt, tie)
  v = f32[] select(take, v1, v0)
  i = s32[] select(take, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  values = f32[2,4] parameter(0)
  index = s32[2,4] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  none = s32[] constant(-1)
  ROOT r = (f32[2], s32[2]) reduce(values, index, ninf, none), dimensions={1}, to_apply=argmax
})";
  std::vector<Literal> args;
  args.push_back(Literal::CreateR2<float>({{3, 7, 7, 1}, {-1, -5, 0, 0}}));
  Literal r = RunOk(text, args);
  ExpectNear(r.tuple_element(0), {7, 0}, 0);
  EXPECT_EQ(ToInts(r.tuple_element(1)), (std::vector<int64_t>{1, 2}));
}

TEST(ReduceTest, ReduceWindowWithPaddingAndDilation) {
  Literal v = R1<float>({1, 2, 3, 4, 5});
  Literal zero = R0<float>(0);
  ExpectNear(RunOp("reduce-window", {&v, &zero}, "f32[4]", "window={size=2}, to_apply=add", kAdd),
             {3, 5, 7, 9}, 0);
  ExpectNear(RunOp("reduce-window", {&v, &zero}, "f32[6]", "window={size=2 pad=1_1}, to_apply=add",
                   kAdd),
             {1, 3, 5, 7, 9, 5}, 0);
  ExpectNear(RunOp("reduce-window", {&v, &zero}, "f32[2]", "window={size=2 stride=3}, to_apply=add",
                   kAdd),
             {3, 9}, 0);
  // Base dilation 2: [1,_,2,_,3,_,4,_,5], windows of 3.
  ExpectNear(RunOp("reduce-window", {&v, &zero}, "f32[7]", "window={size=3 lhs_dilate=2}, to_apply=add",
                   kAdd),
             {3, 2, 5, 3, 7, 4, 9}, 0);
  // Window dilation 2: elements i and i+2.
  ExpectNear(RunOp("reduce-window", {&v, &zero}, "f32[3]", "window={size=2 rhs_dilate=2}, to_apply=add",
                   kAdd),
             {4, 6, 8}, 0);
  Literal m = Literal::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  const std::string max = R"(
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
})";
  Literal ninf = R0<float>(-INFINITY);
  ExpectNear(RunOp("reduce-window", {&m, &ninf}, "f32[1,2]", "window={size=2x2}, to_apply=max", max),
             {5, 6}, 0);
}

TEST(SelectAndScatterTest, MaxPoolGradient) {
  const std::string text = R"(
HloModule sas
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  operand = f32[6] parameter(0)
  source = f32[3] parameter(1)
  zero = f32[] constant(0)
  ROOT r = f32[6] select-and-scatter(operand, source, zero), window={size=2 stride=2}, select=ge, scatter=add
})";
  std::vector<Literal> args;
  args.push_back(R1<float>({1, 5, 6, 2, 3, 3}));
  args.push_back(R1<float>({10, 20, 30}));
  // Ties keep the first (select(a, b) = a >= b keeps the current one).
  ExpectNear(RunOk(text, args), {0, 10, 20, 0, 30, 0}, 0);
  // Overlapping windows accumulate.
  const std::string overlap = R"(
HloModule sas
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  operand = f32[4] parameter(0)
  source = f32[3] parameter(1)
  zero = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(operand, source, zero), window={size=2}, select=ge, scatter=add
})";
  std::vector<Literal> args2;
  args2.push_back(R1<float>({1, 9, 2, 3}));
  args2.push_back(R1<float>({1, 2, 4}));
  ExpectNear(RunOk(overlap, args2), {0, 3, 0, 4}, 0);
}

TEST(SortTest, MultiOperandStable) {
  const std::string text = R"(
HloModule sort
less {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  keys = s32[2,4] parameter(0)
  values = s32[2,4] parameter(1)
  ROOT s = (s32[2,4], s32[2,4]) sort(keys, values), dimensions={1}, is_stable=true, to_apply=less
})";
  std::vector<Literal> args;
  args.push_back(Literal::CreateR2<int32_t>({{3, 1, 2, 1}, {0, 0, -1, 5}}));
  args.push_back(Literal::CreateR2<int32_t>({{10, 20, 30, 40}, {1, 2, 3, 4}}));
  Literal r = RunOk(text, args);
  EXPECT_EQ(ToInts(r.tuple_element(0)), (std::vector<int64_t>{1, 1, 2, 3, -1, 0, 0, 5}));
  EXPECT_EQ(ToInts(r.tuple_element(1)), (std::vector<int64_t>{20, 40, 30, 10, 3, 1, 2, 4}));
}

TEST(SortTest, FloatsDescendingWithTotalOrderAlongDimensionZero) {
  const std::string text = R"(
HloModule sort
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT gt = pred[] compare(a, b), direction=GT, type=TOTALORDER
}
ENTRY e {
  x = f32[4,2] parameter(0)
  ROOT s = f32[4,2] sort(x), dimensions={0}, to_apply=greater
})";
  std::vector<Literal> args;
  args.push_back(Literal::CreateR2<float>({{1, -0.0f}, {NAN, 0}, {-INFINITY, 2}, {3, -1}}));
  ExpectNear(RunOk(text, args), {NAN, 2, 3, 0, 1, -0.0, -INFINITY, -1}, 0);
}

TEST(MapCallTest, MapWithBinaryAndGeneralFunctions) {
  Literal a = R1<float>({1, 2, 3});
  Literal b = R1<float>({10, 20, 30});
  ExpectNear(RunOp("map", {&a, &b}, "f32[3]", "dimensions={0}, to_apply=add", kAdd), {11, 22, 33}, 0);
  const std::string affine = R"(
affine {
  x = f32[] parameter(0)
  two = f32[] constant(2)
  one = f32[] constant(1)
  m = f32[] multiply(x, two)
  ROOT r = f32[] add(m, one)
})";
  ExpectNear(RunOp("map", {&a}, "f32[3]", "dimensions={0}, to_apply=affine", affine), {3, 5, 7}, 0);
  ExpectNear(RunOp("call", {&a, &b}, "f32[3]", "to_apply=vadd",
                   "vadd {\n x = f32[3] parameter(0)\n y = f32[3] parameter(1)\n ROOT s = f32[3] "
                   "subtract(y, x)\n}"),
             {9, 18, 27}, 0);
}

const char kCountingLoop[] = R"(
HloModule loop
cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  half = f32[] constant(0.5)
  i2 = s32[] add(i, one)
  x2 = f32[] add(x, half)
  ROOT t = (s32[], f32[]) tuple(i2, x2)
}
ENTRY e {
  zero = s32[] constant(0)
  x = f32[] parameter(0)
  init = (s32[], f32[]) tuple(zero, x)
  w = (s32[], f32[]) while(init), condition=cond, body=body
  ROOT r = f32[] get-tuple-element(w), index=1
})";

TEST(ControlFlowTest, WhileLoopAndIterationBound) {
  std::vector<Literal> args;
  args.push_back(R0<float>(1));
  ExpectNear(RunOk(kCountingLoop, args), {6}, 0);
  EvaluatorOptions bounded;
  bounded.max_while_iterations = 5;
  auto result = RunHlo(kCountingLoop, args, bounded);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("%w"), std::string::npos) << result.status().message();
  EXPECT_NE(result.status().message().find("5 iterations"), std::string::npos);
}

TEST(ControlFlowTest, ConditionalByPredAndIndex) {
  const std::string text = R"(
HloModule cond
b0 {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}
b1 {
  x = f32[] parameter(0)
  ROOT e = f32[] exponential(x)
}
b2 {
  x = f32[] parameter(0)
  ROOT c = f32[] constant(42)
}
ENTRY e {
  i = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT r = f32[] conditional(i, x, x, x), branch_computations={b0, b1, b2}
})";
  for (auto [index, expected] : std::vector<std::pair<int32_t, double>>{
           {0, -2}, {1, std::exp(2.0f)}, {2, 42}, {7, 42}, {-1, 42}}) {
    std::vector<Literal> args;
    args.push_back(R0<int32_t>(index));
    args.push_back(R0<float>(2));
    ExpectNear(RunOk(text, args), {expected}) ;
  }
  const std::string by_pred = R"(
HloModule cond
yes {
  x = f32[] parameter(0)
  ROOT n = f32[] negate(x)
}
no {
  x = s32[] parameter(0)
  ROOT c = f32[] convert(x)
}
ENTRY e {
  p = pred[] parameter(0)
  x = f32[] constant(3)
  y = s32[] constant(5)
  ROOT r = f32[] conditional(p, x, y), true_computation=yes, false_computation=no
})";
  std::vector<Literal> t, f;
  t.push_back(R0<bool>(true));
  f.push_back(R0<bool>(false));
  ExpectNear(RunOk(by_pred, t), {-3}, 0);
  ExpectNear(RunOk(by_pred, f), {5}, 0);
}

TEST(FusionTest, ChunkedElementwiseFusionMatchesTheGenericPath) {
  // The same computation as a loop fusion (chunked) and through `call`
  // (instruction by instruction), over more than one chunk.
  const std::string body = R"(
fused {
  a = f32[3,2000] parameter(0)
  bias = f32[2000] parameter(1)
  flag = pred[] parameter(2)
  b = f32[3,2000] broadcast(bias), dimensions={1}
  s = f32[3,2000] add(a, b)
  i = s32[3,2000] iota(), iota_dimension=0
  fi = f32[3,2000] convert(i)
  m = f32[3,2000] multiply(s, fi)
  t = f32[2000,3] transpose(a), dimensions={1,0}
  tr = f32[3,2000] reshape(t)
  e = f32[3,2000] exponential(tr)
  neg = f32[3,2000] negate(m)
  sel = f32[3,2000] select(flag, m, neg)
  r = f32[3,2000] reduce-precision(sel), exponent_bits=8, mantissa_bits=7
  c = bf16[3,2000] convert(e)
  ROOT out = (f32[3,2000], bf16[3,2000]) tuple(r, c)
})";
  auto module_text = [&](const std::string& how) {
    return absl::StrCat("HloModule f\n", body, R"(
ENTRY e {
  a = f32[3,2000] parameter(0)
  bias = f32[2000] parameter(1)
  flag = pred[] parameter(2)
  ROOT f = (f32[3,2000], bf16[3,2000]) )", how, "\n}\n");
  };
  std::vector<Literal> args;
  Literal a(Shape(F32, {3, 2000}));
  for (int64_t i = 0; i < a.element_count(); ++i) a.data<float>()[i] = float(i % 97) * 0.01f - 0.3f;
  Literal bias(Shape(F32, {2000}));
  for (int64_t i = 0; i < 2000; ++i) bias.data<float>()[i] = float(i) * 0.001f;
  args.push_back(std::move(a));
  args.push_back(std::move(bias));
  args.push_back(R0<bool>(false));
  Literal fused = RunOk(module_text("fusion(a, bias, flag), kind=kLoop, calls=fused"), args);
  Literal called = RunOk(module_text("call(a, bias, flag), to_apply=fused"), args);
  EXPECT_EQ(fused, called);
  // Spot check: element (2, 5): -(a + bias) * 2 rounded to bf16 precision.
  const float expected = -(float(((2 * 2000 + 5) % 97)) * 0.01f - 0.3f + 0.005f) * 2;
  EXPECT_NEAR(fused.tuple_element(0).Get<float>({2, 5}), expected, 1e-2);
}

TEST(FusionTest, LargeFusionSplitAcrossThreadsSelectsEveryElementRight) {
  // 3 x 700,001 elements: enough chunks for every core to take a range, and
  // a last chunk that is only partly full. Selects of 1-, 2-, 4- and 8-byte
  // values each pick max(a, b) element by element.
  constexpr int64_t kCols = 700001;
  const std::string shape = absl::StrCat("[3,", kCols, "]");
  const std::string text = absl::StrCat(R"(
HloModule big
fused {
  a = f32)", shape, R"( parameter(0)
  b = f32)", shape, R"( parameter(1)
  gt = pred)", shape, R"( compare(a, b), direction=GT
  f = f32)", shape, R"( select(gt, a, b)
  ha = bf16)", shape, R"( convert(a)
  hb = bf16)", shape, R"( convert(b)
  h = bf16)", shape, R"( select(gt, ha, hb)
  hundred = f32[] constant(100)
  k = f32)", shape, R"( broadcast(hundred), dimensions={}
  ma = f32)", shape, R"( multiply(a, k)
  mb = f32)", shape, R"( multiply(b, k)
  ia = s8)", shape, R"( convert(ma)
  ib = s8)", shape, R"( convert(mb)
  i = s8)", shape, R"( select(gt, ia, ib)
  da = f64)", shape, R"( convert(a)
  db = f64)", shape, R"( convert(b)
  d = f64)", shape, R"( select(gt, da, db)
  ROOT out = (f32)", shape, ", bf16", shape, ", s8", shape, ", f64", shape, R"() tuple(f, h, i, d)
}
ENTRY e {
  a = f32)", shape, R"( parameter(0)
  b = f32)", shape, R"( parameter(1)
  ROOT r = (f32)", shape, ", bf16", shape, ", s8", shape, ", f64", shape,
                                        R"() fusion(a, b), kind=kLoop, calls=fused
})");
  Literal a(Shape(F32, {3, kCols})), b(Shape(F32, {3, kCols}));
  for (int64_t i = 0; i < a.element_count(); ++i) {
    a.data<float>()[i] = float((i * 7919) % 200 - 100) / 128.0f;
    b.data<float>()[i] = float((i * 104729) % 200 - 100) / 128.0f;
  }
  std::vector<Literal> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  Literal r = RunOk(text, args);
  ASSERT_EQ(r.tuple_size(), 4);
  const float* av = args[0].data<float>().data();
  const float* bv = args[1].data<float>().data();
  int64_t wrong = 0;
  for (int64_t i = 0; i < args[0].element_count(); ++i) {
    const float max = std::max(av[i], bv[i]);
    // Inputs are multiples of 1/128 below 1 in magnitude: exact in bf16, and
    // times 100 they truncate to the same s8 whichever operand is bigger.
    wrong += r.tuple_element(0).data<float>()[i] != max;
    wrong += float(r.tuple_element(1).data<bfloat16>()[i]) != max;
    wrong += r.tuple_element(2).data<int8_t>()[i] != int8_t(max * 100.0f);
    wrong += r.tuple_element(3).data<double>()[i] != double(max);
  }
  EXPECT_EQ(wrong, 0);
}

TEST(TupleTest, TuplesAndTokens) {
  const std::string text = R"(
HloModule t
ENTRY e {
  x = f32[2] parameter(0)
  y = s32[] parameter(1)
  t = (f32[2], s32[]) tuple(x, y)
  g = s32[] get-tuple-element(t), index=1
  tok = token[] after-all()
  d = s32[] add-dependency(g, tok)
  b = (f32[2], s32[]) opt-barrier(t)
  h = f32[2] get-tuple-element(b), index=0
  ROOT r = (s32[], f32[2], f32[2]) tuple(d, h, x)
})";
  std::vector<Literal> args;
  args.push_back(R1<float>({1, 2}));
  args.push_back(R0<int32_t>(7));
  Literal r = RunOk(text, args);
  EXPECT_EQ(ToInts(r.tuple_element(0)), (std::vector<int64_t>{7}));
  ExpectNear(r.tuple_element(1), {1, 2}, 0);
  ExpectNear(r.tuple_element(2), {1, 2}, 0);
}

TEST(RandomTest, ThreeFryAndPhiloxKnownAnswers) {
  // Known-answer vectors of Random123 (Salmon et al.).
  EXPECT_EQ(eval::ThreeFry2x32({0, 0}, {0, 0}), (std::array<uint32_t, 2>{0x6b200159u, 0x99ba4efeu}));
  EXPECT_EQ(eval::ThreeFry2x32({0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}),
            (std::array<uint32_t, 2>{0x1cb996fcu, 0xbb002be7u}));
  EXPECT_EQ(eval::ThreeFry2x32({0x13198a2eu, 0x03707344u}, {0x243f6a88u, 0x85a308d3u}),
            (std::array<uint32_t, 2>{0xc4923a9cu, 0x483df7a0u}));
  EXPECT_EQ(eval::Philox4x32({0, 0}, {0, 0, 0, 0}),
            (std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  EXPECT_EQ(eval::Philox4x32({0xffffffffu, 0xffffffffu},
                             {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}),
            (std::array<uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  EXPECT_EQ(eval::Philox4x32({0xa4093822u, 0x299f31d0u},
                             {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}),
            (std::array<uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(RandomTest, RngBitGeneratorLayoutsAndStates) {
  const uint64_t key = 0x0000000500000007ull, counter = 40;
  // three_fry u32[4]: the shape splits in halves; draw j fills 2j and 2j+1.
  const std::string three_fry = R"(
HloModule r
ENTRY e {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[4]) rng-bit-generator(s), algorithm=rng_three_fry
})";
  std::vector<Literal> args;
  args.push_back(Literal::CreateR1<uint64_t>({key, counter}));
  Literal r = RunOk(three_fry, args);
  auto d0 = eval::ThreeFry2x32({7, 5}, {40, 0});
  auto d1 = eval::ThreeFry2x32({7, 5}, {41, 0});
  EXPECT_EQ(ToInts(r.tuple_element(1)), (std::vector<int64_t>{d0[0], d0[1], d1[0], d1[1]}));
  EXPECT_EQ(r.tuple_element(0).data<uint64_t>()[1], counter + 2);
  EXPECT_EQ(r.tuple_element(0).data<uint64_t>()[0], key);
  // philox u64[3]: two 64-bit draws per block.
  const std::string philox = R"(
HloModule r
ENTRY e {
  s = u64[3] parameter(0)
  ROOT r = (u64[3], u64[3]) rng-bit-generator(s), algorithm=rng_philox
})";
  std::vector<Literal> pargs;
  pargs.push_back(Literal::CreateR1<uint64_t>({key, ~uint64_t{0}, 3}));
  Literal p = RunOk(philox, pargs);
  auto b0 = eval::Philox4x32({7, 5}, {0xffffffffu, 0xffffffffu, 3, 0});
  auto b1 = eval::Philox4x32({7, 5}, {0, 0, 4, 0});  // the 128-bit counter carries
  auto bits = p.tuple_element(1).data<uint64_t>();
  EXPECT_EQ(bits[0], uint64_t(b0[0]) | uint64_t(b0[1]) << 32);
  EXPECT_EQ(bits[1], uint64_t(b0[2]) | uint64_t(b0[3]) << 32);
  EXPECT_EQ(bits[2], uint64_t(b1[0]) | uint64_t(b1[1]) << 32);
  EXPECT_EQ(p.tuple_element(0).data<uint64_t>()[1], 1u);
  EXPECT_EQ(p.tuple_element(0).data<uint64_t>()[2], 4u);
}

TEST(RandomTest, RngIsSeededAndInRange) {
  const std::string text = R"(
HloModule r
ENTRY e {
  a = f32[] constant(2)
  b = f32[] constant(3)
  ROOT r = f32[1000] rng(a, b), distribution=rng_uniform
})";
  EvaluatorOptions options;
  options.rng_seed = 11;
  Literal x = RunOk(text, {}, options);
  for (double v : ToDoubles(x)) {
    ASSERT_GE(v, 2);
    ASSERT_LT(v, 3);
  }
  EXPECT_EQ(x, RunOk(text, {}, options));
}

TEST(ErrorsTest, CustomCallAndUnsupportedHostTransfers) {
  const std::string text = R"(
HloModule c
ENTRY e {
  x = f32[2] parameter(0)
  ROOT c = f32[2] custom-call(x), custom_call_target="MyKernel"
})";
  auto result = RunHlo(text, Args(R1<float>({1, 2})));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("unsupported custom call target \"MyKernel\""),
            std::string::npos)
      << result.status().message();
  EXPECT_NE(result.status().message().find("%c"), std::string::npos);
}

TEST(ErrorsTest, ArgumentsAreChecked) {
  auto result = RunHlo(kCountingLoop, Args(R1<float>({1, 2})));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("argument 0"), std::string::npos)
      << result.status().message();
  auto missing = RunHlo(kCountingLoop, std::vector<Literal>{});
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace systolic::eval_test
