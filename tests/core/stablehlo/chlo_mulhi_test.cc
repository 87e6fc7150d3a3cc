// chlo.mulhi: the high half of the double-width product, worked out by hand.
#include <string>

#include "core/stablehlo/check_runner.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

void ExpectPasses(const std::string& text) {
  CheckCaseResult r = RunCheckCase(text, "mulhi.mlir", 1);
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(ChloMulHi, NarrowSignedAndUnsigned) {
  // 2^30 * 8 = 2^33: high word 2 (and -2 for the negative product);
  // 65535^2 = 0xFFFE0001; (-128)^2 = 0x4000.
  ExpectPasses(R"(
func.func @mulhi() {
  %a = stablehlo.constant dense<[1073741824, -1073741824]> : tensor<2xi32>
  %b = stablehlo.constant dense<[8, 8]> : tensor<2xi32>
  %r = "chlo.mulhi"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %c = stablehlo.constant dense<65535> : tensor<ui16>
  %s = "chlo.mulhi"(%c, %c) : (tensor<ui16>, tensor<ui16>) -> tensor<ui16>
  %d = stablehlo.constant dense<-128> : tensor<i8>
  %t = "chlo.mulhi"(%d, %d) : (tensor<i8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %r, dense<[2, -2]> : tensor<2xi32>
  check.expect_eq_const %s, dense<65534> : tensor<ui16>
  check.expect_eq_const %t, dense<64> : tensor<i8>
  func.return
})");
}

TEST(ChloMulHi, SixtyFourBitsThroughHalves) {
  // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high word 2^64 - 2. Signed:
  // -2^63 * 2 = -2^64 (high -1), (-1)(-1) = 1 (high 0), 2^62 * 4 = 2^64 (high 1).
  ExpectPasses(R"(
func.func @mulhi64() {
  %a = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %r = "chlo.mulhi"(%a, %a) : (tensor<ui64>, tensor<ui64>) -> tensor<ui64>
  %x = stablehlo.constant dense<[-9223372036854775808, -1, 4611686018427387904]> : tensor<3xi64>
  %y = stablehlo.constant dense<[2, -1, 4]> : tensor<3xi64>
  %s = "chlo.mulhi"(%x, %y) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %r, dense<18446744073709551614> : tensor<ui64>
  check.expect_eq_const %s, dense<[-1, 0, 1]> : tensor<3xi64>
  func.return
})");
}

}  // namespace
}  // namespace systolic::stablehlo
