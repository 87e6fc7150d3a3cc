#include "core/hlo/host_buffer_allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace systolic::host_buffer {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

size_t RoundedToHugePages(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

// Large buffers freed recently, kept for the next allocation of the same
// rounded size: an evaluation frees and allocates buffers of the same sizes
// op after op and step after step, and memory handed back to the kernel
// would come back zeroed page by page, at the cost of a pass over it.
class LargeBufferCache {
 public:
  void* Take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < blocks_.size(); ++i) {
      if (blocks_[i].size != size) continue;
      void* p = blocks_[i].p;
      cached_bytes_ -= size;
      blocks_[i] = blocks_.back();
      blocks_.pop_back();
      return p;
    }
    return nullptr;
  }

  // False when the cache is full; the caller frees the block.
  bool Keep(void* p, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (blocks_.size() >= kMaxBlocks || cached_bytes_ + size > kMaxBytes) return false;
    blocks_.push_back({p, size});
    cached_bytes_ += size;
    return true;
  }

 private:
  static constexpr size_t kMaxBlocks = 8;
  static constexpr size_t kMaxBytes = size_t{256} << 20;
  struct Block {
    void* p;
    size_t size;
  };
  std::mutex mutex_;
  std::vector<Block> blocks_;
  size_t cached_bytes_ = 0;
};

LargeBufferCache& Cache() {
  // Never destroyed: literals in static storage may be freed after it would be.
  static LargeBufferCache* cache = new LargeBufferCache();
  return *cache;
}

}  // namespace

void* Allocate(size_t bytes) {
  if (bytes < kHugePageThreshold) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  const size_t size = RoundedToHugePages(bytes);
  if (void* reused = Cache().Take(size)) return reused;
  void* p = std::aligned_alloc(kHugePage, size);
  if (p == nullptr) throw std::bad_alloc();
  // Only advice: where huge pages are off, ordinary pages serve.
  madvise(p, size, MADV_HUGEPAGE);
  return p;
}

void Deallocate(void* p, size_t bytes) {
  if (bytes >= kHugePageThreshold && Cache().Keep(p, RoundedToHugePages(bytes))) return;
  std::free(p);
}

}  // namespace systolic::host_buffer
