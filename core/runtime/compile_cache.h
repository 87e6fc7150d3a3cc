// Executables by fingerprint, and the log of every compile request: a hit,
// or a miss explained against the nearest cached program of the same name.
// Compiles are serialised, so two threads asking for the same program
// compile it once.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/runtime/local_executable.h"
#include "core/runtime/module_signature.h"
#include "core/trace/compile_event.h"

namespace systolic::runtime {

class CompileCache {
 public:
  using Clock = std::chrono::steady_clock;
  // Compiles on a miss; receives the program id the executable must carry.
  using CompileFn =
      std::function<absl::StatusOr<std::shared_ptr<LocalExecutable>>(int64_t program_id)>;

  CompileCache() : origin_(Clock::now()) {}

  // `started` is when the request arrived (fingerprinting counts as its
  // cost). A failed compile is not cached and records no event.
  absl::StatusOr<std::shared_ptr<LocalExecutable>> GetOrCompile(const ModuleSignature& signature,
                                                                Clock::time_point started,
                                                                const CompileFn& compile);

  size_t event_count() const;
  // Valid while the cache lives (events are never moved).
  const trace::CompileEvent& event(size_t i) const;
  std::vector<trace::CompileEvent> events() const;

 private:
  struct Entry {
    ModuleSignature signature;
    std::shared_ptr<LocalExecutable> executable;
  };
  const Entry* NearestLocked(const ModuleSignature& signature) const;

  const Clock::time_point origin_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
  absl::flat_hash_map<std::string, size_t> by_fingerprint_;
  std::deque<trace::CompileEvent> events_;
};

}  // namespace systolic::runtime
