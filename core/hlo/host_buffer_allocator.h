// The allocator of literal storage. Large buffers (a 64 MiB activation is
// common) are aligned to 2 MiB and offered to the kernel as transparent huge
// pages: the first touch of a fresh buffer then takes one page fault per
// 2 MiB instead of one per 4 KiB, which was a third of the time of a large
// elementwise evaluation. A few freed large buffers are kept for reuse
// (256 MiB at most). Small buffers come from malloc as usual.
#pragma once

#include <cstddef>
#include <new>

#include "core/hlo/default_init_construct.h"

namespace systolic {

namespace host_buffer {
// Bytes from which a buffer is huge-page backed.
inline constexpr size_t kHugePageThreshold = size_t{4} << 20;
void* Allocate(size_t bytes);
void Deallocate(void* p, size_t bytes);
}  // namespace host_buffer

// A vector grown without a value leaves its bytes as they are
// (DefaultInitConstruct): the owner zeroes what must be zero, and a result
// about to be overwritten whole is not written twice (nor, on fresh pages,
// touched by one thread only).
template <typename T>
struct HostBufferAllocator : DefaultInitConstruct {
  using value_type = T;
  HostBufferAllocator() = default;
  template <typename U>
  HostBufferAllocator(const HostBufferAllocator<U>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) { return static_cast<T*>(host_buffer::Allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { host_buffer::Deallocate(p, n * sizeof(T)); }

  template <typename U>
  friend bool operator==(const HostBufferAllocator&, const HostBufferAllocator<U>&) {
    return true;
  }
};

}  // namespace systolic
