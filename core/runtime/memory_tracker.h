// Bytes in use on one device's memory: every live buffer holds a
// reservation, so in-use, peak and the largest live buffers are always
// known, and an allocation past the limit fails with an error that says
// what is holding the memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "core/hlo/human_bytes.h"

namespace systolic::runtime {

class MemoryTracker;

// Returns its bytes to the tracker when destroyed. Movable (donation hands
// an argument's memory to an output).
class MemoryReservation {
 public:
  MemoryReservation() = default;
  MemoryReservation(MemoryReservation&& other) noexcept { *this = std::move(other); }
  MemoryReservation& operator=(MemoryReservation&& other) noexcept;
  ~MemoryReservation() { Release(); }

  int64_t bytes() const { return bytes_; }
  // Renames what the memory holds (in out-of-memory reports).
  void Relabel(const std::string& label);
  void Release();

 private:
  friend class MemoryTracker;
  MemoryTracker* tracker_ = nullptr;
  int64_t id_ = -1;
  int64_t bytes_ = 0;
};

struct MemoryStats {
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_limit = 0;
  int64_t num_allocs = 0;
  int64_t largest_alloc_size = 0;
};

class MemoryTracker {
 public:
  // `device_name` appears in errors ("cpu:0").
  MemoryTracker(std::string device_name, int64_t bytes_limit)
      : device_name_(std::move(device_name)), limit_(bytes_limit) {}
  MemoryTracker(const MemoryTracker&) = delete;
  MemoryTracker& operator=(const MemoryTracker&) = delete;

  // `label` names the buffer in reports ("buffer #3 'weights'").
  absl::StatusOr<MemoryReservation> Reserve(int64_t bytes, const std::string& label);
  MemoryStats stats() const;
  int64_t limit() const { return limit_; }

 private:
  friend class MemoryReservation;
  void Free(int64_t id);
  void Relabel(int64_t id, const std::string& label);
  // "buffer #3 'w' 16.0 MiB, ..." for the largest live allocations.
  std::string LargestLiveLocked(int count) const;

  const std::string device_name_;
  const int64_t limit_;
  mutable std::mutex mu_;
  int64_t next_id_ = 0;
  int64_t in_use_ = 0;
  int64_t peak_ = 0;
  struct Allocation {
    int64_t bytes;
    std::string label;
  };
  std::map<int64_t, Allocation> live_;
};

}  // namespace systolic::runtime
