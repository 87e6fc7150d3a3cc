// One compile request of the lazy front end: a cached program reused, or a
// new one compiled with the reason users know ("new input shape: argument
// 0 (x): now f32[8,784], before f32[32,784]") and where the step came from.
#pragma once

#include <cstdint>
#include <string>

namespace systolic::lazy {

enum class RecompilationCause {
  kNone,                  // cache hit
  kFirstCompile,          // nothing compiled before from this source
  kNewInputShape,         // same ops, an argument's shape changed (a partial batch)
  kDifferentOpSequence,   // the recorded operations differ
  kChangedConstant,       // a scalar baked into the graph as a constant changed
  kDifferentSharding,     // an argument or annotation is laid out differently
  kDifferentAttributes,   // same ops and inputs, an attribute differs (a slice bound)
};

// "first compile", "new input shape", ...
const char* RecompilationCauseName(RecompilationCause cause);

struct CompileEvent {
  int64_t step = 0;         // mark_step()s before this request
  int64_t program_id = -1;  // the program that ran
  std::string fingerprint;  // of the lowered graph (16 hex digits)
  bool cache_hit = false;
  RecompilationCause cause_kind = RecompilationCause::kNone;
  std::string cause;  // what differs, in words; empty for a hit
  // The cached program this one was compared with (-1: none).
  int64_t compared_program_id = -1;
  // Where the step was cut: "mlp_ddp_sample.cc:120 (mark_step)".
  std::string source;
  int64_t compile_time_ns = 0;  // 0 for a hit
  int64_t timestamp_ns = 0;     // since the device was created
  int64_t graph_size = 0;       // nodes in the graph
};

}  // namespace systolic::lazy
