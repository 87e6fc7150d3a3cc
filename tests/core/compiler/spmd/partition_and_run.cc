#include "tests/core/compiler/spmd/partition_and_run.h"

#include "core/compiler/differential_check.h"
#include "core/compiler/spmd/partitioned_execution.h"
#include "core/compiler/spmd/sharding_propagation.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/core/compiler/compiler_test_util.h"

namespace systolic::testing {

Partitioned PartitionAndRun(const HloModule& original, int64_t partitions, double tolerance,
                            bool evaluate) {
  Partitioned out;
  auto signature = SpmdSignatureOf(original, partitions);
  EXPECT_TRUE(signature.ok()) << signature.status();
  if (!signature.ok() || !signature->has_value()) return out;
  out.module = original.Clone();
  EXPECT_TRUE(ShardingPropagation().Run(out.module.get()).ok());
  auto changed = SpmdPartitioner(partitions).Run(out.module.get());
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return out;
  EXPECT_TRUE(*changed);
  absl::Status verified = VerifyHloModule(*out.module);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << out.module->ToString();
  EXPECT_FALSE(SpmdPartitioner::NeedsPartitioning(*out.module));
  if (!evaluate) return out;

  std::vector<Literal> arguments = MakeRandomArguments(*original.entry_computation(), 3);
  auto expected = EvaluateSpmd(original, {std::move(arguments)}, 1, 1);
  EXPECT_TRUE(expected.ok()) << expected.status();
  arguments = MakeRandomArguments(*original.entry_computation(), 3);
  auto actual = EvaluatePartitioned(*out.module, **signature, arguments);
  EXPECT_TRUE(actual.ok()) << actual.status() << "\n" << out.module->ToString();
  if (!expected.ok() || !actual.ok()) return out;
  DifferentialOptions options;
  options.exact = false;
  options.relative_tolerance = tolerance;
  options.absolute_tolerance = tolerance;
  out.mismatch = FirstDifference((*expected)[0], (*actual)[0], "result", options);
  return out;
}

Partitioned PartitionAndRun(const std::string& text, int64_t partitions) {
  auto module = ParseModule(text);
  return PartitionAndRun(*module, partitions);
}

}  // namespace systolic::testing
