#include "core/device/hbm_fit_check.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/compiler/buffer_assignment.h"
#include "core/device/chip_figures.h"

namespace systolic::device {
namespace {

constexpr size_t kListed = 5;

std::string Size(int64_t bytes) {
  if (bytes >= (int64_t(1) << 30)) return absl::StrFormat("%.2f GiB", double(bytes) / (1 << 30));
  if (bytes >= (1 << 20)) return absl::StrFormat("%.2f MiB", double(bytes) / (1 << 20));
  return absl::StrCat(bytes, " B");
}

}  // namespace

absl::Status CheckFitsHbm(const HloModule& module, const ChipSpec& spec) {
  absl::StatusOr<BufferAssignment> assignment = BufferAssignment::Run(module);
  if (!assignment.ok()) {
    return absl::Status(assignment.status().code(),
                        absl::StrCat(module.name(), ": cannot assign buffers: ",
                                     assignment.status().message()));
  }
  const int64_t capacity = HbmBytes(spec);
  int64_t peak = 0;
  int64_t position = 0;
  for (const MemorySpaceUsage& usage : assignment->memory_spaces()) {
    if (usage.memory_space != 0) continue;
    peak = usage.peak_live_bytes;
    position = usage.peak_position;
  }
  if (peak <= capacity) return absl::OkStatus();

  std::vector<const AssignedBuffer*> live;
  for (const AssignedBuffer& b : assignment->buffers()) {
    if (b.memory_space == 0 && b.start <= position && position <= b.end && b.shares_with < 0) {
      live.push_back(&b);
    }
  }
  std::sort(live.begin(), live.end(), [](const AssignedBuffer* a, const AssignedBuffer* b) {
    return a->size_bytes != b->size_bytes ? a->size_bytes > b->size_bytes
                                          : a->instruction < b->instruction;
  });
  std::vector<std::string> largest;
  for (size_t i = 0; i < live.size() && i < kListed; ++i) {
    largest.push_back(absl::StrCat(live[i]->instruction, " ", live[i]->shape.ToString(), " (",
                                   Size(live[i]->size_bytes), ")"));
  }
  // Callers name the module.
  return absl::ResourceExhaustedError(absl::StrCat(
      "out of HBM on chip ", spec.name(), ": needs ", Size(peak), " at position ",
      position, " of the schedule, the chip has ", Size(capacity), "; largest live buffers: ",
      absl::StrJoin(largest, ", ")));
}

}  // namespace systolic::device
