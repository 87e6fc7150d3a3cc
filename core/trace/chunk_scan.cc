#include "core/trace/chunk_scan.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/trace/chunk_format.h"

namespace systolic::trace {
namespace {

absl::StatusOr<ChunkScan> ScanVersion1(absl::string_view file, const ChunkScanOptions& options,
                                       ChunkScan scan) {
  if (int64_t(file.size()) < kFileHeaderSize + kV1PayloadHeaderSize) {
    return absl::DataLossError(absl::StrCat("truncated: the file ends at byte ", file.size(),
                                            " inside its ", kV1PayloadHeaderSize,
                                            "-byte payload header at byte ", kFileHeaderSize));
  }
  const uint64_t stored = GetU64(file.data() + kFileHeaderSize);
  const uint32_t crc = GetU32(file.data() + kFileHeaderSize + 8);
  const int64_t begin = kFileHeaderSize + kV1PayloadHeaderSize;
  const uint64_t available = file.size() - begin;
  if (stored != available) {
    return absl::DataLossError(absl::StrCat(
        stored > available ? "truncated" : "corrupted", ": the payload at byte ", begin,
        " should hold ", stored, " bytes but ", available, " follow"));
  }
  absl::string_view payload = file.substr(begin);
  if (Crc32(payload) != crc) {
    return absl::DataLossError(absl::StrCat("corrupted: checksum mismatch in the payload at byte ",
                                            begin));
  }
  // Version 1 kept no raw size; zstd frames carry it.
  scan.chunks.push_back({0, kFileHeaderSize, 1, payload, -1});
  scan.finished = true;
  (void)options;
  return scan;
}

}  // namespace

absl::StatusOr<ChunkScan> ScanChunks(absl::string_view file, const ChunkScanOptions& options) {
  const int64_t size = int64_t(file.size());
  const int64_t magic_bytes = std::min<int64_t>(size, sizeof(kProfileMagic));
  if (std::memcmp(file.data(), kProfileMagic, size_t(magic_bytes)) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not a Systolic profile: wrong magic bytes at byte 0 (found \"",
        absl::CHexEscape(file.substr(0, size_t(magic_bytes))), "\")"));
  }
  if (size < kFileHeaderSize) {
    return absl::DataLossError(absl::StrCat("truncated: the file ends at byte ", size,
                                            " inside its ", kFileHeaderSize, "-byte header"));
  }
  if (Crc32(file.substr(0, 12)) != GetU32(file.data() + 12)) {
    return absl::DataLossError("corrupted: checksum mismatch in the file header (bytes 0..15)");
  }
  ChunkScan scan;
  scan.version = GetU32(file.data() + 8);
  if (scan.version > kFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "format version ", scan.version, " is newer than this build reads (versions ",
        kOldestReadableVersion, " to ", kFormatVersion, "): open it with a newer systolic"));
  }
  if (scan.version < kOldestReadableVersion) {
    return absl::DataLossError(absl::StrCat("corrupted: format version ", scan.version,
                                            " does not exist (byte 8)"));
  }
  if (scan.version == 1) return ScanVersion1(file, options, std::move(scan));

  // A closed file ends with a footer pointing at its index chunk.
  int64_t limit = size;
  int64_t index_offset = -1;
  if (size >= kFileHeaderSize + kFooterSize &&
      std::memcmp(file.data() + size - 8, kFooterMagic, sizeof(kFooterMagic)) == 0) {
    limit = size - kFooterSize;
    const uint64_t offset = GetU64(file.data() + size - kFooterSize);
    if (offset < uint64_t(kFileHeaderSize) || offset > uint64_t(limit - kChunkHeaderSize)) {
      if (!options.recover) {
        return absl::DataLossError(absl::StrCat("corrupted: the footer at byte ", limit,
                                                " points to byte ", offset,
                                                ", outside the chunks"));
      }
      limit = size;  // recover by scanning without the footer
    } else {
      index_offset = int64_t(offset);
    }
  }

  int64_t pos = kFileHeaderSize;
  std::string damage;
  while (pos < limit) {
    const int64_t number = int64_t(scan.chunks.size());
    const std::string where = absl::StrCat("chunk ", number, " at byte ", pos);
    if (limit - pos < kChunkHeaderSize) {
      damage = absl::StrCat("truncated: ", where, ": its ", kChunkHeaderSize,
                            "-byte header is cut off by the end of the file at byte ", size);
      break;
    }
    const char* header = file.data() + pos;
    if (GetU32(header) != kChunkMarker) {
      damage = absl::StrCat("corrupted: ", where, ": no chunk marker");
      break;
    }
    if (GetU32(header + 28) != 0) {
      damage = absl::StrCat("corrupted: ", where, ": reserved header bytes are not zero");
      break;
    }
    const uint32_t type = GetU32(header + 4);
    const uint64_t stored = GetU64(header + 8);
    const uint64_t raw = GetU64(header + 16);
    const uint64_t room = uint64_t(limit - pos - kChunkHeaderSize);
    if (stored > room) {
      damage = absl::StrCat("truncated: ", where, ": holds ", stored, " bytes but the file ends ",
                            room, " bytes after its header");
      break;
    }
    absl::string_view payload = file.substr(pos + kChunkHeaderSize, stored);
    const uint32_t crc = Crc32(payload, Crc32(absl::string_view(header + 4, 20)));
    if (crc != GetU32(header + 24)) {
      damage = absl::StrCat("corrupted: ", where, ": checksum mismatch");
      break;
    }
    if (raw > uint64_t(options.max_chunk_bytes)) {
      damage = absl::StrCat("corrupted: ", where, ": ", raw,
                            " bytes uncompressed is more than the limit of ",
                            options.max_chunk_bytes);
      break;
    }
    scan.chunks.push_back({number, pos, type, payload, int64_t(raw)});
    pos += kChunkHeaderSize + int64_t(stored);
  }

  if (damage.empty() && index_offset >= 0) {
    if (scan.chunks.empty() || scan.chunks.back().offset != index_offset ||
        scan.chunks.back().type != uint32_t(ChunkType::kIndex)) {
      damage = absl::StrCat("corrupted: the footer points to byte ", index_offset,
                            ", which is not where the index chunk starts");
    } else {
      scan.finished = true;
      return scan;
    }
  }
  if (damage.empty()) {
    damage = absl::StrCat("unfinished: ", scan.chunks.size(), " chunks end at byte ", pos,
                          " and no footer follows (the writer was not closed, or the file was "
                          "cut there)");
  }
  if (!options.recover) {
    if (absl::StartsWith(damage, "unfinished")) {
      return absl::DataLossError(
          absl::StrCat(damage, "; open it with recovery to read the complete chunks"));
    }
    return absl::DataLossError(damage);
  }
  // Recovery keeps the data chunks before the damage; an index chunk there
  // is meaningless without its footer.
  if (!scan.chunks.empty() && scan.chunks.back().type == uint32_t(ChunkType::kIndex)) {
    pos = scan.chunks.back().offset;
    scan.chunks.pop_back();
  }
  scan.stopped_because = damage;
  scan.ignored_bytes = size - pos;
  return scan;
}

}  // namespace systolic::trace
