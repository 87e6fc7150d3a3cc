// The whole pipeline on 1,000 generated programs: each compiles (with the
// verifier after every pass), runs on the reference evaluator with the same
// results as before compilation (bit for bit unless a pass reported a
// floating-point rewrite, then within 1e-4), and every instruction of every
// snapshot resolves to original instructions.
#include "tests/support/random_program_generator.h"

#include "absl/strings/str_cat.h"
#include "core/compiler/compiler.h"
#include "core/compiler/differential_check.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

constexpr int kSeeds = 1000;
constexpr int kShards = 4;

class RandomProgramTest : public ::testing::TestWithParam<int> {};

TEST(RandomProgramGeneratorTest, SameSeedSameProgramAndTheTextParsesBack) {
  std::string a = RandomProgramGenerator(7).Generate()->ToString();
  std::string b = RandomProgramGenerator(7).Generate()->ToString();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, RandomProgramGenerator(8).Generate()->ToString());
  auto parsed = ParseAndReturnUnverifiedModule(a);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << a;
  RandomProgramOptions big;
  big.instructions = 5000;
  EXPECT_GE(RandomProgramGenerator(1, big).Generate()->entry_computation()->instruction_count(), 5000);
}

TEST_P(RandomProgramTest, CompiledProgramsComputeWhatTheOriginalsDid) {
  int compared_exactly = 0;
  for (int seed = GetParam(); seed < kSeeds; seed += kShards) {
    std::unique_ptr<HloModule> original = RandomProgramGenerator(seed).Generate();
    CompileOptions options;
    options.verify_between_passes = true;
    Compiler compiler(options);
    auto result = compiler.Compile(original->Clone());
    ASSERT_TRUE(result.ok()) << "seed " << seed << ": " << result.status() << "\n"
                             << original->ToString();
    const CompilationHistory& history = result->history;

    DifferentialOptions check;
    check.seed = uint64_t(seed);
    check.exact = !history.changed_numerics();
    compared_exactly += check.exact;
    auto same = CheckSameResults(*original, *result->module, check);
    ASSERT_TRUE(same.ok()) << "seed " << seed << ": " << same.status();
    ASSERT_TRUE(same->same) << "seed " << seed << ": " << same->mismatch << "\n"
                            << original->ToString() << "\n"
                            << result->module->ToString();

    const ModuleState& input = *history.snapshot(0).state;
    for (const PassSnapshot& s : history.snapshots()) {
      for (const InstructionRecord& r : s.instructions()) {
        for (const ProvenanceEntry& origin : r.origins) {
          ASSERT_NE(input.Find(origin.unique_id), nullptr)
              << "seed " << seed << ", after " << s.pass_name << ": %" << r.name
              << " comes from unknown %" << origin.name;
        }
      }
    }
  }
  // Most programs keep bit-exact results.
  EXPECT_GT(compared_exactly, kSeeds / kShards / 4);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgramTest, ::testing::Range(0, kShards));

}  // namespace
}  // namespace systolic
