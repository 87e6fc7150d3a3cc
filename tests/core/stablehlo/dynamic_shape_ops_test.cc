// Dynamic-shape ops whose sizes are known at import: a static result type,
// or sizes from a constant operand.
#include <string>

#include "core/stablehlo/check_runner.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

CheckCaseResult RunCase(const std::string& text) { return RunCheckCase(text, "dyn.mlir", 1); }

TEST(DynamicShapeOps, ReshapeWithAStaticResult) {
  CheckCaseResult r = RunCase(R"(
func.func @dynamic_reshape() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<3x2xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(DynamicShapeOps, IotaSizedByAConstant) {
  CheckCaseResult r = RunCase(R"(
func.func @dynamic_iota() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  %expected = stablehlo.constant dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  check.expect_eq %r, %expected : tensor<2x3xi32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(DynamicShapeOps, BroadcastInDimStretchesSizeOne) {
  CheckCaseResult r = RunCase(R"(
func.func @dynamic_broadcast_in_dim() {
  %x = stablehlo.constant dense<[[7], [8]]> : tensor<2x1xf32>
  %dims = stablehlo.constant dense<[3, 2, 2]> : tensor<3xi64>
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %dims) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<2x1xf32>, tensor<3xi64>) -> tensor<3x2x2xf32>
  check.expect_eq_const %r, dense<[[[7.0, 7.0], [8.0, 8.0]], [[7.0, 7.0], [8.0, 8.0]], [[7.0, 7.0], [8.0, 8.0]]]> : tensor<3x2x2xf32>
  func.return
})");
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(DynamicShapeOps, SizesKnownOnlyAtRunTimeAreAnErrorAtTheOp) {
  CheckCaseResult r = RunCase(R"(
func.func @dynamic_iota() {
  %a = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %shape = stablehlo.add %a, %a : tensor<2xi64>
  %r = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xi32>
  func.return
})");
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("dyn.mlir:5"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("known only at run time"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace systolic::stablehlo
