#include "core/hlo/shape_inference.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using SI = ShapeInference;

// The inferred shape as text, or "error: <message>".
std::string Result(const absl::StatusOr<Shape>& shape) {
  if (!shape.ok()) return absl::StrCat("error: ", shape.status().message());
  return shape->ToString();
}

Shape A(PrimitiveType type, std::vector<int64_t> dims) { return Shape(type, dims); }

Shape Scalar(PrimitiveType type) { return Shape(type, {}); }

// `shape` with the listed dimensions dynamic (bounded).
Shape Dynamic(Shape shape, std::vector<int64_t> dynamic_dims) {
  for (int64_t d : dynamic_dims) shape.set_dynamic_dimension(d, true);
  return shape;
}

ProgramShape Program(std::vector<Shape> parameters, Shape result) {
  ProgramShape p;
  p.parameters = std::move(parameters);
  p.result = std::move(result);
  return p;
}

// (T, T) -> T
ProgramShape BinaryReducer(PrimitiveType type) {
  return Program({Scalar(type), Scalar(type)}, Scalar(type));
}

// (T, T) -> pred[]
ProgramShape Comparator(std::vector<PrimitiveType> types) {
  std::vector<Shape> params;
  for (PrimitiveType t : types) {
    params.push_back(Scalar(t));
    params.push_back(Scalar(t));
  }
  return Program(params, Scalar(PRED));
}

WindowDimension Win(int64_t size, int64_t stride = 1, int64_t low = 0, int64_t high = 0,
                    int64_t lhs_dilate = 1, int64_t rhs_dilate = 1) {
  WindowDimension d;
  d.size = size;
  d.stride = stride;
  d.padding_low = low;
  d.padding_high = high;
  d.base_dilation = lhs_dilate;
  d.window_dilation = rhs_dilate;
  return d;
}

Window MakeWindow(std::vector<WindowDimension> dims) { return Window{std::move(dims)}; }

ConvolutionDimensionNumbers Labels(absl::string_view labels) {
  auto dnums = ConvolutionDimensionNumbers::FromDimLabels(labels);
  EXPECT_TRUE(dnums.ok()) << dnums.status();
  return *dnums;
}

// --- Element types ---------------------------------------------------------------

TEST(ShapeInferenceTypes, HigherPrecisionType) {
  EXPECT_EQ(SI::HigherPrecisionType(F32, BF16), F32);
  EXPECT_EQ(SI::HigherPrecisionType(BF16, F16), BF16);  // more exponent bits
  EXPECT_EQ(SI::HigherPrecisionType(S32, F16), F16);    // floats over integers
  EXPECT_EQ(SI::HigherPrecisionType(U8, S8), S8);       // signed over unsigned
  EXPECT_EQ(SI::HigherPrecisionType(F64, C64), C64);    // complex over real
  EXPECT_EQ(SI::HigherPrecisionType(S16, S64), S64);
}

TEST(ShapeInferenceTypes, CompatibilityIgnoresLayoutsAndOptionallyPrecision) {
  Shape with_layout = A(F32, {2, 3});
  with_layout.set_layout(Layout({0, 1}));
  EXPECT_TRUE(SI::Compatible(with_layout, A(F32, {2, 3})));
  EXPECT_FALSE(SI::Compatible(A(BF16, {2, 3}), A(F32, {2, 3})));
  EXPECT_TRUE(SI::CompatibleIgnoringFpPrecision(A(BF16, {2, 3}), A(F32, {2, 3})));
  EXPECT_FALSE(SI::CompatibleIgnoringFpPrecision(A(S32, {2, 3}), A(F32, {2, 3})));
  EXPECT_TRUE(SI::Compatible(Shape::MakeTuple({A(F32, {1}), Shape::MakeToken()}),
                             Shape::MakeTuple({A(F32, {1}), Shape::MakeToken()})));
  EXPECT_FALSE(SI::Compatible(Shape::MakeTuple({A(F32, {1})}), A(F32, {1})));
}

// --- Elementwise -------------------------------------------------------------------

TEST(ShapeInferenceUnary, ResultTypes) {
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kAbs, A(C64, {2, 3}))), "f32[2,3]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kAbs, A(S32, {4}))), "s32[4]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kReal, A(C128, {4}))), "f64[4]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kImag, A(F32, {4}))), "f32[4]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kIsFinite, A(BF16, {3}))), "pred[3]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kExp, A(C64, {}))), "c64[]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kNot, A(PRED, {2}))), "pred[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kPopulationCount, A(U16, {2}))), "u16[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kNegate, Dynamic(A(F32, {8}), {0}))),
            "f32[<=8]");
  // copy and domain pass anything through, tuples included.
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kCopy,
                                         Shape::MakeTuple({A(F32, {2}), A(S32, {})}))),
            "(f32[2], s32[])");
}

TEST(ShapeInferenceUnary, RejectsWrongElementTypes) {
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kFloor, A(S32, {2}))),
            "error: floor needs floating-point elements, but the operand is s32[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kAbs, A(U32, {2}))),
            "error: abs needs signed, floating-point or complex elements, but the operand is "
            "u32[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kNot, A(F32, {2}))),
            "error: not needs pred or integer elements, but the operand is f32[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kClz, A(F32, {2}))),
            "error: count-leading-zeros needs integer elements, but the operand is f32[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kIsFinite, A(S8, {2}))),
            "error: is-finite needs floating-point elements, but the operand is s8[2]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kSqrt, A(S32, {}))),
            "error: sqrt needs floating-point or complex elements, but the operand is s32[]");
  EXPECT_EQ(Result(SI::InferUnaryOpShape(HloOpcode::kNegate, Shape::MakeTuple({}))),
            "error: the operand of negate must be an array, but is ()");
}

TEST(ShapeInferenceBinary, EqualDimensionsOnly) {
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kAdd, A(F32, {2, 3}), A(F32, {2, 3}))),
            "f32[2,3]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kAdd, A(F32, {2}), A(F32, {3}))),
            "error: add needs operands of the same dimensions (HLO has no implicit "
            "broadcasting), but got f32[2] and f32[3]");
  // A scalar is not broadcast either.
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kMultiply, A(F32, {}), A(F32, {4}))),
            "error: multiply needs operands of the same dimensions (HLO has no implicit "
            "broadcasting), but got f32[] and f32[4]");
  // Size-1 dimensions are not broadcast.
  EXPECT_THAT(Result(SI::InferBinaryOpShape(HloOpcode::kAdd, A(F32, {1, 3}), A(F32, {2, 3}))),
              StartsWith("error: add needs operands of the same dimensions"));
}

TEST(ShapeInferenceBinary, ElementTypes) {
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kCompare, A(S32, {4}), A(S32, {4}))),
            "pred[4]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kComplex, A(F32, {2}), A(F32, {2}))),
            "c64[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kComplex, A(F64, {}), A(F64, {}))), "c128[]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kComplex, A(F32, {2}), A(F64, {2}))),
            "error: complex needs two f32 or two f64 operands, but got f32[2] and f64[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kAdd, A(F32, {2}), A(S32, {2}))),
            "error: add needs operands of one element type, but got f32[2] and s32[2]");
  // Floating-point precisions may differ; the wider type wins (the verifier
  // rejects the mix unless mixed precision is allowed).
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kAdd, A(BF16, {2}), A(F32, {2}))), "f32[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kAnd, A(PRED, {2}), A(PRED, {2}))),
            "pred[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kXor, A(F32, {2}), A(F32, {2}))),
            "error: xor needs pred or integer operands, but got f32[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kSubtract, A(PRED, {2}), A(PRED, {2}))),
            "error: subtract needs arithmetic operands, but got pred[2] and pred[2]");
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kShiftLeft, A(U32, {2}), A(U32, {2}))),
            "u32[2]");
  // A dynamic dimension of either operand makes the result dynamic.
  EXPECT_EQ(Result(SI::InferBinaryOpShape(HloOpcode::kMaximum, A(F32, {4, 2}),
                                          Dynamic(A(F32, {4, 2}), {0}))),
            "f32[<=4,2]");
}

TEST(ShapeInferenceTernary, SelectAndClamp) {
  EXPECT_EQ(Result(SI::InferSelectShape(A(PRED, {3}), A(F32, {3}), A(F32, {3}))), "f32[3]");
  EXPECT_EQ(Result(SI::InferSelectShape(A(PRED, {}), A(F32, {3}), A(F32, {3}))), "f32[3]");
  EXPECT_EQ(Result(SI::InferSelectShape(A(PRED, {2}), A(F32, {3}), A(F32, {3}))),
            "error: the predicate of select must be a scalar or have the dimensions of the "
            "values, but got pred[2] for f32[3]");
  EXPECT_EQ(Result(SI::InferSelectShape(A(S32, {3}), A(F32, {3}), A(F32, {3}))),
            "error: the predicate of select must be pred, but is s32[3]");
  EXPECT_EQ(Result(SI::InferSelectShape(A(PRED, {}), Shape::MakeTuple({}), Shape::MakeTuple({}))),
            "error: the on_true operand of select must be an array, but is ()");
  EXPECT_EQ(Result(SI::InferClampShape(A(F32, {}), A(F32, {5}), A(F32, {}))), "f32[5]");
  EXPECT_EQ(Result(SI::InferClampShape(A(F32, {5}), A(F32, {5}), A(F32, {5}))), "f32[5]");
  EXPECT_EQ(Result(SI::InferClampShape(A(F32, {4}), A(F32, {5}), A(F32, {}))),
            "error: clamp needs min and max to be scalars or of the operand's dimensions, but "
            "got f32[4], f32[5] and f32[]");
  EXPECT_THAT(Result(SI::InferTernaryOpShape(HloOpcode::kClamp, A(S32, {}), A(F32, {5}),
                                             A(F32, {}))),
              StartsWith("error: clamp needs min, operand and max of one element type"));
}

TEST(ShapeInferenceConvert, ConvertAndBitcastConvert) {
  EXPECT_EQ(Result(SI::InferConvertShape(A(F32, {2, 3}), S8)), "s8[2,3]");
  EXPECT_EQ(Result(SI::InferConvertShape(Shape::MakeTuple({}), S8)),
            "error: the operand of convert must be an array, but is ()");
  // Same width: same dimensions.
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(F32, {4}), U32)), "u32[4]");
  // Narrower: a new minor dimension of the bit-width ratio.
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(F32, {2}), S16)), "s16[2,2]");
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(F32, {2}), S4)), "s4[2,8]");
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(F64, {}), F32)), "f32[2]");
  // Wider: the minor dimension must be the ratio and disappears.
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(S8, {3, 4}), S32)), "s32[3]");
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(S8, {3, 4}), S16)),
            "error: bitcast-convert from s8[3,4] to s16 needs a minor dimension of size 2 "
            "(the bit-width ratio)");
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(U8, {}), F16)),
            "error: bitcast-convert from u8[] to f16 needs a minor dimension of size 2 "
            "(the bit-width ratio)");
  EXPECT_EQ(Result(SI::InferBitcastConvertShape(A(C64, {2}), F32)),
            "error: bitcast-convert cannot convert between complex and real types: c64[2] to "
            "f32");
}

TEST(ShapeInferenceConvert, StochasticConvertAndReducePrecision) {
  EXPECT_EQ(Result(SI::InferStochasticConvertShape(A(F32, {4}), A(U32, {4}), BF16)), "bf16[4]");
  EXPECT_EQ(Result(SI::InferStochasticConvertShape(A(F32, {4}), A(U16, {4}), BF16)),
            "error: stochastic-convert needs random bits as wide as the operand's elements, but "
            "got f32[4] and u16[4]");
  EXPECT_EQ(Result(SI::InferStochasticConvertShape(A(F32, {4}), A(S32, {4}), BF16)),
            "error: the random bits of stochastic-convert must be unsigned integers, but are "
            "s32[4]");
  EXPECT_EQ(Result(SI::InferReducePrecisionShape(A(F32, {4}), 5, 10)), "f32[4]");
  EXPECT_EQ(Result(SI::InferReducePrecisionShape(A(F32, {4}), 0, 10)),
            "error: exponent_bits=0 must be at least 1");
  EXPECT_EQ(Result(SI::InferReducePrecisionShape(A(S32, {4}), 5, 10)),
            "error: reduce-precision needs a floating-point operand, but got s32[4]");
}

TEST(ShapeInferenceMap, ScalarComputationOverEveryElement) {
  Shape a = A(F32, {2, 3}), b = A(F32, {2, 3});
  ProgramShape to_s32 = Program({Scalar(F32), Scalar(F32)}, Scalar(S32));
  EXPECT_EQ(Result(SI::InferMapShape({&a, &b}, to_s32, {0, 1})), "s32[2,3]");
  EXPECT_EQ(Result(SI::InferMapShape({&a, &b}, to_s32, {})), "s32[2,3]");
  EXPECT_EQ(Result(SI::InferMapShape({&a, &b}, to_s32, {1, 0})),
            "error: map dimensions={1,0} must be all dimensions in order (0..1)");
  EXPECT_EQ(Result(SI::InferMapShape({&a}, to_s32, {})),
            "error: the mapped computation (f32[], f32[]) -> s32[] takes 2 parameters, but map "
            "has 1 operands");
  ProgramShape tuple_result = Program({Scalar(F32), Scalar(F32)}, Shape::MakeTuple({Scalar(F32)}));
  EXPECT_EQ(Result(SI::InferMapShape({&a, &b}, tuple_result, {})),
            "error: the mapped computation (f32[], f32[]) -> (f32[]) must return a scalar");
}

// --- Data movement ------------------------------------------------------------------

TEST(ShapeInferenceBroadcast, MapsOperandDimensions) {
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(F32, {3}), A(F32, {2, 3}), {1})), "f32[2,3]");
  // Unsorted dimensions transpose while broadcasting.
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(F32, {3, 2}), A(F32, {2, 4, 3}), {2, 0})),
            "f32[2,4,3]");
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(S32, {}), A(F32, {2, 3}), {})), "s32[2,3]");
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(F32, {1}), A(F32, {3}), {0})),
            "error: broadcast maps operand dimension 0 (size 1) to result dimension 0 (size 3); "
            "the sizes must be equal");
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(F32, {3}), A(F32, {2, 3}), {2})),
            "error: dimensions={2}: dimension 2 is out of range for the result f32[2,3]");
  EXPECT_EQ(Result(SI::InferBroadcastShape(A(F32, {3}), A(F32, {2, 3}), {})),
            "error: broadcast dimensions={} must name one output dimension for each of the 1 "
            "dimensions of the operand f32[3]");
  EXPECT_EQ(Result(SI::InferBroadcastShape(Dynamic(A(F32, {3}), {0}), A(F32, {2, 3}), {1})),
            "f32[2,<=3]");
}

TEST(ShapeInferenceReshapeTranspose, ElementCountsAndPermutations) {
  EXPECT_EQ(Result(SI::InferReshapeShape(A(F32, {2, 3}), A(F32, {6}))), "f32[6]");
  EXPECT_EQ(Result(SI::InferReshapeShape(A(S8, {2, 3}), A(F32, {3, 1, 2}))), "s8[3,1,2]");
  EXPECT_EQ(Result(SI::InferReshapeShape(A(F32, {2, 3}), A(F32, {4}))),
            "error: reshape cannot change the number of elements: f32[2,3] has 6, f32[4] has 4");
  EXPECT_EQ(Result(SI::InferTransposeShape(A(F32, {2, 3, 4}), {2, 0, 1})), "f32[4,2,3]");
  EXPECT_EQ(Result(SI::InferTransposeShape(Dynamic(A(F32, {2, 3}), {1}), {1, 0})), "f32[<=3,2]");
  EXPECT_EQ(Result(SI::InferTransposeShape(A(F32, {2, 3}), {0, 0})),
            "error: transpose dimensions={0,0} repeats a dimension");
  EXPECT_EQ(Result(SI::InferTransposeShape(A(F32, {2, 3}), {0})),
            "error: transpose dimensions={0} is not a permutation of the 2 dimensions of "
            "f32[2,3]");
  EXPECT_EQ(Result(SI::InferReverseShape(A(F32, {2, 3}), {1})), "f32[2,3]");
  EXPECT_EQ(Result(SI::InferReverseShape(A(F32, {2, 3}), {3})),
            "error: reverse dimensions={3}: dimension 3 is out of range for f32[2,3]");
}

TEST(ShapeInferenceSlice, StridedSlices) {
  // Elements 2, 5, 8.
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {2}, {9}, {3})), "f32[3]");
  // Elements 0, 4, 8.
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10, 4}), {0, 1}, {10, 4}, {4, 1})), "f32[3,3]");
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {5}, {5}, {1})), "f32[0]");
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {0}, {11}, {1})),
            "error: slice dimension 0 [0:11:1] is not within [0:10] of f32[10]");
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {6}, {5}, {1})),
            "error: slice dimension 0 [6:5:1] is not within [0:10] of f32[10]");
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {0}, {5}, {0})),
            "error: slice dimension 0 [0:5:0]: the stride must be positive");
  EXPECT_EQ(Result(SI::InferSliceShape(A(F32, {10}), {}, {}, {})),
            "error: slice needs one [start:limit:stride] per dimension of f32[10], but has 0");
  // A dynamic dimension stays dynamic unless a single element is taken.
  EXPECT_EQ(Result(SI::InferSliceShape(Dynamic(A(F32, {8, 8}), {0, 1}), {0, 3}, {8, 4}, {1, 1})),
            "f32[<=8,1]");
}

TEST(ShapeInferenceSlice, DynamicSliceAndUpdate) {
  Shape i = Scalar(S32), j = Scalar(S32), u = Scalar(U32), v = A(S32, {2});
  EXPECT_EQ(Result(SI::InferDynamicSliceShape(A(F32, {8, 6}), {&i, &j}, {2, 6})), "f32[2,6]");
  // The old form: one rank-1 index array.
  EXPECT_EQ(Result(SI::InferDynamicSliceShape(A(F32, {8, 6}), {&v}, {2, 6})), "f32[2,6]");
  EXPECT_EQ(Result(SI::InferDynamicSliceShape(A(F32, {8, 6}), {&i, &j}, {2, 7})),
            "error: dynamic_slice_sizes={2,7}: size 7 of dimension 1 is not within [0, 6] of "
            "f32[8,6]");
  EXPECT_EQ(Result(SI::InferDynamicSliceShape(A(F32, {8, 6}), {&i}, {2, 6})),
            "error: dynamic-slice needs one start index per dimension of f32[8,6], but has 1");
  EXPECT_EQ(Result(SI::InferDynamicSliceShape(A(F32, {8, 6}), {&i, &u}, {2, 6})),
            "error: dynamic-slice start indices must have one type, but got s32[] and u32[]");
  Shape update = A(F32, {2, 6});
  EXPECT_EQ(Result(SI::InferDynamicUpdateSliceShape(A(F32, {8, 6}), update, {&i, &j})),
            "f32[8,6]");
  EXPECT_EQ(Result(SI::InferDynamicUpdateSliceShape(A(F32, {8, 6}), A(F32, {9, 6}), {&i, &j})),
            "error: dynamic-update-slice: the update f32[9,6] does not fit in the operand "
            "f32[8,6] along dimension 0");
  EXPECT_EQ(Result(SI::InferDynamicUpdateSliceShape(A(F32, {8, 6}), A(S32, {2, 6}), {&i, &j})),
            "error: dynamic-update-slice needs an update of the operand's element type, but got "
            "s32[2,6] for f32[8,6]");
}

TEST(ShapeInferenceConcatenate, SumsOneDimension) {
  Shape a = A(F32, {2, 3}), b = A(F32, {4, 3}), c = Dynamic(A(F32, {1, 3}), {1});
  EXPECT_EQ(Result(SI::InferConcatOpShape({&a, &b}, 0)), "f32[6,3]");
  EXPECT_EQ(Result(SI::InferConcatOpShape({&a, &b, &c}, 0)), "f32[7,<=3]");
  EXPECT_EQ(Result(SI::InferConcatOpShape({&a, &b}, 1)),
            "error: concatenate along dimension 1 needs operands equal in every other "
            "dimension, but got f32[2,3] and f32[4,3]");
  EXPECT_EQ(Result(SI::InferConcatOpShape({&a}, 2)),
            "error: concatenate dimensions={2} is out of range for f32[2,3]");
  EXPECT_EQ(Result(SI::InferConcatOpShape({}, 0)), "error: concatenate needs at least one operand");
}

PaddingConfig Padding(std::vector<PaddingDimension> dims) { return PaddingConfig{std::move(dims)}; }

TEST(ShapeInferencePad, EdgeAndInteriorPadding) {
  const Shape zero = Scalar(F32);
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {10}), zero, Padding({{1, 2, 0}}))), "f32[13]");
  // Negative edge padding removes elements: 10 - 2 - 3.
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {10}), zero, Padding({{-2, -3, 0}}))), "f32[5]");
  // Interior padding goes between elements: 3 + 1 + 1 + 2 * 2.
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {3, 4}), zero, Padding({{1, 1, 2}, {0, 0, 0}}))),
            "f32[9,4]");
  // Interior and negative edge padding together: 3 + 2*1 - 1 - 1.
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {3}), zero, Padding({{-1, -1, 1}}))), "f32[3]");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {0}), zero, Padding({{0, 0, 5}}))), "f32[0]");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {2}), zero, Padding({{-2, -1, 0}}))),
            "error: padding=-2_-1 makes dimension 0 of f32[2] negative (-1)");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {2}), zero, Padding({{0, 0, -1}}))),
            "error: padding=0_0_-1: interior padding of dimension 0 is negative");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {2}), zero, Padding({}))),
            "error: padding= has 0 dimensions but the operand f32[2] has rank 1");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {2}), A(F32, {1}), Padding({{0, 0, 0}}))),
            "error: the padding value of pad must be a scalar, but is f32[1]");
  EXPECT_EQ(Result(SI::InferPadShape(A(F32, {2}), zero,
                                     Padding({{INT64_MAX, INT64_MAX, 0}}))),
            "error: padding=9223372036854775807_9223372036854775807: dimension 0 overflows");
}

TEST(ShapeInferenceIota, NeedsADimensionInRange) {
  EXPECT_EQ(Result(SI::InferIotaShape(A(S32, {4, 3}), 1)), "s32[4,3]");
  EXPECT_EQ(Result(SI::InferIotaShape(A(S32, {}), 0)), "error: iota cannot produce a scalar");
  EXPECT_EQ(Result(SI::InferIotaShape(A(S32, {4}), 1)),
            "error: iota_dimension=1 is out of range for s32[4]");
  EXPECT_EQ(Result(SI::InferIotaShape(A(PRED, {4}), 0)), "error: iota cannot produce pred elements");
}

// --- Gather and scatter ----------------------------------------------------------------

TEST(ShapeInferenceGather, RowGather) {
  // Gathers whole rows of a [3,3] matrix at two indices.
  GatherDimensionNumbers d;
  d.offset_dims = {1};
  d.collapsed_slice_dims = {0};
  d.start_index_map = {0};
  d.index_vector_dim = 1;
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), d, {1, 3})), "f32[2,3]");
  // The index vector as an explicit trailing dimension of size 1.
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2, 1}), d, {1, 3})), "f32[2,3]");
  // Batch dimensions of the indices come out in order around the offsets.
  d.offset_dims = {0};
  d.index_vector_dim = 2;
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {5, 7, 1}), d, {1, 2})),
            "f32[2,5,7]");
}

TEST(ShapeInferenceGather, BatchingDimensions) {
  // StableHLO's gather example: operand batch dimension 0 pairs with indices
  // dimension 1.
  GatherDimensionNumbers d;
  d.offset_dims = {3, 4};
  d.collapsed_slice_dims = {1};
  d.operand_batching_dims = {0};
  d.start_indices_batching_dims = {1};
  d.start_index_map = {2, 1};
  d.index_vector_dim = 3;
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {2, 3, 4, 2}), A(S64, {2, 2, 3, 2}), d,
                                        {1, 1, 2, 2})),
            "f32[2,2,3,2,2]");
  // The paired batching dimensions must have one size.
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {2, 3, 4, 2}), A(S64, {2, 5, 3, 2}), d,
                                        {1, 1, 2, 2})),
            "error: gather batching dimensions differ in size: operand dimension 0 is 2, start "
            "indices dimension 1 is 5");
  GatherDimensionNumbers bad = d;
  bad.start_index_map = {2, 0};
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {2, 3, 4, 2}), A(S64, {2, 2, 3, 2}), bad,
                                        {1, 1, 2, 2})),
            "error: operand batching dimension 0 must not also be in collapsed_slice_dims or "
            "start_index_map");
  bad = d;
  bad.start_indices_batching_dims = {3};
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {2, 3, 4, 2}), A(S64, {2, 2, 3, 2}), bad,
                                        {1, 1, 2, 2})),
            "error: start_indices_batching_dims={3} must not contain index_vector_dim=3");
}

TEST(ShapeInferenceGather, RejectsBadDimensionNumbers) {
  GatherDimensionNumbers d;
  d.offset_dims = {1};
  d.collapsed_slice_dims = {0};
  d.start_index_map = {0};
  d.index_vector_dim = 1;
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), d, {2, 3})),
            "error: collapsed dimension 0 must have slice size 0 or 1, not 2");
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), d, {1, 4})),
            "error: slice_sizes={1,4}: size 4 of dimension 1 is not within [0, 3]");
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(F32, {2}), d, {1, 3})),
            "error: gather indices must be integers, but are f32[2]");
  GatherDimensionNumbers bad = d;
  bad.index_vector_dim = 3;
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), bad, {1, 3})),
            "error: index_vector_dim=3 is out of range for indices s32[2] (it may be at most "
            "the rank)");
  bad = d;
  bad.offset_dims = {5};
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), bad, {1, 3})),
            "error: offset_dims={5}: dimension 5 is out of range for an output of rank 2");
  bad = d;
  bad.collapsed_slice_dims = {};
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), bad, {1, 3})),
            "error: every operand dimension must be an offset, collapsed or batching dimension: "
            "1 + 0 + 0 != rank 2 of the operand f32[3,3]");
  bad = d;
  bad.start_index_map = {0, 1};
  EXPECT_EQ(Result(SI::InferGatherShape(A(F32, {3, 3}), A(S32, {2}), bad, {1, 3})),
            "error: start_index_map={0,1} must have one entry per element of the index vector "
            "(1)");
}

TEST(ShapeInferenceScatter, RowScatter) {
  ScatterDimensionNumbers d;
  d.update_window_dims = {1};
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  Shape operand = A(F32, {3, 3}), indices = A(S32, {2}), updates = A(F32, {2, 3});
  EXPECT_EQ(Result(SI::InferScatterShape({&operand, &indices, &updates}, BinaryReducer(F32), d)),
            "f32[3,3]");
  Shape too_wide = A(F32, {2, 4});
  EXPECT_EQ(Result(SI::InferScatterShape({&operand, &indices, &too_wide}, BinaryReducer(F32), d)),
            "error: scatter update window dimension 1 (size 4) is larger than input dimension 1 "
            "(size 3)");
  Shape wrong_batch = A(F32, {5, 3});
  EXPECT_EQ(Result(SI::InferScatterShape({&operand, &indices, &wrong_batch}, BinaryReducer(F32), d)),
            "error: scatter update dimension 0 (size 5) must equal indices dimension 0 (size 2)");
  EXPECT_EQ(Result(SI::InferScatterShape({&operand, &indices, &updates}, BinaryReducer(S32), d)),
            "error: the reducer (s32[], s32[]) -> s32[] accumulates s32[] but the init value is "
            "f32[]");
  EXPECT_EQ(Result(SI::InferScatterShape({&operand, &indices}, BinaryReducer(F32), d)),
            "error: scatter needs N inputs, the indices and N updates, but has 2 operands");
}

TEST(ShapeInferenceScatter, VariadicWithBatchingDimensions) {
  // StableHLO's scatter example, with two inputs.
  ScatterDimensionNumbers d;
  d.update_window_dims = {3, 4};
  d.inserted_window_dims = {1};
  d.input_batching_dims = {0};
  d.scatter_indices_batching_dims = {1};
  d.scatter_dims_to_operand_dims = {2, 1};
  d.index_vector_dim = 3;
  Shape in0 = A(F32, {2, 3, 4, 2}), in1 = A(S32, {2, 3, 4, 2});
  Shape indices = A(S64, {2, 2, 3, 2});
  Shape up0 = A(F32, {2, 2, 3, 2, 2}), up1 = A(S32, {2, 2, 3, 2, 2});
  ProgramShape reducer = Program({Scalar(F32), Scalar(S32), Scalar(F32), Scalar(S32)},
                                 Shape::MakeTuple({Scalar(F32), Scalar(S32)}));
  EXPECT_EQ(Result(SI::InferScatterShape({&in0, &in1, &indices, &up0, &up1}, reducer, d)),
            "(f32[2,3,4,2], s32[2,3,4,2])");
  // Batching dimensions must pair up in size.
  Shape other_indices = A(S64, {2, 3, 3, 2});
  EXPECT_EQ(Result(SI::InferScatterShape({&in0, &in1, &other_indices, &up0, &up1}, reducer, d)),
            "error: scatter batching dimensions differ in size: input dimension 0 is 2, indices "
            "dimension 1 is 3");
  ScatterDimensionNumbers bad = d;
  bad.input_batching_dims = {1};
  EXPECT_EQ(Result(SI::InferScatterShape({&in0, &in1, &indices, &up0, &up1}, reducer, bad)),
            "error: input batching dimension 1 must not also be in inserted_window_dims or "
            "scatter_dims_to_operand_dims");
}

// --- Contractions ------------------------------------------------------------------

DotDimensionNumbers DotDims(std::vector<int64_t> lhs_batch, std::vector<int64_t> lhs_contracting,
                            std::vector<int64_t> rhs_batch, std::vector<int64_t> rhs_contracting) {
  DotDimensionNumbers d;
  d.lhs_batch_dimensions = std::move(lhs_batch);
  d.lhs_contracting_dimensions = std::move(lhs_contracting);
  d.rhs_batch_dimensions = std::move(rhs_batch);
  d.rhs_contracting_dimensions = std::move(rhs_contracting);
  return d;
}

TEST(ShapeInferenceDot, BatchThenLhsThenRhsDimensions) {
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3}), A(F32, {3, 4}), DotDims({}, {1}, {}, {0}),
                                       std::nullopt)),
            "f32[2,4]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {8, 2, 3}), A(F32, {8, 3, 4}),
                                       DotDims({0}, {2}, {0}, {1}), std::nullopt)),
            "f32[8,2,4]");
  // Batch dimensions anywhere; the result puts them first.
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3, 5}), A(F32, {3, 7, 5}),
                                       DotDims({2}, {1}, {2}, {0}), std::nullopt)),
            "f32[5,2,7]");
  // Outer product: nothing contracted.
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2}), A(F32, {3}), DotDims({}, {}, {}, {}),
                                       std::nullopt)),
            "f32[2,3]");
  EXPECT_EQ(Result(SI::InferDotOpShape(Dynamic(A(F32, {2, 3}), {0}), A(F32, {3, 4}),
                                       DotDims({}, {1}, {}, {0}), std::nullopt)),
            "f32[<=2,4]");
}

TEST(ShapeInferenceDot, PreferredElementType) {
  const auto mm = DotDims({}, {1}, {}, {0});
  EXPECT_EQ(Result(SI::InferDotOpShape(A(BF16, {2, 3}), A(BF16, {3, 4}), mm, F32)), "f32[2,4]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(S8, {2, 3}), A(S8, {3, 4}), mm, S32)), "s32[2,4]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3}), A(F32, {3, 4}), mm, BF16)), "bf16[2,4]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(BF16, {2, 3}), A(F32, {3, 4}), mm, std::nullopt)),
            "f32[2,4]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(S32, {2, 3}), A(S32, {3, 4}), mm, S8)),
            "error: the result element type s8 must not be narrower than the operands' s32");
}

TEST(ShapeInferenceDot, RejectsBadDimensionNumbers) {
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3}), A(F32, {4, 5}), DotDims({}, {1}, {}, {0}),
                                       std::nullopt)),
            "error: dot contracts lhs dimension 1 (size 3) with rhs dimension 0 (size 4); the "
            "sizes must be equal");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3}), A(F32, {3, 4}), DotDims({}, {2}, {}, {0}),
                                       std::nullopt)),
            "error: lhs_contracting_dims={2}: dimension 2 is out of range for the lhs f32[2,3]");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {2, 3}), A(F32, {3, 4}), DotDims({}, {1}, {}, {}),
                                       std::nullopt)),
            "error: dot needs as many lhs as rhs contracting dimensions, but has {1} and {}");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {4, 3}), A(F32, {5, 3}),
                                       DotDims({0}, {1}, {0}, {1}), std::nullopt)),
            "error: dot batch dimension 0 has size 4 in the lhs and 5 in the rhs");
  EXPECT_EQ(Result(SI::InferDotOpShape(A(F32, {3, 3}), A(F32, {3, 3}),
                                       DotDims({1}, {1}, {0}, {1}), std::nullopt)),
            "error: lhs dimension 1 cannot be both a batch and a contracting dimension");
}

TEST(ShapeInferenceConvolution, WindowedOutputSizes) {
  const auto nhwc = Labels("b01f_01io->b01f");
  const Shape input = A(F32, {1, 28, 28, 3}), kernel = A(F32, {3, 3, 3, 16});
  // Same padding.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 1, 1, 1), Win(3, 1, 1, 1)}), nhwc,
                                          std::nullopt)),
            "f32[1,28,28,16]");
  // Strided, unpadded: (28 - 3) / 2 + 1.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1, MakeWindow({Win(3, 2), Win(3, 2)}),
                                          nhwc, std::nullopt)),
            "f32[1,13,13,16]");
  // Window (rhs) dilation 2: the window spans 5, 28 - 5 + 1 = 24.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 1, 0, 0, 1, 2), Win(3)}), nhwc,
                                          std::nullopt)),
            "f32[1,24,26,16]");
  // Base (lhs) dilation 2: the input spans 55, 55 - 3 + 1 = 53.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 1, 0, 0, 2, 1), Win(3)}), nhwc,
                                          std::nullopt)),
            "f32[1,53,26,16]");
  // Negative padding crops: 28 - 2 - 3 + 1 = 24.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 1, -1, -1), Win(3)}), nhwc,
                                          std::nullopt)),
            "f32[1,24,26,16]");
  // Everything at once: lhs_dilate 2, rhs_dilate 3, pad 2_1, stride 3:
  // (55 + 3 - 7) / 3 + 1 = 18.
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 3, 2, 1, 2, 3), Win(3)}), nhwc,
                                          std::nullopt)),
            "f32[1,18,26,16]");
  // A window larger than the padded input gives an empty dimension.
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {1, 2, 28, 3}), kernel, 1, 1,
                                          MakeWindow({Win(3), Win(3)}), nhwc, std::nullopt)),
            "f32[1,0,26,16]");
}

TEST(ShapeInferenceConvolution, GroupsAndLayouts) {
  // NCHW input, OIHW kernel.
  const auto nchw = Labels("bf01_oi01->bf01");
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {2, 8, 10, 10}), A(F32, {6, 4, 3, 3}), 2, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "f32[2,6,8,8]");
  // Depthwise: one input feature per group.
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {2, 8, 10, 10}), A(F32, {8, 1, 3, 3}), 8, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "f32[2,8,8,8]");
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {2, 8, 10, 10}), A(F32, {6, 8, 3, 3}), 2, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "error: the input features (8) divided by feature_group_count=2 must equal the "
            "kernel's input features (8) (input f32[2,8,10,10], kernel f32[6,8,3,3])");
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {2, 8, 10, 10}), A(F32, {5, 4, 3, 3}), 2, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "error: the kernel's output features (5) must be a multiple of feature_group_count=2 "
            "(input f32[2,8,10,10], kernel f32[5,4,3,3])");
  // Batch groups divide the batch: the output batch is 4 / 2.
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {4, 3, 10, 10}), A(F32, {6, 3, 3, 3}), 1, 2,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "f32[2,6,8,8]");
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {4, 3, 10, 10}), A(F32, {6, 3, 3, 3}), 0, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, std::nullopt)),
            "error: feature_group_count=0 must be positive");
  // Integer convolution accumulating into s32.
  EXPECT_EQ(Result(SI::InferConvolveShape(A(S8, {2, 8, 10, 10}), A(S8, {6, 8, 3, 3}), 1, 1,
                                          MakeWindow({Win(3), Win(3)}), nchw, S32)),
            "s32[2,6,8,8]");
}

TEST(ShapeInferenceConvolution, RejectsBadWindowsAndLabels) {
  const auto nhwc = Labels("b01f_01io->b01f");
  const Shape input = A(F32, {1, 28, 28, 3}), kernel = A(F32, {3, 3, 3, 16});
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1, MakeWindow({Win(2), Win(3)}), nhwc,
                                          std::nullopt)),
            "error: window dimension 0 has size 2 but the kernel's spatial dimension 0 is 3 "
            "(input f32[1,28,28,3], kernel f32[3,3,3,16])");
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1, MakeWindow({Win(3)}), nhwc,
                                          std::nullopt)),
            "error: the window has 1 dimensions but dim_labels=b01f_01io->b01f has 2 spatial "
            "dimensions");
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1, MakeWindow({Win(3, 0), Win(3)}),
                                          nhwc, std::nullopt)),
            "error: window dimension 0 has stride 0; it must be positive");
  EXPECT_EQ(Result(SI::InferConvolveShape(input, kernel, 1, 1,
                                          MakeWindow({Win(3, 1, -20, -20), Win(3)}), nhwc,
                                          std::nullopt)),
            "error: window dimension 0: padding -20_-20 leaves a negative input size -12");
  EXPECT_EQ(Result(SI::InferConvolveShape(A(F32, {1, 28, 3}), kernel, 1, 1,
                                          MakeWindow({Win(3), Win(3)}), nhwc, std::nullopt)),
            "error: dim_labels=b01f_01io->b01f needs input and kernel of rank 4, but got "
            "f32[1,28,3] and f32[3,3,3,16]");
  ConvolutionDimensionNumbers twice = nhwc;
  twice.output_feature_dimension = 0;
  EXPECT_THAT(Result(SI::InferConvolveShape(input, kernel, 1, 1, MakeWindow({Win(3), Win(3)}),
                                            twice, std::nullopt)),
              HasSubstr("the output labels must name each of its 4 dimensions exactly once"));
}

// --- Reductions and windows ---------------------------------------------------------

TEST(ShapeInferenceReduce, SingleAndVariadic) {
  Shape input = A(F32, {2, 3, 4}), init = Scalar(F32);
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {1}, BinaryReducer(F32))), "f32[2,4]");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {0, 1, 2}, BinaryReducer(F32))), "f32[]");
  // Argmax-style: values and indices reduced together into a tuple.
  Shape indices = A(S32, {2, 3, 4}), index_init = Scalar(S32);
  ProgramShape argmax = Program({Scalar(F32), Scalar(S32), Scalar(F32), Scalar(S32)},
                                Shape::MakeTuple({Scalar(F32), Scalar(S32)}));
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &indices, &init, &index_init}, {2}, argmax)),
            "(f32[2,3], s32[2,3])");
  // bf16 inputs may accumulate in f32.
  Shape bf16_input = A(BF16, {2, 3});
  ProgramShape mixed = Program({Scalar(F32), Scalar(F32)}, Scalar(F32));
  EXPECT_EQ(Result(SI::InferReduceShape({&bf16_input, &init}, {1}, mixed)), "f32[2]");
  Shape dynamic = Dynamic(A(F32, {5, 6}), {0});
  EXPECT_EQ(Result(SI::InferReduceShape({&dynamic, &init}, {1}, BinaryReducer(F32))), "f32[<=5]");
}

TEST(ShapeInferenceReduce, RejectsBadReducersAndDimensions) {
  Shape input = A(F32, {2, 3}), init = Scalar(F32), s32_init = Scalar(S32);
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {1, 1}, BinaryReducer(F32))),
            "error: reduce dimensions={1,1} repeats a dimension");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {2}, BinaryReducer(F32))),
            "error: reduce dimensions={2}: dimension 2 is out of range for f32[2,3]");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &s32_init}, {1}, BinaryReducer(F32))),
            "error: the reducer (f32[], f32[]) -> f32[] accumulates f32[] but the init value is "
            "s32[]");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {1},
                                        Program({Scalar(F32)}, Scalar(F32)))),
            "error: the reducer (f32[]) -> f32[] must take 2 parameters, but takes 1");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {1},
                                        Program({Scalar(F32), Scalar(S32)}, Scalar(F32)))),
            "error: the reducer (f32[], s32[]) -> f32[]: parameter 1 must be a scalar of the "
            "input's element type f32");
  EXPECT_EQ(Result(SI::InferReduceShape({&input, &init}, {1},
                                        Program({A(F32, {2}), A(F32, {2})}, A(F32, {2})))),
            "error: the reducer (f32[2], f32[2]) -> f32[2] must return scalars, not f32[2]");
  EXPECT_EQ(Result(SI::InferReduceShape({&input}, {1}, BinaryReducer(F32))),
            "error: reduce needs N inputs followed by N init values, but has 1 operands");
}

TEST(ShapeInferenceWindow, ReduceWindowAndSelectAndScatter) {
  Shape input = A(F32, {4, 6}), init = Scalar(F32);
  // 2x3 pooling with stride 2x3.
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input}, {&init},
                                              MakeWindow({Win(2, 2), Win(3, 3)}),
                                              BinaryReducer(F32))),
            "f32[2,2]");
  // Padded 3x3 window, stride 1: same size.
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input}, {&init},
                                              MakeWindow({Win(3, 1, 1, 1), Win(3, 1, 1, 1)}),
                                              BinaryReducer(F32))),
            "f32[4,6]");
  // Base dilation 2 on 4 gives 7 positions; a window of 2 gives 6 outputs.
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input}, {&init},
                                              MakeWindow({Win(2, 1, 0, 0, 2, 1), Win(1)}),
                                              BinaryReducer(F32))),
            "f32[6,6]");
  Shape indices = A(S32, {4, 6}), index_init = Scalar(S32);
  ProgramShape pair = Program({Scalar(F32), Scalar(S32), Scalar(F32), Scalar(S32)},
                              Shape::MakeTuple({Scalar(F32), Scalar(S32)}));
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input, &indices}, {&init, &index_init},
                                              MakeWindow({Win(2, 2), Win(2, 2)}), pair)),
            "(f32[2,3], s32[2,3])");
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input}, {&init}, MakeWindow({Win(2)}),
                                              BinaryReducer(F32))),
            "error: the window has 1 dimensions but the operand f32[4,6] has rank 2");
  EXPECT_EQ(Result(SI::InferReduceWindowShape({&input}, {&init}, MakeWindow({Win(0), Win(1)}),
                                              BinaryReducer(F32))),
            "error: window dimension 0 has size 0; it must be positive");

  const ProgramShape select = Program({Scalar(F32), Scalar(F32)}, Scalar(PRED));
  const Window pool = MakeWindow({Win(2, 2), Win(2, 2)});
  EXPECT_EQ(Result(SI::InferSelectAndScatterShape(input, select, pool, A(F32, {2, 3}), init,
                                                  BinaryReducer(F32))),
            "f32[4,6]");
  EXPECT_EQ(Result(SI::InferSelectAndScatterShape(input, select, pool, A(F32, {2, 2}), init,
                                                  BinaryReducer(F32))),
            "error: the source f32[2,2] of select-and-scatter must have the shape of the "
            "windowed operand f32[2,3]");
  EXPECT_EQ(Result(SI::InferSelectAndScatterShape(input, BinaryReducer(F32), pool, A(F32, {2, 3}),
                                                  init, BinaryReducer(F32))),
            "error: the select computation (f32[], f32[]) -> f32[] must return pred[]");
}

TEST(ShapeInferenceSort, KeysAndValues) {
  Shape keys = A(F32, {8, 4}), values = A(S32, {8, 4});
  EXPECT_EQ(Result(SI::InferSortShape({&keys}, 1, Comparator({F32}))), "f32[8,4]");
  EXPECT_EQ(Result(SI::InferSortShape({&keys, &values}, 0, Comparator({F32, S32}))),
            "(f32[8,4], s32[8,4])");
  EXPECT_EQ(Result(SI::InferSortShape({&keys, &values}, 0, Comparator({F32}))),
            "error: the sort comparator (f32[], f32[]) -> pred[] must take 4 parameters (two per "
            "operand)");
  EXPECT_EQ(Result(SI::InferSortShape({&keys}, 2, Comparator({F32}))),
            "error: sort dimensions={2} is out of range for f32[8,4]");
  Shape short_values = A(S32, {8});
  EXPECT_EQ(Result(SI::InferSortShape({&keys, &short_values}, 0, Comparator({F32, S32}))),
            "error: sort needs operands of the same dimensions, but got f32[8,4], s32[8]");
}

// --- Tuples and control flow ------------------------------------------------------

TEST(ShapeInferenceControlFlow, TuplesWhileConditionalCall) {
  Shape a = A(F32, {2}), b = Shape::MakeToken();
  const Shape tuple = SI::InferTupleShape({&a, &b});
  EXPECT_EQ(tuple.ToString(), "(f32[2], token[])");
  EXPECT_EQ(Result(SI::InferGetTupleElementShape(tuple, 1)), "token[]");
  EXPECT_EQ(Result(SI::InferGetTupleElementShape(tuple, 2)),
            "error: get-tuple-element index=2 is out of range for (f32[2], token[])");
  EXPECT_EQ(Result(SI::InferGetTupleElementShape(a, 0)),
            "error: get-tuple-element needs a tuple operand, but got f32[2]");

  const Shape state = Shape::MakeTuple({Scalar(S32), A(F32, {4})});
  const ProgramShape cond = Program({state}, Scalar(PRED));
  const ProgramShape body = Program({state}, state);
  EXPECT_EQ(Result(SI::InferWhileShape(cond, body, state)), "(s32[], f32[4])");
  EXPECT_EQ(Result(SI::InferWhileShape(Program({state}, Scalar(S32)), body, state)),
            "error: the while condition ((s32[], f32[4])) -> s32[] must return pred[]");
  EXPECT_EQ(Result(SI::InferWhileShape(cond, Program({state}, Scalar(S32)), state)),
            "error: the while body ((s32[], f32[4])) -> s32[] must take and return the loop "
            "state (s32[], f32[4])");

  Shape x = A(F32, {4}), y = Scalar(S32);
  std::vector<ProgramShape> branches = {Program({x}, Scalar(F32)), Program({y}, Scalar(F32))};
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(PRED), branches, {&x, &y})), "f32[]");
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(S32), branches, {&x, &y})), "f32[]");
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(S32), branches, {&y, &y})),
            "error: branch 0 (f32[4]) -> f32[] must take its operand s32[]");
  branches[1].result = Scalar(S32);
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(S32), branches, {&x, &y})),
            "error: branch 1 returns s32[] but branch 0 returns f32[]");
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(U32), branches, {&x, &y})),
            "error: the branch index of conditional must be pred[] or s32[], but is u32[]");
  std::vector<ProgramShape> three(3, Program({x}, Scalar(F32)));
  EXPECT_EQ(Result(SI::InferConditionalShape(Scalar(PRED), three, {&x, &x, &x})),
            "error: a conditional with a pred[] index needs 2 branches, but has 3");

  EXPECT_EQ(Result(SI::InferCallShape({&x, &y}, Program({x, y}, A(S8, {3})))), "s8[3]");
  EXPECT_EQ(Result(SI::InferCallShape({&y, &x}, Program({x, y}, A(S8, {3})))),
            "error: operand 0 is s32[] but parameter 0 of (f32[4], s32[]) -> s8[3] is f32[4]");
  EXPECT_EQ(Result(SI::InferCallShape({&x}, Program({x, y}, A(S8, {3})))),
            "error: the computation (f32[4], s32[]) -> s8[3] takes 2 parameters but is given 1 "
            "operands");
}

// --- Collectives and asynchronous pairs ----------------------------------------------

TEST(ShapeInferenceCollectives, GatherScatterAllToAll) {
  Shape a = A(F32, {2, 3}), b = A(S32, {4});
  EXPECT_EQ(Result(SI::InferAllReduceShape({&a})), "f32[2,3]");
  EXPECT_EQ(Result(SI::InferAllReduceShape({&a, &b})), "(f32[2,3], s32[4])");
  // all-gather grows the dimension by the shard count.
  EXPECT_EQ(Result(SI::InferAllGatherShape({&a}, 1, 4)), "f32[2,12]");
  EXPECT_EQ(Result(SI::InferAllGatherShape({&a, &b}, 0, 2)), "(f32[4,3], s32[8])");
  EXPECT_EQ(Result(SI::InferAllGatherStartShape({&a}, 0, 2)), "(f32[2,3], f32[4,3])");
  EXPECT_EQ(Result(SI::InferAllGatherDoneShape(Shape::MakeTuple({a, A(F32, {4, 3})}))),
            "f32[4,3]");
  EXPECT_EQ(Result(SI::InferAllGatherShape({&a}, 2, 4)),
            "error: all-gather dimensions={2} is out of range for f32[2,3]");
  // reduce-scatter shrinks it.
  Shape c = A(F32, {8, 6});
  EXPECT_EQ(Result(SI::InferReduceScatterShape({&c}, 0, 4)), "f32[2,6]");
  EXPECT_EQ(Result(SI::InferReduceScatterShape({&c}, 1, 4)),
            "error: reduce-scatter dimension 1 of f32[8,6] is not divisible by the 4 shards");
  EXPECT_EQ(Result(SI::InferAllToAllShape(c, 0, 0, 4)), "f32[8,6]");
  EXPECT_EQ(Result(SI::InferAllToAllShape(c, 0, 1, 4)), "f32[2,24]");
  EXPECT_EQ(Result(SI::InferAllToAllShape(c, 1, 1, 4)),
            "error: all-to-all split dimension 1 of f32[8,6] is not divisible by the 4 "
            "participants");
  EXPECT_EQ(Result(SI::InferAllToAllTupleShape({&c, &c})), "(f32[8,6], f32[8,6])");
  EXPECT_EQ(Result(SI::InferAllToAllTupleShape({&c, &a})),
            "error: all-to-all needs operands of one shape, but got f32[8,6], f32[2,3]");
  EXPECT_EQ(Result(SI::InferCollectiveBroadcastShape({&a})), "f32[2,3]");
}

TEST(ShapeInferenceCollectives, CollectivePermute) {
  Shape a = A(F32, {2, 3});
  EXPECT_EQ(Result(SI::InferCollectivePermuteShape({&a}, false)), "f32[2,3]");
  Shape u = Scalar(U32);
  EXPECT_EQ(Result(SI::InferCollectivePermuteStartShape({&a}, {}, false)), "(f32[2,3], f32[2,3])");
  EXPECT_EQ(Result(SI::InferCollectivePermuteStartShape({&a}, {&u, &u}, false)),
            "(f32[2,3], f32[2,3], u32[], u32[])");
  Shape f = Scalar(F32);
  EXPECT_EQ(Result(SI::InferCollectivePermuteStartShape({&a}, {&f}, false)),
            "error: the context of collective-permute-start must be u32[] or s32[] scalars, not "
            "f32[]");
  EXPECT_EQ(Result(SI::InferCollectivePermuteDoneShape(Shape::MakeTuple({a, A(F32, {4})}))),
            "f32[4]");
  // In place: the result is the output buffer (operand 1).
  Shape out = A(F32, {4, 3}), offsets = Shape::MakeTuple({Scalar(S32), Scalar(S32)});
  EXPECT_EQ(Result(SI::InferCollectivePermuteShape({&a, &out, &offsets, &offsets}, true)),
            "f32[4,3]");
}

TEST(ShapeInferenceAsync, StartUpdateDonePairs) {
  Shape a = A(F32, {4}), b = Scalar(S32);
  ProgramShape wrapped = Program({a, b}, A(F32, {8}));
  Shape context = Scalar(U32);
  auto start = SI::InferAsyncStartShape({&a, &b}, wrapped, {&context});
  EXPECT_EQ(Result(start), "((f32[4], s32[]), f32[8], u32[])");
  EXPECT_EQ(Result(SI::InferAsyncUpdateShape(*start)), "((f32[4], s32[]), f32[8], u32[])");
  EXPECT_EQ(Result(SI::InferAsyncDoneShape(*start)), "f32[8]");
  EXPECT_EQ(Result(SI::InferAsyncStartShape({&a}, wrapped, {})),
            "error: the computation (f32[4], s32[]) -> f32[8] takes 2 parameters but is given 1 "
            "operands");
  EXPECT_EQ(Result(SI::InferCopyStartShape(a)), "(f32[4], f32[4], u32[])");
  EXPECT_EQ(Result(SI::InferCopyDoneShape(Shape::MakeTuple({a, a, Scalar(U32)}))), "f32[4]");
  const Shape token = Shape::MakeToken();
  EXPECT_EQ(Result(SI::InferSendShape(a, token)), "(f32[4], u32[], token[])");
  EXPECT_EQ(Result(SI::InferSendDoneShape(*SI::InferSendShape(a, token))), "token[]");
  EXPECT_EQ(Result(SI::InferRecvShape(token, a)), "(f32[4], u32[], token[])");
  EXPECT_EQ(Result(SI::InferRecvDoneShape(*SI::InferRecvShape(token, a))), "(f32[4], token[])");
  EXPECT_EQ(Result(SI::InferSendShape(a, a)),
            "error: the second operand of send must be a token, but is f32[4]");
  EXPECT_EQ(Result(SI::InferInfeedShape(token, a)), "(f32[4], token[])");
  EXPECT_EQ(Result(SI::InferOutfeedShape(a, token, nullptr)), "token[]");
  EXPECT_EQ(Result(SI::InferOutfeedShape(a, token, &b)),
            "error: outfeed_shape=s32[] differs from the data f32[4]");
  EXPECT_EQ(Result(SI::InferAfterAllShape({&token, &token})), "token[]");
  EXPECT_EQ(Result(SI::InferAfterAllShape({})), "token[]");
  EXPECT_EQ(Result(SI::InferAfterAllShape({&token, &a})),
            "error: operand 1 of after-all must be a token, but is f32[4]");
  EXPECT_EQ(Result(SI::InferAddDependencyShape(a, token)), "f32[4]");
}

// --- Random numbers, linear algebra, FFT, sizes -------------------------------------

TEST(ShapeInferenceRandom, RngAndBitGenerator) {
  EXPECT_EQ(Result(SI::InferRngShape(Scalar(F32), Scalar(F32), RandomDistribution::kNormal,
                                     A(F32, {3, 4}))),
            "f32[3,4]");
  EXPECT_EQ(Result(SI::InferRngShape(Scalar(S32), Scalar(S32), RandomDistribution::kNormal,
                                     A(S32, {3}))),
            "error: rng_normal needs a floating-point result, not s32[3]");
  EXPECT_EQ(Result(SI::InferRngShape(Scalar(F32), A(F32, {2}), RandomDistribution::kUniform,
                                     A(F32, {3}))),
            "error: the parameters of rng must be scalars of the result's element type f32, but "
            "got f32[] and f32[2]");
  EXPECT_EQ(Result(SI::InferRngBitGeneratorShape(A(U64, {2}), A(U32, {8, 8}))),
            "(u64[2], u32[8,8])");
  EXPECT_EQ(Result(SI::InferRngBitGeneratorShape(A(S64, {2}), A(U32, {8}))),
            "error: the state of rng-bit-generator must be a rank-1 unsigned integer array, not "
            "s64[2]");
}

TEST(ShapeInferenceLinearAlgebra, BatchNormCholeskyTriangularSolve) {
  const Shape x = A(F32, {8, 4, 4, 16}), v = A(F32, {16});
  EXPECT_EQ(Result(SI::InferBatchNormTrainingShape(x, v, v, 3)),
            "(f32[8,4,4,16], f32[16], f32[16])");
  EXPECT_EQ(Result(SI::InferBatchNormInferenceShape(x, v, v, v, v, 3)), "f32[8,4,4,16]");
  EXPECT_EQ(Result(SI::InferBatchNormGradShape(x, v, v, v, x, 3)),
            "(f32[8,4,4,16], f32[16], f32[16])");
  EXPECT_EQ(Result(SI::InferBatchNormTrainingShape(x, v, v, 1)),
            "error: the scale of batch-norm-training must be a vector of the 4 features, but is "
            "f32[16]");
  EXPECT_EQ(Result(SI::InferBatchNormTrainingShape(x, v, v, 4)),
            "error: batch-norm-training feature_index=4 is out of range for f32[8,4,4,16]");
  EXPECT_EQ(Result(SI::InferBatchNormGradShape(x, v, v, v, A(F32, {8, 4, 4, 15}), 3)),
            "error: the output gradient f32[8,4,4,15] of batch-norm-grad must have the operand's "
            "shape f32[8,4,4,16]");

  EXPECT_EQ(Result(SI::InferCholeskyShape(A(F32, {2, 5, 5}))), "f32[2,5,5]");
  EXPECT_EQ(Result(SI::InferCholeskyShape(A(F32, {5, 4}))),
            "error: cholesky needs square matrices in the two minor dimensions, but got f32[5,4]");
  // a x = b with a on the left: b is [.., M, N].
  EXPECT_EQ(Result(SI::InferTriangularSolveShape(A(F32, {2, 4, 4}), A(F32, {2, 4, 7}), true)),
            "f32[2,4,7]");
  // x a = b with a on the right: b is [.., N, M].
  EXPECT_EQ(Result(SI::InferTriangularSolveShape(A(F32, {2, 4, 4}), A(F32, {2, 7, 4}), false)),
            "f32[2,7,4]");
  EXPECT_EQ(Result(SI::InferTriangularSolveShape(A(F32, {2, 4, 4}), A(F32, {2, 7, 4}), true)),
            "error: triangular-solve with left_side=true: a f32[2,4,4] does not fit b "
            "f32[2,7,4]");
  EXPECT_EQ(Result(SI::InferTriangularSolveShape(A(F32, {3, 4, 4}), A(F32, {2, 4, 7}), true)),
            "error: triangular-solve needs a and b with the same batch dimensions, but got "
            "f32[3,4,4] and f32[2,4,7]");
}

TEST(ShapeInferenceFft, AllFourTypes) {
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {4, 8}), FftType::kFft, {8})), "c64[4,8]");
  EXPECT_EQ(Result(SI::InferFftShape(A(C128, {4, 8}), FftType::kIfft, {4, 8})), "c128[4,8]");
  // A real FFT keeps half of the spectrum plus one.
  EXPECT_EQ(Result(SI::InferFftShape(A(F32, {4, 8}), FftType::kRfft, {8})), "c64[4,5]");
  EXPECT_EQ(Result(SI::InferFftShape(A(F64, {3, 4, 9}), FftType::kRfft, {4, 9})), "c128[3,4,5]");
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {4, 5}), FftType::kIrfft, {8})), "f32[4,8]");
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {4, 5}), FftType::kIrfft, {9})), "f32[4,9]");
  EXPECT_EQ(Result(SI::InferFftShape(A(F32, {4, 8}), FftType::kFft, {8})),
            "error: FFT needs a complex operand, but got f32[4,8]");
  EXPECT_EQ(Result(SI::InferFftShape(A(F32, {4, 8}), FftType::kRfft, {6})),
            "error: RFFT of f32[4,8]: the minor dimensions must equal fft_length={6}");
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {4, 6}), FftType::kIrfft, {8})),
            "error: IRFFT of c64[4,6] with fft_length={8} needs a minor dimension of 5");
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {8}), FftType::kFft, {})),
            "error: fft_length={} must have 1 to 3 dimensions");
  EXPECT_EQ(Result(SI::InferFftShape(A(C64, {8}), FftType::kFft, {2, 4})),
            "error: an fft of 2 dimensions needs an operand of at least that rank, but got c64[8]");
}

TEST(ShapeInferenceSizes, TopKAndDimensionSizes) {
  EXPECT_EQ(Result(SI::InferTopKShape(A(F32, {4, 10}), 3)), "(f32[4,3], s32[4,3])");
  EXPECT_EQ(Result(SI::InferTopKShape(A(F32, {4, 10}), 11)),
            "error: topk k=11 is not within [0, 10] (the minor dimension of f32[4,10])");
  EXPECT_EQ(Result(SI::InferGetDimensionSizeShape(A(F32, {4, 10}), 1)), "s32[]");
  EXPECT_EQ(Result(SI::InferGetDimensionSizeShape(A(F32, {4, 10}), 2)),
            "error: get-dimension-size dimensions={2} is out of range for f32[4,10]");
  EXPECT_EQ(Result(SI::InferSetDimensionSizeShape(A(F32, {4, 10}), Scalar(S32), 1)),
            "f32[4,<=10]");
  EXPECT_EQ(Result(SI::InferSetDimensionSizeShape(A(F32, {4, 10}), Scalar(S64), 1)),
            "error: the size of set-dimension-size must be s32[], but is s64[]");
}

TEST(ShapeInferenceRobustness, ExtremeValuesGiveErrorsNotCrashes) {
  const Shape huge = A(F32, {INT64_MAX / 2, 4});
  EXPECT_THAT(Result(SI::InferReshapeShape(huge, A(F32, {8}))), StartsWith("error: "));
  Shape big = A(F32, {INT64_MAX});
  EXPECT_THAT(Result(SI::InferAllGatherShape({&big}, 0, 2)), StartsWith("error: "));
  EXPECT_THAT(Result(SI::InferConcatOpShape({&big, &big}, 0)), StartsWith("error: "));
  Shape input = A(F32, {INT64_MAX}), init = Scalar(F32);
  EXPECT_THAT(Result(SI::InferReduceWindowShape(
                  {&input}, {&init}, MakeWindow({Win(INT64_MAX, 1, INT64_MAX, 0, INT64_MAX, 2)}),
                  BinaryReducer(F32))),
              StartsWith("error: "));
  EXPECT_THAT(Result(SI::InferSliceShape(A(F32, {10}), {INT64_MIN}, {INT64_MAX}, {1})),
              StartsWith("error: "));
  EXPECT_THAT(Result(SI::InferAllToAllShape(A(F32, {8}), 0, 0, 0)), StartsWith("error: "));
  EXPECT_THAT(Result(SI::InferReduceScatterShape({&init}, 0, 2)), StartsWith("error: "));
}

}  // namespace
}  // namespace systolic
