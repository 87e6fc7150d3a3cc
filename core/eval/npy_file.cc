#include "core/eval/npy_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/eval/shape_ops.h"
#include "core/hlo/atomic_file.h"

namespace systolic {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("not a valid .npy file: ", what));
}

// The descr of each type this product writes.
std::string DescrOf(PrimitiveType t) {
  switch (t) {
    case PRED:
      return "|b1";
    case S2:
    case S4:
    case S8:
      return "|i1";
    case S16:
      return "<i2";
    case S32:
      return "<i4";
    case S64:
      return "<i8";
    case U2:
    case U4:
    case U8:
      return "|u1";
    case U16:
      return "<u2";
    case U32:
      return "<u4";
    case U64:
      return "<u8";
    case F16:
      return "<f2";
    case F32:
      return "<f4";
    case F64:
      return "<f8";
    case C64:
      return "<c8";
    case C128:
      return "<c16";
    case BF16:
      return "|V2";  // ml_dtypes' bfloat16 as numpy.save writes it
    default:
      return "|V1";  // 8- and 4-bit floats: raw bits
  }
}

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// The value text of `key` in the header dict: a quoted string, a tuple or a
// bare word.
absl::StatusOr<std::string> DictValue(absl::string_view dict, absl::string_view key) {
  for (const char quote : {'\'', '"'}) {
    const std::string needle = absl::StrCat(std::string(1, quote), key, std::string(1, quote));
    size_t at = dict.find(needle);
    if (at == absl::string_view::npos) continue;
    size_t colon = dict.find(':', at + needle.size());
    if (colon == absl::string_view::npos) break;
    size_t start = colon + 1;
    while (start < dict.size() && dict[start] == ' ') ++start;
    if (start >= dict.size()) break;
    size_t end;
    if (dict[start] == '\'' || dict[start] == '"') {
      end = dict.find(dict[start], start + 1);
      if (end == absl::string_view::npos) break;
      return std::string(dict.substr(start + 1, end - start - 1));
    }
    if (dict[start] == '(') {
      end = dict.find(')', start);
      if (end == absl::string_view::npos) break;
      return std::string(dict.substr(start, end - start + 1));
    }
    if (dict[start] == '[') return Corrupt("structured dtypes are not supported");
    end = dict.find_first_of(",}", start);
    if (end == absl::string_view::npos) break;
    return std::string(absl::StripAsciiWhitespace(dict.substr(start, end - start)));
  }
  return Corrupt(absl::StrCat("the header has no valid '", key, "' entry: ", dict));
}

absl::StatusOr<Header> ParseHeader(absl::string_view dict) {
  Header h;
  auto descr = DictValue(dict, "descr");
  if (!descr.ok()) return descr.status();
  h.descr = *descr;
  auto fortran = DictValue(dict, "fortran_order");
  if (!fortran.ok()) return fortran.status();
  if (*fortran != "True" && *fortran != "False") {
    return Corrupt(absl::StrCat("fortran_order is '", *fortran, "'"));
  }
  h.fortran_order = *fortran == "True";
  auto shape = DictValue(dict, "shape");
  if (!shape.ok()) return shape.status();
  absl::string_view inner(*shape);
  if (inner.size() < 2 || inner.front() != '(' || inner.back() != ')') {
    return Corrupt(absl::StrCat("shape is '", *shape, "'"));
  }
  inner = inner.substr(1, inner.size() - 2);
  for (absl::string_view part : absl::StrSplit(inner, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    if (!part.empty() && part.back() == 'L') part.remove_suffix(1);  // Python 2 longs
    int64_t d;
    if (!absl::SimpleAtoi(part, &d) || d < 0) {
      return Corrupt(absl::StrCat("shape has the dimension '", part, "'"));
    }
    h.shape.push_back(d);
  }
  return h;
}

// The element type a descr holds (before the caller's expectation), its
// item size and whether it is big-endian.
struct Dtype {
  PrimitiveType type = PRIMITIVE_TYPE_INVALID;
  int64_t item_size = 0;
  bool big_endian = false;
  bool raw_void = false;  // '|V1' / '|V2'
};

absl::StatusOr<Dtype> ParseDescr(const std::string& descr) {
  if (descr.size() < 3) return Corrupt(absl::StrCat("unknown dtype '", descr, "'"));
  Dtype d;
  const char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    return Corrupt(absl::StrCat("unknown byte order in dtype '", descr, "'"));
  }
  d.big_endian = order == '>';
  const char kind = descr[1];
  int64_t size;
  if (!absl::SimpleAtoi(absl::string_view(descr).substr(2), &size) || size <= 0) {
    return Corrupt(absl::StrCat("unknown dtype '", descr, "'"));
  }
  d.item_size = size;
  auto pick = [&](std::initializer_list<std::pair<int64_t, PrimitiveType>> options) {
    for (auto [s, t] : options) {
      if (s == size) d.type = t;
    }
  };
  switch (kind) {
    case 'b':
      pick({{1, PRED}});
      break;
    case 'i':
      pick({{1, S8}, {2, S16}, {4, S32}, {8, S64}});
      break;
    case 'u':
      pick({{1, U8}, {2, U16}, {4, U32}, {8, U64}});
      break;
    case 'f':
      pick({{2, F16}, {4, F32}, {8, F64}});
      break;
    case 'c':
      pick({{8, C64}, {16, C128}});
      break;
    case 'V':
      d.raw_void = true;
      pick({{1, PRIMITIVE_TYPE_INVALID}, {2, BF16}});
      if (size > 2) return Corrupt(absl::StrCat("void dtype '", descr, "' is not an element type"));
      return d;
    default:
      break;
  }
  if (d.type == PRIMITIVE_TYPE_INVALID) {
    return absl::UnimplementedError(absl::StrCat("unsupported .npy dtype '", descr, "'"));
  }
  return d;
}

void SwapBytes(uint8_t* data, int64_t count, int64_t width) {
  for (int64_t i = 0; i < count; ++i) std::reverse(data + i * width, data + (i + 1) * width);
}

}  // namespace

absl::StatusOr<Literal> ParseNpy(absl::string_view bytes, std::optional<PrimitiveType> expected) {
  if (bytes.size() < kMagicSize + 4 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) {
    return Corrupt("it does not start with \\x93NUMPY");
  }
  const uint8_t major = uint8_t(bytes[6]);
  size_t header_length, offset;
  if (major == 1) {
    header_length = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Corrupt("truncated in the header length");
    header_length = 0;
    for (int i = 0; i < 4; ++i) header_length |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    offset = 12;
  } else {
    return absl::UnimplementedError(absl::StrCat(".npy format version ", int(major), " is not supported"));
  }
  if (bytes.size() < offset + header_length) {
    return Corrupt(absl::StrCat("truncated in the header (", header_length, " bytes announced, ",
                                bytes.size() - offset, " present)"));
  }
  auto header = ParseHeader(bytes.substr(offset, header_length));
  if (!header.ok()) return header.status();
  auto dtype = ParseDescr(header->descr);
  if (!dtype.ok()) return dtype.status();

  // Resolve the element type with the caller's expectation.
  PrimitiveType type = dtype->type;
  bool widen_sub_byte = false;
  if (dtype->raw_void) {
    if (expected && primitive_util::ByteWidth(*expected) == dtype->item_size &&
        primitive_util::IsArrayType(*expected)) {
      type = *expected;
    } else if (!expected && dtype->item_size == 2) {
      type = BF16;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "the file holds raw '", header->descr, "' elements",
          expected ? absl::StrCat(", which cannot be ",
                                  primitive_util::LowercasePrimitiveTypeName(*expected))
                   : "; say which 1-byte float type they are"));
    }
  } else if (expected && *expected != type) {
    const bool sub_byte_int = primitive_util::IsSubByteType(*expected) &&
                              primitive_util::IsIntegralType(*expected) && (type == S8 || type == U8);
    if (!sub_byte_int) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the file holds ", primitive_util::LowercasePrimitiveTypeName(type), " ('", header->descr,
          "'), expected ", primitive_util::LowercasePrimitiveTypeName(*expected)));
    }
    widen_sub_byte = true;
    type = *expected;
  }

  // Every extent counts, a zero one too: (0, 1e16, 1e12) holds nothing but
  // is no shape an array can have.
  int64_t nonzero = 1;
  bool empty = false;
  for (int64_t d : header->shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (nonzero > (int64_t{1} << 40) / d) return Corrupt("the shape is implausibly large");
    nonzero *= d;
  }
  const int64_t count = empty ? 0 : nonzero;
  const size_t data_offset = offset + header_length;
  const uint64_t data_bytes = uint64_t(count) * uint64_t(dtype->item_size);
  if (bytes.size() - data_offset < data_bytes) {
    return Corrupt(absl::StrCat("truncated: the data needs ", data_bytes, " bytes, the file has ",
                                bytes.size() - data_offset));
  }
  // Read in file order (reversed dimensions for Fortran order).
  std::vector<int64_t> file_dims = header->shape;
  if (header->fortran_order) std::reverse(file_dims.begin(), file_dims.end());
  const PrimitiveType file_type = widen_sub_byte ? dtype->type : type;
  Literal raw(Shape(file_type, file_dims));
  if (data_bytes > 0) std::memcpy(raw.untyped_data(), bytes.data() + data_offset, size_t(data_bytes));
  if (dtype->big_endian && dtype->item_size > 1) {
    const bool complex = primitive_util::IsComplexType(file_type);
    const int64_t width = complex ? dtype->item_size / 2 : dtype->item_size;
    SwapBytes(static_cast<uint8_t*>(raw.untyped_data()), complex ? count * 2 : count, width);
  }
  if (file_type == PRED) {
    uint8_t* p = static_cast<uint8_t*>(raw.untyped_data());
    for (int64_t i = 0; i < count; ++i) p[i] = p[i] != 0;
  }
  if (header->fortran_order && file_dims.size() > 1) {
    std::vector<int64_t> reverse(file_dims.size());
    std::iota(reverse.rbegin(), reverse.rend(), 0);
    auto t = eval::Transpose(raw, reverse);
    if (!t.ok()) return t.status();
    raw = *std::move(t);
  }
  if (widen_sub_byte) return raw.Convert(type);
  return raw;
}

absl::StatusOr<Literal> ReadNpyFile(const std::string& path, std::optional<PrimitiveType> expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  auto literal = ParseNpy(buffer.str(), expected);
  if (!literal.ok()) {
    return absl::Status(literal.status().code(), absl::StrCat(path, ": ", literal.status().message()));
  }
  return literal;
}

absl::StatusOr<std::string> SerializeNpy(const Literal& literal) {
  const Shape& shape = literal.shape();
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat(".npy holds one array, not ", shape.ToString()));
  }
  std::string dims = absl::StrJoin(shape.dimensions(), ", ");
  if (shape.rank() == 1) dims += ",";
  std::string dict = absl::StrCat("{'descr': '", DescrOf(shape.element_type()),
                                  "', 'fortran_order': False, 'shape': (", dims, "), }");
  // Pad with spaces so the data starts on a 64-byte boundary; end with '\n'.
  const bool v2 = dict.size() + 11 > 65535;
  const size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + dict.size() + 1;
  total = (total + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::string out(kMagic, kMagicSize);
  out.push_back(char(v2 ? 2 : 1));
  out.push_back(char(0));
  const size_t len = dict.size();
  out.push_back(char(len & 0xFF));
  out.push_back(char((len >> 8) & 0xFF));
  if (v2) {
    out.push_back(char((len >> 16) & 0xFF));
    out.push_back(char((len >> 24) & 0xFF));
  }
  out += dict;
  out.append(static_cast<const char*>(literal.untyped_data()), size_t(literal.size_bytes()));
  return out;
}

absl::Status WriteNpyFile(const std::string& path, const Literal& literal) {
  auto bytes = SerializeNpy(literal);
  if (!bytes.ok()) return bytes.status();
  return WriteFileAtomically(path, *bytes);
}

}  // namespace systolic
