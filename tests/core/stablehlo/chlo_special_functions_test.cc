// CHLO's special functions in their short form, checked against values of
// the functions worked out from their closed forms at simple points.
#include <string>

#include "core/stablehlo/check_runner.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

void ExpectPasses(const std::string& text) {
  CheckCaseResult r = RunCheckCase(text, "chlo.mlir", 1);
  EXPECT_TRUE(r.passed) << r.message;
  EXPECT_GT(r.checks, 0);
}

TEST(ChloSpecialFunctions, LgammaWithReflectionAndPoles) {
  // lgamma(1/2) = log sqrt(pi), lgamma(3) = log 2, lgamma(-1/2) = log(2 sqrt(pi)),
  // lgamma(1) = 0, and +inf at the poles and at -inf.
  ExpectPasses(R"(
func.func @lgamma() {
  %x = stablehlo.constant dense<[0.5, 3.0, -0.5, 1.0, -2.0, 0xFF800000]> : tensor<6xf32>
  %r = chlo.lgamma %x : tensor<6xf32> -> tensor<6xf32>
  check.expect_almost_eq_const %r, dense<[0.572364943, 0.693147182, 1.26551211, 0.0, 0x7F800000, 0x7F800000]> : tensor<6xf32>, tolerance = 1.0e-5
  func.return
})");
  ExpectPasses(R"(
func.func @lgamma_f64() {
  %x = stablehlo.constant dense<[0.5, 10.0, -2.5]> : tensor<3xf64>
  %r = chlo.lgamma %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[0.57236494292470008, 12.801827480081469, -0.056243716497674054]> : tensor<3xf64>, tolerance = 1.0e-12
  func.return
})");
}

TEST(ChloSpecialFunctions, DigammaWithReflectionAndPoles) {
  // digamma(1) = -gamma, digamma(1/2) = -gamma - 2 log 2, digamma(-1/2) =
  // digamma(1/2) + 2; NaN at zero and the negative integers.
  ExpectPasses(R"(
func.func @digamma() {
  %x = stablehlo.constant dense<[1.0, 0.5, -0.5, 0.0, -3.0]> : tensor<5xf32>
  %r = chlo.digamma %x : tensor<5xf32> -> tensor<5xf32>
  check.expect_almost_eq_const %r, dense<[-0.577215672, -1.96351004, 0.0364899743, 0x7FC00000, 0x7FC00000]> : tensor<5xf32>, tolerance = 1.0e-5
  func.return
})");
}

TEST(ChloSpecialFunctions, ErfInvInF32F64AndF16) {
  ExpectPasses(R"(
func.func @erf_inv() {
  %x = stablehlo.constant dense<[0.0, 0.5, -0.9, 0.999, 1.0, -1.0]> : tensor<6xf32>
  %r = chlo.erf_inv %x : tensor<6xf32> -> tensor<6xf32>
  check.expect_almost_eq_const %r, dense<[0.0, 0.476936281, -1.16308713, 2.32675377, 0x7F800000, 0xFF800000]> : tensor<6xf32>, tolerance = 1.0e-5
  func.return
})");
  // f64 to 1e-14 away from +-1; near them erf is flat (erf'(3.46) ~ 7e-6),
  // so an f64 erf pins the inverse only to ~1e-11.
  ExpectPasses(R"(
func.func @erf_inv_f64() {
  %x = stablehlo.constant dense<[0.5, -0.9]> : tensor<2xf64>
  %r = chlo.erf_inv %x : tensor<2xf64> -> tensor<2xf64>
  check.expect_almost_eq_const %r, dense<[0.47693627620446987, -1.1630871536766742]> : tensor<2xf64>, tolerance = 1.0e-14
  func.return
})");
  ExpectPasses(R"(
func.func @erf_inv_f64_near_one() {
  %x = stablehlo.constant dense<0.999999> : tensor<f64>
  %r = chlo.erf_inv %x : tensor<f64> -> tensor<f64>
  check.expect_almost_eq_const %r, dense<3.4589107372754988> : tensor<f64>, tolerance = 1.0e-10
  func.return
})");
  // f16 is computed in f32 and rounded once: erfinv(0.5) = 0.4769 -> 0.477.
  ExpectPasses(R"(
func.func @erf_inv_f16() {
  %x = stablehlo.constant dense<[0.5]> : tensor<1xf16>
  %r = chlo.erf_inv %x : tensor<1xf16> -> tensor<1xf16>
  check.expect_eq_const %r, dense<[0.4770]> : tensor<1xf16>
  func.return
})");
}

TEST(ChloSpecialFunctions, NextAfterStepsOneUlpOnTheBits) {
  // 1 -> 1 + 2^-23 (0x3F800001), 1 -> 1 - 2^-24 (0x3F7FFFFF), 0 -> the
  // smallest negative subnormal, x == y gives y, NaN stays NaN.
  ExpectPasses(R"(
func.func @next_after() {
  %x = stablehlo.constant dense<[1.0, 1.0, 0.0, 2.0, 0x7FC00000]> : tensor<5xf32>
  %y = stablehlo.constant dense<[2.0, 0.0, -1.0, 2.0, 1.0]> : tensor<5xf32>
  %r = chlo.next_after %x, %y : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
  %bits = stablehlo.bitcast_convert %r : (tensor<5xf32>) -> tensor<5xui32>
  check.expect_eq_const %bits, dense<[1065353217, 1065353215, 2147483649, 1073741824, 2143289344]> : tensor<5xui32>
  func.return
})");
  // At f16's own width: 1 -> 1 + 2^-10.
  ExpectPasses(R"(
func.func @next_after_f16() {
  %x = stablehlo.constant dense<[1.0]> : tensor<1xf16>
  %y = stablehlo.constant dense<[2.0]> : tensor<1xf16>
  %r = chlo.next_after %x, %y : tensor<1xf16>, tensor<1xf16> -> tensor<1xf16>
  check.expect_eq_const %r, dense<[1.0009765625]> : tensor<1xf16>
  func.return
})");
}

TEST(ChloSpecialFunctions, NonFloatOperandIsAnErrorAtItsLine) {
  CheckCaseResult r = RunCheckCase(R"(
func.func @bad() {
  %x = stablehlo.constant dense<[1]> : tensor<1xi32>
  %r = chlo.lgamma %x : tensor<1xi32> -> tensor<1xi32>
  func.return
})",
                                   "bad.mlir", 1);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("bad.mlir:4"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("needs a real float operand"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace systolic::stablehlo
