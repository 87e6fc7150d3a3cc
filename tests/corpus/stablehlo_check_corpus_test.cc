// Every case of the StableHLO interpreter's own tests (and the JAX-generated
// samples) passes its check.* assertions on the importer + evaluator.
#include "core/stablehlo/check_runner.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

TEST(StableHloCorpus, EveryCasePassesItsChecks) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  int passed = 0, failed = 0;
  for (const auto& path : testing::FilesUnder(*corpus / "stablehlo", {".mlir"})) {
    auto results = stablehlo::RunCheckFile(path.string());
    ASSERT_TRUE(results.ok()) << results.status();
    for (const auto& r : *results) {
      if (r.passed) {
        ++passed;
      } else {
        ++failed;
        ADD_FAILURE() << path << ":" << r.first_line << " " << r.name << ": " << r.message;
      }
    }
  }
  std::printf("StableHLO corpus: %d cases passed, %d failed\n", passed, failed);
  EXPECT_GT(passed, 200);
}

}  // namespace
}  // namespace systolic
