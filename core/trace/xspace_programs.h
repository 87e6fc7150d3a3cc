// The programs of a real profile. An XSpace's "/host:metadata" plane holds
// one event metadata entry per compiled program: its id is the program id,
// and its "hlo_proto" stat the program's HloProto as XLA ran it (after
// optimizations). Read here into the profile's programs, so the graph,
// text and op views work on an imported profile as on a simulated one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace/profile.h"
#include "core/trace/xspace_importer.h"

namespace systolic::trace {

namespace xspace {
class XSpace;
}

struct XSpaceProgramsReport {
  int64_t programs = 0;             // read into the profile
  std::vector<std::string> errors;  // programs that could not be read; also in the notes
};

// Adds the programs of `space`'s metadata plane to `profile` (ids kept, in
// id order). A program whose proto does not read is named in the report and
// the profile's notes, and the others still load.
XSpaceProgramsReport AddXSpacePrograms(const xspace::XSpace& space, Profile& profile);

// An XSpace file with its timelines (ImportXSpace) and its programs.
absl::StatusOr<Profile> ImportXSpaceFileWithPrograms(const std::string& path,
                                                     XSpaceImportReport* report = nullptr,
                                                     XSpaceProgramsReport* programs = nullptr);

}  // namespace systolic::trace
