// Every module of the HLO corpus that needs no host or foreign code (no
// custom-call, infeed, outfeed, send or recv) runs to completion on the
// reference evaluator with seeded arguments; collective modules run on the
// replica and partition counts of their header. Those that would need more
// host memory than the test allows stop before they allocate, and say so.
#include <cstdlib>
#include <iostream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/eval/evaluation_memory.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_parser.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

// The first opcode of `module` the evaluator cannot run by design, if any.
std::optional<HloOpcode> ForeignOpcode(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      switch (i->opcode()) {
        case HloOpcode::kCustomCall:
        case HloOpcode::kInfeed:
        case HloOpcode::kOutfeed:
        case HloOpcode::kSend:
        case HloOpcode::kSendDone:
        case HloOpcode::kRecv:
        case HloOpcode::kRecvDone:
          return i->opcode();
        default:
          break;
      }
    }
  }
  return std::nullopt;
}

TEST(EvalCorpusTest, EveryRunnableModuleRunsToCompletion) {
  auto dir = testing::CorpusDir();
  if (!dir) GTEST_SKIP() << "no corpus folder on this machine";
  int ran = 0, foreign = 0, unparsed = 0, too_large = 0;
  // Modules written for TPU pods hold tensors of tens of GiB: the test
  // machine evaluates those whose planned peak fits 8 GiB, and the others
  // must say so before they allocate.
  setenv("SYSTOLIC_MEMORY_LIMIT", "8G", /*overwrite=*/1);
  EvaluatorOptions options;
  options.max_while_iterations = 1000000;  // a runaway loop fails instead of hanging the test
  for (const auto& path : testing::FilesUnder(*dir / "hlo", {".hlo", ".hlotxt"})) {
    const std::string text = testing::ReadFileOrDie(path);
    for (const HloTextChunk& chunk : SplitHloText(text)) {
      HloParseOptions parse_options;
      parse_options.filename = path.string();
      parse_options.first_line = chunk.first_line;
      const std::string where = absl::StrCat(path.string(), ":", chunk.first_line);
      auto module = ParseAndReturnVerifiedModule(chunk.text, parse_options);
      if (!module.ok()) {
        // The parser's and verifier's own corpus tests cover these.
        ++unparsed;
        std::cout << "not parsed: " << where << ": " << module.status().message().substr(0, 200)
                  << "\n";
        continue;
      }
      if (auto op = ForeignOpcode(**module)) {
        ++foreign;
        continue;
      }
      const HloComputation& entry = *(*module)->entry_computation();
      // Header counts, raised to what the collectives name (pass-test modules
      // keep their device counts in C++).
      const SpmdDeviceCounts counts = RequiredDeviceCounts(**module);
      const int64_t replicas = counts.replicas;
      const int64_t partitions = counts.partitions;
      if (absl::Status fits = eval::CheckEvaluationFits(**module, replicas * partitions);
          !fits.ok()) {
        ++too_large;
        EXPECT_EQ(fits.code(), absl::StatusCode::kResourceExhausted) << where << ": " << fits;
        EXPECT_TRUE(absl::StrContains(fits.message(), "--timing-only")) << where << ": " << fits;
        std::cout << "too large for this host: " << where << "\n";
        continue;
      }
      absl::Status status;
      if (replicas * partitions == 1) {
        HloEvaluator evaluator(options);
        status = evaluator.Evaluate(**module, MakeRandomArguments(entry, 0)).status();
      } else {
        std::vector<std::vector<Literal>> args;
        for (int64_t d = 0; d < replicas * partitions; ++d) {
          args.push_back(MakeRandomArguments(entry, 0, uint64_t(d)));
        }
        status = EvaluateSpmd(**module, args, replicas, partitions, options).status();
      }
      EXPECT_TRUE(status.ok()) << where << " (" << (*module)->name() << "): " << status.message();
      ++ran;
    }
  }
  std::cout << "evaluated " << ran << " corpus modules; skipped " << foreign
            << " needing custom-call / infeed / outfeed / send / recv, " << too_large
            << " needing over 8 GiB and " << unparsed << " that do not parse or verify\n";
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace systolic
