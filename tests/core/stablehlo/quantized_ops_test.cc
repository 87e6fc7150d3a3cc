// Uniform quantized tensors: quantize and dequantize per tensor and per axis,
// rounding half to even and clamping to the storage range, requantizing, and
// ops on quantized values computed through the expressed type as the
// StableHLO spec says (dequantize, apply, quantize). Values by hand.
#include <string>

#include "core/stablehlo/check_runner.h"
#include "core/stablehlo/quant_type.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

using ::testing::HasSubstr;

CheckCaseResult RunCase(const std::string& text) { return RunCheckCase(text, "quant.mlir", 1); }

TEST(QuantType, ParsesPerTensorPerAxisAndRanges) {
  absl::StatusOr<mlir::QuantType> q = mlir::ParseQuantType("uniform<i8:f32, 0.1:-30>");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->storage, S8);
  EXPECT_EQ(q->expressed, F32);
  EXPECT_EQ(q->storage_min, -128);
  EXPECT_EQ(q->storage_max, 127);
  EXPECT_FALSE(q->per_axis());
  EXPECT_EQ(q->scales, std::vector<double>{0.1});
  EXPECT_EQ(q->zero_points, std::vector<int64_t>{-30});

  q = mlir::ParseQuantType("uniform<i8<-127:127>:f32:1, {1.5E-5:2, 0.5}>");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->storage_min, -127);
  EXPECT_EQ(q->axis, 1);
  EXPECT_EQ(q->scales, (std::vector<double>{1.5e-5, 0.5}));
  EXPECT_EQ(q->zero_points, (std::vector<int64_t>{2, 0}));

  q = mlir::ParseQuantType("uniform<u8:bf16, 2.0>");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->storage_max, 255);
  EXPECT_EQ(q->zero_points, std::vector<int64_t>{0});

  EXPECT_THAT(std::string(mlir::ParseQuantType("uniform<f32:f32, 0.1>").status().message()),
              HasSubstr("'f32' is no integer storage type"));
  EXPECT_THAT(std::string(mlir::ParseQuantType("uniform<i8:f32, -0.1>").status().message()),
              HasSubstr("is not a positive number"));
  EXPECT_THAT(std::string(mlir::ParseQuantType("uniform<i8:f32, 0.1:300>").status().message()),
              HasSubstr("zero point 300 is outside the storage range [-128, 127]"));
  EXPECT_THAT(std::string(mlir::ParseQuantType("uniform<i8<0:300>:f32, 0.1>").status().message()),
              HasSubstr("storage range"));
}

TEST(QuantizedOps, QuantizeAndDequantizePerTensor) {
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %x = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %bits = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  check.expect_eq_const %bits, dense<[-12, 10]> : tensor<2xi8>
  %stored = stablehlo.constant dense<[10, -128]> : tensor<2xi8>
  %q2 = stablehlo.bitcast_convert %stored : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %real = stablehlo.uniform_dequantize %q2 : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xf32>
  check.expect_eq_const %real, dense<[15.0, -54.0]> : tensor<2xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, RoundsHalfToEvenAndClampsToTheStorageRange) {
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %x = stablehlo.constant dense<[2.5, 3.5, -2.5, 1000.0, -1000.0]> : tensor<5xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8<-127:127>:f32, 1.0>>
  %bits = stablehlo.bitcast_convert %q : (tensor<5x!quant.uniform<i8<-127:127>:f32, 1.0>>) -> tensor<5xi8>
  check.expect_eq_const %bits, dense<[2, 4, -2, 127, -127]> : tensor<5xi8>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, PerAxisScalesApplyAlongTheirAxis) {
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>
  %bits = stablehlo.bitcast_convert %q : (tensor<2x2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2x2xi8>
  check.expect_eq_const %bits, dense<[[-20, -10], [-14, -12]]> : tensor<2x2xi8>
  %back = stablehlo.uniform_dequantize %q : (tensor<2x2x!quant.uniform<i8:f32:0, {0.1:-30, 0.5:-20}>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %back, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, RequantizingGoesThroughTheRealValues) {
  // 30 stored at scale 0.5 is 15.0; at scale 0.25, zero point 4, it is 64.
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %stored = stablehlo.constant dense<30> : tensor<i8>
  %q = stablehlo.bitcast_convert %stored : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %r = stablehlo.uniform_quantize %q : (tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i8:f32, 0.25:4>>
  %bits = stablehlo.bitcast_convert %r : (tensor<!quant.uniform<i8:f32, 0.25:4>>) -> tensor<i8>
  check.expect_eq_const %bits, dense<64> : tensor<i8>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, AnAddOfTwoScalesGivesAThird) {
  // 0.25 and 0.75 add to 1.0, which at scale 0.15 (zero point -1) is 6:
  // 1.05 once dequantized.
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %a = stablehlo.constant dense<0.25> : tensor<2x2xf32>
  %b = stablehlo.constant dense<0.75> : tensor<2x2xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>
  %qb = stablehlo.uniform_quantize %b : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>
  %sum = "stablehlo.add"(%qa, %qb) : (tensor<2x2x!quant.uniform<i8:f32, 0.025:-1>>, tensor<2x2x!quant.uniform<i8:f32, 0.075:-1>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>
  %real = stablehlo.uniform_dequantize %sum : (tensor<2x2x!quant.uniform<i8:f32, 1.5e-01:-1>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %real, dense<1.05> : tensor<2x2xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, AnInt8DotAccumulatesInInt32) {
  // [0.5, 1.0] . [1.0, 1.5] = 2.0, which at scale 0.25 is 8.
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %a = stablehlo.constant dense<[[0.5, 1.0]]> : tensor<1x2xf32>
  %b = stablehlo.constant dense<[[1.0], [1.5]]> : tensor<2x1xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5>>
  %qb = stablehlo.uniform_quantize %b : (tensor<2x1xf32>) -> tensor<2x1x!quant.uniform<i8:f32, 0.5>>
  %d = stablehlo.dot_general %qa, %qb, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.25>>
  %bits = stablehlo.bitcast_convert %d : (tensor<1x1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1xi32>
  check.expect_eq_const %bits, dense<8> : tensor<1x1xi32>
  %real = stablehlo.uniform_dequantize %d : (tensor<1x1x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x1xf32>
  check.expect_eq_const %real, dense<2.0> : tensor<1x1xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, DataMovementKeepsTheStoredValues) {
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %stored = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %q = stablehlo.bitcast_convert %stored : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 0.0039:-128>>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x2x!quant.uniform<i8:f32, 0.0039:-128>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.0039:-128>>
  %bits = stablehlo.bitcast_convert %t : (tensor<2x2x!quant.uniform<i8:f32, 0.0039:-128>>) -> tensor<2x2xi8>
  check.expect_eq_const %bits, dense<[[1, 3], [2, 4]]> : tensor<2x2xi8>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(QuantizedOps, QuantizedArgumentsAndBadTypesAreNamed) {
  CheckCaseResult r = RunCase(R"(
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32:0, {0.1, 0.2}>>
  func.return
})");
  EXPECT_FALSE(r.passed);
  EXPECT_THAT(r.message, HasSubstr("quant.mlir:4:"));
  EXPECT_THAT(r.message, HasSubstr("2 scales do not match the size of the quantized axis 0"));

  r = RunCase(R"(
func.func @main() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  func.return
})");
  EXPECT_FALSE(r.passed);
  EXPECT_THAT(r.message, HasSubstr("the operand must be a float or quantized tensor"));
}

}  // namespace
}  // namespace systolic::stablehlo
