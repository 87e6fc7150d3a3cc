// `systolic chips [SPEC_FILE...] [--json]`: the chip presets (and any spec
// files given) with their peak bf16 TFLOP/s and int8 TOP/s, HBM and bandwidths.
//
// --json: an array of {name, description, tensor_cores_per_chip,
// mxus_per_core, mxu_rows, mxu_cols, dataflow, clock_hz,
// peak_flops_per_second, hbm_bytes, hbm_bandwidth_bytes_per_second,
// vmem_bytes, dma_engines, dma_bandwidth_bytes_per_second, ici_topology,
// ici_links_per_chip, ici_bandwidth_bytes_per_second_per_link,
// ici_hop_latency_ns}.
#include "absl/strings/str_format.h"
#include "app/cli/cli_command.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/dataflow.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

using device::ChipSpec;

std::string TopologyName(device::TopologyKind kind) {
  return kind == device::TORUS_3D ? "3D torus" : "2D torus";
}

nlohmann::json ToJson(const ChipSpec& s) {
  return {{"name", s.name()},
          {"description", s.description()},
          {"tensor_cores_per_chip", s.tensor_cores_per_chip()},
          {"mxus_per_core", s.mxu().count()},
          {"mxu_rows", s.mxu().rows()},
          {"mxu_cols", s.mxu().cols()},
          {"dataflow", device::DataflowShortName(s.mxu().dataflow())},
          {"clock_hz", device::ClockHz(s)},
          {"peak_flops_per_second", device::PeakFlopsPerSecond(s)},
          {"peak_int8_ops_per_second", device::PeakInt8OpsPerSecond(s)},
          {"hbm_bytes", device::HbmBytes(s)},
          {"hbm_bandwidth_bytes_per_second", device::HbmBytesPerSecond(s)},
          {"vmem_bytes", device::VmemBytes(s)},
          {"dma_engines", s.dma().engines()},
          {"dma_bandwidth_bytes_per_second", s.dma().bandwidth_gb_per_second() * 1e9},
          {"ici_topology", s.ici().topology() == device::TORUS_3D ? "torus_3d" : "torus_2d"},
          {"ici_links_per_chip", s.ici().links_per_chip()},
          {"ici_bandwidth_bytes_per_second_per_link", device::IciBytesPerSecondPerLink(s)},
          {"ici_hop_latency_ns", s.ici().hop_latency_ns()}};
}

int RunChips(const CliArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> sources = device::ChipPresetNames();
  sources.insert(sources.end(), args.positional().begin(), args.positional().end());
  std::vector<ChipSpec> specs;
  for (const std::string& source : sources) {
    absl::StatusOr<ChipSpec> spec = device::LoadChipSpec(source);
    if (!spec.ok()) {
      err << "systolic chips: " << spec.status().message() << "\n";
      return 1;
    }
    specs.push_back(*std::move(spec));
  }
  if (args.Has("json")) {
    nlohmann::json j = nlohmann::json::array();
    for (const ChipSpec& s : specs) j.push_back(ToJson(s));
    out << j.dump(2) << "\n";
    return 0;
  }
  out << absl::StrFormat("%-6s %5s %9s %7s %4s %10s %10s %9s %9s %9s %9s  %s\n", "chip", "cores",
                         "MXU/core", "MXU", "flow", "peak TF/s", "int8 TOP/s", "HBM GiB", "HBM GB/s",
                         "VMEM MiB", "clock MHz", "ICI");
  for (const ChipSpec& s : specs) {
    out << absl::StrFormat(
        "%-6s %5d %9d %7s %4s %10.4g %10.4g %9.4g %9.4g %9.4g %9.0f  %s, %d links, %g GB/s one way\n",
        s.name(), s.tensor_cores_per_chip(), s.mxu().count(),
        absl::StrFormat("%dx%d", s.mxu().rows(), s.mxu().cols()),
        device::DataflowShortName(s.mxu().dataflow()), device::PeakFlopsPerSecond(s) / 1e12,
        device::PeakInt8OpsPerSecond(s) / 1e12,
        s.hbm().capacity_gib(), s.hbm().bandwidth_gb_per_second(), s.vmem().capacity_mib(),
        s.clock_mhz(), TopologyName(s.ici().topology()), s.ici().links_per_chip(),
        s.ici().bandwidth_gb_per_second_per_link());
  }
  return 0;
}

const CommandRegistration kRegistration({
    .name = "chips",
    .summary = "chip presets (and spec files) with peak TFLOP/s, HBM and bandwidth",
    .options = {{"json", "", "print a JSON array"}},
    .positional_usage = "[SPEC_FILE...]",
    .run = RunChips,
});

}  // namespace
}  // namespace systolic::cli
