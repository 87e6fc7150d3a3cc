#include "core/runtime/stable_hash.h"

#include "absl/strings/str_format.h"

namespace systolic::runtime {

std::string StableFingerprint(absl::string_view text) {
  // FNV-1a with the published 128-bit offset basis and prime.
  using u128 = unsigned __int128;
  u128 hash = (u128(0x6c62272e07bb0142ULL) << 64) | u128(0x62b821756295c58dULL);
  const u128 prime = (u128(1) << 88) | u128(0x13b);
  for (unsigned char c : text) {
    hash ^= c;
    hash *= prime;
  }
  return absl::StrFormat("%016x%016x", uint64_t(hash >> 64), uint64_t(hash));
}

}  // namespace systolic::runtime
