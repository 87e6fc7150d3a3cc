// The host's memory as the project reasons about it: the bytes a value of a
// shape takes, sizes as users write them ("8G", "64KiB", "1.5MB"), and how
// much memory the host lets a program use.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/hlo/shape.h"

namespace systolic {

// The bytes of a value of `shape` (a tuple's elements summed); a double so
// that impossible shapes do not overflow.
double ShapeBytes(const Shape& shape);

// A byte count: a number, optionally with a unit: KiB, MiB, GiB, TiB and
// K, M, G, T are powers of 1024; KB, MB, GB, TB powers of 1000 (any case).
absl::StatusOr<int64_t> ParseByteSize(absl::string_view text);

struct HostMemory {
  int64_t bytes = 0;
  std::string source;  // "SYSTOLIC_MEMORY_LIMIT", "MemAvailable in /proc/meminfo", ...
};

// Half the host's physical memory (8 GiB when the system does not say): a
// bound no single value may pass.
int64_t HalfPhysicalMemory();

// What a program may use: SYSTOLIC_MEMORY_LIMIT when set (the CLI's
// --memory-limit sets it), else the memory /proc/meminfo says is available,
// else half the physical memory. A malformed or zero limit is an error.
absl::StatusOr<HostMemory> HostMemoryLimit();

// OK when a value of `bytes` fits HostMemoryLimit(); otherwise a
// ResourceExhausted error "<what> holds 5.0 TiB, more than the 22.4 GiB this
// host may use (…)". Sizes below 64 MiB pass without asking the host.
absl::Status CheckValueFitsHost(double bytes, absl::string_view what);

}  // namespace systolic
