#include "core/trace/chunk_format.h"

#include <zlib.h>

namespace systolic::trace {

uint32_t Crc32(absl::string_view bytes, uint32_t crc) {
  return uint32_t(crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

std::string EncodeFileHeader(uint32_t version) {
  std::string header(kFileHeaderSize, '\0');
  std::memcpy(header.data(), kProfileMagic, sizeof(kProfileMagic));
  PutU32(header.data() + 8, version);
  PutU32(header.data() + 12, Crc32(absl::string_view(header.data(), 12)));
  return header;
}

}  // namespace systolic::trace
