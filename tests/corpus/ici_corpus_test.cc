// Every collective of every corpus module that fits a v4 4x4x4 slice is timed
// on its links: the groups resolve, the transfers simulate, no error.
#include "core/device/chip_spec_loader.h"
#include "core/device/collective_lowering.h"
#include "core/eval/spmd_evaluator.h"
#include "core/hlo/hlo_file.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

TEST(IciCorpus, EveryCollectiveOfEveryModuleIsTimedOnASlice) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  auto spec = device::LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto slice = device::IciTopology::Create(*spec, {4, 4, 4});
  ASSERT_TRUE(slice.ok());
  int modules = 0, collectives = 0;
  for (const auto& path : testing::FilesUnder(*corpus / "hlo", {".hlo", ".hlotxt"})) {
    auto loaded = LoadHloFile(path.string(), /*verify=*/true);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    for (auto& entry : *loaded) {
      if (!entry.module.ok()) continue;  // the parse test reports these
      const SpmdDeviceCounts counts = RequiredDeviceCounts(**entry.module);
      if (counts.replicas * counts.partitions > slice->chip_count()) continue;
      auto timings = device::TimeModuleCollectives(**entry.module, *slice);
      if (!timings.ok()) {
        ADD_FAILURE() << path << ":" << entry.first_line << ": " << timings.status();
        continue;
      }
      ++modules;
      for (const device::CollectiveTiming& t : *timings) {
        ++collectives;
        EXPECT_GE(t.seconds(), 0) << path << ": %" << t.instruction;
        EXPECT_GE(t.groups, 1) << path << ": %" << t.instruction;
      }
    }
  }
  std::printf("ICI corpus: %d modules, %d collectives timed\n", modules, collectives);
  EXPECT_GT(collectives, 20);
}

}  // namespace
}  // namespace systolic
