#include "core/runtime/compile_cache.h"

#include <limits>

#include "core/runtime/module_recompilation.h"

namespace systolic::runtime {

absl::StatusOr<std::shared_ptr<LocalExecutable>> CompileCache::GetOrCompile(
    const ModuleSignature& signature, Clock::time_point started, const CompileFn& compile) {
  std::lock_guard<std::mutex> lock(mu_);
  trace::CompileEvent event;
  event.module_name = signature.module_name;
  event.fingerprint = signature.fingerprint;
  if (auto it = by_fingerprint_.find(signature.fingerprint); it != by_fingerprint_.end()) {
    const Entry& entry = entries_[it->second];
    Clock::time_point now = Clock::now();
    event.timestamp_ns = std::chrono::nanoseconds(started - origin_).count();
    event.cache_hit = true;
    event.compile_time_ns = std::chrono::nanoseconds(now - started).count();
    event.program_id = entry.executable->program_id();
    event.compared_program_id = entry.executable->program_id();
    events_.push_back(std::move(event));
    return entry.executable;
  }
  const Entry* nearest = NearestLocked(signature);
  trace::RecompilationCause cause =
      ExplainRecompilation(signature, nearest ? &nearest->signature : nullptr);
  int64_t program_id = int64_t(entries_.size());
  absl::StatusOr<std::shared_ptr<LocalExecutable>> executable = compile(program_id);
  if (!executable.ok()) return executable.status();
  event.timestamp_ns = std::chrono::nanoseconds(started - origin_).count();
  event.compile_time_ns = std::chrono::nanoseconds(Clock::now() - started).count();
  event.program_id = program_id;
  event.compared_program_id = nearest ? nearest->executable->program_id() : -1;
  event.cause = std::move(cause);
  events_.push_back(std::move(event));
  by_fingerprint_.emplace(signature.fingerprint, entries_.size());
  entries_.push_back(Entry{signature, *executable});
  return executable;
}

const CompileCache::Entry* CompileCache::NearestLocked(const ModuleSignature& signature) const {
  const Entry* nearest = nullptr;
  int64_t best = std::numeric_limits<int64_t>::max();
  // The latest entry wins ties: it is what the user last compiled.
  for (const Entry& entry : entries_) {
    if (entry.signature.module_name != signature.module_name) continue;
    int64_t distance = SignatureDistance(signature, entry.signature);
    if (distance <= best) {
      best = distance;
      nearest = &entry;
    }
  }
  return nearest;
}

size_t CompileCache::event_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_.size();
}

const trace::CompileEvent& CompileCache::event(size_t i) const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_[i];
}

std::vector<trace::CompileEvent> CompileCache::events() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::vector<trace::CompileEvent>(events_.begin(), events_.end());
}

}  // namespace systolic::runtime
