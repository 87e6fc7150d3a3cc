// An owning pointer that copies its object along with itself. Instructions
// keep large attributes that most of them lack (sharding, metadata, the
// rarely used opcode attributes) behind one, so an instruction stays small
// and a walk over a large module touches fewer cache lines.
#pragma once

#include <memory>
#include <utility>

namespace systolic {

// kNullIsDefault: null reads as, and compares equal to, a default T (an
// attribute with a neutral value). Otherwise null means absent and equals
// only null (an optional attribute).
template <typename T, bool kNullIsDefault>
class DeepCopyPtr {
 public:
  DeepCopyPtr() = default;
  DeepCopyPtr(const DeepCopyPtr& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  DeepCopyPtr(DeepCopyPtr&&) noexcept = default;
  DeepCopyPtr& operator=(const DeepCopyPtr& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  DeepCopyPtr& operator=(DeepCopyPtr&&) noexcept = default;

  bool has_value() const { return p_ != nullptr; }
  const T& get() const { return p_ ? *p_ : Defaults(); }
  T* mutable_get() {
    if (!p_) p_ = std::make_unique<T>();
    return p_.get();
  }
  void set(T value) { p_ = std::make_unique<T>(std::move(value)); }
  void reset() { p_.reset(); }

  friend bool operator==(const DeepCopyPtr& a, const DeepCopyPtr& b) {
    if constexpr (kNullIsDefault) {
      return a.p_ == b.p_ || a.get() == b.get();
    } else {
      if (!a.p_ || !b.p_) return !a.p_ && !b.p_;
      return *a.p_ == *b.p_;
    }
  }

 private:
  static const T& Defaults() {
    static const T* const defaults = new T();
    return *defaults;
  }
  std::unique_ptr<T> p_;
};

}  // namespace systolic
