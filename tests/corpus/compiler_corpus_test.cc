// The compiler on real programs: every module of the XLA corpus and of the
// project's samples compiles with the default pipeline, every instruction of
// every snapshot resolves to original instructions, and wherever the
// reference evaluator can run the original (one device, no randomness), the
// compiled module gives the same results: bit for bit unless a pass reported
// a floating-point rewrite, else within a relative 1e-4 (absolute 1e-5).
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "core/compiler/compiler.h"
#include "core/compiler/differential_check.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_verifier.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

struct Tally {
  int modules = 0, compiled = 0, compared = 0, exact = 0, not_runnable = 0;
};

bool HasRandomness(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* instr : c->instructions()) {
      if (instr->opcode() == HloOpcode::kRng || instr->opcode() == HloOpcode::kRngGetAndUpdateState) {
        return true;
      }
    }
  }
  return false;
}

void CompileAndCompare(std::unique_ptr<HloModule> module, const std::string& where, Tally* tally) {
  ++tally->modules;
  CompileOptions options;
  // Verify between passes when the input itself verifies.
  options.verify_between_passes = VerifyHloModule(*module).ok();
  std::unique_ptr<HloModule> original = module->Clone();
  auto result = Compiler(options).Compile(std::move(module));
  if (!result.ok()) {
    ADD_FAILURE() << where << ": " << result.status();
    return;
  }
  ++tally->compiled;
  const CompilationHistory& history = result->history;
  const ModuleState& input = *history.snapshot(0).state;
  for (const PassSnapshot& s : history.snapshots()) {
    for (const InstructionRecord& r : s.instructions()) {
      for (const ProvenanceEntry& origin : r.origins) {
        if (input.Find(origin.unique_id) == nullptr) {
          ADD_FAILURE() << where << ": after " << s.pass_name << ", %" << r.name
                        << " comes from unknown %" << origin.name;
          return;
        }
      }
    }
  }
  if (HasRandomness(*original) || original->replica_count() > 1 || original->num_partitions() > 1) {
    ++tally->not_runnable;
    return;
  }
  DifferentialOptions check;
  check.exact = !history.changed_numerics();
  check.max_while_iterations = 100000;
  // The evaluator runs each side once; larger programs are compared by the
  // runtime corpus instead.
  check.max_host_bytes = int64_t{1} << 26;
  auto same = CheckSameResults(*original, *result->module, check);
  if (!same.ok()) {
    // The evaluator cannot run the original (infeed, collectives, ...); a
    // compiled module that fails where the original ran is a mismatch.
    if (absl::StrContains(same.status().message(), "the compiled module fails")) {
      ADD_FAILURE() << where << ": " << same.status();
    } else {
      ++tally->not_runnable;
    }
    return;
  }
  ++tally->compared;
  tally->exact += check.exact;
  EXPECT_TRUE(same->same) << where << ": " << same->mismatch;
}

void CompileFiles(const std::vector<std::filesystem::path>& files, Tally* tally) {
  for (const auto& path : files) {
    auto loaded = LoadHloFile(path.string(), /*verify=*/false);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    for (auto& entry : *loaded) {
      const auto start = std::chrono::steady_clock::now();
      const std::string where = path.string() + ":" + std::to_string(entry.first_line);
      if (!entry.module.ok()) continue;  // the parse test reports these
      CompileAndCompare(std::move(entry.module).value(), where, tally);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (seconds > 2) std::printf("slow: %s %.1f s\n", where.c_str(), seconds);
    }
  }
}

TEST(CompilerCorpus, EveryModuleCompilesAndComputesWhatItDidBefore) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  Tally tally;
  CompileFiles(testing::FilesUnder(*corpus / "hlo", {".hlo", ".hlotxt"}), &tally);
  std::printf("compiler corpus: %d modules, %d compiled, %d compared (%d bit for bit), %d not "
              "runnable on one device\n",
              tally.modules, tally.compiled, tally.compared, tally.exact, tally.not_runnable);
  EXPECT_GT(tally.compared, 50);
}

TEST(CompilerCorpus, EverySampleCompilesAndComputesWhatItDidBefore) {
  const std::filesystem::path samples = std::filesystem::path(SYSTOLIC_SOURCE_DIR) / "samples" / "hlo";
  auto files = testing::FilesUnder(samples, {".hlo"});
  if (files.empty()) GTEST_SKIP() << "no samples at " << samples;
  Tally tally;
  CompileFiles(files, &tally);
  std::printf("compiler samples: %d modules, %d compiled, %d compared, %d not runnable on one "
              "device\n",
              tally.modules, tally.compiled, tally.compared, tally.not_runnable);
  EXPECT_EQ(tally.compiled, tally.modules);
  EXPECT_GE(tally.compared, 1);
}

}  // namespace
}  // namespace systolic
