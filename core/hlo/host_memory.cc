#include "core/hlo/host_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/hlo/human_bytes.h"
#include "core/hlo/primitive_type.h"

namespace systolic {
namespace {

// MemAvailable from /proc/meminfo, in bytes.
std::optional<int64_t> MemAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  int64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace

double ShapeBytes(const Shape& shape) {
  if (shape.IsTuple()) {
    double total = 0;
    for (const Shape& s : shape.tuple_shapes()) total += ShapeBytes(s);
    return total;
  }
  if (!shape.IsArray()) return 0;
  double n = primitive_util::ByteWidth(shape.element_type());
  for (int64_t d : shape.dimensions()) n *= double(std::max<int64_t>(d, 0));
  return n;
}

absl::StatusOr<int64_t> ParseByteSize(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  absl::string_view number = lower;
  static const std::pair<const char*, double> kUnits[] = {
      {"kib", 1024.0}, {"mib", 1024.0 * 1024}, {"gib", 1024.0 * 1024 * 1024},
      {"tib", 1024.0 * 1024 * 1024 * 1024},
      {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
      {"k", 1024.0}, {"m", 1024.0 * 1024}, {"g", 1024.0 * 1024 * 1024},
      {"t", 1024.0 * 1024 * 1024 * 1024}, {"b", 1}};
  double scale = 1;
  for (const auto& [suffix, factor] : kUnits) {
    if (absl::ConsumeSuffix(&number, suffix)) {
      scale = factor;
      break;
    }
  }
  double value = 0;
  if (!absl::SimpleAtod(number, &value) || !std::isfinite(value) || value < 0 ||
      value * scale > 9.0e18) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a size (bytes, or with a unit: 4096, 64KiB, 1.5MB, 8G)"));
  }
  return int64_t(value * scale);
}

int64_t HalfPhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return int64_t{8} << 30;
  return int64_t(pages) * int64_t(page) / 2;
}

absl::StatusOr<HostMemory> HostMemoryLimit() {
  if (const char* limit = std::getenv("SYSTOLIC_MEMORY_LIMIT"); limit != nullptr && *limit) {
    absl::StatusOr<int64_t> bytes = ParseByteSize(limit);
    if (bytes.ok() && *bytes == 0) bytes = absl::InvalidArgumentError("a limit of 0 bytes");
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("SYSTOLIC_MEMORY_LIMIT: ", bytes.status().message()));
    }
    return HostMemory{*bytes, "SYSTOLIC_MEMORY_LIMIT"};
  }
  if (std::optional<int64_t> available = MemAvailable()) {
    return HostMemory{*available, "MemAvailable in /proc/meminfo"};
  }
  return HostMemory{HalfPhysicalMemory(), "half the physical memory"};
}

absl::Status CheckValueFitsHost(double bytes, absl::string_view what) {
  if (bytes < double(int64_t{64} << 20)) return absl::OkStatus();
  absl::StatusOr<HostMemory> host = HostMemoryLimit();
  if (!host.ok()) return host.status();
  if (bytes <= double(host->bytes)) return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(what, " holds ", HumanBytes(bytes),
                                                   ", more than the ", HumanBytes(double(host->bytes)),
                                                   " this host may use (", host->source, ")"));
}

}  // namespace systolic
