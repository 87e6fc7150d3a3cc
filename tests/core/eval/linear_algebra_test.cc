// batch-norm, cholesky, triangular-solve, fft and topk.
#include <complex>

#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

TEST(BatchNormTest, TrainingInferenceAndGrad) {
  Literal x = Literal::CreateR2<float>({{1, 2}, {3, 6}});
  Literal scale = R1<float>({2, 1});
  Literal offset = R1<float>({0.5, -1});
  // Feature 1: columns. Means [2, 4], biased variances [1, 4].
  Literal t = RunOp("batch-norm-training", {&x, &scale, &offset}, "(f32[2,2], f32[2], f32[2])",
                    "epsilon=0, feature_index=1");
  ExpectNear(t.tuple_element(0), {-1.5, -2, 2.5, 0});
  ExpectNear(t.tuple_element(1), {2, 4});
  ExpectNear(t.tuple_element(2), {1, 4});
  Literal mean = R1<float>({2, 4}), var = R1<float>({1, 4});
  ExpectNear(RunOp("batch-norm-inference", {&x, &scale, &offset, &mean, &var}, "f32[2,2]",
                   "epsilon=0, feature_index=1"),
             {-1.5, -2, 2.5, 0});
  // Grad with dy = 1: grad_offset = N, grad_scale = sum((x - mean) / std) = 0,
  // grad_operand = scale/std * (1 - 1 - 0) = 0.
  Literal dy = Literal::CreateR2<float>({{1, 1}, {1, 1}});
  Literal g = RunOp("batch-norm-grad", {&x, &scale, &mean, &var, &dy}, "(f32[2,2], f32[2], f32[2])",
                    "epsilon=0, feature_index=1");
  ExpectNear(g.tuple_element(0), {0, 0, 0, 0});
  ExpectNear(g.tuple_element(1), {0, 0});
  ExpectNear(g.tuple_element(2), {2, 2});
  // dy = x - mean: grad_scale = sum((x-m)^2)/std = N*var/std.
  Literal dy2 = Literal::CreateR2<float>({{-1, -2}, {1, 2}});
  Literal g2 = RunOp("batch-norm-grad", {&x, &scale, &mean, &var, &dy2}, "(f32[2,2], f32[2], f32[2])",
                     "epsilon=0, feature_index=1");
  ExpectNear(g2.tuple_element(1), {2, 4});
  ExpectNear(g2.tuple_element(2), {0, 0});
  // grad_operand = s/std * (dy - 0 - (x-m) * mean(dy*(x-m)) / var) = 0 here.
  ExpectNear(g2.tuple_element(0), {0, 0, 0, 0});
}

TEST(LinearAlgebraTest, Cholesky) {
  Literal a = Literal::CreateR2<float>({{4, 2}, {2, 3}});
  ExpectNear(RunOp("cholesky", {&a}, "f32[2,2]", "lower=true"), {2, 0, 1, std::sqrt(2.0)});
  ExpectNear(RunOp("cholesky", {&a}, "f32[2,2]", "lower=false"), {2, 1, 0, std::sqrt(2.0)});
  Literal batch = FromDoubles(F64, {2, 2, 2}, {4, 2, 2, 3, 9, 0, 0, 16});
  ExpectNear(RunOp("cholesky", {&batch}, "f64[2,2,2]", "lower=true"),
             {2, 0, 1, std::sqrt(2.0), 3, 0, 0, 4}, 1e-12);
  Literal indefinite = Literal::CreateR2<float>({{1, 2}, {2, 1}});
  ExpectNear(RunOp("cholesky", {&indefinite}, "f32[2,2]", "lower=true"), {NAN, NAN, NAN, NAN});
}

TEST(LinearAlgebraTest, TriangularSolve) {
  Literal a = Literal::CreateR2<float>({{2, 99}, {1, 1}});  // lower; 99 is ignored
  Literal b = Literal::CreateR2<float>({{2}, {3}});
  ExpectNear(RunOp("triangular-solve", {&a, &b}, "f32[2,1]",
                   "left_side=true, lower=true, transpose_a=NO_TRANSPOSE"),
             {1, 2});
  // a^T x = b with a lower: [[2,1],[0,1]] x = [2,3] -> x = [-0.5, 3].
  ExpectNear(RunOp("triangular-solve", {&a, &b}, "f32[2,1]",
                   "left_side=true, lower=true, transpose_a=TRANSPOSE"),
             {-0.5, 3});
  // Unit diagonal: [[1,0],[1,1]] x = [2,3] -> [2, 1].
  ExpectNear(RunOp("triangular-solve", {&a, &b}, "f32[2,1]",
                   "left_side=true, lower=true, unit_diagonal=true, transpose_a=NO_TRANSPOSE"),
             {2, 1});
  // Right side: x a = b with b [1,2]: x [[2,0],[1,1]] = [4, 3] -> x = [0.5, 3].
  Literal row = Literal::CreateR2<float>({{4, 3}});
  ExpectNear(RunOp("triangular-solve", {&a, &row}, "f32[1,2]",
                   "left_side=false, lower=true, transpose_a=NO_TRANSPOSE"),
             {0.5, 3});
}

TEST(FftTest, ForwardInverseAndReal) {
  Literal impulse = Literal::CreateR1<complex64>({{1, 0}, {0, 0}, {0, 0}, {0, 0}});
  Literal f = RunOp("fft", {&impulse}, "c64[4]", "fft_type=FFT, fft_length={4}");
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(std::abs(f.data<complex64>()[i] - complex64(1, 0)), 0, 1e-6);
  Literal back = RunOp("fft", {&f}, "c64[4]", "fft_type=IFFT, fft_length={4}");
  EXPECT_NEAR(std::abs(back.data<complex64>()[0] - complex64(1, 0)), 0, 1e-6);
  EXPECT_NEAR(std::abs(back.data<complex64>()[1]), 0, 1e-6);
  Literal real = R1<float>({1, 2, 3, 4});
  Literal spectrum = RunOp("fft", {&real}, "c64[3]", "fft_type=RFFT, fft_length={4}");
  const complex64 expected[3] = {{10, 0}, {-2, 2}, {-2, 0}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(std::abs(spectrum.data<complex64>()[i] - expected[i]), 0, 1e-5) << i;
  }
  ExpectNear(RunOp("fft", {&spectrum}, "f32[4]", "fft_type=IRFFT, fft_length={4}"), {1, 2, 3, 4});
  // 2-D real round trip.
  Literal m = FromDoubles(F32, {2, 3}, {1, -2, 3, 0.5, 5, -6});
  Literal s2 = RunOp("fft", {&m}, "c64[2,2]", "fft_type=RFFT, fft_length={2,3}");
  EXPECT_NEAR(s2.data<complex64>()[0].real(), 1.5, 1e-5);
  ExpectNear(RunOp("fft", {&s2}, "f32[2,3]", "fft_type=IRFFT, fft_length={2,3}"),
             {1, -2, 3, 0.5, 5, -6});
}

TEST(TopKTest, LargestAndSmallestWithStableTies) {
  Literal x = Literal::CreateR2<float>({{1, 5, 3, 5}, {-1, NAN, 0, 2}});
  Literal r = RunOp("topk", {&x}, "(f32[2,2], s32[2,2])", "k=2, largest=true");
  ExpectNear(r.tuple_element(0), {5, 5, NAN, 2});
  EXPECT_EQ(ToInts(r.tuple_element(1)), (std::vector<int64_t>{1, 3, 1, 3}));
  Literal s = RunOp("topk", {&x}, "(f32[2,2], s32[2,2])", "k=2, largest=false");
  ExpectNear(s.tuple_element(0), {1, 3, -1, 0});
  EXPECT_EQ(ToInts(s.tuple_element(1)), (std::vector<int64_t>{0, 2, 0, 2}));
}

}  // namespace
}  // namespace systolic::eval_test
