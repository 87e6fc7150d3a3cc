#include "core/trace/program_profile.h"

namespace systolic::trace {

Profile ProfileOfModules(const std::vector<const HloModule*>& modules, absl::string_view title) {
  Profile profile;
  profile.info.producer = "systolic program file";
  profile.info.title = std::string(title);
  for (size_t i = 0; i < modules.size(); ++i) {
    ProgramRecord program;
    program.id = int64_t(i) + 1;
    program.name = modules[i]->name();
    program.snapshots.push_back(SnapshotModule(*modules[i], "input", 0, false));
    program.shardings = CollectShardings(*modules[i]);
    profile.programs.push_back(std::move(program));
  }
  return profile;
}

}  // namespace systolic::trace
