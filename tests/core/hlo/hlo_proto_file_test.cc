// HLO proto files: the kind told by content (HloModuleProto, HloProto,
// HloSnapshot; binary or text format), a snapshot's arguments, and bad
// files giving clear errors that name the file.
#include "core/hlo/hlo_proto_file.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_to_proto.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_proto_literal.h"
#include "core/hlo/hlo_structural_equal.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace systolic {
namespace {

constexpr absl::string_view kProgram = R"(
HloModule axpy

ENTRY %main (a: f32[], x: f32[4], y: f32[4]) -> f32[4] {
  %a = f32[] parameter(0)
  %x = f32[4] parameter(1)
  %y = f32[4] parameter(2)
  %ab = f32[4] broadcast(f32[] %a), dimensions={}
  %ax = f32[4] multiply(f32[4] %ab, f32[4] %x)
  ROOT %r = f32[4] add(f32[4] %ax, f32[4] %y)
}
)";

std::unique_ptr<HloModule> Program() {
  absl::StatusOr<std::unique_ptr<HloModule>> module = ParseAndReturnVerifiedModule(kProgram);
  EXPECT_TRUE(module.ok()) << module.status();
  return *std::move(module);
}

hlo_proto::HloModuleProto ProgramProto() {
  absl::StatusOr<hlo_proto::HloModuleProto> proto = ModuleToProto(*Program());
  EXPECT_TRUE(proto.ok()) << proto.status();
  return *proto;
}

std::string TempFile(const std::string& name, absl::string_view bytes) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("hlo_proto_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

void ExpectProgram(const HloFileModule& loaded) {
  ASSERT_TRUE(loaded.module.ok()) << loaded.module.status();
  EXPECT_TRUE(CompareModulesStructurally(**loaded.module, *Program()).ok())
      << CompareModulesStructurally(**loaded.module, *Program());
  EXPECT_EQ((*loaded.module)->ToString(), Program()->ToString());
}

TEST(HloProtoFile, EveryMessageInBinaryAndTextIsToldByContent) {
  hlo_proto::HloSnapshot snapshot;
  *snapshot.mutable_hlo()->mutable_hlo_module() = ProgramProto();
  std::string module_text, hlo_text, snapshot_text;
  google::protobuf::TextFormat::PrintToString(ProgramProto(), &module_text);
  google::protobuf::TextFormat::PrintToString(snapshot.hlo(), &hlo_text);
  google::protobuf::TextFormat::PrintToString(snapshot, &snapshot_text);
  const std::pair<std::string, std::string> files[] = {
      {"module.bin", ProgramProto().SerializeAsString()},
      {"hlo.bin", snapshot.hlo().SerializeAsString()},
      {"snapshot.bin", snapshot.SerializeAsString()},
      {"module.txt", module_text},
      {"hlo.txt", hlo_text},
      {"snapshot.txt", snapshot_text},
  };
  const HloProtoMessage expected[] = {HloProtoMessage::kHloModuleProto, HloProtoMessage::kHloProto,
                                      HloProtoMessage::kHloSnapshot};
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(files[i].first);
    std::optional<HloProtoSniff> sniff = SniffHloProto(files[i].second);
    ASSERT_TRUE(sniff.has_value());
    EXPECT_EQ(sniff->message, expected[i % 3]);
    EXPECT_EQ(sniff->text_format, i >= 3);
    absl::StatusOr<HloFileModule> loaded =
        ReadHloProtoFile(TempFile(files[i].first, files[i].second), /*verify=*/true);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectProgram(*loaded);
  }
  EXPECT_FALSE(SniffHloProto(kProgram).has_value());  // HLO text is not a proto
}

TEST(HloProtoFile, SnapshotArgumentsComeWithTheModule) {
  hlo_proto::HloSnapshot snapshot;
  *snapshot.mutable_hlo()->mutable_hlo_module() = ProgramProto();
  *snapshot.add_arguments() = LiteralToProto(Literal::CreateR0<float>(2.0f));
  *snapshot.add_arguments() = LiteralToProto(Literal::CreateR1<float>({1, 2, 3, 4}));
  *snapshot.add_arguments() = LiteralToProto(Literal::CreateR1<float>({10, 20, 30, 40}));
  snapshot.set_execution_platform("Host");
  absl::StatusOr<HloFileModule> loaded =
      ReadHloProtoFile(TempFile("args.hlo_snapshot.pb", snapshot.SerializeAsString()), true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ExpectProgram(*loaded);
  ASSERT_EQ(loaded->arguments.size(), 3u);
  EXPECT_EQ(loaded->arguments[0], Literal::CreateR0<float>(2.0f));
  EXPECT_EQ(loaded->arguments[2], Literal::CreateR1<float>({10, 20, 30, 40}));
}

TEST(HloProtoFile, WrittenFilesReadBack) {
  for (ProtoFormat format : {ProtoFormat::kBinary, ProtoFormat::kText}) {
    const std::string path = TempFile(format == ProtoFormat::kText ? "w.pbtxt" : "w.pb", "");
    ASSERT_TRUE(WriteHloModuleProtoFile(*Program(), path, format).ok());
    absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectProgram(*loaded);
  }
  absl::StatusOr<std::string> text = SerializeHloModuleProto(*Program(), ProtoFormat::kText);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("entry_computation_name: \"main\""), std::string::npos) << *text;
  EXPECT_NE(text->find("opcode: \"multiply\""), std::string::npos);
}

TEST(HloProtoFile, TruncatedBinaryIsAnErrorNamingTheFile) {
  const std::string bytes = ProgramProto().SerializeAsString();
  const std::string path = TempFile("cut.hlo.pb", bytes.substr(0, bytes.size() * 2 / 3));
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  const absl::Status status = loaded.ok() ? loaded->module.status() : loaded.status();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().find(path), 0u) << status;
  EXPECT_NE(status.message().find("truncated or corrupt"), std::string::npos) << status;
}

TEST(HloProtoFile, GarbageIsNotAProto) {
  const std::string path = TempFile("garbage.pb", std::string("\xff\xfe\x00\x01garbage", 11));
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message(),
            path + ": not an HLO proto (an HloModuleProto, HloProto or HloSnapshot, binary or text)");
}

TEST(HloProtoFile, TextFormatErrorsGiveLineAndColumn) {
  const std::string path = TempFile("bad.pbtxt", "name: \"m\"\nentry_computation_name: \"e\"\ncomputations { nonsense: 1 }\n");
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message().find(path + ":3:"), 0u) << loaded.status();
  EXPECT_NE(loaded.status().message().find("nonsense"), std::string::npos) << loaded.status();
}

TEST(HloProtoFile, TextFormatStringsMustBeUtf8) {
  const std::string path = TempFile("latin1.pbtxt", "name: \"add_\xf3" "\"\nentry_computation_name: \"e\"\n");
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message(),
            path + ": a string is not valid UTF-8 (in a text-format HloModuleProto)");
}

// What reads is what this product can write and recognise again: a module
// named with control characters (found by the fuzzer: its name field given
// twice, the first a plain name) is refused; one with spaces or non-ASCII
// letters reads, writes and reads back.
TEST(HloProtoFile, ModuleNamesAreTextThatReadsBack) {
  hlo_proto::HloModuleProto proto = ProgramProto();
  std::string bytes = proto.SerializeAsString();
  hlo_proto::HloModuleProto renamed;
  renamed.set_name(std::string("\x01\x00", 2));
  bytes += renamed.SerializeAsString();  // a repeated field 1: the last one wins
  absl::StatusOr<HloFileModule> loaded = ParseHloProto(bytes, "twice.pb", true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_FALSE(loaded->module.ok());
  EXPECT_EQ(loaded->module.status().message(),
            "twice.pb: the module's name \"\\x01\\x00\" is empty, longer than 4096 bytes or not text "
            "(a control character or broken UTF-8)");

  proto.set_name("step de l\xc3\xa9tape 2");
  loaded = ParseHloProto(proto.SerializeAsString(), "spaced.pb", true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_TRUE(loaded->module.ok()) << loaded->module.status();
  absl::StatusOr<std::string> written = SerializeHloModuleProto(**loaded->module, ProtoFormat::kBinary);
  ASSERT_TRUE(written.ok());
  absl::StatusOr<HloFileModule> again = ParseHloProto(*written, "again.pb", true);
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_TRUE(again->module.ok()) << again->module.status();
  EXPECT_EQ((*again->module)->name(), "step de l\xc3\xa9tape 2");
}

// A string that is not UTF-8 fails the read with the reader's own error,
// and protobuf's log line stays off the user's terminal.
TEST(HloProtoFile, BrokenUtf8FailsQuietly) {
  hlo_proto::HloModuleProto proto = ProgramProto();
  proto.mutable_computations(0)->set_name("main_\xf3");  // Latin-1, not UTF-8
  std::string bytes;
  ASSERT_TRUE(proto.SerializePartialToString(&bytes));
  ::testing::internal::CaptureStderr();
  absl::StatusOr<HloFileModule> loaded = ParseHloProto(bytes, "latin1.pb", true);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  const absl::Status status = loaded.ok() ? loaded->module.status() : loaded.status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("latin1.pb: a binary HloModuleProto that is truncated or corrupt"),
            std::string::npos)
      << status;
  EXPECT_EQ(printed, "");
}

TEST(HloProtoFile, DanglingOperandIdNamesTheInstruction) {
  hlo_proto::HloModuleProto proto = ProgramProto();
  auto* instructions = proto.mutable_computations(0)->mutable_instructions();
  for (auto& instr : *instructions) {
    if (instr.name() == "r") instr.set_operand_ids(1, 987654);
  }
  const std::string path = TempFile("dangling.pb", proto.SerializeAsString());
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_FALSE(loaded->module.ok());
  EXPECT_EQ(loaded->module.status().message(),
            path + ": computation %main, instruction %r: operand id 987654 names no instruction "
                   "before it");
}

TEST(HloProtoFile, UnknownOpcodeNamesFileAndInstruction) {
  hlo_proto::HloModuleProto proto = ProgramProto();
  for (auto& instr : *proto.mutable_computations(0)->mutable_instructions()) {
    if (instr.name() == "ax") instr.set_opcode("multiply-accumulate");
  }
  const std::string path = TempFile("opcode.pb", proto.SerializeAsString());
  absl::StatusOr<HloFileModule> loaded = ReadHloProtoFile(path, true);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_FALSE(loaded->module.ok());
  EXPECT_EQ(loaded->module.status().message(),
            path + ": computation %main: instruction %ax: unknown opcode 'multiply-accumulate'");
}

}  // namespace
}  // namespace systolic
