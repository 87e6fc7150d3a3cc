#include "core/hlo/hlo_proto_sniff.h"

#include <cctype>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "core/hlo/utf8.h"

namespace systolic {
namespace {

constexpr size_t kMaxNameBytes = 4096;

// Wire-format tags (field number << 3 | wire type 2, length-delimited).
constexpr uint8_t kField1Bytes = 0x0A;
constexpr uint8_t kField2Bytes = 0x12;
constexpr uint8_t kField3Bytes = 0x1A;

// Reads a varint at `*pos`; false when the bytes end first or it is too long.
bool ReadVarint(absl::string_view bytes, size_t* pos, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && *pos < bytes.size(); shift += 7) {
    const uint8_t byte = uint8_t(bytes[(*pos)++]);
    *value |= uint64_t(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// A length-delimited field with tag `tag` at `*pos` whose payload is a
// module name (IsReadableModuleName).
bool ReadNameField(absl::string_view bytes, uint8_t tag, size_t* pos) {
  if (*pos >= bytes.size() || uint8_t(bytes[*pos]) != tag) return false;
  ++*pos;
  uint64_t length = 0;
  if (!ReadVarint(bytes, pos, &length) || length > kMaxNameBytes) return false;
  if (*pos + length > bytes.size()) return false;
  if (!IsReadableModuleName(bytes.substr(*pos, length))) return false;
  *pos += length;
  return true;
}

// An HloModuleProto starts with its name (field 1) and then either its
// entry's name (field 2) or its first computation (field 3).
bool LooksLikeModule(absl::string_view bytes) {
  size_t pos = 0;
  if (!ReadNameField(bytes, kField1Bytes, &pos)) return false;
  if (pos >= bytes.size()) return false;
  const uint8_t next = uint8_t(bytes[pos]);
  return next == kField2Bytes || next == kField3Bytes;
}

// The payload of field 1 when the bytes start with it (possibly cut short
// by the end of `bytes`, which is only the file's head).
std::optional<absl::string_view> Field1Payload(absl::string_view bytes) {
  size_t pos = 0;
  if (bytes.empty() || uint8_t(bytes[0]) != kField1Bytes) return std::nullopt;
  ++pos;
  uint64_t length = 0;
  if (!ReadVarint(bytes, &pos, &length)) return std::nullopt;
  return bytes.substr(pos, length);
}

std::optional<HloProtoSniff> SniffBinary(absl::string_view head) {
  if (LooksLikeModule(head)) return HloProtoSniff{HloProtoMessage::kHloModuleProto, false};
  std::optional<absl::string_view> inner = Field1Payload(head);
  if (!inner) return std::nullopt;
  if (LooksLikeModule(*inner)) return HloProtoSniff{HloProtoMessage::kHloProto, false};
  std::optional<absl::string_view> module = Field1Payload(*inner);
  if (module && LooksLikeModule(*module)) {
    return HloProtoSniff{HloProtoMessage::kHloSnapshot, false};
  }
  return std::nullopt;
}

// The first field name of a text-format message, after blank lines and
// `#` comments, when it is followed by ':' or '{'.
std::optional<HloProtoSniff> SniffText(absl::string_view head) {
  size_t pos = 0;
  while (pos < head.size()) {
    if (absl::ascii_isspace(static_cast<unsigned char>(head[pos]))) {
      ++pos;
    } else if (head[pos] == '#') {
      while (pos < head.size() && head[pos] != '\n') ++pos;
    } else {
      break;
    }
  }
  size_t end = pos;
  while (end < head.size() && (absl::ascii_isalnum(static_cast<unsigned char>(head[end])) ||
                               head[end] == '_')) {
    ++end;
  }
  const absl::string_view field = head.substr(pos, end - pos);
  while (end < head.size() && (head[end] == ' ' || head[end] == '\t')) ++end;
  if (end >= head.size() || (head[end] != ':' && head[end] != '{')) return std::nullopt;
  const bool colon = head[end] == ':';
  for (absl::string_view module_field : {"name", "entry_computation_name", "entry_computation_id", "id"}) {
    if (field == module_field && colon) return HloProtoSniff{HloProtoMessage::kHloModuleProto, true};
  }
  if (field == "computations" || field == "host_program_shape") {
    return HloProtoSniff{HloProtoMessage::kHloModuleProto, true};
  }
  if (field == "hlo_module") return HloProtoSniff{HloProtoMessage::kHloProto, true};
  if (field == "hlo" || field == "arguments" || (field == "execution_platform" && colon)) {
    return HloProtoSniff{HloProtoMessage::kHloSnapshot, true};
  }
  return std::nullopt;
}

}  // namespace

bool IsReadableModuleName(absl::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes || FirstInvalidUtf8Byte(name) >= 0) return false;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) return false;
  }
  return true;
}

std::optional<HloProtoSniff> SniffHloProto(absl::string_view head) {
  if (FirstBinaryByte(head) < 0) return SniffText(head);
  return SniffBinary(head);
}

}  // namespace systolic
