#include "core/analysis/program_profile.h"

#include <algorithm>

#include "core/analysis/memory_timeline.h"
#include "core/compiler/buffer_assignment.h"
#include "core/device/record_buffer_assignment.h"
#include "core/trace/device_topology.h"

namespace systolic::analysis {

trace::Profile ProfileOfModules(const std::vector<const HloModule*>& modules, absl::string_view title) {
  trace::Profile profile;
  profile.info.producer = "systolic program file";
  profile.info.title = std::string(title);
  int64_t devices = 1;
  for (size_t i = 0; i < modules.size(); ++i) {
    trace::ProgramRecord program;
    program.id = int64_t(i) + 1;
    program.name = modules[i]->name();
    program.snapshots.push_back(trace::SnapshotModule(*modules[i], "input", 0, false));
    program.shardings = trace::CollectShardings(*modules[i]);
    // Memory as the module stands; a program the assignment cannot place
    // simply has no memory chart.
    absl::StatusOr<BufferAssignment> buffers = BufferAssignment::Run(*modules[i]);
    if (buffers.ok()) program.buffer_assignment = device::RecordBufferAssignment(*buffers);
    profile.programs.push_back(std::move(program));
    devices = std::max(devices, modules[i]->num_partitions() * modules[i]->replica_count());
  }
  // The chips the program asks for, so its shardings can be drawn on them.
  if (devices > 1) profile.topology = trace::TopologyForDevices(devices);
  return profile;
}

}  // namespace systolic::analysis
