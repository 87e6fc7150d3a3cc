// Every module of the XLA corpus that parses is written as a binary and as
// a text-format HloModuleProto and read back: structurally equal to the
// parsed module, printed as the same text, and written again as the same
// proto.
#include <string>

#include "core/hlo/hlo_file.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_from_proto.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/hlo/hlo_proto_file.h"
#include "core/hlo/hlo_structural_equal.h"
#include "gtest/gtest.h"
#include "tests/support/test_support.h"

namespace systolic {
namespace {

TEST(HloProtoCorpus, EveryParsedModuleRoundTripsThroughBinaryAndTextProtos) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "no corpus at ../shared/corpus";
  auto files = testing::FilesUnder(*corpus / "hlo", {".hlo", ".hlotxt"});
  ASSERT_FALSE(files.empty());
  int modules = 0, round_tripped = 0;
  for (const auto& path : files) {
    auto loaded = LoadHloFile(path.string(), /*verify=*/false);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    for (auto& entry : *loaded) {
      if (!entry.module.ok()) continue;  // the parse corpus test reports these
      ++modules;
      const HloModule& module = **entry.module;
      const std::string where = path.string() + ":" + std::to_string(entry.first_line);
      const std::string text = module.ToString();
      bool all_equal = true;
      for (ProtoFormat format : {ProtoFormat::kBinary, ProtoFormat::kText}) {
        absl::StatusOr<std::string> bytes = SerializeHloModuleProto(module, format);
        ASSERT_TRUE(bytes.ok()) << where << ": " << bytes.status();
        absl::StatusOr<HloFileModule> back = ParseHloProto(*bytes, where, /*verify=*/false);
        ASSERT_TRUE(back.ok()) << back.status();
        if (!back->module.ok()) {
          ADD_FAILURE() << back->module.status();
          all_equal = false;
          continue;
        }
        absl::Status equal = CompareModulesStructurally(module, **back->module);
        EXPECT_TRUE(equal.ok()) << where << ": " << equal;
        EXPECT_EQ((*back->module)->ToString(), text) << where;
        // proto -> IR -> proto gives the same bytes.
        absl::StatusOr<std::string> again = SerializeHloModuleProto(**back->module, format);
        ASSERT_TRUE(again.ok()) << where << ": " << again.status();
        EXPECT_EQ(*again, *bytes) << where;
        all_equal &= equal.ok() && (*back->module)->ToString() == text && *again == *bytes;
      }
      round_tripped += all_equal;
    }
  }
  std::printf("HLO proto corpus: %d of %d parsed modules round trip as binary and text protos\n",
              round_tripped, modules);
  EXPECT_EQ(round_tripped, modules);
  EXPECT_GT(modules, 100);
}

}  // namespace
}  // namespace systolic
