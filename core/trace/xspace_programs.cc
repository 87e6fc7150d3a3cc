#include "core/trace/xspace_programs.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/hlo/hlo_module.h"
#include "core/hlo/hlo_module.pb.h"
#include "core/hlo/hlo_module_from_proto.h"
#include "core/hlo/quiet_proto_parse.h"
#include "core/hlo/status_macros.h"
#include "core/trace/module_snapshot.h"
#include "core/trace/program_record.h"
#include "core/trace/xplane.pb.h"

namespace systolic::trace {
namespace {

constexpr absl::string_view kMetadataPlane = "/host:metadata";
constexpr absl::string_view kHloProtoStat = "hlo_proto";
// The stage a real profile's program is shown at: what the device ran.
constexpr absl::string_view kStageName = "after_optimizations";

// The program of one metadata entry, or an error saying why not.
absl::StatusOr<ProgramRecord> ReadProgram(const xspace::XEventMetadata& metadata,
                                          const xspace::XStat& proto_stat) {
  hlo_proto::HloProto proto;
  const std::string& bytes = proto_stat.bytes_value();
  if (!ParseProtoQuietly(bytes, &proto)) {
    return absl::DataLossError(absl::StrCat("its HloProto (", bytes.size(),
                                            " bytes) is truncated or corrupt"));
  }
  SYSTOLIC_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module, ModuleFromProto(proto.hlo_module()));
  ProgramRecord program;
  program.id = metadata.id();
  program.name = proto.hlo_module().name().empty()
                     ? std::string(SplitModuleAndProgramId(metadata.name()).module)
                     : proto.hlo_module().name();
  program.snapshots.push_back(SnapshotModule(*module, kStageName, 0, /*changed=*/false));
  program.shardings = CollectShardings(*module);
  return program;
}

}  // namespace

XSpaceProgramsReport AddXSpacePrograms(const xspace::XSpace& space, Profile& profile) {
  XSpaceProgramsReport report;
  for (const xspace::XPlane& plane : space.planes()) {
    if (plane.name() != kMetadataPlane) continue;
    int64_t proto_stat_id = -1;
    for (const auto& [id, stat] : plane.stat_metadata()) {
      if (stat.name() == kHloProtoStat) proto_stat_id = id;
    }
    if (proto_stat_id < 0) continue;
    // In id order, so a profile imports the same way every time.
    std::vector<const xspace::XEventMetadata*> entries;
    for (const auto& [id, metadata] : plane.event_metadata()) entries.push_back(&metadata);
    std::sort(entries.begin(), entries.end(),
              [](const auto* a, const auto* b) { return a->id() < b->id(); });
    for (const xspace::XEventMetadata* metadata : entries) {
      const auto stat = std::find_if(
          metadata->stats().begin(), metadata->stats().end(), [&](const xspace::XStat& s) {
            return s.metadata_id() == proto_stat_id && s.value_case() == xspace::XStat::kBytesValue;
          });
      if (stat == metadata->stats().end()) continue;
      if (profile.FindProgram(metadata->id()) != nullptr) continue;  // one plane per host
      absl::StatusOr<ProgramRecord> program = ReadProgram(*metadata, *stat);
      if (!program.ok()) {
        std::string error = absl::StrCat(kMetadataPlane, ": program ", metadata->id(), " (",
                                         metadata->name(), "): ", program.status().message());
        profile.info.notes.push_back(error);
        report.errors.push_back(std::move(error));
        continue;
      }
      profile.programs.push_back(*std::move(program));
      ++report.programs;
    }
  }
  return report;
}

absl::StatusOr<Profile> ImportXSpaceFileWithPrograms(const std::string& path,
                                                     XSpaceImportReport* report,
                                                     XSpaceProgramsReport* programs) {
  xspace::XSpace space;
  SYSTOLIC_RETURN_IF_ERROR(ReadXSpaceFile(path, &space));
  SYSTOLIC_ASSIGN_OR_RETURN(Profile profile, ImportXSpace(space, report));
  XSpaceProgramsReport read = AddXSpacePrograms(space, profile);
  if (programs != nullptr) *programs = std::move(read);
  return profile;
}

}  // namespace systolic::trace
