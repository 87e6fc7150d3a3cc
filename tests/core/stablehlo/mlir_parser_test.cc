#include "core/stablehlo/mlir_parser.h"

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic::mlir {
namespace {

TEST(MlirParser, ParsesEveryCorpusChunk) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus";
  int chunks = 0;
  for (const auto& path : testing::FilesUnder(*corpus / "stablehlo", {".mlir"})) {
    std::string text = testing::ReadFileOrDie(path);
    for (const HloTextChunk& chunk : SplitHloText(text)) {
      ++chunks;
      auto module = ParseModule(chunk.text, {path.string(), chunk.first_line});
      EXPECT_TRUE(module.ok()) << module.status();
    }
  }
  EXPECT_GT(chunks, 150);
}

// The generic form a module is printed in with --mlir-print-op-generic:
// "builtin.module" holding "func.func" operations whose name, type and
// visibility are attributes and whose arguments are the entry block's.
TEST(MlirParser, GenericModulesAndFunctions) {
  absl::StatusOr<Module> module = ParseModule(R"("builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>, sym_name = "add", sym_visibility = "private"}> ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> tensor<i1>, sym_name = "main"}> ({
    %0 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    "func.return"(%0) : (tensor<i1>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = true} : () -> ()
)",
                                              {"generic.mlir", 1});
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_EQ(module->functions.size(), 2u);
  const Function& add = module->functions[0];
  EXPECT_EQ(add.name, "add");
  EXPECT_EQ(add.visibility, "private");
  EXPECT_EQ(add.argument_names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(add.argument_types.size(), 2u);
  EXPECT_EQ(add.argument_types[0].dimensions, std::vector<int64_t>{2});
  ASSERT_EQ(add.result_types.size(), 1u);
  ASSERT_EQ(add.body.blocks.size(), 1u);
  EXPECT_EQ(add.body.blocks[0].operations.size(), 2u);
  EXPECT_EQ(module->functions[1].name, "main");
  EXPECT_EQ(module->functions[1].visibility, "public");
  ASSERT_EQ(module->attributes.size(), 1u);
  EXPECT_EQ(module->attributes[0].first, "jax.uses_shape_polymorphism");

  // A function whose block does not match its type is named.
  absl::StatusOr<Module> bad = ParseModule(R"("func.func"() <{function_type = (tensor<f32>) -> tensor<f32>, sym_name = "f"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
)",
                                           {"bad.mlir", 1});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.mlir:1:1: @f takes 1 arguments but its block has 0"),
            std::string::npos)
      << bad.status();
}

}  // namespace
}  // namespace systolic::mlir
