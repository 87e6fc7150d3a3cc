// The op table of a large real program on a two-core chip: an op's time is
// what a core spent on it, not the drift between the cores (which run
// their shares side by side and meet only at the end), and no unit is busier
// than it can be.
#include <filesystem>

#include "core/device/chip_spec_loader.h"
#include "core/device/program_timing.h"
#include "core/hlo/hlo_file.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

TEST(DeviceTimingCorpus, OpTimesOfMobilenetOnV4AreEachCoresOwn) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  const std::filesystem::path path =
      *corpus / "hlo/xla_2023/xla/tools/data/benchmarking/mobilenet_v2.hlo";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not in the corpus";
  auto loaded = LoadHloFile(path.string(), /*verify=*/false);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_TRUE((*loaded)[0].module.ok());
  auto spec = device::LoadChipSpec("v4");
  ASSERT_TRUE(spec.ok());
  auto timed = device::CompileAndTime(std::move(*(*loaded)[0].module), *spec);
  ASSERT_TRUE(timed.ok()) << timed.status();
  const device::ProgramTiming& t = timed->timing;
  double sum = 0;
  for (const device::OpTiming& op : t.ops) {
    sum += op.seconds;
    EXPECT_LE(op.utilization, 1.0 + 1e-9) << op.instruction;
  }
  // Kernels overlap two at a time at most; counting the drift between the
  // cores made these add up to six times the run.
  EXPECT_LE(sum, 2 * t.seconds);
}

}  // namespace
}  // namespace systolic
