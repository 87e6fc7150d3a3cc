#include "core/analysis/memory_timeline.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace systolic::analysis {
namespace {

// Bytes covered by the address ranges of `live` (in-place sharers overlap).
int64_t CoveredBytes(std::vector<const trace::BufferRecord*> live) {
  std::sort(live.begin(), live.end(),
            [](const trace::BufferRecord* a, const trace::BufferRecord* b) { return a->offset < b->offset; });
  int64_t covered = 0, reached = INT64_MIN;
  for (const trace::BufferRecord* b : live) {
    const int64_t begin = std::max(b->offset, reached), end = b->offset + b->size_bytes;
    if (end > begin) covered += end - begin;
    reached = std::max(reached, end);
  }
  return covered;
}

}  // namespace

std::vector<std::string> MemorySpacesOf(const trace::BufferAssignmentRecord& assignment) {
  std::set<std::string> spaces;
  for (const trace::BufferRecord& b : assignment.buffers) spaces.insert(b.memory_space);
  for (const trace::MemorySpacePeak& p : assignment.peaks) spaces.insert(p.memory_space);
  std::vector<std::string> out;
  if (spaces.erase("HBM")) out.push_back("HBM");
  out.insert(out.end(), spaces.begin(), spaces.end());
  return out;
}

MemoryTimeline MemoryOverProgramOrder(const trace::BufferAssignmentRecord& assignment,
                                      absl::string_view memory_space) {
  MemoryTimeline timeline;
  timeline.memory_space = std::string(memory_space);
  std::vector<const trace::BufferRecord*> buffers;
  int64_t length = 0;
  for (const trace::BufferRecord& b : assignment.buffers) {
    length = std::max(length, b.live_end + 1);
    if (b.memory_space == memory_space && b.live_end >= b.live_start) buffers.push_back(&b);
  }
  std::sort(buffers.begin(), buffers.end(), [](const trace::BufferRecord* a, const trace::BufferRecord* b) {
    return a->live_start < b->live_start;
  });
  timeline.allocated_bytes.assign(size_t(length), 0);
  std::vector<const trace::BufferRecord*> live;
  size_t next = 0;
  for (int64_t position = 0; position < length; ++position) {
    std::erase_if(live, [&](const trace::BufferRecord* b) { return b->live_end < position; });
    while (next < buffers.size() && buffers[next]->live_start <= position) live.push_back(buffers[next++]);
    const int64_t bytes = CoveredBytes(live);
    timeline.allocated_bytes[size_t(position)] = bytes;
    if (bytes > timeline.peak_bytes) {
      timeline.peak_bytes = bytes;
      timeline.peak_position = position;
    }
  }
  for (const trace::BufferRecord* b : buffers) {
    if (b->live_start <= timeline.peak_position && timeline.peak_position <= b->live_end) {
      timeline.live_at_peak.push_back(*b);
      if (b->live_start == timeline.peak_position) timeline.peak_instruction = b->instruction;
    }
  }
  std::stable_sort(timeline.live_at_peak.begin(), timeline.live_at_peak.end(),
                   [](const trace::BufferRecord& a, const trace::BufferRecord& b) { return a.size_bytes > b.size_bytes; });
  return timeline;
}

}  // namespace systolic::analysis
