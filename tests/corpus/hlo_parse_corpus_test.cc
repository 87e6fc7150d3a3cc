// Every module of the XLA corpus parses, round-trips through the printer and
// verifies, except the few that XLA's own verifier rejects too: those come
// from translation tests that only parse, and each must fail for the reason
// given here.
#include <map>
#include <string>

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_verifier.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

// "file name:first line of the module" -> what the verifier must complain about.
const std::map<std::string, std::string>& InvalidByXlaRules() {
  static const auto* invalid = new std::map<std::string, std::string>{
      // A 3-wide window over a kernel whose spatial size is 2.
      {"import.hlotxt:1", "window dimension 0 has size 3"},
      // broadcast maps a size-1 dimension onto a size-3 one.
      {"while.hlotxt:1", "broadcast maps operand dimension 0 (size 1)"},
      // recv-done says f32[128,21] for data its recv says is f32[128,32].
      {"import_async.hlotxt:1", "recv-done has the wrong shape"},
      // A tuple all-to-all needs one operand per group member.
      {"hlo_text_to_lhlo_no_opt.hlotxt:681", "a tuple all-to-all over groups of 2 needs 2"},
  };
  return *invalid;
}

TEST(HloCorpus, EveryModuleParsesRoundTripsAndVerifies) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  auto files = testing::FilesUnder(*corpus / "hlo", {".hlo", ".hlotxt"});
  ASSERT_FALSE(files.empty());
  int modules = 0, verified = 0, rejected_as_expected = 0;
  for (const auto& path : files) {
    auto loaded = LoadHloFile(path.string(), /*verify=*/false);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    for (auto& entry : *loaded) {
      ++modules;
      if (!entry.module.ok()) {
        ADD_FAILURE() << path << ":" << entry.first_line << ": " << entry.module.status();
        continue;
      }
      const HloModule& module = **entry.module;
      absl::Status round_trip = CheckTextRoundTrip(module);
      EXPECT_TRUE(round_trip.ok()) << path << ":" << entry.first_line << ": " << round_trip;

      const std::string key = path.filename().string() + ":" + std::to_string(entry.first_line);
      absl::Status status = VerifyHloModule(module);
      auto expected = InvalidByXlaRules().find(key);
      if (expected == InvalidByXlaRules().end()) {
        EXPECT_TRUE(status.ok()) << path << ":" << entry.first_line << ": " << status;
        verified += status.ok();
      } else {
        EXPECT_NE(status.message().find(expected->second), std::string::npos)
            << key << " should be rejected for '" << expected->second << "', got: " << status;
        rejected_as_expected += !status.ok();
      }
    }
  }
  std::printf("HLO corpus: %d modules; %d verified, %d rejected as XLA rejects them\n", modules,
              verified, rejected_as_expected);
  EXPECT_EQ(rejected_as_expected, int(InvalidByXlaRules().size()));
  EXPECT_GT(modules, 100);
}

}  // namespace
}  // namespace systolic
