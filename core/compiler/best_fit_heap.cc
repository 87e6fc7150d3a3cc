#include "core/compiler/best_fit_heap.h"

#include <algorithm>

namespace systolic {

void BestFitHeap::AddGap(int64_t offset, int64_t size) {
  gaps_by_offset_[offset] = size;
  gaps_by_size_.emplace(size, offset);
}

void BestFitHeap::RemoveGap(int64_t offset, int64_t size) {
  gaps_by_offset_.erase(offset);
  gaps_by_size_.erase({size, offset});
}

int64_t BestFitHeap::Allocate(int64_t size) {
  size = std::max<int64_t>(Align(size), alignment_);
  auto it = gaps_by_size_.lower_bound({size, INT64_MIN});
  if (it != gaps_by_size_.end()) {
    const auto [gap_size, offset] = *it;
    RemoveGap(offset, gap_size);
    if (gap_size > size) AddGap(offset + size, gap_size - size);
    return offset;
  }
  // No gap fits: grow (a gap never touches the top, Free lowers the top).
  const int64_t offset = top_;
  top_ = offset + size;
  heap_size_ = std::max(heap_size_, top_);
  return offset;
}

void BestFitHeap::Free(int64_t offset, int64_t size) {
  size = std::max<int64_t>(Align(size), alignment_);
  // Merge with the gaps on either side.
  auto next = gaps_by_offset_.lower_bound(offset);
  if (next != gaps_by_offset_.end() && next->first == offset + size) {
    const int64_t next_size = next->second;
    RemoveGap(next->first, next_size);
    size += next_size;
  }
  auto prev = gaps_by_offset_.lower_bound(offset);
  if (prev != gaps_by_offset_.begin()) {
    --prev;
    if (prev->first + prev->second == offset) {
      const int64_t prev_offset = prev->first, prev_size = prev->second;
      RemoveGap(prev_offset, prev_size);
      offset = prev_offset;
      size += prev_size;
    }
  }
  if (offset + size == top_) {
    top_ = offset;  // the top shrinks back; the heap size stays
    return;
  }
  AddGap(offset, size);
}

}  // namespace systolic
