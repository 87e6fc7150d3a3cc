// Offsets for allocations made and freed in time order: each goes into the
// smallest free gap that fits (best fit), freed gaps merge with their
// neighbours, and the heap grows only when no gap fits.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace systolic {

class BestFitHeap {
 public:
  explicit BestFitHeap(int64_t alignment = 64) : alignment_(alignment) {}

  // The offset of a new block of `size` bytes.
  int64_t Allocate(int64_t size);
  // Frees a block returned by Allocate (same size).
  void Free(int64_t offset, int64_t size);
  // The end of the highest block ever allocated.
  int64_t heap_size() const { return heap_size_; }

 private:
  int64_t Align(int64_t size) const { return (size + alignment_ - 1) / alignment_ * alignment_; }
  void AddGap(int64_t offset, int64_t size);
  void RemoveGap(int64_t offset, int64_t size);

  int64_t alignment_;
  int64_t top_ = 0;        // end of the used region (gaps below it)
  int64_t heap_size_ = 0;
  std::map<int64_t, int64_t> gaps_by_offset_;
  std::set<std::pair<int64_t, int64_t>> gaps_by_size_;  // (size, offset)
};

}  // namespace systolic
