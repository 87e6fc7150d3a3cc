#include "core/trace/compile_event.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace systolic::trace {

absl::string_view RecompilationKindName(RecompilationKind kind) {
  switch (kind) {
    case RecompilationKind::kNone: return "cache hit";
    case RecompilationKind::kFirstCompile: return "first compile";
    case RecompilationKind::kCompileOptions: return "compile options";
    case RecompilationKind::kArgumentCount: return "argument count";
    case RecompilationKind::kArgumentShape: return "argument shape";
    case RecompilationKind::kArgumentSharding: return "argument sharding";
    case RecompilationKind::kInstructionCount: return "instruction count";
    case RecompilationKind::kOpSequence: return "different op sequence";
    case RecompilationKind::kDifferentInstruction: return "different instruction";
    case RecompilationKind::kChangedConstant: return "changed constant";
    case RecompilationKind::kDifferentSharding: return "different sharding";
    case RecompilationKind::kModuleConfiguration: return "module configuration";
    case RecompilationKind::kNotRecorded: return "recompile";
  }
  return "recompile";
}

std::string CauseKindOf(const CompileEvent& event) {
  if (event.cache_hit) return "cache hit";
  return std::string(RecompilationKindName(event.cause.kind));
}

std::string CauseInWords(const CompileEvent& event) {
  if (event.cache_hit) return "cache hit";
  if (event.cause.text.empty()) return "not in the cache";
  return event.cause.text;
}

std::string CauseWithKind(const CompileEvent& event) {
  const std::string words = CauseInWords(event);
  if (event.cache_hit) return words;
  const std::string kind = CauseKindOf(event);
  if (absl::StartsWith(words, kind)) return words;
  return absl::StrCat(kind, " — ", words);
}

}  // namespace systolic::trace
