// The byte layout of a profile file.
//
//   header   16 bytes  magic "\x89SYSPROF", u32 format version,
//                      u32 CRC-32 of the 12 bytes before it
//   version 3 (current): as version 2; a lane's events refer to its stat
//              sets, each stored once, and may carry a detail string
//              (proto::Line)
//   version 2: chunks, then a footer
//     chunk  32 bytes  u32 marker "SPCK", u32 type, u64 stored size,
//                      u64 raw size, u32 CRC-32 of the 20 bytes from the
//                      type on and of the stored bytes, u32 zero
//                      (reserved; readers check it);
//                      then the stored bytes (zstd of a proto::Profile, or
//                      of a proto::ChunkIndex for the index chunk)
//     footer 16 bytes  u64 offset of the index chunk, "SPROFEND"
//              every event's stats were stored with the event
//   version 1: u64 stored size, u32 CRC-32 of the stored bytes, then the
//              stored bytes (zstd of one proto::Profile)
//
// Integers are little-endian. A writer that is killed leaves the chunks it
// finished; without the footer the reader can still recover them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic::trace {

inline constexpr char kProfileMagic[8] = {'\x89', 'S', 'Y', 'S', 'P', 'R', 'O', 'F'};
inline constexpr char kFooterMagic[8] = {'S', 'P', 'R', 'O', 'F', 'E', 'N', 'D'};
inline constexpr uint32_t kChunkMarker = 0x4b435053;  // "SPCK" in file order
inline constexpr uint32_t kFormatVersion = 3;
inline constexpr uint32_t kOldestReadableVersion = 1;

inline constexpr int64_t kFileHeaderSize = 16;
inline constexpr int64_t kChunkHeaderSize = 32;
inline constexpr int64_t kFooterSize = 16;
inline constexpr int64_t kV1PayloadHeaderSize = 12;
// Writers never make a chunk larger than this uncompressed; readers refuse
// larger ones rather than allocate what a damaged header claims.
inline constexpr int64_t kMaxChunkRawBytes = int64_t(1) << 30;

enum class ChunkType : uint32_t {
  kProfile = 1,  // a proto::Profile merged into what came before
  kIndex = 2,    // a proto::ChunkIndex; the last chunk of a finished file
};

inline void PutU32(char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = char(v >> (8 * i));
}
inline void PutU64(char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = char(v >> (8 * i));
}
inline uint32_t GetU32(const char* in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(in[i])) << (8 * i);
  return v;
}
inline uint64_t GetU64(const char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(in[i])) << (8 * i);
  return v;
}

// CRC-32 (zlib's), continued from `crc`.
uint32_t Crc32(absl::string_view bytes, uint32_t crc = 0);

// The 16-byte file header of `version`.
std::string EncodeFileHeader(uint32_t version);

}  // namespace systolic::trace
