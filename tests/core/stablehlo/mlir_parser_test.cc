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

}  // namespace
}  // namespace systolic::mlir
