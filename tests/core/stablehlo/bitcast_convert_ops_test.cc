// stablehlo.bitcast_convert to and from i1, which is one bit in StableHLO:
// element k is bit k of the wider value (0x0123456789ABCDEF as 64 bits,
// both ways), the shapes must hold the same number of bits, and casts
// between other types stay HLO's bitcast-convert.
#include <string>

#include "core/stablehlo/check_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

CheckCaseResult RunCase(const std::string& text) { return RunCheckCase(text, "bitcast.mlir", 1); }

TEST(BitcastConvertOps, BitsPackIntoAnI64LowestFirst) {
  CheckCaseResult r = RunCase(R"(
func.func @i1_to_i64() {
  %operand = stablehlo.constant dense<[true, true, true, true, false, true, true, true, true, false, true, true, false, false, true, true, true, true, false, true, false, true, false, true, true, false, false, true, false, false, false, true, true, true, true, false, false, true, true, false, true, false, true, false, false, false, true, false, true, true, false, false, false, true, false, false, true, false, false, false, false, false, false, false]> : tensor<64xi1>
  %result = stablehlo.bitcast_convert %operand : (tensor<64xi1>) -> tensor<i64>
  check.expect_eq_const %result, dense<81985529216486895> : tensor<i64>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(BitcastConvertOps, AnI64UnpacksIntoItsBits) {
  CheckCaseResult r = RunCase(R"(
func.func @i64_to_i1() {
  %operand = stablehlo.constant dense<81985529216486895> : tensor<i64>
  %result = stablehlo.bitcast_convert %operand : (tensor<i64>) -> tensor<64xi1>
  check.expect_eq_const %result, dense<[true, true, true, true, false, true, true, true, true, false, true, true, false, false, true, true, true, true, false, true, false, true, false, true, true, false, false, true, false, false, false, true, true, true, true, false, false, true, true, false, true, false, true, false, false, false, true, false, true, true, false, false, false, true, false, false, true, false, false, false, false, false, false, false]> : tensor<64xi1>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(BitcastConvertOps, RowsOfBitsBecomeFloats) {
  // 0x3F800000 is 1.0; 0x80000000 is -0.0.
  CheckCaseResult r = RunCase(R"(
func.func @i1_to_f32_2d() {
  %operand = stablehlo.constant dense<[[false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true]]> : tensor<2x32xi1>
  %result = stablehlo.bitcast_convert %operand : (tensor<2x32xi1>) -> tensor<2xf32>
  check.expect_eq_const %result, dense<[1.0, -0.0]> : tensor<2xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(BitcastConvertOps, BitsThatDoNotAddUpAreAnErrorAtTheOp) {
  CheckCaseResult r = RunCase(R"(
func.func @i8_to_bad() {
  %operand = stablehlo.constant dense<1> : tensor<i8>
  %result = stablehlo.bitcast_convert %operand : (tensor<i8>) -> tensor<4xi1>
  func.return
})");
  EXPECT_FALSE(r.passed);
  EXPECT_THAT(r.message, ::testing::HasSubstr(
                             "bitcast.mlir:4:3: bitcast_convert from s8[] to pred[4] changes the number of bits"));
}

TEST(BitcastConvertOps, OtherTypesKeepTheirBits) {
  CheckCaseResult r = RunCase(R"(
func.func @bf16_to_i64() {
  %operand = stablehlo.constant dense<[0xCDEF, 0x89AB, 0x4567, 0x0123]> : tensor<4xbf16>
  %result = stablehlo.bitcast_convert %operand : (tensor<4xbf16>) -> tensor<i64>
  check.expect_eq_const %result, dense<0x0123456789ABCDEF> : tensor<i64>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

}  // namespace
}  // namespace systolic::stablehlo
