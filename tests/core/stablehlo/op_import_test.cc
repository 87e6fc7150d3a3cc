// The StableHLO importer op by op, with no corpus: every case is a tiny
// module whose @main applies one operation to constants. The test checks the
// HLO instruction the op becomes, its shape and, where the reference
// evaluator can run it, the values it computes. Malformed text must give an
// error that names the file and line, never a crash.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/eval/hlo_evaluator.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_instruction.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_opcode.h"
#include "core/hlo/literal.h"
#include "core/hlo/primitive_type.h"
#include "core/stablehlo/import_context.h"
#include "core/stablehlo/stablehlo_importer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic::stablehlo {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

struct OpCase {
  std::string op;    // named by SCOPED_TRACE
  std::string text;  // a module whose @main returns the op's result
  // The instruction computing the returned value; a get-tuple-element is
  // looked through (multi-result ops hand out their results that way) unless
  // this is kGetTupleElement itself.
  HloOpcode opcode;
  std::string shape;  // HLO shape of the returned value
  // The returned elements in row-major order, tuples flattened, complex
  // numbers as (real, imaginary); empty when the value is not checked.
  std::vector<double> values;
  double tolerance = 0;  // relative; 0 asks for exact values
};

// @main computing %r (or `returned`) of `type` with the statements of `body`.
std::string Main(const std::string& type, const std::string& body,
                 const std::string& returned = "%r") {
  return absl::StrCat("func.func @main() -> ", type, " {\n", body, "\n  return ", returned, " : ",
                      type, "\n}\n");
}

// `%r = <op> %x` on a constant %x; a different result type uses the
// functional type form.
OpCase Unary(const std::string& op, const std::string& x, const std::string& type,
             HloOpcode opcode, const std::string& shape, std::vector<double> values,
             double tolerance = 0, const std::string& result_type = "") {
  const std::string& out = result_type.empty() ? type : result_type;
  const std::string types = result_type.empty() ? type : absl::StrCat("(", type, ") -> ", out);
  return {op,
          Main(out, absl::StrCat("  %x = stablehlo.constant dense<", x, "> : ", type, "\n",
                                 "  %r = ", op, " %x : ", types)),
          opcode,
          shape,
          std::move(values),
          tolerance};
}

// `%r = <op> %a, %b` on constants of one type.
OpCase Binary(const std::string& op, const std::string& a, const std::string& b,
              const std::string& type, HloOpcode opcode, const std::string& shape,
              std::vector<double> values, double tolerance = 0,
              const std::string& result_type = "") {
  const std::string& out = result_type.empty() ? type : result_type;
  const std::string types =
      result_type.empty() ? type : absl::StrCat("(", type, ", ", type, ") -> ", out);
  return {op,
          Main(out, absl::StrCat("  %a = stablehlo.constant dense<", a, "> : ", type, "\n",
                                 "  %b = stablehlo.constant dense<", b, "> : ", type, "\n",
                                 "  %r = ", op, " %a, %b : ", types)),
          opcode,
          shape,
          std::move(values),
          tolerance};
}

// `%r = stablehlo.compare <direction>, %a, %b[, <type>]` on constants.
OpCase Compare(const std::string& direction, const std::string& compare_type,
               const std::string& a, const std::string& b, const std::string& type,
               std::vector<double> values) {
  const int64_t count = std::count(a.begin(), a.end(), ',') + 1;
  const std::string result_type = absl::StrCat("tensor<", count, "xi1>");
  const std::string suffix = compare_type.empty() ? "" : absl::StrCat(", ", compare_type);
  return {absl::StrCat("stablehlo.compare ", direction, suffix),
          Main(result_type,
               absl::StrCat("  %a = stablehlo.constant dense<", a, "> : ", type, "\n",
                            "  %b = stablehlo.constant dense<", b, "> : ", type, "\n",
                            "  %r = stablehlo.compare ", direction, ", %a, %b", suffix, " : (",
                            type, ", ", type, ") -> ", result_type)),
          HloOpcode::kCompare,
          absl::StrCat("pred[", count, "]"),
          std::move(values)};
}

// `%r = stablehlo.constant <value>` returned as is.
OpCase Constant(const std::string& what, const std::string& value, const std::string& type,
                const std::string& shape, std::vector<double> values) {
  return {absl::StrCat("stablehlo.constant ", what),
          Main(type, absl::StrCat("  %r = stablehlo.constant ", value, " : ", type)),
          HloOpcode::kConstant, shape, std::move(values)};
}

// Every element of `literal` as a double: tuples flattened, complex numbers
// as their real and imaginary parts.
void AppendElements(const Literal& literal, std::vector<double>* out) {
  if (literal.shape().IsTuple()) {
    for (int64_t i = 0; i < literal.tuple_size(); ++i) {
      AppendElements(literal.tuple_element(i), out);
    }
    return;
  }
  const bool complex = primitive_util::IsComplexType(literal.element_type());
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    if (complex) {
      const complex128 c = literal.GetAsComplex128(i);
      out->push_back(c.real());
      out->push_back(c.imag());
    } else {
      out->push_back(literal.GetAsDouble(i));
    }
  }
}

// NaN matches NaN; infinities and exact cases must be equal.
void ExpectValues(const std::vector<double>& actual, const std::vector<double>& expected,
                  double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i << " is " << actual[i];
    } else if (tolerance == 0 || std::isinf(expected[i])) {
      EXPECT_EQ(actual[i], expected[i]) << "element " << i;
    } else {
      EXPECT_NEAR(actual[i], expected[i], tolerance * std::max(1.0, std::abs(expected[i])))
          << "element " << i;
    }
  }
}

// Imports the case, checks the instruction and shape, then runs it.
void ExpectImports(const OpCase& c) {
  SCOPED_TRACE(c.op);
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseStableHlo(c.text, "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status() << "\n" << c.text;
  const HloInstruction* root = (*module)->entry_computation()->root_instruction();
  EXPECT_EQ(root->shape().ToString(), c.shape);
  const HloInstruction* producer = root;
  if (producer->opcode() == HloOpcode::kGetTupleElement &&
      c.opcode != HloOpcode::kGetTupleElement) {
    producer = producer->operand(0);
  }
  EXPECT_EQ(HloOpcodeString(producer->opcode()), HloOpcodeString(c.opcode));
  if (c.values.empty()) return;
  HloEvaluator evaluator;
  absl::StatusOr<Literal> result = evaluator.Evaluate(**module, std::vector<Literal>());
  ASSERT_TRUE(result.ok()) << result.status();
  std::vector<double> actual;
  AppendElements(*result, &actual);
  ExpectValues(actual, c.values, c.tolerance);
}

void ExpectAllImport(const std::vector<OpCase>& cases) {
  for (const OpCase& c : cases) ExpectImports(c);
}

// Relative tolerance for transcendental functions, solvers and transforms.
constexpr double kInexact = 1e-6;

TEST(StableHloOpImport, ElementwiseUnaryOps) {
  const std::string f3 = "tensor<3xf32>", f2 = "tensor<2xf32>", i3 = "tensor<3xi32>";
  ExpectAllImport({
      Unary("stablehlo.abs", "[-1.5, 0.0, 2.0]", f3, HloOpcode::kAbs, "f32[3]", {1.5, 0, 2}),
      Unary("stablehlo.abs", "[-3, 0, 4]", i3, HloOpcode::kAbs, "s32[3]", {3, 0, 4}),
      Unary("stablehlo.abs", "[(3.0, 4.0)]", "tensor<1xcomplex<f32>>", HloOpcode::kAbs, "f32[1]",
            {5}, kInexact, "tensor<1xf32>"),
      Unary("stablehlo.negate", "[1.0, -2.0, 0.5]", f3, HloOpcode::kNegate, "f32[3]",
            {-1, 2, -0.5}),
      Unary("stablehlo.exponential", "[0.0, 1.0, -1.0]", f3, HloOpcode::kExp, "f32[3]",
            {1, 2.718281828459045, 0.36787944117144233}, kInexact),
      Unary("stablehlo.exponential_minus_one", "[0.0, 1.0]", f2, HloOpcode::kExpm1, "f32[2]",
            {0, 1.718281828459045}, kInexact),
      Unary("stablehlo.log", "[1.0, 0.5]", f2, HloOpcode::kLog, "f32[2]",
            {0, -0.6931471805599453}, kInexact),
      Unary("stablehlo.log_plus_one", "[0.0, 1.0]", f2, HloOpcode::kLog1p, "f32[2]",
            {0, 0.6931471805599453}, kInexact),
      Unary("stablehlo.logistic", "[0.0, 2.0]", f2, HloOpcode::kLogistic, "f32[2]",
            {0.5, 0.8807970779778823}, kInexact),
      Unary("stablehlo.tanh", "[0.0, 0.5, -1.0]", f3, HloOpcode::kTanh, "f32[3]",
            {0, 0.46211715726000974, -0.7615941559557649}, kInexact),
      Unary("stablehlo.sqrt", "[4.0, 2.25]", f2, HloOpcode::kSqrt, "f32[2]", {2, 1.5}),
      Unary("stablehlo.rsqrt", "[4.0, 0.25]", f2, HloOpcode::kRsqrt, "f32[2]", {0.5, 2},
            kInexact),
      Unary("stablehlo.cbrt", "[8.0, -27.0]", f2, HloOpcode::kCbrt, "f32[2]", {2, -3},
            kInexact),
      Unary("stablehlo.floor", "[-1.5, 1.5, 2.0]", f3, HloOpcode::kFloor, "f32[3]", {-2, 1, 2}),
      Unary("stablehlo.ceil", "[-1.5, 1.5, 2.0]", f3, HloOpcode::kCeil, "f32[3]", {-1, 2, 2}),
      Unary("stablehlo.sign", "[-3.0, 0.0, 2.0]", f3, HloOpcode::kSign, "f32[3]", {-1, 0, 1}),
      Unary("stablehlo.sign", "[-5, 0, 7]", i3, HloOpcode::kSign, "s32[3]", {-1, 0, 1}),
      Unary("stablehlo.not", "[true, false]", "tensor<2xi1>", HloOpcode::kNot, "pred[2]",
            {0, 1}),
      Unary("stablehlo.not", "[0, 5, -1]", i3, HloOpcode::kNot, "s32[3]", {-1, -6, 0}),
      Unary("stablehlo.cosine", "[0.0, 3.14159265]", f2, HloOpcode::kCos, "f32[2]", {1, -1},
            kInexact),
      Unary("stablehlo.sine", "[0.0, 1.57079633]", f2, HloOpcode::kSin, "f32[2]", {0, 1},
            kInexact),
      Unary("stablehlo.tan", "[0.0, 0.5]", f2, HloOpcode::kTan, "f32[2]",
            {0, 0.5463024898437905}, kInexact),
      Unary("stablehlo.round_nearest_even", "[0.5, 1.5, 2.5, -2.5]", "tensor<4xf32>",
            HloOpcode::kRoundNearestEven, "f32[4]", {0, 2, 2, -2}),
      Unary("stablehlo.round_nearest_afz", "[0.5, 1.5, 2.5, -2.5]", "tensor<4xf32>",
            HloOpcode::kRoundNearestAfz, "f32[4]", {1, 2, 3, -3}),
      Unary("stablehlo.is_finite", "[1.0, 0x7F800000, 0x7FC00000]", f3, HloOpcode::kIsFinite,
            "pred[3]", {1, 0, 0}, 0, "tensor<3xi1>"),
      Unary("stablehlo.popcnt", "[7, 0, -1]", i3, HloOpcode::kPopulationCount, "s32[3]",
            {3, 0, 32}),
      Unary("stablehlo.count_leading_zeros", "[1, 0, -1]", i3, HloOpcode::kClz, "s32[3]",
            {31, 32, 0}),
      Unary("stablehlo.real", "[(1.0, 2.0), (3.0, -4.0)]", "tensor<2xcomplex<f32>>",
            HloOpcode::kReal, "f32[2]", {1, 3}, 0, f2),
      Unary("stablehlo.imag", "[(1.0, 2.0), (3.0, -4.0)]", "tensor<2xcomplex<f32>>",
            HloOpcode::kImag, "f32[2]", {2, -4}, 0, f2),
  });
}

TEST(StableHloOpImport, ElementwiseBinaryOps) {
  const std::string f2 = "tensor<2xf32>", i2 = "tensor<2xi32>", b3 = "tensor<3xi1>";
  ExpectAllImport({
      Binary("stablehlo.add", "[1.0, 2.5]", "[3.0, 4.0]", f2, HloOpcode::kAdd, "f32[2]",
             {4, 6.5}),
      Binary("stablehlo.add", "[1, 2]", "[3, -4]", i2, HloOpcode::kAdd, "s32[2]", {4, -2}),
      Binary("stablehlo.subtract", "[5.0, 1.0]", "[3.0, 4.0]", f2, HloOpcode::kSubtract,
             "f32[2]", {2, -3}),
      Binary("stablehlo.multiply", "[2.0, -1.5]", "[3.0, 2.0]", f2, HloOpcode::kMultiply,
             "f32[2]", {6, -3}),
      Binary("stablehlo.divide", "[1.0, 3.0]", "[4.0, 2.0]", f2, HloOpcode::kDivide, "f32[2]",
             {0.25, 1.5}),
      // Integer division truncates towards zero.
      Binary("stablehlo.divide", "[7, -7]", "[2, 2]", i2, HloOpcode::kDivide, "s32[2]",
             {3, -3}),
      Binary("stablehlo.maximum", "[1.0, 5.0]", "[3.0, 2.0]", f2, HloOpcode::kMaximum,
             "f32[2]", {3, 5}),
      Binary("stablehlo.minimum", "[1, 5]", "[3, 2]", i2, HloOpcode::kMinimum, "s32[2]",
             {1, 2}),
      // Complex maximum orders (real, imaginary) lexicographically, as a select.
      Binary("stablehlo.maximum", "[(1.0, 2.0), (1.0, 3.0)]", "[(1.0, 5.0), (0.0, 9.0)]",
             "tensor<2xcomplex<f32>>", HloOpcode::kSelect, "c64[2]", {1, 5, 1, 3}),
      Binary("stablehlo.power", "[2.0, 3.0]", "[3.0, 2.0]", f2, HloOpcode::kPower, "f32[2]",
             {8, 9}, kInexact),
      Binary("stablehlo.power", "[2, 3]", "[10, 3]", i2, HloOpcode::kPower, "s32[2]",
             {1024, 27}),
      // The remainder takes the sign of the dividend.
      Binary("stablehlo.remainder", "[7, -7]", "[3, 3]", i2, HloOpcode::kRemainder, "s32[2]",
             {1, -1}),
      Binary("stablehlo.remainder", "[5.5, -5.5]", "[2.0, 2.0]", f2, HloOpcode::kRemainder,
             "f32[2]", {1.5, -1.5}),
      Binary("stablehlo.and", "[12, 10]", "[10, 6]", i2, HloOpcode::kAnd, "s32[2]", {8, 2}),
      Binary("stablehlo.or", "[12, 10]", "[10, 6]", i2, HloOpcode::kOr, "s32[2]", {14, 14}),
      Binary("stablehlo.xor", "[12, 10]", "[10, 6]", i2, HloOpcode::kXor, "s32[2]", {6, 12}),
      Binary("stablehlo.and", "[true, true, false]", "[true, false, false]", b3,
             HloOpcode::kAnd, "pred[3]", {1, 0, 0}),
      Binary("stablehlo.or", "[true, true, false]", "[true, false, false]", b3, HloOpcode::kOr,
             "pred[3]", {1, 1, 0}),
      Binary("stablehlo.xor", "[true, true, false]", "[true, false, false]", b3,
             HloOpcode::kXor, "pred[3]", {0, 1, 0}),
      Binary("stablehlo.shift_left", "[1, 3]", "[3, 1]", i2, HloOpcode::kShiftLeft, "s32[2]",
             {8, 6}),
      Binary("stablehlo.shift_right_arithmetic", "[-8, 8]", "[1, 2]", i2,
             HloOpcode::kShiftRightArithmetic, "s32[2]", {-4, 2}),
      Binary("stablehlo.shift_right_logical", "[-8, 8]", "[28, 2]", i2,
             HloOpcode::kShiftRightLogical, "s32[2]", {15, 2}),
      Binary("stablehlo.atan2", "[1.0, 0.0]", "[1.0, 1.0]", f2, HloOpcode::kAtan2, "f32[2]",
             {0.7853981633974483, 0}, kInexact),
      Binary("stablehlo.complex", "[1.0, 2.0]", "[3.0, 4.0]", f2, HloOpcode::kComplex, "c64[2]",
             {1, 3, 2, 4}, 0, "tensor<2xcomplex<f32>>"),
  });
  // The generic form of the same ops.
  ExpectImports({"\"stablehlo.subtract\" (generic)", Main("tensor<2xi32>", R"(
  %a = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = "stablehlo.subtract"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>)"),
                 HloOpcode::kSubtract, "s32[2]", {9, 18}});
}

TEST(StableHloOpImport, CompareInEveryDirection) {
  const std::string f3 = "tensor<3xf32>";
  const std::string a = "[1.0, 2.0, 3.0]", b = "[2.0, 2.0, 2.0]";
  ExpectAllImport({
      Compare("EQ", "FLOAT", a, b, f3, {0, 1, 0}),
      Compare("NE", "FLOAT", a, b, f3, {1, 0, 1}),
      Compare("LT", "FLOAT", a, b, f3, {1, 0, 0}),
      Compare("LE", "FLOAT", a, b, f3, {1, 1, 0}),
      Compare("GT", "FLOAT", a, b, f3, {0, 0, 1}),
      Compare("GE", "FLOAT", a, b, f3, {0, 1, 1}),
      // Without a comparison type the element type decides.
      Compare("GE", "", a, b, f3, {0, 1, 1}),
      Compare("LT", "SIGNED", "[-1, 2, 3]", "[2, 2, 2]", "tensor<3xi32>", {1, 0, 0}),
      Compare("GT", "SIGNED", "[-1, 2, 3]", "[2, 2, 2]", "tensor<3xi64>", {0, 0, 1}),
      Compare("LT", "UNSIGNED", "[1, 4294967295]", "[2, 2]", "tensor<2xui32>", {1, 0}),
      // Total order puts -0 before +0 and NaN after everything.
      Compare("LT", "TOTALORDER", "[-0.0, 0x7FC00000]", "[0.0, 1.0]", "tensor<2xf32>", {1, 0}),
      Compare("EQ", "", "[true, false]", "[true, true]", "tensor<2xi1>", {1, 0}),
  });
  ExpectImports({"\"stablehlo.compare\" (generic)", Main("tensor<2xi1>", R"(
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %r = "stablehlo.compare"(%a, %b) {
    comparison_direction = #stablehlo<comparison_direction NE>,
    compare_type = #stablehlo<comparison_type SIGNED>
  } : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>)"),
                 HloOpcode::kCompare, "pred[2]", {0, 1}});
}

TEST(StableHloOpImport, SelectClampAndConversions) {
  ExpectAllImport({
      {"stablehlo.select", Main("tensor<3xi64>", R"(
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[2, 3, -1]> : tensor<3xi64>
  %b = stablehlo.constant dense<[3, 7, -3]> : tensor<3xi64>
  %r = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xi64>)"),
       HloOpcode::kSelect, "s64[3]", {2, 7, -1}},
      {"stablehlo.select (scalar predicate)", Main("tensor<2xf32>", R"(
  %p = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)"),
       HloOpcode::kSelect, "f32[2]", {3, 4}},
      {"stablehlo.clamp", Main("tensor<3xf32>", R"(
  %lo = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %x = stablehlo.constant dense<[-1.0, 5.0, 11.0]> : tensor<3xf32>
  %hi = stablehlo.constant dense<[10.0, 10.0, 10.0]> : tensor<3xf32>
  %r = stablehlo.clamp %lo, %x, %hi : tensor<3xf32>)"),
       HloOpcode::kClamp, "f32[3]", {0, 5, 10}},
      {"stablehlo.clamp (scalar bounds)", Main("tensor<3xi32>", R"(
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %x = stablehlo.constant dense<[-1, 5, 11]> : tensor<3xi32>
  %hi = stablehlo.constant dense<10> : tensor<i32>
  %r = stablehlo.clamp %lo, %x, %hi : (tensor<i32>, tensor<3xi32>, tensor<i32>) -> tensor<3xi32>)"),
       HloOpcode::kClamp, "s32[3]", {0, 5, 10}},
      // Float to integer rounds towards zero.
      Unary("stablehlo.convert", "[1.5, -2.7, 3.0]", "tensor<3xf32>", HloOpcode::kConvert,
            "s32[3]", {1, -2, 3}, 0, "tensor<3xi32>"),
      Unary("stablehlo.convert", "[0, 2, -1]", "tensor<3xi32>", HloOpcode::kConvert, "pred[3]",
            {0, 1, 1}, 0, "tensor<3xi1>"),
      Unary("stablehlo.convert", "[1, 300]", "tensor<2xi32>", HloOpcode::kConvert, "bf16[2]",
            {1, 300}, 0, "tensor<2xbf16>"),
      Unary("stablehlo.bitcast_convert", "[1.0, -2.0]", "tensor<2xf32>",
            HloOpcode::kBitcastConvert, "s32[2]", {1065353216, -1073741824}, 0,
            "tensor<2xi32>"),
      Unary("stablehlo.reshape", "[[1, 2, 3], [4, 5, 6]]", "tensor<2x3xi32>", HloOpcode::kReshape,
            "s32[3,2]", {1, 2, 3, 4, 5, 6}, 0, "tensor<3x2xi32>"),
      // Rounded to f16's 10 mantissa bits, 1.0001 becomes 1.
      {"stablehlo.reduce_precision", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0001, 3.0]> : tensor<2xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<2xf32>)"),
       HloOpcode::kReducePrecision, "f32[2]", {1, 3}},
  });
}

TEST(StableHloOpImport, ShapeOps) {
  ExpectAllImport({
      {"stablehlo.broadcast_in_dim", Main("tensor<3x2xi32>", R"(
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<3xi32>) -> tensor<3x2xi32>)"),
       HloOpcode::kBroadcast, "s32[3,2]", {1, 1, 2, 2, 3, 3}},
      // A size-1 dimension stretches to the result's size.
      {"stablehlo.broadcast_in_dim (stretching)", Main("tensor<2x3xi32>", R"(
  %x = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %r = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 0, 1>}
      : (tensor<1x3xi32>) -> tensor<2x3xi32>)"),
       HloOpcode::kBroadcast, "s32[2,3]", {1, 2, 3, 1, 2, 3}},
      {"stablehlo.broadcast", Main("tensor<2x3xi32>", R"(
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = stablehlo.broadcast %x, sizes = [2] : (tensor<3xi32>) -> tensor<2x3xi32>)"),
       HloOpcode::kBroadcast, "s32[2,3]", {1, 2, 3, 1, 2, 3}},
      {"stablehlo.transpose", Main("tensor<3x2xi32>", R"(
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>)"),
       HloOpcode::kTranspose, "s32[3,2]", {1, 4, 2, 5, 3, 6}},
      {"stablehlo.transpose (generic)", Main("tensor<3x2xi32>", R"(
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>}
      : (tensor<2x3xi32>) -> tensor<3x2xi32>)"),
       HloOpcode::kTranspose, "s32[3,2]", {1, 4, 2, 5, 3, 6}},
      {"stablehlo.reverse", Main("tensor<2x3xi32>", R"(
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = stablehlo.reverse %x, dims = [1] : tensor<2x3xi32>)"),
       HloOpcode::kReverse, "s32[2,3]", {3, 2, 1, 6, 5, 4}},
      {"stablehlo.slice", Main("tensor<2xi32>", R"(
  %x = stablehlo.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %r = stablehlo.slice %x [1:4:2] : (tensor<6xi32>) -> tensor<2xi32>)"),
       HloOpcode::kSlice, "s32[2]", {1, 3}},
      {"stablehlo.slice (2-D)", Main("tensor<1x2xi32>", R"(
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = stablehlo.slice %x [1:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<1x2xi32>)"),
       HloOpcode::kSlice, "s32[1,2]", {4, 6}},
      {"stablehlo.slice (generic)", Main("tensor<2x2xi64>", R"(
  %x = stablehlo.constant dense<[[0, 0, 1, 0, 0, 2], [0, 0, 0, 0, 0, 0], [0, 0, 3, 0, 0, 4]]>
      : tensor<3x6xi64>
  %r = "stablehlo.slice"(%x) {
    start_indices = array<i64: 0, 2>,
    limit_indices = array<i64: 3, 6>,
    strides = array<i64: 2, 3>
  } : (tensor<3x6xi64>) -> tensor<2x2xi64>)"),
       HloOpcode::kSlice, "s64[2,2]", {1, 2, 3, 4}},
      {"stablehlo.dynamic_slice", Main("tensor<2xi32>", R"(
  %x = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.dynamic_slice %x, %i, sizes = [2]
      : (tensor<5xi32>, tensor<i32>) -> tensor<2xi32>)"),
       HloOpcode::kDynamicSlice, "s32[2]", {1, 2}},
      // A start index past the end is clamped so the slice stays inside.
      {"stablehlo.dynamic_slice (generic, clamped)", Main("tensor<2xi32>", R"(
  %x = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %i = stablehlo.constant dense<9> : tensor<i64>
  %r = "stablehlo.dynamic_slice"(%x, %i) {slice_sizes = array<i64: 2>}
      : (tensor<5xi32>, tensor<i64>) -> tensor<2xi32>)"),
       HloOpcode::kDynamicSlice, "s32[2]", {3, 4}},
      {"stablehlo.dynamic_update_slice", Main("tensor<4xi32>", R"(
  %x = stablehlo.constant dense<0> : tensor<4xi32>
  %u = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i
      : (tensor<4xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>)"),
       HloOpcode::kDynamicUpdateSlice, "s32[4]", {0, 7, 8, 0}},
      {"stablehlo.concatenate", Main("tensor<3x2xi32>", R"(
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6]]> : tensor<1x2xi32>
  %r = stablehlo.concatenate %a, %b, dim = 0
      : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>)"),
       HloOpcode::kConcatenate, "s32[3,2]", {1, 2, 3, 4, 5, 6}},
      {"stablehlo.concatenate (generic)", Main("tensor<2x3xi32>", R"(
  %a = stablehlo.constant dense<[[1, 2], [4, 5]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[3], [6]]> : tensor<2x1xi32>
  %r = "stablehlo.concatenate"(%a, %b) {dimension = 1 : i64}
      : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>)"),
       HloOpcode::kConcatenate, "s32[2,3]", {1, 2, 3, 4, 5, 6}},
      {"stablehlo.pad", Main("tensor<6xi32>", R"(
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %v = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %x, %v, low = [1], high = [2], interior = [1]
      : (tensor<2xi32>, tensor<i32>) -> tensor<6xi32>)"),
       HloOpcode::kPad, "s32[6]", {0, 1, 0, 2, 0, 0}},
      // Negative padding removes elements.
      {"stablehlo.pad (negative)", Main("tensor<2xi32>", R"(
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %v = stablehlo.constant dense<9> : tensor<i32>
  %r = "stablehlo.pad"(%x, %v) {
    edge_padding_low = array<i64: -1>, edge_padding_high = array<i64: 0>,
    interior_padding = array<i64: 0>
  } : (tensor<3xi32>, tensor<i32>) -> tensor<2xi32>)"),
       HloOpcode::kPad, "s32[2]", {2, 3}},
      {"stablehlo.iota", Main("tensor<2x3xi32>", "  %r = stablehlo.iota dim = 1 : tensor<2x3xi32>"),
       HloOpcode::kIota, "s32[2,3]", {0, 1, 2, 0, 1, 2}},
      {"stablehlo.iota (generic)", Main("tensor<3xf32>", R"(
  %r = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xf32>)"),
       HloOpcode::kIota, "f32[3]", {0, 1, 2}},
      {"stablehlo.get_dimension_size", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %r = "stablehlo.get_dimension_size"(%x) {dimension = 1 : i64}
      : (tensor<2x3xf32>) -> tensor<i32>)"),
       HloOpcode::kGetDimensionSize, "s32[]", {3}},
  });
}

TEST(StableHloOpImport, ReductionsAndWindows) {
  ExpectAllImport({
      {"stablehlo.reduce (applies)", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1]
      : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>)"),
       HloOpcode::kReduce, "f32[2]", {6, 15}},
      {"stablehlo.reduce (reducer)", Main("tensor<3xi32>", R"(
  %x = stablehlo.constant dense<[[1, 7, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %min = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = stablehlo.reduce(%x init: %min) across dimensions = [0]
      : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
   reducer(%p: tensor<i32>, %q: tensor<i32>)  {
    %m = stablehlo.maximum %p, %q : tensor<i32>
    stablehlo.return %m : tensor<i32>
  })"),
       HloOpcode::kReduce, "s32[3]", {4, 7, 6}},
      {"stablehlo.reduce (generic)", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<[2, 3, 4]> : tensor<3xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.reduce"(%x, %one) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %m = stablehlo.multiply %p, %q : tensor<i32>
      stablehlo.return %m : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<i32>) -> tensor<i32>)"),
       HloOpcode::kReduce, "s32[]", {24}},
      // Two inputs reduce together; the op's second result is returned.
      {"stablehlo.reduce (variadic)", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %fz = stablehlo.constant dense<0.0> : tensor<f32>
  %iz = stablehlo.constant dense<0> : tensor<i32>
  %s:2 = stablehlo.reduce(%x init: %fz), (%y init: %iz) applies stablehlo.add
      across dimensions = [0]
      : (tensor<3xf32>, tensor<3xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>))",
                                             "%s#1"),
       HloOpcode::kReduce, "s32[]", {15}},
      {"stablehlo.reduce_window", Main("tensor<3xi32>", R"(
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %zero) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}
      : (tensor<4xi32>, tensor<i32>) -> tensor<3xi32>)"),
       HloOpcode::kReduceWindow, "s32[3]", {3, 5, 7}},
      // Base dilation leaves holes holding the init value; the dilated
      // window adds elements two apart.
      {"stablehlo.reduce_window (padded, dilated)", Main("tensor<4xi64>", R"(
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %zero) ({
    ^bb0(%p: tensor<i64>, %q: tensor<i64>):
      %s = stablehlo.add %p, %q : tensor<i64>
      stablehlo.return %s : tensor<i64>
  }) {
    window_dimensions = array<i64: 2>,
    window_strides = array<i64: 1>,
    base_dilations = array<i64: 2>,
    window_dilations = array<i64: 2>,
    padding = dense<[[1, 0]]> : tensor<1x2xi64>
  } : (tensor<3xi64>, tensor<i64>) -> tensor<4xi64>)"),
       HloOpcode::kReduceWindow, "s64[4]", {0, 3, 0, 5}},
      {"stablehlo.select_and_scatter", Main("tensor<4xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 5.0, 2.0, 3.0]> : tensor<4xf32>
  %src = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %zero) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}
      : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>)"),
       HloOpcode::kSelectAndScatter, "f32[4]", {0, 10, 0, 20}},
      {"stablehlo.map", Main("tensor<3xf32>", R"(
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %r = "stablehlo.map"(%a, %b) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.multiply %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>)"),
       HloOpcode::kMap, "f32[3]", {4, 10, 18}},
  });
}

TEST(StableHloOpImport, ContractionsGatherScatterAndSort) {
  ExpectAllImport({
      {"stablehlo.dot_general", Main("tensor<2x2xf32>", R"(
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>)"),
       HloOpcode::kDot, "f32[2,2]", {4, 5, 10, 11}},
      {"stablehlo.dot_general (batched)", Main("tensor<2x1x1xi32>", R"(
  %a = stablehlo.constant dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi32>
  %b = stablehlo.constant dense<[[[5], [6]], [[7], [8]]]> : tensor<2x2x1xi32>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
      precision = [DEFAULT, DEFAULT]
      : (tensor<2x1x2xi32>, tensor<2x2x1xi32>) -> tensor<2x1x1xi32>)"),
       HloOpcode::kDot, "s32[2,1,1]", {17, 53}},
      {"stablehlo.dot_general (generic)", Main("tensor<f32>", R"(
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %r = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0],
        rhs_contracting_dimensions = [0]>
  } : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>)"),
       HloOpcode::kDot, "f32[]", {32}},
      {"stablehlo.dot", Main("tensor<2xf32>", R"(
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %r = stablehlo.dot %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>)"),
       HloOpcode::kDot, "f32[2]", {3, 7}},
      {"stablehlo.convolution", Main("tensor<1x3x1xf32>", R"(
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[1.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],
      window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> tensor<1x3x1xf32>)"),
       HloOpcode::kConvolution, "f32[1,3,1]", {3, 5, 7}},
      {"stablehlo.convolution (padded, strided)", Main("tensor<1x2x1xf32>", R"(
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
  %r = stablehlo.convolution(%lhs, %rhs)
      dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f],
      window = {stride = [3], pad = [[1, 0]], rhs_dilate = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1xf32>)"),
       HloOpcode::kConvolution, "f32[1,2,1]", {10, 43}},
      {"stablehlo.gather", Main("tensor<2x2xi64>", R"(
  %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %idx = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %r = "stablehlo.gather"(%x, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
        start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>, indices_are_sorted = false
  } : (tensor<3x2xi64>, tensor<2x1xi64>) -> tensor<2x2xi64>)"),
       HloOpcode::kGather, "s64[2,2]", {5, 6, 1, 2}},
      {"stablehlo.scatter", Main("tensor<4xi32>", R"(
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %idx = stablehlo.constant dense<[[1], [3]]> : tensor<2x1xi32>
  %upd = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %r = "stablehlo.scatter"(%x, %idx, %upd) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    indices_are_sorted = true, unique_indices = true
  } : (tensor<4xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<4xi32>)"),
       HloOpcode::kScatter, "s32[4]", {1, 12, 3, 24}},
      {"stablehlo.sort", Main("tensor<4xf32>", R"(
  %x = stablehlo.constant dense<[3.0, 1.0, 4.0, 2.0]> : tensor<4xf32>
  %r = "stablehlo.sort"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare LT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>)"),
       HloOpcode::kSort, "f32[4]", {1, 2, 3, 4}},
      // Keys sort their values along; the values are returned.
      {"stablehlo.sort (two operands)", Main("tensor<2x2xi32>", R"(
  %k = stablehlo.constant dense<[[2, 1], [1, 2]]> : tensor<2x2xi32>
  %v = stablehlo.constant dense<[[20, 10], [30, 40]]> : tensor<2x2xi32>
  %s:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x2xi32>, tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>))",
                                                    "%s#1"),
       HloOpcode::kSort, "s32[2,2]", {10, 20, 30, 40}},
  });
}

TEST(StableHloOpImport, ControlFlowAndCalls) {
  const std::string kTwice = R"(
func.func private @twice(%a: tensor<2xf32>) -> tensor<2xf32> {
  %s = stablehlo.add %a, %a : tensor<2xf32>
  return %s : tensor<2xf32>
}
)";
  ExpectAllImport({
      {"stablehlo.while", Main("tensor<i32>", R"(
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %sum = %zero) : tensor<i32>, tensor<i32>
   cond {
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %s2 = stablehlo.add %sum, %i : tensor<i32>
    stablehlo.return %i2, %s2 : tensor<i32>, tensor<i32>
  })",
                                 "%w#1"),
       HloOpcode::kWhile, "s32[]", {10}},
      {"stablehlo.while (generic)", Main("tensor<f32>", R"(
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %limit = stablehlo.constant dense<100.0> : tensor<f32>
  %r = "stablehlo.while"(%x) ({
    ^bb0(%v: tensor<f32>):
      %c = stablehlo.compare LT, %v, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%v: tensor<f32>):
      %d = stablehlo.add %v, %v : tensor<f32>
      stablehlo.return %d : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>)"),
       HloOpcode::kWhile, "f32[]", {128}},
      {"stablehlo.if", Main("tensor<2xf32>", R"(
  %p = stablehlo.constant dense<false> : tensor<i1>
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<2xf32>
  }, {
    %n = stablehlo.negate %x : tensor<2xf32>
    stablehlo.return %n : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>)"),
       HloOpcode::kConditional, "f32[2]", {-1, -2}},
      {"stablehlo.if (two results)", Main("tensor<i32>", R"(
  %p = stablehlo.constant dense<true> : tensor<i1>
  %c:2 = "stablehlo.if"(%p) ({
    %a = stablehlo.constant dense<1> : tensor<i32>
    %b = stablehlo.constant dense<2> : tensor<i32>
    stablehlo.return %a, %b : tensor<i32>, tensor<i32>
  }, {
    %a = stablehlo.constant dense<3> : tensor<i32>
    %b = stablehlo.constant dense<4> : tensor<i32>
    stablehlo.return %a, %b : tensor<i32>, tensor<i32>
  }) : (tensor<i1>) -> (tensor<i32>, tensor<i32>))",
                                            "%c#1"),
       HloOpcode::kConditional, "s32[]", {2}},
      {"stablehlo.case", Main("tensor<i32>", R"(
  %index = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.case"(%index) ({
    %a = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %b = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %b : tensor<i32>
  }, {
    %c = stablehlo.constant dense<30> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>)"),
       HloOpcode::kConditional, "s32[]", {20}},
      // An index out of range runs the last branch.
      {"stablehlo.case (out of range)", Main("tensor<i32>", R"(
  %index = stablehlo.constant dense<7> : tensor<i32>
  %r = "stablehlo.case"(%index) ({
    %a = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %b = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>)"),
       HloOpcode::kConditional, "s32[]", {20}},
      {"func.call", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %r = func.call @twice(%x) : (tensor<2xf32>) -> tensor<2xf32>)") + kTwice,
       HloOpcode::kCall, "f32[2]", {2, 5}},
      {"stablehlo.composite", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %r = stablehlo.composite "test.twice" %x {decomposition = @twice}
      : (tensor<2xf32>) -> tensor<2xf32>)") +
           kTwice,
       HloOpcode::kCall, "f32[2]", {2, 5}},
      {"stablehlo.optimization_barrier", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<7> : tensor<i32>
  %b:2 = stablehlo.optimization_barrier %x, %y : tensor<2xf32>, tensor<i32>)",
                                                "%b#1"),
       HloOpcode::kOptimizationBarrier, "s32[]", {7}},
  });
}

TEST(StableHloOpImport, TuplesAndConstants) {
  ExpectAllImport({
      {"stablehlo.tuple", Main("tuple<tensor<2xf32>, tensor<i32>>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<7> : tensor<i32>
  %r = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i32>>)"),
       HloOpcode::kTuple, "(f32[2], s32[])", {1, 2, 7}},
      {"stablehlo.get_tuple_element", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<7> : tensor<i32>
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i32>>
  %r = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>)"),
       HloOpcode::kGetTupleElement, "s32[]", {7}},
      {"stablehlo.get_tuple_element (generic)", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %t = stablehlo.tuple %x : tuple<tensor<2xf32>>
  %r = "stablehlo.get_tuple_element"(%t) {index = 0 : i32}
      : (tuple<tensor<2xf32>>) -> tensor<2xf32>)"),
       HloOpcode::kGetTupleElement, "f32[2]", {1, 2}},
      Constant("splat", "dense<1.5>", "tensor<2x2xf32>", "f32[2,2]", {1.5, 1.5, 1.5, 1.5}),
      Constant("list", "dense<[[1, 2, 3], [4, 5, 6]]>", "tensor<2x3xi32>", "s32[2,3]",
               {1, 2, 3, 4, 5, 6}),
      Constant("scalar", "dense<3.0>", "tensor<f32>", "f32[]", {3}),
      Constant("exponent notation", "dense<[1.000000e+00, -2.500000e-01]>", "tensor<2xf32>",
               "f32[2]", {1, -0.25}),
      Constant("bool list", "dense<[true, false, true]>", "tensor<3xi1>", "pred[3]", {1, 0, 1}),
      Constant("bool splat", "dense<true>", "tensor<2xi1>", "pred[2]", {1, 1}),
      Constant("i8", "dense<[-128, 127]>", "tensor<2xi8>", "s8[2]", {-128, 127}),
      Constant("ui8", "dense<[0, 255]>", "tensor<2xui8>", "u8[2]", {0, 255}),
      Constant("ui16", "dense<[65535, 1]>", "tensor<2xui16>", "u16[2]", {65535, 1}),
      Constant("i64", "dense<-9000000000>", "tensor<i64>", "s64[]", {-9000000000.0}),
      Constant("ui32", "dense<4294967295>", "tensor<ui32>", "u32[]", {4294967295.0}),
      Constant("bf16", "dense<[1.5, -2.0, 0.15625]>", "tensor<3xbf16>", "bf16[3]",
               {1.5, -2, 0.15625}),
      Constant("f16", "dense<[0.5, 65504.0, -0.25]>", "tensor<3xf16>", "f16[3]",
               {0.5, 65504, -0.25}),
      Constant("f64", "dense<[0.1, -3.0]>", "tensor<2xf64>", "f64[2]", {0.1, -3}),
      Constant("f6E2M3FN", "dense<[7.5, -0.125, 1.0625]>", "tensor<3xf6E2M3FN>", "f6e2m3fn[3]",
               {7.5, -0.125, 1}),
      Constant("f6E3M2FN", "dense<[28.0, 0.0625]>", "tensor<2xf6E3M2FN>", "f6e3m2fn[2]",
               {28, 0.0625}),
      Constant("hex bytes", "dense<\"0x0000803F00000040\">", "tensor<2xf32>", "f32[2]", {1, 2}),
      Constant("hex elements", "dense<[0x7F800000, 0xFF800000, 0x7FC00000]>", "tensor<3xf32>",
               "f32[3]", {INFINITY, -INFINITY, NAN}),
      Constant("complex", "dense<[(1.0, -2.0), (0.5, 3.0)]>", "tensor<2xcomplex<f32>>", "c64[2]",
               {1, -2, 0.5, 3}),
      Constant("empty", "dense<>", "tensor<0xf32>", "f32[0]", {}),
      {"stablehlo.constant (generic)", Main("tensor<2xi32>", R"(
  %r = "stablehlo.constant"() {value = dense<[4, 5]> : tensor<2xi32>} : () -> tensor<2xi32>)"),
       HloOpcode::kConstant, "s32[2]", {4, 5}},
      {"stablehlo.constant (properties)", Main("tensor<i64>", R"(
  %r = "stablehlo.constant"() <{value = dense<7> : tensor<i64>}> : () -> tensor<i64>)"),
       HloOpcode::kConstant, "s64[]", {7}},
  });
}

TEST(StableHloOpImport, LinearAlgebraRandomAndCustomCalls) {
  ExpectAllImport({
      {"stablehlo.triangular_solve", Main("tensor<2x1xf32>", R"(
  %a = stablehlo.constant dense<[[2.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %r = "stablehlo.triangular_solve"(%a, %b) {
    left_side = true, lower = true, unit_diagonal = false,
    transpose_a = #stablehlo<transpose NO_TRANSPOSE>
  } : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>)"),
       HloOpcode::kTriangularSolve, "f32[2,1]", {1, 2}, kInexact},
      // Only the lower triangle of the factor is defined.
      {"stablehlo.cholesky", Main("tensor<2x2xf32>", R"(
  %a = stablehlo.constant dense<[[4.0, 2.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %r = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>)"),
       HloOpcode::kCholesky, "f32[2,2]"},
      {"stablehlo.fft", Main("tensor<4xcomplex<f32>>", R"(
  %x = stablehlo.constant dense<[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]>
      : tensor<4xcomplex<f32>>
  %r = "stablehlo.fft"(%x) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>}
      : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>)"),
       HloOpcode::kFft, "c64[4]", {1, 0, 1, 0, 1, 0, 1, 0}, kInexact},
      {"stablehlo.batch_norm_inference", Main("tensor<1x2xf32>", R"(
  %x = stablehlo.constant dense<[[3.0, 5.0]]> : tensor<1x2xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %variance = stablehlo.constant dense<[4.0, 16.0]> : tensor<2xf32>
  %r = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %variance)
      {epsilon = 0.0 : f32, feature_index = 1 : i64}
      : (tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
      -> tensor<1x2xf32>)"),
       HloOpcode::kBatchNormInference, "f32[1,2]", {1, 3}, kInexact},
      {"stablehlo.rng_bit_generator", Main("tensor<4xui32>", R"(
  %state = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %g:2 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>))",
                                                  "%g#1"),
       HloOpcode::kRngBitGenerator, "u32[4]"},
      {"stablehlo.rng", Main("tensor<3xf32>", R"(
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>)"),
       HloOpcode::kRng, "f32[3]"},
      {"stablehlo.custom_call", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = stablehlo.custom_call @my_kernel(%x) {backend_config = "opaque", has_side_effect = true}
      : (tensor<2xf32>) -> tensor<2xf32>)"),
       HloOpcode::kCustomCall, "f32[2]"},
      {"stablehlo.custom_call (two results)", Main("tensor<i32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c:2 = stablehlo.custom_call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>))",
                                                        "%c#1"),
       HloOpcode::kCustomCall, "s32[]"},
      {"stablehlo.replica_id", Main("tensor<ui32>", "  %r = stablehlo.replica_id : tensor<ui32>"),
       HloOpcode::kReplicaId, "u32[]", {0}},
      {"stablehlo.partition_id",
       Main("tensor<ui32>", "  %r = stablehlo.partition_id : tensor<ui32>"),
       HloOpcode::kPartitionId, "u32[]", {0}},
      {"stablehlo.create_token",
       Main("!stablehlo.token", "  %r = stablehlo.create_token : !stablehlo.token"),
       HloOpcode::kAfterAll, "token[]"},
      {"stablehlo.all_reduce", Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xf32>) -> tensor<2xf32>)"),
       HloOpcode::kAllReduce, "f32[2]"},
  });
}

// The custom call keeps its target, configuration and side effect.
TEST(StableHloOpImport, CustomCallAttributes) {
  const std::string text = Main("tensor<2xf32>", R"(
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = stablehlo.custom_call @my_kernel(%x) {backend_config = "opaque", has_side_effect = true}
      : (tensor<2xf32>) -> tensor<2xf32>)");
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseStableHlo(text, "test.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  const HloInstruction* call = (*module)->entry_computation()->root_instruction();
  EXPECT_EQ(call->custom_call_target(), "my_kernel");
  EXPECT_EQ(call->backend_config(), "opaque");
  EXPECT_TRUE(call->custom_call().has_side_effect);
}

// CHLO ops become plain HLO; the opcode is the last instruction of each
// decomposition.
TEST(StableHloOpImport, ChloDecompositions) {
  const std::string f2 = "tensor<2xf32>", f3 = "tensor<3xf32>";
  // `"chlo.<op>"(%x) : (T) -> R`: the generic form, which the parser reads.
  auto chlo = [](const std::string& op, const std::string& x, const std::string& type,
                 HloOpcode opcode, const std::string& shape, std::vector<double> values,
                 const std::string& result_type = "") {
    const std::string& out = result_type.empty() ? type : result_type;
    return OpCase{op,
                  Main(out, absl::StrCat("  %x = stablehlo.constant dense<", x, "> : ", type,
                                         "\n  %r = \"", op, "\"(%x) : (", type, ") -> ", out)),
                  opcode,
                  shape,
                  std::move(values),
                  kInexact};
  };
  ExpectAllImport({
      chlo("chlo.erf", "[0.0, 1.0]", f2, HloOpcode::kErf, "f32[2]", {0, 0.8427007929497149}),
      chlo("chlo.erfc", "[0.0, 1.0]", f2, HloOpcode::kSubtract, "f32[2]",
           {1, 0.1572992070502851}),
      chlo("chlo.tan", "[0.0, 0.5]", f2, HloOpcode::kTan, "f32[2]", {0, 0.5463024898437905}),
      chlo("chlo.square", "[3.0, -2.0]", f2, HloOpcode::kMultiply, "f32[2]", {9, 4}),
      chlo("chlo.sinh", "[0.0, 1.0]", f2, HloOpcode::kMultiply, "f32[2]",
           {0, 1.1752011936438014}),
      chlo("chlo.cosh", "[0.0, 1.0]", f2, HloOpcode::kMultiply, "f32[2]",
           {1, 1.5430806348152437}),
      chlo("chlo.asin", "[0.0, 0.5]", f2, HloOpcode::kAtan2, "f32[2]", {0, 0.5235987755982989}),
      chlo("chlo.acos", "[1.0, 0.5]", f2, HloOpcode::kAtan2, "f32[2]", {0, 1.0471975511965979}),
      chlo("chlo.atan", "[1.0, 0.0]", f2, HloOpcode::kAtan2, "f32[2]", {0.7853981633974483, 0}),
      chlo("chlo.asinh", "[0.0, 1.0]", f2, HloOpcode::kLog, "f32[2]", {0, 0.881373587019543}),
      chlo("chlo.acosh", "[1.0, 2.0]", f2, HloOpcode::kLog, "f32[2]", {0, 1.3169578969248166}),
      chlo("chlo.atanh", "[0.0, 0.5]", f2, HloOpcode::kMultiply, "f32[2]",
           {0, 0.5493061443340548}),
      chlo("chlo.is_inf", "[1.0, 0x7F800000, 0xFF800000]", f3, HloOpcode::kCompare, "pred[3]",
           {0, 1, 1}, "tensor<3xi1>"),
      chlo("chlo.is_pos_inf", "[1.0, 0x7F800000, 0xFF800000]", f3, HloOpcode::kCompare,
           "pred[3]", {0, 1, 0}, "tensor<3xi1>"),
      chlo("chlo.is_neg_inf", "[1.0, 0x7F800000, 0xFF800000]", f3, HloOpcode::kCompare,
           "pred[3]", {0, 0, 1}, "tensor<3xi1>"),
      // Numpy broadcasting: trailing dimensions line up.
      {"chlo.broadcast_add", Main("tensor<2x3xf32>", R"(
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : tensor<2x3xf32>
  %r = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>)"),
       HloOpcode::kAdd, "f32[2,3]", {11, 22, 33, 41, 52, 63}},
      {"chlo.broadcast_multiply (broadcast_dimensions)", Main("tensor<2x3xi32>", R"(
  %a = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %b = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 0>}
      : (tensor<2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>)"),
       HloOpcode::kMultiply, "s32[2,3]", {2, 4, 6, 12, 15, 18}},
      {"chlo.broadcast_subtract (size-1 dimension)", Main("tensor<2x2xf32>", R"(
  %a = stablehlo.constant dense<[[5.0], [7.0]]> : tensor<2x1xf32>
  %b = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = chlo.broadcast_subtract %a, %b : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xf32>)"),
       HloOpcode::kSubtract, "f32[2,2]", {4, 3, 6, 5}},
      {"chlo.broadcast_maximum", Main("tensor<3xi32>", R"(
  %a = stablehlo.constant dense<[1, 5, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<2> : tensor<i32>
  %r = chlo.broadcast_maximum %a, %b : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>)"),
       HloOpcode::kMaximum, "s32[3]", {2, 5, 3}},
      {"chlo.broadcast_compare", Main("tensor<3xi1>", R"(
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<2.0> : tensor<f32>
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GT>}
      : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>)"),
       HloOpcode::kCompare, "pred[3]", {0, 0, 1}},
      {"chlo.broadcast_and", Main("tensor<2xi1>", R"(
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %b = stablehlo.constant dense<true> : tensor<i1>
  %r = chlo.broadcast_and %a, %b : (tensor<2xi1>, tensor<i1>) -> tensor<2xi1>)"),
       HloOpcode::kAnd, "pred[2]", {1, 0}},
      {"chlo.top_k", Main("tensor<2xi32>", R"(
  %x = stablehlo.constant dense<[1.0, 4.0, 2.0, 3.0]> : tensor<4xf32>
  %t:2 = "chlo.top_k"(%x) {k = 2 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>))",
                                     "%t#1"),
       HloOpcode::kTopK, "s32[2]", {1, 3}},
      {"chlo.constant_like", Main("tensor<3xf32>", R"(
  %x = stablehlo.constant dense<0.0> : tensor<3xf32>
  %r = "chlo.constant_like"(%x) {value = 2.5 : f32} : (tensor<3xf32>) -> tensor<3xf32>)"),
       HloOpcode::kBroadcast, "f32[3]", {2.5, 2.5, 2.5}},
  });
}

// --- Errors -------------------------------------------------------------------------

struct ErrorCase {
  std::string what;      // named by SCOPED_TRACE
  std::string text;      // a malformed module
  std::string location;  // "test.mlir:<line>:" or more
  std::string problem;   // words of the message describing the problem
};

// CHLO's short form names operand and result types with an arrow; it
// imports as the generic form does.
TEST(StableHloOpImport, ChloShortFormWithAnArrow) {
  auto short_form = ParseStableHlo(R"(func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = chlo.erf %x : tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
})", "short.mlir");
  auto generic = ParseStableHlo(R"(func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "chlo.erf"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})", "generic.mlir");
  ASSERT_TRUE(short_form.ok()) << short_form.status();
  ASSERT_TRUE(generic.ok()) << generic.status();
  const HloComputation* a = (*short_form)->entry_computation();
  const HloComputation* b = (*generic)->entry_computation();
  EXPECT_EQ(a->instruction_count(), b->instruction_count());
  EXPECT_EQ(a->root_instruction()->shape().ToString(), "f32[2]");
  EXPECT_EQ(a->root_instruction()->opcode(), b->root_instruction()->opcode());
}

// The pretty forms `mlir-opt` prints, with their own attribute names
// (`dim =`, `type =, length =`), CHLO's call-like top_k with its
// parenthesized results, a convolution's dimension numbers holding an
// arrow, and chlo.conj of complex values.
TEST(StableHloOpImport, PrettyFormsAndTheirAttributeNames) {
  ExpectAllImport({
      {"get_dimension_size", R"(func.func @main() -> tensor<i32> {
  %x = stablehlo.constant dense<1.0> : tensor<3x4xf32>
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x4xf32>) -> tensor<i32>
  return %0 : tensor<i32>
})",
       HloOpcode::kGetDimensionSize, "s32[]", {4}},
      {"fft", R"(func.func @main() -> tensor<4xcomplex<f32>> {
  %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f32>>
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
})",
       HloOpcode::kFft, "c64[4]", {10, 0, -2, 2, -2, 0, -2, -2}, kInexact},
      {"chlo.top_k", R"(func.func @main() -> (tensor<2xf32>, tensor<2xi32>) {
  %x = stablehlo.constant dense<[1.0, 5.0, 3.0, 4.0]> : tensor<4xf32>
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
  return %values, %indices : tensor<2xf32>, tensor<2xi32>
})",
       HloOpcode::kTuple, "(f32[2], s32[2])", {5, 4, 1, 3}},
      {"convolution with an arrow", R"(func.func @main() -> tensor<1x2x1xf32> {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %rhs = stablehlo.constant dense<1.0> : tensor<3x1x1xf32>
  %0 = "stablehlo.convolution"(%lhs, %rhs) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1>} : (tensor<1x4x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
})",
       HloOpcode::kConvolution, "f32[1,2,1]", {6, 9}},
      {"chlo.conj", R"(func.func @main() -> tensor<2xcomplex<f32>> {
  %x = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %0 = chlo.conj %x : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
})",
       HloOpcode::kComplex, "c64[2]", {1, -2, 3, 4}},
  });
}

// A constant larger than the host may hold is an error at its line, not
// an allocation that fails.
TEST(StableHloOpImport, AConstantTooLargeForTheHostIsAnError) {
  auto module = ParseStableHlo(R"(func.func @main() -> tensor<99999999999x99999xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<99999999999x99999xf32>
  return %0 : tensor<99999999999x99999xf32>
})", "huge.mlir");
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()),
              ::testing::HasSubstr("huge.mlir:2:"));
  EXPECT_THAT(std::string(module.status().message()),
              ::testing::HasSubstr("holds 35.5 PiB, more than the"));
}

// A quoted symbol may hold characters an HLO name cannot: the name is made
// printable, so the module prints and parses back (found by the fuzzer).
TEST(StableHloOpImport, QuotedSymbolsBecomeNamesThatRoundTrip) {
  auto module = ParseStableHlo(R"(func.func @"broadcast_in_$dim"(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @main() -> tensor<2xf32> {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = func.call @"broadcast_in_$dim"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})", "quoted.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(CheckTextRoundTrip(**module).ok()) << CheckTextRoundTrip(**module);
  bool renamed = false;
  for (const HloComputation* c : (*module)->computations()) renamed |= c->name() == "broadcast_in__dim";
  EXPECT_TRUE(renamed);
}

TEST(StableHloOpImport, MalformedTextGivesLocatedErrors) {
  const std::vector<ErrorCase> cases = {
      {"unknown op", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.frobnicate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "not supported"},
      {"unknown op (generic)", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "operation mydialect.op is not supported"},
      {"element type mismatch", R"(func.func @main(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "one element type"},
      {"shape mismatch", R"(func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "same dimensions"},
      {"result type mismatch", R"(func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  %0 = stablehlo.negate %a : tensor<3xf32>
  return %0 : tensor<3xf32>
})",
       "test.mlir:2:3:", "wrong shape"},
      {"missing operand", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "takes two operands"},
      {"missing select operand", R"(func.func @main(%p: tensor<2xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.select %p, %a : tensor<2xi1>, tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "takes 3 operands"},
      {"undefined value", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  return %nothing : tensor<2xf32>
})",
       "test.mlir:3:10:", "use of undefined value %nothing"},
      {"use before definition", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %1, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:22:", "use of undefined value %1"},
      {"undefined result index", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<2xf32>, tensor<2xf32>
  return %0#2 : tensor<2xf32>
})",
       "test.mlir:3:10:", "use of undefined value %0#2"},
      {"reducer using an outer value", R"(func.func @main(%a: tensor<2xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.reduce"(%a, %z) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %z : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
       "test.mlir:4:30:", "use of undefined value %z"},
      {"truncated after an op", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
)",
       "test.mlir:2:3:", "region is not closed"},
      {"truncated inside a type", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2x)",
       "test.mlir:2:", "unbalanced"},
      {"truncated inside a dense literal", R"(func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.0, 2)",
       "test.mlir:2:32:", "unbalanced a dense attribute"},
      {"truncated inside an attribute", R"(func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1,)",
       "test.mlir:2:54:", "unbalanced an array attribute"},
      {"unknown element type", R"(func.func @main(%a: tensor<4xfoo>) -> tensor<4xf32> {
  %0 = stablehlo.convert %a : (tensor<4xfoo>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})",
       "test.mlir:1:", "unknown element type 'foo' in tensor<4xfoo>"},
      {"unknown element type of a result", R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xbar>
  return %a : tensor<4xf32>
})",
       "test.mlir:2:", "unknown element type 'bar'"},
      {"unbounded dynamic dimension", R"(func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
})",
       "test.mlir:1:", "unbounded dynamic dimension"},
      {"more results named than typed", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:2 = stablehlo.add %a, %a : tensor<2xf32>
  return %0#0 : tensor<2xf32>
})",
       // The parser reports where it stopped: the next line's first token.
       "test.mlir:3:3:", "fewer types than results"},
      {"two results of a one-result op", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0, %1 = stablehlo.add %a, %a : tensor<2xf32>, tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "must have one result type, found 2"},
      {"more results named than the op gives", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0:3 = "stablehlo.sort"(%a, %a) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<f32>, %s: tensor<f32>):
      %c = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "gives 2 results, 3 are named"},
      {"return count differs from the signature", R"(func.func @main(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  return %a : tensor<2xf32>
})",
       "test.mlir:1:1:", "returns 1 values but its signature has 2"},
      {"unknown comparison direction", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xi1> {
  %0 = stablehlo.compare XX, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
})",
       "test.mlir:2:3:", "unknown comparison direction 'XX'"},
      {"missing attribute", R"(func.func @main() -> tensor<3xf32> {
  %0 = stablehlo.iota : tensor<3xf32>
  return %0 : tensor<3xf32>
})",
       "test.mlir:2:3:", "needs attribute iota_dimension"},
      {"dense with too many elements", R"(func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:", "dense has 3 elements"},
      {"bad dense element", R"(func.func @main() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[1, two]> : tensor<2xi32>
  return %0 : tensor<2xi32>
})",
       "test.mlir:2:", "bad s32 value 'two'"},
      {"call of an undefined function", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @nowhere(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "call of undefined function @nowhere"},
      {"recursion", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @main(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:2:3:", "recursion is not supported"},
      {"dynamic op sized at run time", R"(func.func @main(%a: tensor<2xf32>, %s: tensor<1xi64>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<2xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
})",
       "test.mlir:2:3:", "needs dynamic shapes"},
      {"generic op without a function type", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.abs"(%a) : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:3:3:", "needs a function type"},
      {"value defined twice", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.negate %a : tensor<2xf32>
  %0 = stablehlo.abs %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:3:3:", "%0 is defined twice"},
      {"return against the signature", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xi32> {
  %0 = stablehlo.negate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
       "test.mlir:1:", "returns f32[2] as result 0 but its signature says s32[2]"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.what);
    absl::StatusOr<std::unique_ptr<HloModule>> module = ParseStableHlo(c.text, "test.mlir");
    ASSERT_FALSE(module.ok()) << c.text;
    const std::string message(module.status().message());
    EXPECT_THAT(message, HasSubstr(c.location));
    EXPECT_THAT(message, HasSubstr(c.problem));
  }
}

// Text cut anywhere before its last brace is an error at a location inside
// the text, never a crash.
TEST(StableHloOpImport, EveryTruncationIsALocatedError) {
  const std::string text = R"(module @m {
  func.func @main(%x: tensor<2x3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %t = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>}
        : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %r = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [1]
        : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>
    %w:2 = stablehlo.while(%i = %n, %s = %n) : tensor<i32>, tensor<i32>
     cond {
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return %i, %s : tensor<i32>, tensor<i32>
    }
    return %r, %w#1 : tensor<3xf32>, tensor<i32>
  }
}
)";
  ASSERT_TRUE(ParseStableHlo(text, "test.mlir").ok());
  const size_t last_brace = text.rfind('}');
  for (size_t length = 0; length < last_brace; ++length) {
    SCOPED_TRACE(absl::StrCat("first ", length, " characters"));
    absl::StatusOr<std::unique_ptr<HloModule>> module =
        ParseStableHlo(text.substr(0, length), "test.mlir");
    ASSERT_FALSE(module.ok());
    EXPECT_THAT(std::string(module.status().message()), HasSubstr("test.mlir:"));
  }
}

// Every supported op in the generic form with too few or too many operands,
// with and without a region and attributes: the import may succeed (some ops
// ignore operands) but must not crash, and its errors name a line.
TEST(StableHloOpImport, EveryOpWithUnexpectedOperandsFailsCleanly) {
  // Attributes enough for most converters to reach their operands.
  const std::string attributes = absl::StrCat(
      " {permutation = array<i64: 0>, start_indices = array<i64: 0>, ",
      "limit_indices = array<i64: 1>, strides = array<i64: 1>, dimension = 0 : i64, ",
      "dimensions = array<i64: 0>, iota_dimension = 0 : i64, ",
      "broadcast_dimensions = array<i64: 0>, slice_sizes = array<i64: 1>, ",
      "edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, ",
      "interior_padding = array<i64: 0>, index = 0 : i32, window_dimensions = array<i64: 1>, ",
      "feature_index = 0 : i64, epsilon = 0.0 : f32, fft_type = #stablehlo<fft_type FFT>, ",
      "fft_length = array<i64: 2>, all_gather_dim = 0 : i64, scatter_dimension = 0 : i64, ",
      "split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, ",
      "k = 1 : i64, value = dense<1.0> : tensor<2xf32>, ",
      "comparison_direction = #stablehlo<comparison_direction LT>, call_target_name = \"x\", ",
      "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0]>, ",
      "dimension_numbers = #stablehlo.gather<offset_dims = [0]>, ",
      "source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>, exponent_bits = 5 : i32, ",
      "mantissa_bits = 10 : i32}");
  const std::string region = R"( ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      stablehlo.return %p : tensor<f32>
  }))";
  struct OperandList {
    int count;
    std::string operands;
    std::string types;
  };
  const std::vector<OperandList> operand_lists = {
      {0, "", ""},
      {1, "%a", "tensor<2xf32>"},
      {4, "%a, %a, %a, %a", "tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>"},
  };
  for (const std::string& op : SupportedOpNames()) {
    for (const OperandList& list : operand_lists) {
      for (bool with_region : {false, true}) {
        for (bool with_attributes : {false, true}) {
          const std::string text = absl::StrCat(
              "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"", op, "\"(",
              list.operands, ")", with_region ? region : "", with_attributes ? attributes : "",
              " : (", list.types, ") -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n");
          SCOPED_TRACE(text);
          absl::StatusOr<std::unique_ptr<HloModule>> module = ParseStableHlo(text, "test.mlir");
          if (!module.ok()) {
            EXPECT_THAT(std::string(module.status().message()),
                        ContainsRegex("test\\.mlir:[0-9]+:[0-9]+: "));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace systolic::stablehlo
