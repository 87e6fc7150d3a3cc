// A profile of programs loaded from a file before anything ran: one
// program per module with its input stage, so the studio shows a program
// file with the same views as a profile.
#pragma once

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/hlo/hlo_module.h"
#include "core/trace/profile.h"

namespace systolic::analysis {

// Programs get ids 1, 2, ... in the order of `modules`.
trace::Profile ProfileOfModules(const std::vector<const HloModule*>& modules, absl::string_view title);

}  // namespace systolic::analysis
