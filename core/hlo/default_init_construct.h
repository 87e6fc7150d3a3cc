// The construct() of an allocator whose value-initialisation leaves trivial
// types uninitialised, so that `resize` on a vector of numbers does not write
// zeros the caller overwrites at once. Allocators inherit it.
#pragma once

#include <new>
#include <utility>

namespace systolic {

struct DefaultInitConstruct {
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace systolic
