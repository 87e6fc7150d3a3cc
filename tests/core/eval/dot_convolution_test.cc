// dot_general and convolution: hand-computed cases, then convolution against a
// direct transcription of its definition over many window configurations.
#include <random>

#include "core/eval/convolution.h"
#include "core/eval/random_arguments.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/shape_inference.h"
#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

TEST(DotTest, MatrixProduct) {
  Literal a = Literal::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  Literal b = Literal::CreateR2<float>({{1, 0}, {0, 1}, {1, 1}});
  ExpectNear(RunOp("dot", {&a, &b}, "f32[2,2]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
             {4, 5, 10, 11}, 0);
  // Contracting the lhs' first dimension: a^T b.
  Literal c = Literal::CreateR2<float>({{1, 2}, {3, 4}});
  ExpectNear(RunOp("dot", {&c, &c}, "f32[2,2]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
             {10, 14, 14, 20}, 0);
  // Vector dot and outer product.
  Literal v = R1<float>({1, 2, 3});
  ExpectNear(RunOp("dot", {&v, &v}, "f32[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
             {14}, 0);
  ExpectNear(RunOp("dot", {&v, &v}, "f32[3,3]"), {1, 2, 3, 2, 4, 6, 3, 6, 9}, 0);
}

TEST(DotTest, BatchDimensionsAndOrder) {
  // lhs [2 batch, 2, 3], rhs [3, 2 batch] contracting rhs dim 0.
  Literal lhs(Shape(S32, {2, 2, 3}));
  for (int64_t i = 0; i < 12; ++i) lhs.data<int32_t>()[i] = int32_t(i);
  Literal rhs = Literal::CreateR2<int32_t>({{1, 2}, {1, 2}, {1, 2}});
  // Batch b: rows of lhs[b] summed, times (b + 1).
  EXPECT_EQ(ToInts(RunOp("dot", {&lhs, &rhs}, "s32[2,2]",
                         "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={1}, "
                         "rhs_contracting_dims={0}")),
            (std::vector<int64_t>{3, 12, 2 * 21, 2 * 30}));
}

TEST(DotTest, NarrowOperandsAccumulateWideAndWrap) {
  Literal a = R1<int8_t>({100, 100, 100});
  EXPECT_EQ(ToInts(RunOp("dot", {&a, &a}, "s32[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}")),
            (std::vector<int64_t>{30000}));
  EXPECT_EQ(ToInts(RunOp("dot", {&a, &a}, "s8[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}")),
            (std::vector<int64_t>{int8_t(30000 & 0xFF)}));
  // bf16 inputs accumulate in f32 and round once: 256 + 1 + 1 = 258 is exact
  // in bf16 only at the end (a bf16 accumulator would stay at 256).
  Literal x = FromDoubles(BF16, {3}, {256, 1, 1});
  Literal one = FromDoubles(BF16, {3}, {1, 1, 1});
  ExpectNear(RunOp("dot", {&x, &one}, "bf16[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
             {258}, 0);
  ExpectNear(RunOp("dot", {&x, &one}, "f32[]",
                   "lhs_contracting_dims={0}, rhs_contracting_dims={0}, "
                   "operand_precision={highest,highest}"),
             {258}, 0);
}

// The convolution's definition, element by element, on doubles.
Literal NaiveConvolution(const Literal& lhs, const Literal& rhs, const Window& window,
                         const ConvolutionDimensionNumbers& dn, int64_t fg, int64_t bg,
                         const Shape& out_shape) {
  Literal out(out_shape);
  const int64_t S = int64_t(dn.input_spatial_dimensions.size());
  const int64_t N = lhs.shape().dimensions(dn.input_batch_dimension);
  const int64_t C = lhs.shape().dimensions(dn.input_feature_dimension);
  const int64_t O = rhs.shape().dimensions(dn.kernel_output_feature_dimension);
  const int64_t Cg = C / fg, Nb = N / bg;
  const int64_t groups = std::max(fg, bg), Og = O / groups;
  std::vector<int64_t> out_index(out_shape.rank(), 0);
  for (int64_t linear = 0; linear < out.element_count(); ++linear) {
    int64_t rest = linear;
    for (int64_t d = out_shape.rank() - 1; d >= 0; --d) {
      out_index[d] = rest % out_shape.dimensions(d);
      rest /= out_shape.dimensions(d);
    }
    const int64_t n = out_index[dn.output_batch_dimension];
    const int64_t o = out_index[dn.output_feature_dimension];
    const int64_t g = o / Og;
    double sum = 0;
    std::vector<int64_t> k(S, 0);
    int64_t window_count = 1;
    for (int64_t s = 0; s < S; ++s) window_count *= window.dimensions[s].size;
    for (int64_t w = 0; w < window_count; ++w) {
      int64_t wr = w;
      for (int64_t s = S - 1; s >= 0; --s) {
        k[s] = wr % window.dimensions[s].size;
        wr /= window.dimensions[s].size;
      }
      bool valid = true;
      std::vector<int64_t> in_spatial(S);
      for (int64_t s = 0; s < S && valid; ++s) {
        const WindowDimension& wd = window.dimensions[s];
        const int64_t pos = out_index[dn.output_spatial_dimensions[s]] * wd.stride +
                            k[s] * wd.window_dilation - wd.padding_low;
        if (pos < 0 || pos % wd.base_dilation != 0) valid = false;
        in_spatial[s] = pos / wd.base_dilation;
        if (in_spatial[s] >= lhs.shape().dimensions(dn.input_spatial_dimensions[s])) valid = false;
      }
      if (!valid) continue;
      for (int64_t c = 0; c < Cg; ++c) {
        std::vector<int64_t> li(lhs.shape().rank()), ri(rhs.shape().rank());
        li[dn.input_batch_dimension] = (bg > 1 ? g * Nb : 0) + n;
        li[dn.input_feature_dimension] = (fg > 1 ? g * Cg : 0) + c;
        ri[dn.kernel_input_feature_dimension] = c;
        ri[dn.kernel_output_feature_dimension] = o;
        for (int64_t s = 0; s < S; ++s) {
          li[dn.input_spatial_dimensions[s]] = in_spatial[s];
          const int64_t size = window.dimensions[s].size;
          ri[dn.kernel_spatial_dimensions[s]] = window.dimensions[s].window_reversal ? size - 1 - k[s] : k[s];
        }
        sum += lhs.GetAsDouble(lhs.LinearIndex(li)) * rhs.GetAsDouble(rhs.LinearIndex(ri));
      }
    }
    out.SetFromDouble(linear, sum);
  }
  return out;
}

struct ConvCase {
  std::string name;
  std::string labels;
  std::vector<int64_t> lhs_dims, rhs_dims;
  std::string window;
  int64_t fg = 1, bg = 1;
};

TEST(ConvolutionTest, MatchesTheDefinition) {
  const std::vector<ConvCase> cases = {
      {"valid 2d", "b01f_01io->b01f", {2, 5, 5, 3}, {3, 3, 3, 4}, "size=3x3"},
      {"same padding", "b01f_01io->b01f", {1, 4, 4, 2}, {3, 3, 2, 2}, "size=3x3 pad=1_1x1_1"},
      {"strides", "b01f_01io->b01f", {1, 7, 6, 2}, {3, 2, 2, 3}, "size=3x2 stride=2x3"},
      {"negative padding", "b01f_01io->b01f", {1, 6, 6, 1}, {2, 2, 1, 1}, "size=2x2 pad=-1_1x0_-2"},
      {"lhs dilation", "b01f_01io->b01f", {1, 3, 4, 2}, {2, 2, 2, 1}, "size=2x2 lhs_dilate=2x3"},
      {"rhs dilation", "b01f_01io->b01f", {1, 7, 7, 1}, {3, 3, 1, 2}, "size=3x3 rhs_dilate=2x2"},
      {"reversal", "b01f_01io->b01f", {1, 5, 5, 2}, {3, 3, 2, 2}, "size=3x3 rhs_reversal=1x0"},
      {"nchw oihw", "bf01_oi01->bf01", {2, 3, 5, 4}, {4, 3, 2, 3}, "size=2x3 pad=0_1x1_0"},
      {"odd labels", "f0b1_i10o->1bf0", {3, 5, 2, 4}, {3, 2, 3, 2}, "size=3x2 stride=1x2"},
      {"1d", "bf0_oi0->bf0", {2, 2, 9}, {3, 2, 3}, "size=3 stride=2 pad=1_1 rhs_dilate=2"},
      {"feature groups", "b01f_01io->b01f", {2, 4, 4, 6}, {3, 3, 2, 6}, "size=3x3 pad=1_1x1_1", 3, 1},
      {"depthwise", "b01f_01io->b01f", {1, 5, 5, 4}, {3, 3, 1, 8}, "size=3x3", 4, 1},
      {"batch groups", "b01f_01io->b01f", {4, 4, 4, 3}, {2, 2, 3, 6}, "size=2x2", 1, 2},
      {"batch groups 1x1", "bf01_oi01->bf01", {3, 2, 3, 3}, {3, 2, 1, 1}, "size=1x1", 1, 3},
      {"3d", "b012f_012io->b012f", {1, 4, 3, 4, 2}, {2, 2, 2, 2, 3}, "size=2x2x2 stride=2x1x1"},
  };
  uint64_t seed = 1;
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto dn = ConvolutionDimensionNumbers::FromDimLabels(c.labels);
    ASSERT_TRUE(dn.ok()) << dn.status().message();
    Literal lhs = MakeRandomLiteral(Shape(F32, c.lhs_dims), seed++);
    Literal rhs = MakeRandomLiteral(Shape(F32, c.rhs_dims), seed++);
    // Let the parser and verifier work out the result shape.
    const std::string probe = absl::StrCat(
        "HloModule c\nENTRY e {\n  a = ", lhs.shape().ToString(), " parameter(0)\n  b = ",
        rhs.shape().ToString(), " parameter(1)\n  ROOT c = f32[] convolution(a, b), window={",
        c.window, "}, dim_labels=", c.labels, ", feature_group_count=", c.fg,
        ", batch_group_count=", c.bg, "\n}\n");
    auto module = ParseAndReturnUnverifiedModule(probe);
    ASSERT_TRUE(module.ok()) << module.status().message();
    const HloInstruction* conv = (*module)->entry_computation()->root_instruction();
    auto shape = ShapeInference::InferConvolveShape(lhs.shape(), rhs.shape(), c.fg, c.bg,
                                                    conv->window(), *dn, F32);
    ASSERT_TRUE(shape.ok()) << shape.status().message();
    auto actual = eval::Convolution(lhs, rhs, conv->window(), *dn, c.fg, c.bg, *shape);
    ASSERT_TRUE(actual.ok()) << actual.status().message();
    Literal expected = NaiveConvolution(lhs, rhs, conv->window(), *dn, c.fg, c.bg, *shape);
    ExpectNear(*actual, ToDoubles(expected), 1e-5);
  }
}

TEST(ConvolutionTest, HandComputedThroughTheEvaluator) {
  // 1-D valid convolution of [1,2,3,4] with [1,1]: [3,5,7].
  Literal x = FromDoubles(F32, {1, 4, 1}, {1, 2, 3, 4});
  Literal k = FromDoubles(F32, {2, 1, 1}, {1, 1});
  ExpectNear(RunOp("convolution", {&x, &k}, "f32[1,3,1]", "window={size=2}, dim_labels=b0f_0io->b0f"),
             {3, 5, 7}, 0);
  // Integer convolution with a wider result type.
  Literal xi = FromDoubles(S8, {1, 3, 1}, {100, 100, 100});
  Literal ki = FromDoubles(S8, {2, 1, 1}, {2, 3});
  EXPECT_EQ(ToInts(RunOp("convolution", {&xi, &ki}, "s32[1,2,1]",
                         "window={size=2}, dim_labels=b0f_0io->b0f")),
            (std::vector<int64_t>{500, 500}));
}

}  // namespace
}  // namespace systolic::eval_test
