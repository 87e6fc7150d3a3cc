#include "core/analysis/recompilation_report.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace systolic::analysis {
namespace {

const std::string& ProgramName(const trace::Profile& profile, int64_t program_id, const std::string& fallback) {
  const trace::ProgramRecord* program = profile.FindProgram(program_id);
  return program ? program->name : fallback;
}

}  // namespace

RecompilationReport ReportRecompilations(const trace::Profile& profile) {
  RecompilationReport report;
  std::map<int64_t, StepCompiles> steps;
  std::set<std::string> compiled_names;
  std::map<std::string, CauseCount> causes;
  std::map<std::string, int64_t> recompiles_per_name;
  std::set<int64_t> recompile_steps;
  std::vector<const trace::CompileEvent*> ordered;
  for (const trace::CompileEvent& e : profile.compile_events) ordered.push_back(&e);
  std::stable_sort(ordered.begin(), ordered.end(), [](const trace::CompileEvent* a, const trace::CompileEvent* b) {
    return a->timestamp_ns < b->timestamp_ns;
  });
  const std::string unnamed;
  for (const trace::CompileEvent* e : ordered) {
    report.compile_time_ns += e->compile_time_ns;
    if (e->step >= 0) {
      StepCompiles& s = steps[e->step];
      s.step = e->step;
      (e->cache_hit ? s.hits : s.misses) += 1;
      s.compile_time_ns += e->compile_time_ns;
    }
    if (e->cache_hit) {
      ++report.hits;
      continue;
    }
    ++report.misses;
    const std::string name = ProgramName(profile, e->program_id, unnamed);
    const std::string kind = trace::CauseKindOf(*e);
    // The first compile of a name is expected; every later miss is a recompile.
    const bool first = compiled_names.insert(name).second && kind == "first compile";
    if (first) continue;
    ++report.recompiles;
    ++recompiles_per_name[name];
    if (e->step >= 0) recompile_steps.insert(e->step);
    CauseCount& count = causes[kind];
    count.kind = kind;
    ++count.count;
    count.example = trace::CauseInWords(*e);
  }
  for (const auto& [step, s] : steps) report.steps.push_back(s);
  for (const auto& [kind, count] : causes) report.recompile_causes.push_back(count);
  std::stable_sort(report.recompile_causes.begin(), report.recompile_causes.end(),
                   [](const CauseCount& a, const CauseCount& b) { return a.count > b.count; });
  report.keeps_recompiling = int64_t(recompile_steps.size()) >= kKeepsRecompilingSteps;
  if (report.keeps_recompiling) {
    std::string who = "the program";
    int64_t most = 0;
    for (const auto& [name, n] : recompiles_per_name) {
      if (n > most && !name.empty()) {
        most = n;
        who = name;
      }
    }
    const CauseCount& top = report.recompile_causes.front();
    report.banner = absl::StrCat(who, " keeps recompiling: ", report.recompiles, " recompiles in ",
                                 recompile_steps.size(), " steps; top cause: ", top.kind, " (",
                                 top.count, "×), e.g. ", top.example);
  }
  return report;
}

ComparedPrograms ProgramsOfMiss(const trace::Profile& profile, const trace::CompileEvent& event) {
  return {profile.FindProgram(event.program_id), profile.FindProgram(event.compared_program_id)};
}

}  // namespace systolic::analysis
