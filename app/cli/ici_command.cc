// `systolic ici --topology PRESET:SHAPE [--collective NAME] [--bytes SIZE]
//  [--json]`: one collective over every chip of a slice, timed by the ICI
// simulator from the transfers its algorithm makes (ring collectives along a
// neighbour ring, direct all-to-all and permute).
// `systolic ici --topology PRESET:SHAPE FILE`: every collective of a program
// (device d on chip d), one line each.
//
// --json keys: topology, chips, links, collective, bytes, transfers,
// simulated_seconds, algorithm_bandwidth_bytes_per_second,
// busiest_link_utilization.
#include <algorithm>

#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/collective_lowering.h"
#include "core/device/ici_collectives.h"
#include "core/device/slice.h"
#include "core/hlo/host_memory.h"
#include "core/stablehlo/program_file.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

// Every collective of the program at `path`, timed on `topology`.
int ReportProgram(const std::string& path, const device::IciTopology& topology, bool json,
                  std::ostream& out, std::ostream& err) {
  auto modules = LoadProgramFile(path, /*verify=*/true);
  if (!modules.ok()) {
    err << "systolic ici: " << modules.status().message() << "\n";
    return 1;
  }
  nlohmann::json all = nlohmann::json::array();
  int failures = 0;
  for (const HloFileModule& entry : *modules) {
    if (!entry.module.ok()) {
      err << "systolic ici: " << entry.module.status().message() << "\n";
      ++failures;
      continue;
    }
    const HloModule& module = **entry.module;
    auto timings = device::TimeModuleCollectives(module, topology);
    if (!timings.ok()) {
      err << "systolic ici: " << path << ":" << entry.first_line << ": "
          << timings.status().message() << "\n";
      ++failures;
      continue;
    }
    if (!json) out << module.name() << ": " << timings->size() << " collectives\n";
    for (const device::CollectiveTiming& t : *timings) {
      if (json) {
        all.push_back({{"module", module.name()},
                       {"instruction", t.instruction},
                       {"collective", device::IciCollectiveName(t.collective)},
                       {"bytes", t.bytes},
                       {"groups", t.groups},
                       {"transfers", t.transfers.size()},
                       {"simulated_seconds", t.seconds()}});
        continue;
      }
      out << absl::StrFormat("  %-28s %-18s %12d bytes  %3d groups  %10.3f us\n",
                             absl::StrCat("%", t.instruction),
                             device::IciCollectiveName(t.collective), t.bytes, t.groups,
                             t.seconds() * 1e6);
    }
  }
  if (json) out << all.dump(2) << "\n";
  return failures == 0 ? 0 : 1;
}

int RunIci(const CliArgs& args, std::ostream& out, std::ostream& err) {
  auto fail = [&](const absl::Status& status) {
    err << "systolic ici: " << status.message() << "\n";
    return 2;
  };
  auto slice = device::LoadSlice(args.GetOr("topology", "v4:4x4x4"));
  if (!slice.ok()) return fail(slice.status());
  const device::IciTopology* topology = &slice->topology;
  if (!args.positional().empty()) {
    int status = 0;
    for (const std::string& path : args.positional()) {
      status = std::max(status, ReportProgram(path, slice->topology, args.Has("json"), out, err));
    }
    return status;
  }
  auto collective = device::ParseIciCollective(args.GetOr("collective", "all-reduce"));
  if (!collective.ok()) return fail(collective.status());
  auto bytes = ParseByteSize(args.GetOr("bytes", "1GiB"));
  if (!bytes.ok()) {
    return fail(absl::InvalidArgumentError(absl::StrCat("--bytes: ", bytes.status().message())));
  }

  auto timing = device::TimeCollective(*topology, *collective, *bytes);
  if (!timing.ok()) return fail(timing.status());
  const device::IciSimulation& sim = timing->simulation;
  double busiest = 0;
  for (double busy : sim.link_busy_seconds) busiest = std::max(busiest, busy);
  const double utilization = sim.seconds > 0 ? busiest / sim.seconds : 0;
  const std::string shape = slice->Name();

  if (args.Has("json")) {
    nlohmann::json j = {{"topology", shape},
                        {"chips", topology->chip_count()},
                        {"links", topology->links().size()},
                        {"collective", device::IciCollectiveName(*collective)},
                        {"bytes", *bytes},
                        {"transfers", sim.transfers.size()},
                        {"simulated_seconds", sim.seconds},
                        {"algorithm_bandwidth_bytes_per_second", timing->algorithm_bandwidth()},
                        {"busiest_link_utilization", utilization}};
    out << j.dump(2) << "\n";
    return 0;
  }
  out << absl::StrFormat("topology: %s (%d chips, %d links, %s)\n", shape,
                         topology->chip_count(), topology->links().size(),
                         topology->wraps(0) || topology->wraps(1) || topology->wraps(2)
                             ? "torus"
                             : "mesh")
      << absl::StrFormat("collective: %s of %d bytes per chip, %d transfers\n",
                         device::IciCollectiveName(*collective), *bytes, sim.transfers.size())
      << absl::StrFormat("simulated time: %.3f us\n", sim.seconds * 1e6)
      << absl::StrFormat("algorithm bandwidth: %.2f GB/s\n", timing->algorithm_bandwidth() / 1e9)
      << absl::StrFormat("busiest link busy: %.1f%% of the time\n", 100 * utilization);
  return 0;
}

const CommandRegistration kRegistration({
    .name = "ici",
    .summary = "time a collective over every chip of a slice on the simulated ICI links",
    .options = {{"topology", "PRESET:SHAPE", "chips and shape, e.g. v4:4x4x4 (default), v5e:4x4"},
                {"collective", "NAME",
                 "all-reduce (default), all-gather, reduce-scatter, all-to-all, "
                 "collective-permute"},
                {"bytes", "SIZE", "each chip's buffer: 4096, 64KiB, 1GiB (default)"},
                {"json", "", "print one JSON object"}},
    .positional_usage = "[FILE...]",
    .run = RunIci,
});

}  // namespace
}  // namespace systolic::cli
