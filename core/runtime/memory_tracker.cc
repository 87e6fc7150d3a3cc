#include "core/runtime/memory_tracker.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace systolic::runtime {

MemoryReservation& MemoryReservation::operator=(MemoryReservation&& other) noexcept {
  if (this == &other) return *this;
  Release();
  tracker_ = other.tracker_;
  id_ = other.id_;
  bytes_ = other.bytes_;
  other.tracker_ = nullptr;
  other.id_ = -1;
  other.bytes_ = 0;
  return *this;
}

void MemoryReservation::Relabel(const std::string& label) {
  if (tracker_) tracker_->Relabel(id_, label);
}

void MemoryReservation::Release() {
  if (tracker_) tracker_->Free(id_);
  tracker_ = nullptr;
  id_ = -1;
  bytes_ = 0;
}

absl::StatusOr<MemoryReservation> MemoryTracker::Reserve(int64_t bytes,
                                                         const std::string& label) {
  std::lock_guard<std::mutex> lock(mu_);
  if (limit_ > 0 && in_use_ + bytes > limit_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "out of memory on ", device_name_, ": allocating ", HumanBytes(bytes), " for ", label,
        " would exceed the limit of ", HumanBytes(limit_), " (", HumanBytes(in_use_),
        " in use by ", live_.size(), " buffers); largest live buffers: ",
        live_.empty() ? std::string("none") : LargestLiveLocked(5)));
  }
  MemoryReservation reservation;
  reservation.tracker_ = this;
  reservation.id_ = next_id_++;
  reservation.bytes_ = bytes;
  live_.emplace(reservation.id_, Allocation{bytes, label});
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return reservation;
}

std::string MemoryTracker::LargestLiveLocked(int count) const {
  std::vector<const Allocation*> all;
  all.reserve(live_.size());
  for (const auto& [id, allocation] : live_) all.push_back(&allocation);
  int n = std::min<int>(count, int(all.size()));
  std::partial_sort(all.begin(), all.begin() + n, all.end(),
                    [](const Allocation* a, const Allocation* b) { return a->bytes > b->bytes; });
  std::string text;
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&text, i ? ", " : "", all[i]->label, " ", HumanBytes(all[i]->bytes));
  }
  return text;
}

void MemoryTracker::Free(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(id);
  if (it == live_.end()) return;
  in_use_ -= it->second.bytes;
  live_.erase(it);
}

void MemoryTracker::Relabel(int64_t id, const std::string& label) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(id);
  if (it != live_.end()) it->second.label = label;
}

MemoryStats MemoryTracker::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  MemoryStats stats;
  stats.bytes_in_use = in_use_;
  stats.peak_bytes_in_use = peak_;
  stats.bytes_limit = limit_;
  stats.num_allocs = int64_t(live_.size());
  for (const auto& [id, allocation] : live_) {
    stats.largest_alloc_size = std::max(stats.largest_alloc_size, allocation.bytes);
  }
  return stats;
}

}  // namespace systolic::runtime
