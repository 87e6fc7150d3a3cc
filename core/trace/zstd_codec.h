// zstd compression with reusable contexts (one per writer / reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace systolic::trace {

class ZstdCodec {
 public:
  explicit ZstdCodec(int level = 3);
  ~ZstdCodec();
  ZstdCodec(const ZstdCodec&) = delete;
  ZstdCodec& operator=(const ZstdCodec&) = delete;

  absl::Status Compress(absl::string_view raw, std::string* stored);
  // Fails unless `stored` is one zstd frame of exactly `raw_size` bytes.
  absl::Status Decompress(absl::string_view stored, int64_t raw_size, std::string* raw);
  // The uncompressed size a zstd frame declares (an error when it declares
  // none).
  static absl::StatusOr<int64_t> FrameContentSize(absl::string_view stored);

 private:
  struct Contexts;
  int level_;
  std::unique_ptr<Contexts> contexts_;
};

}  // namespace systolic::trace
