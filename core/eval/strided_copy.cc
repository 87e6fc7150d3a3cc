#include "core/eval/strided_copy.h"

#include <cstring>

namespace systolic::eval {
namespace {

// Copies `count` elements along one run; the width is a template argument so
// the per-element copy is a single load and store.
template <int kBytes>
void CopyRun(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
             int64_t count) {
  const int64_t s = src_stride * kBytes, d = dst_stride * kBytes;
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * d, src + i * s, kBytes);
  }
}

using RunFn = void (*)(const uint8_t*, int64_t, uint8_t*, int64_t, int64_t);

void CopyRunGeneric(const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
                    int64_t count, int64_t bytes) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dst_stride * bytes, src + i * src_stride * bytes, size_t(bytes));
  }
}

RunFn RunFor(int64_t bytes) {
  switch (bytes) {
    case 1:
      return &CopyRun<1>;
    case 2:
      return &CopyRun<2>;
    case 4:
      return &CopyRun<4>;
    case 8:
      return &CopyRun<8>;
    case 16:
      return &CopyRun<16>;
    default:
      return nullptr;
  }
}

void Run(RunFn fn, const uint8_t* src, int64_t src_stride, uint8_t* dst, int64_t dst_stride,
         int64_t count, int64_t bytes) {
  if (src_stride == 1 && dst_stride == 1) {
    std::memcpy(dst, src, size_t(count * bytes));
  } else if (fn != nullptr) {
    fn(src, src_stride, dst, dst_stride, count);
  } else {
    CopyRunGeneric(src, src_stride, dst, dst_stride, count, bytes);
  }
}

}  // namespace

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t d = int64_t(dims.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * dims[d + 1];
  return strides;
}

void StridedCopy(absl::Span<const int64_t> dims, const void* src, int64_t src_offset,
                 absl::Span<const int64_t> src_strides, void* dst, int64_t dst_offset,
                 absl::Span<const int64_t> dst_strides, int64_t element_bytes) {
  for (int64_t d : dims) {
    if (d <= 0) return;
  }
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* t = static_cast<uint8_t*>(dst);
  const int64_t rank = int64_t(dims.size());
  if (rank == 0) {
    std::memcpy(t + dst_offset * element_bytes, s + src_offset * element_bytes,
                size_t(element_bytes));
    return;
  }
  RunFn fn = RunFor(element_bytes);
  const int64_t inner = dims[rank - 1];
  const int64_t src_inner = src_strides[rank - 1], dst_inner = dst_strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t src_pos = src_offset, dst_pos = dst_offset;
  while (true) {
    Run(fn, s + src_pos * element_bytes, src_inner, t + dst_pos * element_bytes, dst_inner, inner,
        element_bytes);
    // Odometer over the outer dimensions, keeping the positions incremental.
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      src_pos += src_strides[d];
      dst_pos += dst_strides[d];
      if (++index[d] < dims[d]) break;
      src_pos -= src_strides[d] * dims[d];
      dst_pos -= dst_strides[d] * dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

void GatherViewRange(absl::Span<const int64_t> dims, const void* src, int64_t src_offset,
                     absl::Span<const int64_t> src_strides, int64_t begin, int64_t count, void* dst,
                     int64_t element_bytes) {
  if (count <= 0) return;
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* t = static_cast<uint8_t*>(dst);
  const int64_t rank = int64_t(dims.size());
  if (rank == 0) {
    FillElements(t, s + src_offset * element_bytes, count, element_bytes);
    return;
  }
  // Multi-index of `begin`.
  std::vector<int64_t> index(rank, 0);
  int64_t rest = begin;
  for (int64_t d = rank - 1; d >= 0; --d) {
    index[d] = rest % dims[d];
    rest /= dims[d];
  }
  int64_t src_pos = src_offset;
  for (int64_t d = 0; d < rank; ++d) src_pos += index[d] * src_strides[d];
  RunFn fn = RunFor(element_bytes);
  const int64_t inner = dims[rank - 1];
  const int64_t src_inner = src_strides[rank - 1];
  int64_t written = 0;
  while (written < count) {
    const int64_t run = std::min(inner - index[rank - 1], count - written);
    if (src_inner == 0) {
      FillElements(t + written * element_bytes, s + src_pos * element_bytes, run, element_bytes);
    } else {
      Run(fn, s + src_pos * element_bytes, src_inner, t + written * element_bytes, 1, run,
          element_bytes);
    }
    written += run;
    // Advance the multi-index by `run` along the innermost dimension.
    src_pos += run * src_inner;
    index[rank - 1] += run;
    if (index[rank - 1] < inner) continue;
    src_pos -= inner * src_inner;
    index[rank - 1] = 0;
    for (int64_t d = rank - 2; d >= 0; --d) {
      src_pos += src_strides[d];
      if (++index[d] < dims[d]) break;
      src_pos -= src_strides[d] * dims[d];
      index[d] = 0;
    }
  }
}

void FillElements(void* dst, const void* value, int64_t count, int64_t element_bytes) {
  uint8_t* t = static_cast<uint8_t*>(dst);
  if (count <= 0) return;
  if (element_bytes == 1) {
    std::memset(t, *static_cast<const uint8_t*>(value), size_t(count));
    return;
  }
  std::memcpy(t, value, size_t(element_bytes));
  // Doubling copies: log(count) memcpys.
  int64_t filled = 1;
  while (filled < count) {
    const int64_t n = std::min(filled, count - filled);
    std::memcpy(t + filled * element_bytes, t, size_t(n * element_bytes));
    filled += n;
  }
}

}  // namespace systolic::eval
