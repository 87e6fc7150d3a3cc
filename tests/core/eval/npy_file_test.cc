// .npy reading and writing, literal printing and the seeded arguments.
#include "core/eval/npy_file.h"

#include <filesystem>
#include <fstream>

#include "core/eval/literal_format.h"
#include "core/eval/random_arguments.h"
#include "tests/core/eval/eval_test_util.h"

namespace systolic::eval_test {
namespace {

// A version 1.0 file with `descr`, `shape_text` and raw data bytes.
std::string NpyBytes(const std::string& descr, const std::string& shape_text,
                     const std::string& data, bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape_text + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(dict.size() & 0xFF);
  out += char(dict.size() >> 8);
  return out + dict + data;
}

TEST(NpyFileTest, RoundTripsEveryType) {
  for (PrimitiveType t : {PRED, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64,
                          C128, S4, U4, S2, U2, F8E4M3FN, F8E5M2, F4E2M1FN}) {
    SCOPED_TRACE(primitive_util::LowercasePrimitiveTypeName(t));
    Literal l = MakeRandomLiteral(Shape(t, {2, 3}), 7);
    auto bytes = SerializeNpy(l);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    EXPECT_EQ(bytes->size() % 64, size_t(l.size_bytes()) % 64);  // data starts aligned
    auto back = ParseNpy(*bytes, t);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, l);
  }
  // Scalars and 1-D shapes print as () and (n,).
  auto scalar = SerializeNpy(R0<float>(3));
  ASSERT_TRUE(scalar.ok());
  EXPECT_NE(scalar->find("'shape': ()"), std::string::npos);
  auto vector = SerializeNpy(R1<int32_t>({1, 2, 3}));
  ASSERT_TRUE(vector.ok());
  EXPECT_NE(vector->find("'shape': (3,)"), std::string::npos);
  EXPECT_NE(vector->find("'<i4'"), std::string::npos);
}

TEST(NpyFileTest, Bf16IsVoidTwoAsMlDtypesSavesIt) {
  Literal l = FromDoubles(BF16, {2}, {1.5, -2});
  auto bytes = SerializeNpy(l);
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("'|V2'"), std::string::npos);
  auto back = ParseNpy(*bytes);  // no expectation: |V2 is bf16
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->element_type(), BF16);
  EXPECT_EQ(*back, l);
  // Raw 1-byte floats need to be told their type.
  auto f8 = SerializeNpy(FromDoubles(F8E4M3FN, {1}, {1}));
  ASSERT_TRUE(f8.ok());
  EXPECT_FALSE(ParseNpy(*f8).ok());
}

TEST(NpyFileTest, FortranOrderAndBigEndian) {
  // [[1,2,3],[4,5,6]] stored column-major.
  std::string data;
  for (int32_t v : {1, 4, 2, 5, 3, 6}) data.append(reinterpret_cast<const char*>(&v), 4);
  auto m = ParseNpy(NpyBytes("<i4", "(2, 3)", data, /*fortran=*/true));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(ToInts(*m), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  const std::string big("\x3F\x80\x00\x00\xC0\x00\x00\x00", 8);
  auto f = ParseNpy(NpyBytes(">f4", "(2,)", big));
  ASSERT_TRUE(f.ok()) << f.status().message();
  ExpectNear(*f, {1, -2}, 0);
}

TEST(NpyFileTest, CorruptAndTruncatedFilesAreClearErrors) {
  std::string data(24, '\0');
  const std::string good = NpyBytes("<f8", "(3,)", data);
  ASSERT_TRUE(ParseNpy(good).ok());
  auto truncated = ParseNpy(good.substr(0, good.size() - 5));
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.status().message().find("truncated"), std::string::npos)
      << truncated.status().message();
  auto header_cut = ParseNpy(good.substr(0, 30));
  ASSERT_FALSE(header_cut.ok());
  EXPECT_NE(header_cut.status().message().find("header"), std::string::npos);
  EXPECT_FALSE(ParseNpy("not a numpy file at all").ok());
  EXPECT_FALSE(ParseNpy(NpyBytes("<q9", "(3,)", data)).ok());
  EXPECT_FALSE(ParseNpy(NpyBytes("<f8", "(3, x)", data)).ok());
  // An empty array whose other extents no shape can hold (found by the
  // fuzzer): an error, not an overflow.
  const std::string huge_empty = NpyBytes("<f4", "(44444444444444444, 444444444444, 0)", "");
  auto huge_empty_fortran =
      ParseNpy(NpyBytes("<f4", "(44444444444444444, 444444444444, 0)", "", /*fortran=*/true));
  ASSERT_FALSE(ParseNpy(huge_empty).ok());
  EXPECT_NE(ParseNpy(huge_empty).status().message().find("implausibly large"), std::string::npos);
  EXPECT_FALSE(huge_empty_fortran.ok());
  auto wrong_type = ParseNpy(good, F32);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.status().message().find("expected f32"), std::string::npos)
      << wrong_type.status().message();
}

TEST(NpyFileTest, FilesOnDisk) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "systolic_npy_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "x.npy").string();
  Literal l = FromDoubles(F32, {2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(WriteNpyFile(path, l).ok());
  auto back = ReadNpyFile(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, l);
  auto missing = ReadNpyFile((dir / "missing.npy").string());
  EXPECT_FALSE(missing.ok());
  std::filesystem::remove_all(dir);
}

TEST(LiteralFormatTest, XlaLayoutAndElision) {
  EXPECT_EQ(FormatLiteral(R0<float>(1.5)), "f32[] 1.5");
  EXPECT_EQ(FormatLiteral(R1<int32_t>({1, 2, 3})), "s32[3] {1, 2, 3}");
  EXPECT_EQ(FormatLiteral(Literal::CreateR2<int32_t>({{1, 2}, {3, 4}})),
            "s32[2,2] {\n  { 1, 2 },\n  { 3, 4 }\n}");
  Literal big(Shape(S32, {100, 100}));
  for (int64_t i = 0; i < big.element_count(); ++i) big.data<int32_t>()[i] = int32_t(i);
  const std::string text = FormatLiteral(big);
  EXPECT_NE(text.find("{ 0, 1, 2, ..., 97, 98, 99 }"), std::string::npos) << text;
  EXPECT_NE(text.find("  ...,\n"), std::string::npos);
  EXPECT_NE(text.find("9999 }"), std::string::npos);
  EXPECT_LT(text.size(), 1000u);
  Literal t = Literal::MakeTupleOwned(R0<bool>(true), R1<float>({1}));
  EXPECT_EQ(FormatLiteral(t), "(pred[], f32[1]) (\npred[] true,\nf32[1] {1}\n)");
}

TEST(RandomArgumentsTest, DeterministicPerParameterAndInRange) {
  Literal a = MakeRandomLiteral(Shape(F32, {1000}), 3);
  EXPECT_EQ(a, MakeRandomLiteral(Shape(F32, {1000}), 3));
  EXPECT_NE(a, MakeRandomLiteral(Shape(F32, {1000}), 4));
  for (double v : ToDoubles(a)) {
    ASSERT_GE(v, -1);
    ASSERT_LT(v, 1);
  }
  Literal s = MakeRandomLiteral(Shape(S32, {1000}), 3);
  Literal u = MakeRandomLiteral(Shape(U8, {1000}), 3);
  Literal s2 = MakeRandomLiteral(Shape(S2, {100}), 3);
  for (int64_t v : ToInts(s)) ASSERT_TRUE(v >= -8 && v < 8);
  for (int64_t v : ToInts(u)) ASSERT_TRUE(v >= 0 && v < 16);
  for (int64_t v : ToInts(s2)) ASSERT_TRUE(v >= -2 && v < 2);
  auto module = Parse(R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = (s32[2], pred[3]) parameter(1)
  ROOT r = f32[4] negate(a)
})");
  ASSERT_NE(module, nullptr);
  auto args = MakeRandomArguments(*module->entry_computation(), 9);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_TRUE(args[1].shape().IsTuple());
  EXPECT_EQ(args[0], MakeRandomArguments(*module->entry_computation(), 9)[0]);
  EXPECT_NE(args[0], MakeRandomArguments(*module->entry_computation(), 9, /*stream=*/1)[0]);
}

}  // namespace
}  // namespace systolic::eval_test
