// std::allocator with DefaultInitConstruct: event columns (hundreds of MB)
// are resized and then overwritten, so they are not zeroed first.
#pragma once

#include <memory>
#include <vector>

#include "core/hlo/default_init_construct.h"

namespace systolic::trace {

template <typename T>
class DefaultInitAllocator : public std::allocator<T>, public DefaultInitConstruct {
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  using DefaultInitConstruct::construct;
};

// A vector of numbers whose resize leaves the new entries unset.
template <typename T>
using UninitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace systolic::trace
