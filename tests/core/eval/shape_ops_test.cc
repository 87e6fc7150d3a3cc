// Data-movement opcodes, gather and scatter, with hand-computed values.
#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

Literal Range(PrimitiveType type, std::vector<int64_t> dims) {
  Literal l(Shape(type, dims));
  for (int64_t i = 0; i < l.element_count(); ++i) l.SetFromDouble(i, double(i));
  return l;
}

TEST(ShapeOpsTest, BroadcastReshapeTranspose) {
  Literal v = R1<int32_t>({1, 2, 3});
  EXPECT_EQ(ToInts(RunOp("broadcast", {&v}, "s32[2,3]", "dimensions={1}")),
            (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(ToInts(RunOp("broadcast", {&v}, "s32[3,2]", "dimensions={0}")),
            (std::vector<int64_t>{1, 1, 2, 2, 3, 3}));
  Literal s = R0<float>(2.5f);
  ExpectNear(RunOp("broadcast", {&s}, "f32[2,2]", "dimensions={}"), {2.5, 2.5, 2.5, 2.5}, 0);
  Literal m = Range(S32, {2, 3});
  EXPECT_EQ(ToInts(RunOp("transpose", {&m}, "s32[3,2]", "dimensions={1,0}")),
            (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  Literal r = RunOp("reshape", {&m}, "s32[3,2]");
  EXPECT_EQ(r.shape().dimensions(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(ToInts(r), ToInts(m));
  Literal cube = Range(S32, {2, 3, 4});
  Literal t = RunOp("transpose", {&cube}, "s32[4,2,3]", "dimensions={2,0,1}");
  // t[k][i][j] = cube[i][j][k] = 12i + 4j + k.
  EXPECT_EQ(t.Get<int32_t>({3, 1, 2}), 12 + 8 + 3);
}

TEST(ShapeOpsTest, SliceReverseConcatenate) {
  Literal m = Range(S32, {3, 4});
  EXPECT_EQ(ToInts(RunOp("slice", {&m}, "s32[2,2]", "slice={[0:3:2], [1:4:2]}")),
            (std::vector<int64_t>{1, 3, 9, 11}));
  EXPECT_EQ(ToInts(RunOp("reverse", {&m}, "s32[3,4]", "dimensions={0,1}")),
            (std::vector<int64_t>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  Literal a = R1<int32_t>({1, 2}), b = R1<int32_t>({3, 4, 5});
  EXPECT_EQ(ToInts(RunOp("concatenate", {&a, &b}, "s32[5]", "dimensions={0}")),
            (std::vector<int64_t>{1, 2, 3, 4, 5}));
  Literal x = Range(S32, {2, 2}), y = Range(S32, {2, 1});
  EXPECT_EQ(ToInts(RunOp("concatenate", {&x, &y}, "s32[2,3]", "dimensions={1}")),
            (std::vector<int64_t>{0, 1, 0, 2, 3, 1}));
}

TEST(ShapeOpsTest, PadWithNegativeAndInteriorPadding) {
  Literal v = R1<int32_t>({1, 2, 3});
  Literal zero = R0<int32_t>(0);
  EXPECT_EQ(ToInts(RunOp("pad", {&v, &zero}, "s32[5]", "padding=1_-1_1")),
            (std::vector<int64_t>{0, 1, 0, 2, 0}));
  EXPECT_EQ(ToInts(RunOp("pad", {&v, &zero}, "s32[2]", "padding=-2_1")),
            (std::vector<int64_t>{3, 0}));
  Literal nine = R0<int32_t>(9);
  Literal m = Range(S32, {2, 2});
  EXPECT_EQ(ToInts(RunOp("pad", {&m, &nine}, "s32[4,3]", "padding=1_0_1x0_0_1")),
            (std::vector<int64_t>{9, 9, 9, 0, 9, 1, 9, 9, 9, 2, 9, 3}));
  // Cropping everything but the padding.
  EXPECT_EQ(ToInts(RunOp("pad", {&v, &nine}, "s32[2]", "padding=-5_4")),
            (std::vector<int64_t>{9, 9}));
}

TEST(ShapeOpsTest, Iota) {
  EXPECT_EQ(ToInts(RunOk("HloModule i\nENTRY e {\n ROOT i = s32[2,3] iota(), iota_dimension=1\n}")),
            (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  ExpectNear(RunOk("HloModule i\nENTRY e {\n ROOT i = f32[3,2] iota(), iota_dimension=0\n}"),
             {0, 0, 1, 1, 2, 2}, 0);
}

TEST(ShapeOpsTest, DynamicSliceAndUpdateClampTheirStarts) {
  Literal v = R1<int32_t>({0, 1, 2, 3, 4});
  for (auto [start, expected] : std::vector<std::pair<int32_t, std::vector<int64_t>>>{
           {1, {1, 2}}, {4, {3, 4}}, {-3, {0, 1}}, {100, {3, 4}}}) {
    Literal s = R0<int32_t>(start);
    EXPECT_EQ(ToInts(RunOp("dynamic-slice", {&v, &s}, "s32[2]", "dynamic_slice_sizes={2}")),
              expected)
        << "start " << start;
  }
  Literal zeros = R1<int32_t>({0, 0, 0, 0, 0});
  Literal update = R1<int32_t>({9, 8});
  for (auto [start, expected] : std::vector<std::pair<int32_t, std::vector<int64_t>>>{
           {1, {0, 9, 8, 0, 0}}, {10, {0, 0, 0, 9, 8}}, {-1, {9, 8, 0, 0, 0}}}) {
    Literal s = R0<int32_t>(start);
    EXPECT_EQ(ToInts(RunOp("dynamic-update-slice", {&zeros, &update, &s}, "s32[5]")), expected)
        << "start " << start;
  }
  Literal m = Range(S32, {3, 3});
  Literal i = R0<int32_t>(2), j = R0<int32_t>(-1);
  EXPECT_EQ(ToInts(RunOp("dynamic-slice", {&m, &i, &j}, "s32[2,2]", "dynamic_slice_sizes={2,2}")),
            (std::vector<int64_t>{3, 4, 6, 7}));
}

TEST(ShapeOpsTest, GatherRowsWithClampedIndices) {
  Literal table = Range(S32, {3, 2});  // rows {0,1}, {2,3}, {4,5}
  Literal indices = R1<int32_t>({2, 0, 7});
  EXPECT_EQ(ToInts(RunOp("gather", {&table, &indices}, "s32[3,2]",
                         "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                         "index_vector_dim=1, slice_sizes={1,2}")),
            (std::vector<int64_t>{4, 5, 0, 1, 4, 5}));
  // Windows of 2 rows, starting at [0,1] and [1,0] (the latter from a vector
  // index), as XLA's documentation example.
  Literal m = Range(S32, {3, 3});
  Literal starts = Literal::CreateR2<int32_t>({{0, 1}, {2, 0}});
  EXPECT_EQ(ToInts(RunOp("gather", {&m, &starts}, "s32[2,2,2]",
                         "offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, "
                         "index_vector_dim=1, slice_sizes={2,2}")),
            (std::vector<int64_t>{1, 2, 4, 5, 3, 4, 6, 7}));
}

TEST(ShapeOpsTest, GatherWithBatchingDimensions) {
  Literal m = Range(S32, {2, 3});  // batch 0: {0,1,2}, batch 1: {3,4,5}
  Literal indices = R1<int32_t>({2, 1});
  EXPECT_EQ(ToInts(RunOp("gather", {&m, &indices}, "s32[2]",
                         "offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, "
                         "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                         "index_vector_dim=1, slice_sizes={1,1}")),
            (std::vector<int64_t>{2, 4}));
}

const char kAddComputation[] = R"(
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
})";

TEST(ShapeOpsTest, ScatterAddsDuplicatesAndSkipsOutOfBounds) {
  Literal operand = R1<int32_t>({0, 0, 0, 0});
  Literal indices = Literal::CreateR2<int32_t>({{1}, {1}, {3}, {7}, {-1}});
  Literal updates = R1<int32_t>({1, 2, 3, 100, 100});
  EXPECT_EQ(ToInts(RunOp("scatter", {&operand, &indices, &updates}, "s32[4]",
                         "update_window_dims={}, inserted_window_dims={0}, "
                         "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
                         kAddComputation)),
            (std::vector<int64_t>{0, 3, 0, 3}));
  // Row updates: a window that would leave the operand is skipped whole.
  Literal m = Literal::CreateR2<int32_t>({{1, 1}, {1, 1}, {1, 1}});
  Literal rows = R1<int32_t>({2, 3});
  Literal row_updates = Literal::CreateR2<int32_t>({{5, 6}, {7, 8}});
  EXPECT_EQ(ToInts(RunOp("scatter", {&m, &rows, &row_updates}, "s32[3,2]",
                         "update_window_dims={1}, inserted_window_dims={0}, "
                         "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add, "
                         "indices_are_sorted=true, unique_indices=true",
                         kAddComputation)),
            (std::vector<int64_t>{1, 1, 1, 1, 6, 7}));
}

TEST(ShapeOpsTest, ScatterWithBatchingDimensionsAndAssignment) {
  const std::string assign = R"(
assign {
  x = s32[] parameter(0)
  ROOT y = s32[] parameter(1)
})";
  Literal m = Range(S32, {2, 3});
  Literal indices = R1<int32_t>({0, 2});
  Literal updates = R1<int32_t>({-1, -2});
  EXPECT_EQ(ToInts(RunOp("scatter", {&m, &indices, &updates}, "s32[2,3]",
                         "update_window_dims={}, inserted_window_dims={1}, "
                         "input_batching_dims={0}, scatter_indices_batching_dims={0}, "
                         "scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=assign",
                         assign)),
            (std::vector<int64_t>{-1, 1, 2, 3, 4, -2}));
}

TEST(ShapeOpsTest, VariadicScatter) {
  const std::string text = R"(
HloModule s
pair {
  a0 = s32[] parameter(0)
  b0 = f32[] parameter(1)
  a1 = s32[] parameter(2)
  b1 = f32[] parameter(3)
  sa = s32[] add(a0, a1)
  mb = f32[] maximum(b0, b1)
  ROOT t = (s32[], f32[]) tuple(sa, mb)
}
ENTRY e {
  x = s32[3] parameter(0)
  y = f32[3] parameter(1)
  i = s32[2,1] parameter(2)
  ux = s32[2] parameter(3)
  uy = f32[2] parameter(4)
  ROOT r = (s32[3], f32[3]) scatter(x, y, i, ux, uy), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair
})";
  std::vector<Literal> args;
  args.push_back(R1<int32_t>({1, 1, 1}));
  args.push_back(R1<float>({0, 5, 0}));
  args.push_back(Literal::CreateR2<int32_t>({{1}, {1}}));
  args.push_back(R1<int32_t>({10, 20}));
  args.push_back(R1<float>({3, 9}));
  Literal r = RunOk(text, args);
  EXPECT_EQ(ToInts(r.tuple_element(0)), (std::vector<int64_t>{1, 31, 1}));
  ExpectNear(r.tuple_element(1), {0, 9, 0}, 0);
}

TEST(ShapeOpsTest, GetDimensionSizeCopyAndBitcastWithLayouts) {
  Literal m = Range(F32, {2, 3});
  EXPECT_EQ(ToInts(RunOp("get-dimension-size", {&m}, "s32[]", "dimensions={1}")),
            (std::vector<int64_t>{3}));
  EXPECT_EQ(RunOp("copy", {&m}, "f32[2,3]"), m);
  // f32[2,3]{1,0} and f32[3,2]{0,1} share one physical order: a transpose.
  const std::string text = R"(
HloModule b
ENTRY e {
  p = f32[2,3]{1,0} parameter(0)
  ROOT b = f32[3,2]{0,1} bitcast(p)
})";
  std::vector<Literal> args;
  args.push_back(m.Clone());
  ExpectNear(RunOk(text, args), {0, 3, 1, 4, 2, 5}, 0);
  Literal flat = RunOp("bitcast", {&m}, "f32[6]");
  ExpectNear(flat, {0, 1, 2, 3, 4, 5}, 0);
}

}  // namespace
}  // namespace systolic::eval_test
