// `systolic devices [--device NAME] [--chip CHIP] [--num-devices N] [--json]`:
// the runtime plugins found on the search path, and the devices, memories
// and topology of a client of one of them.
//
// --json keys: plugins [names], plugin {name, path, api_version,
// attributes {...}}, platform_name, platform_version, topology {text, chip,
// bounds [x,y,z], cores_per_chip, num_chips}, devices [{id, kind,
// debug_string, coords [x,y,z], core_on_chip, memory_kind, bytes_limit,
// bytes_in_use}].
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "core/runtime/client.h"
#include "core/runtime/memory_tracker.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

int RunDevices(const CliArgs& args, std::ostream& out, std::ostream& err) {
  runtime::ClientOptions options;
  options.device = args.GetOr("device", "");
  options.chip = args.GetOr("chip", "");
  absl::StatusOr<int64_t> count = args.GetInt("num-devices", 0);
  if (!count.ok()) {
    err << "systolic devices: " << count.status().message() << "\n";
    return 2;
  }
  options.num_devices = *count;
  std::vector<std::string> plugins = runtime::Plugin::Available();
  absl::StatusOr<std::unique_ptr<runtime::Client>> client = runtime::Client::Create(options);
  if (!client.ok()) {
    err << "systolic devices: " << client.status().message() << "\n";
    return 1;
  }
  const runtime::Client& c = **client;
  const runtime::Plugin& plugin = c.plugin();
  const runtime::TopologyDescription& topology = c.topology();
  if (args.Has("json")) {
    nlohmann::json j;
    j["plugins"] = plugins;
    j["plugin"] = {{"name", plugin.name()},
                   {"path", plugin.path()},
                   {"api_version", std::to_string(plugin.major_version()) + "." +
                                       std::to_string(plugin.minor_version())},
                   {"attributes", plugin.attributes()}};
    j["platform_name"] = c.platform_name();
    j["platform_version"] = c.platform_version();
    j["topology"] = {{"text", topology.ToString()},
                     {"chip", topology.chip},
                     {"bounds", topology.bounds},
                     {"cores_per_chip", topology.cores_per_chip},
                     {"num_chips", topology.num_chips()}};
    nlohmann::json devices = nlohmann::json::array();
    for (const runtime::Device* device : c.devices()) {
      absl::StatusOr<runtime::MemoryStats> stats = device->memory_stats();
      devices.push_back({{"id", device->id()},
                         {"kind", device->kind()},
                         {"debug_string", device->debug_string()},
                         {"coords", device->coords()},
                         {"core_on_chip", device->core_on_chip()},
                         {"memory_kind", device->default_memory()->kind()},
                         {"bytes_limit", stats.ok() ? stats->bytes_limit : -1},
                         {"bytes_in_use", stats.ok() ? stats->bytes_in_use : -1}});
    }
    j["devices"] = devices;
    out << j.dump(2) << "\n";
    return 0;
  }
  out << "plugins: " << absl::StrJoin(plugins, ", ") << "\n";
  out << "plugin: " << plugin.name() << " (" << plugin.path() << ", C API "
      << plugin.major_version() << "." << plugin.minor_version() << ")\n";
  for (const auto& [key, value] : plugin.attributes()) out << "  " << key << ": " << value << "\n";
  out << "platform: " << c.platform_name() << " " << c.platform_version() << "\n";
  out << "topology: " << topology.ToString() << " (" << topology.num_chips() << " chip"
      << (topology.num_chips() == 1 ? "" : "s") << ", " << topology.cores_per_chip
      << " cores per chip)\n";
  for (const runtime::Device* device : c.devices()) {
    absl::StatusOr<runtime::MemoryStats> stats = device->memory_stats();
    out << "  " << device->debug_string() << "  " << device->kind() << "  chip ("
        << absl::StrJoin(device->coords(), ",") << ") core " << device->core_on_chip() << "  "
        << device->default_memory()->kind() << " "
        << (stats.ok() && stats->bytes_limit > 0 ? HumanBytes(stats->bytes_limit)
                                                 : std::string("unlimited"))
        << "\n";
  }
  return 0;
}

const CommandRegistration kRegistration({
    .name = "devices",
    .summary = "list the runtime plugins and the devices, memories and topology of one",
    .options = {{"device", "NAME", "plugin to open (default: $SYSTOLIC_DEVICE, else cpu)"},
                {"chip", "CHIP", "chip preset or spec file for the client"},
                {"num-devices", "N", "number of devices to create"},
                {"json", "", "print the figures as JSON"}},
    .positional_usage = "",
    .run = RunDevices,
});

}  // namespace
}  // namespace systolic::cli
