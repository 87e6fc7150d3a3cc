#include "core/hlo/utf8.h"

#include <string>

#include "gtest/gtest.h"

namespace systolic {
namespace {

TEST(Utf8, WellFormedTextHasNoInvalidByte) {
  EXPECT_EQ(FirstInvalidUtf8Byte(""), -1);
  EXPECT_EQ(FirstInvalidUtf8Byte("core 0 / MXU 1"), -1);
  EXPECT_EQ(FirstInvalidUtf8Byte("\xC3\xA9"), -1);              // é
  EXPECT_EQ(FirstInvalidUtf8Byte("\xE2\x82\xAC"), -1);          // €
  EXPECT_EQ(FirstInvalidUtf8Byte("\xF0\x9F\x98\x80"), -1);      // U+1F600
  EXPECT_EQ(FirstInvalidUtf8Byte("\xF4\x8F\xBF\xBF"), -1);      // U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8Byte(std::string("a\0b", 3)), -1);  // NUL is a character
}

TEST(Utf8, TheFirstIllFormedByteIsFound) {
  EXPECT_EQ(FirstInvalidUtf8Byte("ab\xFF"), 2);           // never a lead byte
  EXPECT_EQ(FirstInvalidUtf8Byte("a\x80"), 1);            // a lone continuation
  EXPECT_EQ(FirstInvalidUtf8Byte("xy\xE2\x82"), 2);       // truncated sequence
  EXPECT_EQ(FirstInvalidUtf8Byte("\xC0\xAF"), 0);         // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8Byte("\xE0\x80\xAF"), 0);     // overlong three-byte
  EXPECT_EQ(FirstInvalidUtf8Byte("\xED\xA0\x80"), 0);     // a surrogate
  EXPECT_EQ(FirstInvalidUtf8Byte("\xF4\x90\x80\x80"), 0); // past U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8Byte("\xE2\x28\xA1"), 0);     // a bad continuation
  EXPECT_EQ(FirstInvalidUtf8Byte("\xC3\xA9z\xC3"), 3);
}

TEST(Utf8, BinaryBytesAreControlCharactersTextFilesDoNotHold) {
  EXPECT_EQ(FirstBinaryByte("HloModule m\n\tENTRY e {\r\n}\f\v"), -1);
  EXPECT_EQ(FirstBinaryByte("name=\"caf\xFF\""), -1);  // other encodings are text
  EXPECT_EQ(FirstBinaryByte(std::string("ab\0c", 4)), 2);
  EXPECT_EQ(FirstBinaryByte("\x7F" "ELF"), 0);
  EXPECT_EQ(FirstBinaryByte("x\x1B[31m"), 1);  // an escape sequence
}

TEST(Utf8, PrintableTextEscapesWhatWouldNotShowAsItself) {
  EXPECT_EQ(PrintableText("a\tb\nc \xE2\x82\xAC"), "a\tb\nc \xE2\x82\xAC");
  EXPECT_EQ(PrintableText(std::string("\x7F" "ELF\x02\0", 6)), "\\x7FELF\\x02\\x00");
  EXPECT_EQ(PrintableText("caf\xFF!"), "caf\\xFF!");
  EXPECT_EQ(PrintableText("\r\x1B"), "\\x0D\\x1B");
}

}  // namespace
}  // namespace systolic
