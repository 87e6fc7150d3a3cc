#include "core/trace/zstd_codec.h"

#include <zstd.h>

#include "absl/strings/str_cat.h"

namespace systolic::trace {

struct ZstdCodec::Contexts {
  ZSTD_CCtx* compress = nullptr;
  ZSTD_DCtx* decompress = nullptr;
  ~Contexts() {
    ZSTD_freeCCtx(compress);
    ZSTD_freeDCtx(decompress);
  }
};

ZstdCodec::ZstdCodec(int level) : level_(level), contexts_(std::make_unique<Contexts>()) {}
ZstdCodec::~ZstdCodec() = default;

absl::Status ZstdCodec::Compress(absl::string_view raw, std::string* stored) {
  if (contexts_->compress == nullptr) contexts_->compress = ZSTD_createCCtx();
  stored->resize(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compressCCtx(contexts_->compress, stored->data(), stored->size(),
                                     raw.data(), raw.size(), level_);
  if (ZSTD_isError(n)) return absl::InternalError(absl::StrCat("zstd: ", ZSTD_getErrorName(n)));
  stored->resize(n);
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ZstdCodec::FrameContentSize(absl::string_view stored) {
  const unsigned long long size = ZSTD_getFrameContentSize(stored.data(), stored.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) {
    return absl::DataLossError("the compressed bytes are not a zstd frame");
  }
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size > uint64_t(INT64_MAX)) {
    return absl::DataLossError("the zstd frame does not declare its size");
  }
  return int64_t(size);
}

absl::Status ZstdCodec::Decompress(absl::string_view stored, int64_t raw_size, std::string* raw) {
  if (contexts_->decompress == nullptr) contexts_->decompress = ZSTD_createDCtx();
  const unsigned long long declared = ZSTD_getFrameContentSize(stored.data(), stored.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) {
    return absl::DataLossError("the compressed bytes are not a zstd frame");
  }
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != uint64_t(raw_size)) {
    return absl::DataLossError(absl::StrCat("the compressed frame holds ", declared,
                                            " bytes where the header says ", raw_size));
  }
  raw->resize(size_t(raw_size));
  const size_t n = ZSTD_decompressDCtx(contexts_->decompress, raw->data(), raw->size(),
                                       stored.data(), stored.size());
  if (ZSTD_isError(n)) {
    return absl::DataLossError(absl::StrCat("zstd: ", ZSTD_getErrorName(n)));
  }
  if (int64_t(n) != raw_size) {
    return absl::DataLossError(
        absl::StrCat("decompressed to ", n, " bytes where the header says ", raw_size));
  }
  return absl::OkStatus();
}

}  // namespace systolic::trace
