#include "core/stablehlo/check_runner.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

using ::testing::HasSubstr;

TEST(CheckRunner, ComparisonsAndTheirMessages) {
  Literal a = Literal::CreateR2<float>({{1, 2}, {3, 4}});
  Literal b = Literal::CreateR2<float>({{1, 2}, {3, 4.5f}});
  EXPECT_EQ(CompareExact(a, a), "");
  EXPECT_EQ(CompareExact(a, b), "first mismatch at index [1, 1]: actual 4, expected 4.5");
  EXPECT_EQ(CompareAlmostEqual(a, b, 0.6), "");
  EXPECT_THAT(CompareAlmostEqual(a, b, 0.1), HasSubstr("difference 0.5 > tolerance 0.1"));
  Literal nan = Literal::CreateR1<float>({NAN, INFINITY});
  EXPECT_EQ(CompareExact(nan, nan), "");
  EXPECT_EQ(CompareAlmostEqual(nan, nan, 1e-4), "");
  Literal one = Literal::CreateR1<float>({1.0f});
  Literal next = Literal::CreateR1<float>({std::nextafter(1.0f, 2.0f)});
  EXPECT_EQ(CompareUlps(one, next, 0, 1), "");
  EXPECT_THAT(CompareUlps(one, next, 0, 0), HasSubstr("(1 ulp, allowed 0..0)"));
  EXPECT_THAT(CompareExact(a, Literal::CreateR1<float>({1})), HasSubstr("differs from the expected"));
}

TEST(CheckRunner, UlpsOfComplexAndSubByteFloats) {
  // Complex: each component in ULPs of f32; the farther one counts.
  const float one_up = std::nextafter(1.0f, 2.0f);
  const float two_up = std::nextafter(one_up, 2.0f);
  Literal c = Literal::CreateR1<complex64>({{1.0f, -2.0f}});
  Literal c_near = Literal::CreateR1<complex64>({{one_up, -2.0f}});
  Literal c_far = Literal::CreateR1<complex64>({{one_up, std::nextafter(std::nextafter(-2.0f, -3.0f), -3.0f)}});
  EXPECT_EQ(CompareUlps(c, c_near, 0, 1), "");
  EXPECT_THAT(CompareUlps(c, c_far, 0, 1), HasSubstr("(2 ulp, allowed 0..1)"));
  Literal c_nan = Literal::CreateR1<complex64>({{NAN, -2.0f}});
  EXPECT_EQ(CompareUlps(c_nan, c_nan, 0, 0), "");
  EXPECT_NE(CompareUlps(c, c_nan, 0, 3), "");
  EXPECT_EQ(CompareUlps(Literal::CreateR1<float>({two_up}), Literal::CreateR1<float>({1.0f}), 2, 2), "");
  // f6e2m3fn keeps its sign in bit 5: -0.125 and 0.125 are 2 ulp apart.
  Literal neg = Literal::CreateR1<float6_e2m3fn>({float6_e2m3fn(-0.125f)});
  Literal pos = Literal::CreateR1<float6_e2m3fn>({float6_e2m3fn(0.125f)});
  EXPECT_EQ(CompareUlps(neg, pos, 0, 2), "");
  EXPECT_THAT(CompareUlps(neg, pos, 0, 1), HasSubstr("(2 ulp"));
}

TEST(CheckRunner, RunsCasesWithChecksAndReportsFailures) {
  CheckCaseResult ok = RunCheckCase(R"(
func.func @add() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.add %0, %0 : tensor<2xi32>
  check.expect_eq_const %1, dense<[2, 4]> : tensor<2xi32>
  func.return
})",
                                    "t.mlir", 1);
  EXPECT_TRUE(ok.passed) << ok.message;
  EXPECT_EQ(ok.checks, 1);
  CheckCaseResult bad = RunCheckCase(R"(
func.func @add() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.add %0, %0 : tensor<2xi32>
  check.expect_eq_const %1, dense<[2, 5]> : tensor<2xi32>
  func.return
})",
                                     "t.mlir", 10);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.message,
            "t.mlir:14: check.expect_eq_const: first mismatch at index [1]: actual 4, expected 5");
}

TEST(CheckRunner, AnOpAfterACheckStartsANewOperation) {
  // The check has no results, so a `%1 = ...` line after it is a new
  // operation, not more of its operands.
  CheckCaseResult r = RunCheckCase(R"(
func.func @checks_between_ops() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.add %0, %0 : tensor<2xi32>
  check.expect_eq %1, %1 : tensor<2xi32>
  %2 = stablehlo.multiply %1, %1 : tensor<2xi32>
  check.expect_eq_const %2, dense<[4, 16]> : tensor<2xi32>
  func.return
})",
                                   "t.mlir", 1);
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_EQ(r.checks, 3);
}

TEST(CheckRunner, RunParallelOnTwoReplicas) {
  CheckCaseResult r = RunCheckCase(R"(
module @cross_replica {
  func.func @all_reduce(%operand : tensor<2xi64>) -> tensor<2xi64> {
    %result = "stablehlo.all_reduce"(%operand) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %0 = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %0 : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    return %result : tensor<2xi64>
  }
  func.func @main() {
    %in0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %in1 = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
    %results:2 = "interpreter.run_parallel"(%in0, %in1) {programs=[[@all_reduce], [@all_reduce]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
    check.expect_eq_const %results#0, dense<[11, 22]> : tensor<2xi64>
    check.expect_eq_const %results#1, dense<[11, 22]> : tensor<2xi64>
    func.return
  }
})",
                                   "p.mlir", 1);
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_EQ(r.checks, 2);
}

}  // namespace
}  // namespace systolic::stablehlo
