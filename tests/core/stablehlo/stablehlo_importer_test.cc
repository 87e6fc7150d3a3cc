#include "core/stablehlo/stablehlo_importer.h"

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "core/stablehlo/mlir_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic::stablehlo {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<HloModule> Import(absl::string_view text) {
  auto module = ParseStableHlo(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

TEST(StableHloImporter, JaxStyleModuleWithShardingsAndLocations) {
  auto m = Import(R"(
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"},
                         %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
      -> (tensor<4x16xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32> loc(#loc2)
    return %0 : tensor<4x16xf32>
  }
}
#loc1 = loc("model.py":12:3)
#loc2 = loc("jit(f)/dense/dot_general"(#loc1))
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->num_partitions(), 2);
  HloComputation* entry = m->entry_computation();
  EXPECT_EQ(entry->parameter_instruction(0)->sharding().ToString(), "{devices=[2,1]<=[2]}");
  EXPECT_EQ(entry->parameter_instruction(1)->sharding().ToString(), "{devices=[1,2]<=[2]}");
  HloInstruction* dot = entry->root_instruction();
  EXPECT_EQ(dot->opcode(), HloOpcode::kDot);
  EXPECT_EQ(dot->dot_dimension_numbers().lhs_contracting_dimensions, std::vector<int64_t>{1});
  EXPECT_EQ(dot->precision_config().operand_precision.size(), 2u);
  EXPECT_EQ(dot->metadata().op_name, "jit(f)/dense/dot_general");
  EXPECT_EQ(dot->metadata().source_file, "model.py");
  EXPECT_EQ(dot->metadata().source_line, 12);
}

TEST(StableHloImporter, ReduceFormsWhileAndCaptures) {
  auto m = Import(R"(
func.func @main(%x: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %acc = %zero) : tensor<i32>, tensor<f32>
   cond {
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %k = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %k : tensor<i32>
    %a2 = stablehlo.add %acc, %one : tensor<f32>
    stablehlo.return %i2, %a2 : tensor<i32>, tensor<f32>
  }
  return %r, %w#1 : tensor<4xf32>, tensor<f32>
}
)");
  ASSERT_NE(m, nullptr);
  // The loop state carries the captured %n and %one after the two variables.
  HloInstruction* loop = nullptr;
  for (HloInstruction* i : m->entry_computation()->instructions()) {
    if (i->opcode() == HloOpcode::kWhile) loop = i;
  }
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->shape().ToString(), "(s32[], f32[], s32[], f32[])");
  EXPECT_EQ(loop->while_body()->root_instruction()->shape().ToString(),
            "(s32[], f32[], s32[], f32[])");
  EXPECT_EQ(m->entry_computation()->root_instruction()->shape().ToString(), "(f32[4], f32[])");
}

TEST(StableHloImporter, GenericFormsWithRegions) {
  auto m = Import(R"(
func.func @main(%operand: tensor<3x4xi64>, %idx: tensor<2x1xi64>, %p: tensor<i1>) -> tensor<2xi64> {
  %g = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>, indices_are_sorted = false
  } : (tensor<3x4xi64>, tensor<2x1xi64>) -> tensor<2x4xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %s = "stablehlo.reduce"(%g, %zero) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %m = stablehlo.maximum %a, %b : tensor<i64>
      stablehlo.return %m : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x4xi64>, tensor<i64>) -> tensor<2xi64>
  %r = "stablehlo.if"(%p) ({
    stablehlo.return %s : tensor<2xi64>
  }, {
    %n = stablehlo.negate %s : tensor<2xi64>
    stablehlo.return %n : tensor<2xi64>
  }) : (tensor<i1>) -> tensor<2xi64>
  return %r : tensor<2xi64>
}
)");
  ASSERT_NE(m, nullptr);
  HloInstruction* root = m->entry_computation()->root_instruction();
  EXPECT_EQ(root->opcode(), HloOpcode::kConditional);
  EXPECT_EQ(root->branch_count(), 2);
  EXPECT_EQ(root->operand(1)->shape().ToString(), "(s64[2])");  // the captured %s
}

TEST(StableHloImporter, DenseLiterals) {
  mlir::Type t;
  t.kind = mlir::Type::Kind::kTensor;
  t.element_type = F32;
  t.dimensions = {2};
  t.text = "tensor<2xf32>";
  auto hex = mlir::DecodeDenseElements("\"0x0000803F00000040\"", t);
  ASSERT_TRUE(hex.ok()) << hex.status();
  EXPECT_EQ(hex->data<float>()[1], 2.0f);
  auto splat = mlir::DecodeDenseElements("0x7F800000", t);
  ASSERT_TRUE(splat.ok());
  EXPECT_TRUE(std::isinf(splat->data<float>()[0]));
  t.element_type = C64;
  auto complex = mlir::DecodeDenseElements("[(1.0, 2.0), (3.0, -4.0)]", t);
  ASSERT_TRUE(complex.ok()) << complex.status();
  EXPECT_EQ(complex->data<complex64>()[1], complex64(3, -4));
  t.element_type = S8;
  EXPECT_FALSE(mlir::DecodeDenseElements("[1, 2, 3]", t).ok());
}

TEST(StableHloImporter, ErrorsNameTheLocation) {
  auto bad = ParseStableHlo(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.frobnicate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                            "bad.mlir");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("bad.mlir:2:3: operation stablehlo.frobnicate is not supported"));
  auto undefined = ParseStableHlo(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                                  "bad.mlir");
  ASSERT_FALSE(undefined.ok());
  EXPECT_THAT(std::string(undefined.status().message()),
              HasSubstr("bad.mlir:2:26: use of undefined value %b"));
  auto syntax = ParseStableHlo("func.func @main( {", "bad.mlir");
  ASSERT_FALSE(syntax.ok());
  EXPECT_THAT(std::string(syntax.status().message()), HasSubstr("bad.mlir:1:18:"));
}

// Every test case of the corpus imports (checks become probes) except the
// collective cases driven by interpreter.run_parallel, which the check
// runner imports program by program.
TEST(StableHloImporter, ImportsEveryCorpusCase) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus";
  int cases = 0, imported = 0;
  for (const auto& path : testing::FilesUnder(*corpus / "stablehlo", {".mlir"})) {
    std::string text = testing::ReadFileOrDie(path);
    for (const HloTextChunk& chunk : SplitHloText(text)) {
      ++cases;
      auto syntax = mlir::ParseModule(chunk.text, {path.string(), chunk.first_line});
      ASSERT_TRUE(syntax.ok()) << syntax.status();
      if (chunk.text.find("interpreter.run_parallel") != std::string::npos) continue;
      ModuleImporter importer(*syntax, path.string());
      std::vector<CheckProbe> probes;
      auto module = importer.Import("", &probes);
      EXPECT_TRUE(module.ok()) << module.status();
      if (module.ok()) {
        ++imported;
        absl::Status round_trip = CheckTextRoundTrip(**module);
        EXPECT_TRUE(round_trip.ok()) << path << ":" << chunk.first_line << ": " << round_trip;
      }
    }
  }
  std::printf("StableHLO corpus: %d cases, %d imported directly\n", cases, imported);
}

}  // namespace
}  // namespace systolic::stablehlo
