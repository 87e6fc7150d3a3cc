// The partitioner on the corpus's partitioner inputs: each module, laid out
// over the device count its manifest names, partitions into a valid program
// that (where the host can run it) gives the unpartitioned results.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>

#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_computation.h"
#include "core/eval/evaluation_memory.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/spmd/partition_and_run.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

// file name -> num_devices, from the manifest's harness notes.
std::map<std::string, int64_t> DeviceCounts(const std::filesystem::path& manifest) {
  std::map<std::string, int64_t> counts;
  std::ifstream in(manifest);
  const std::regex row(R"(\| *[^|]*?([A-Za-z0-9_]+\.hlo) *\|.*num_devices=(\d+))");
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, row)) counts[m[1]] = std::stoll(m[2]);
  }
  return counts;
}

// Why `module` is only partitioned and verified, not run: it needs a host
// to feed it, or more memory than the test allows (planned before any value
// is made, for the unpartitioned run and the partitioned one side by side);
// empty when it runs.
std::string WhyNotEvaluated(const HloModule& module) {
  for (const HloComputation* c : module.computations()) {
    for (const HloInstruction* i : c->instructions()) {
      if (i->opcode() == HloOpcode::kInfeed) return "its infeed needs a host to feed it";
    }
  }
  const absl::Status fits = eval::CheckEvaluationFits(module, 2);
  return fits.ok() ? "" : std::string(fits.message());
}

TEST(SpmdPartitionerCorpus, PartitionerInputsGiveTheUnpartitionedResults) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus";
  // What a test machine evaluates; bigger programs say so before they run.
  setenv("SYSTOLIC_MEMORY_LIMIT", "4G", /*overwrite=*/1);
  const auto counts = DeviceCounts(*corpus / "hlo" / "MANIFEST.md");
  int tested = 0, evaluated = 0;
  for (const auto& path : testing::FilesUnder(*corpus / "hlo" / "extracted_2023", {".hlo"})) {
    const std::string name = path.filename().string();
    if (name.rfind("spmd_partitioner_test__", 0) != 0) continue;
    SCOPED_TRACE(name);
    auto it = counts.find(name);
    ASSERT_NE(it, counts.end()) << "the manifest names no device count";
    auto file = LoadHloFile(path.string(), true);
    ASSERT_TRUE(file.ok()) << file.status();
    for (auto& entry : *file) {
      ASSERT_TRUE(entry.module.ok()) << entry.module.status();
      const HloModule& module = **entry.module;
      if (!SpmdPartitioner::NeedsPartitioning(module, it->second)) continue;  // all manual
      const std::string why_not = WhyNotEvaluated(module);
      const bool evaluate = why_not.empty();
      auto run = testing::PartitionAndRun(module, it->second, 1e-3, evaluate);
      EXPECT_SAME_RESULTS(run);
      if (!evaluate) std::cerr << "partitioned and verified only: " << name << ": " << why_not << "\n";
      ++tested;
      evaluated += evaluate;
    }
  }
  EXPECT_GE(tested, 12);
  EXPECT_GE(evaluated, 10);
}

}  // namespace
}  // namespace systolic
