// One compile request: a cache hit, or a miss with why it missed against the
// nearest program compiled before ("argument 0: now f32[16,128], before
// f32[8,128]"). The one definition of the concept: the runtime's compile
// cache and the lazy front end produce it, a profile stores it, the
// analyses render it.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace systolic::trace {

// What differs between a program and the nearest one compiled before.
// Stored in profiles by number: values are never renumbered.
enum class RecompilationKind : int32_t {
  kNone = 0,                  // a cache hit: nothing differs
  kFirstCompile = 1,          // nothing of this name (or from this source) compiled before
  kCompileOptions = 2,        // chip, topology, replicas, partitions, device assignment
  kArgumentCount = 3,
  kArgumentShape = 4,         // an argument's shape or element type (a partial batch)
  kArgumentSharding = 5,
  kInstructionCount = 6,      // instructions added or removed
  kOpSequence = 7,            // the recorded operations or their wiring differ
  kDifferentInstruction = 8,  // same operations, one's attributes or shape differ
  kChangedConstant = 9,       // only constants' values differ
  kDifferentSharding = 10,    // an instruction's sharding annotation
  kModuleConfiguration = 11,  // the module header: aliasing, layouts
  kNotRecorded = 12,          // a miss from a profile that did not record the kind
};
inline constexpr int32_t kRecompilationKindCount = 13;

// "cache hit", "first compile", "compile options", "argument shape", ...
absl::string_view RecompilationKindName(RecompilationKind kind);

// Why a request missed the cache, in words and in fields a view or a filter
// can use without reading the words.
struct RecompilationCause {
  RecompilationKind kind = RecompilationKind::kNone;
  std::string text;          // "argument 0 (x): now f32[16,128], before f32[8,128]"; "" for a hit
  int64_t argument = -1;     // the first argument that differs, -1 if none does
  int64_t instruction = -1;  // position of the first instruction that differs, -1 if none does
  std::string before;        // what differs as it was: a shape, sharding, constant, instruction
  std::string now;           // ... and as it is now
  friend bool operator==(const RecompilationCause&, const RecompilationCause&) = default;
};

struct CompileEvent;

// The name of a request's kind: "first compile", "argument shape", ...;
// "cache hit" for a hit.
std::string CauseKindOf(const CompileEvent& event);
// The cause in words, "cache hit" for a hit, "not in the cache" for a miss
// that names none.
std::string CauseInWords(const CompileEvent& event);
// The kind, then the words ("argument shape — argument 0: now …"); the
// words alone when they already start with their kind ("changed constant:
// now …").
std::string CauseWithKind(const CompileEvent& event);

struct CompileEvent {
  int64_t timestamp_ns = 0;  // since the client, device or timeline began
  int64_t step = -1;         // mark_step()s before this request; -1 outside a training loop
  std::string module_name;
  int64_t program_id = -1;   // the program that serves the request
  std::string fingerprint;
  bool cache_hit = false;
  int64_t compile_time_ns = 0;  // lookup time for a hit
  // The nearest cached program this one was compared with (-1: none).
  int64_t compared_program_id = -1;
  RecompilationCause cause;
  std::string source;        // where the step was cut: "mlp_ddp_sample.cc:120 (mark_step)"
  int64_t graph_size = 0;    // operations in the recorded graph (lazy front end)
  friend bool operator==(const CompileEvent&, const CompileEvent&) = default;
};

}  // namespace systolic::trace
