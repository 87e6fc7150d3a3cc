// One compile request to a client: a cache hit, or a miss with its cause
// against the nearest cached program of the same name. Field for field what
// the profile's trace::CompileEvent holds (timestamp, program ids,
// fingerprint, hit, compile time, cause text), plus the module's name and
// the cause's kind for filtering.
#pragma once

#include <cstdint>
#include <string>

namespace systolic::runtime {

enum class RecompilationCause {
  kNone = 0,              // cache hit
  kNeverSeen,             // no program of this name compiled before
  kArgumentShape,         // an argument's shape or element type changed
  kInstructionCount,      // instructions were added or removed
  kDifferentInstruction,  // same count, an instruction differs
  kChangedConstant,       // only constants' values differ
  kDifferentOptions,      // replicas, partitions, chip, devices...
  kDifferentSharding,     // an argument's or instruction's sharding
  kDifferentConfiguration,  // module header: aliasing, layouts
};

// "cache hit", "never seen", "argument shape", ...
const char* RecompilationCauseName(RecompilationCause cause);

struct CompileEvent {
  int64_t timestamp_ns = 0;  // since the client was created
  std::string module_name;
  std::string fingerprint;  // 32 hex digits
  bool cache_hit = false;
  int64_t compile_time_ns = 0;  // lookup time for a hit
  int64_t program_id = -1;      // the executable that serves the request
  int64_t compared_program_id = -1;  // the nearest cached program, -1 if none
  RecompilationCause cause_kind = RecompilationCause::kNone;
  std::string cause;  // "argument 0: now f32[16,128], before f32[8,128]"; "" for a hit
  friend bool operator==(const CompileEvent&, const CompileEvent&) = default;
};

}  // namespace systolic::runtime
