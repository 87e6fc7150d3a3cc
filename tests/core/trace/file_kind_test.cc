// Files are told apart by their first bytes: a profile by its magic, a
// NumPy array by its own, text as text whatever its name, and binary
// without a magic by its name.
#include "core/trace/file_kind.h"

#include <cstdio>
#include <string>

#include "core/trace/chunk_format.h"
#include "gtest/gtest.h"

namespace systolic::trace {
namespace {

TEST(FileKind, TheFirstBytesDecideBeforeTheName) {
  const std::string profile = std::string(kProfileMagic, sizeof(kProfileMagic)) + std::string("\x01\x00\x00", 3);
  EXPECT_EQ(KindOfBytes(profile, "named.hlo"), FileKind::kProfile);
  EXPECT_EQ(KindOfBytes(std::string("\x93NUMPY\x01\x00", 8), "weights.sysprof"), FileKind::kNpy);
  EXPECT_EQ(KindOfBytes("HloModule m\nENTRY e { ROOT p = f32[] parameter(0) }\n", "dump.xplane.pb"),
            FileKind::kText);
  EXPECT_EQ(KindOfBytes("", "empty.hlo"), FileKind::kText);
  const std::string binary("\x0a\x05\x00\x01\x02garbage", 12);
  EXPECT_EQ(KindOfBytes(binary, "trace.xplane.pb"), FileKind::kXSpace);
  EXPECT_EQ(KindOfBytes(binary, "broken.sysprof"), FileKind::kProfile);  // read as one, to say what is wrong
  EXPECT_EQ(KindOfBytes(binary, "model.hlo"), FileKind::kOtherBinary);
}

// XLA's HLO protos have no magic: a binary one is known by its first fields
// (the module's name and entry name, or that module wrapped in field 1),
// a text-format one by its first field name, whatever the file's name.
TEST(FileKind, HloProtosAreKnownByTheirFirstFields) {
  const std::string module("\x0a\x01m\x12\x04main\x1a\x00", 11);
  EXPECT_EQ(KindOfBytes(module, "dump.bin"), FileKind::kHloProto);
  const std::string hlo_proto = std::string("\x0a\x0b", 2) + module;
  EXPECT_EQ(KindOfBytes(hlo_proto, "module_0001.jit_f.hlo.pb"), FileKind::kHloProto);
  const std::string snapshot = std::string("\x0a\x0d", 2) + hlo_proto;
  EXPECT_EQ(KindOfBytes(snapshot, "trace.xplane.pb"), FileKind::kHloProto);
  EXPECT_EQ(KindOfBytes("name: \"m\"\nentry_computation_name: \"main\"\n", "m.txt"),
            FileKind::kHloProto);
  EXPECT_EQ(KindOfBytes("# dumped\nhlo_module {\n  name: \"m\"\n}\n", "m.pbtxt"), FileKind::kHloProto);
}

TEST(FileKind, AMissingFileIsNotFound) {
  EXPECT_EQ(KindOfFile("/nonexistent/file.hlo").status().code(), absl::StatusCode::kNotFound);
  const std::string path = ::testing::TempDir() + "/file_kind_text.pb";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::fputs("HloModule m\n", file);
  std::fclose(file);
  absl::StatusOr<FileKind> kind = KindOfFile(path);
  ASSERT_TRUE(kind.ok()) << kind.status();
  EXPECT_EQ(*kind, FileKind::kText);
}

}  // namespace
}  // namespace systolic::trace
