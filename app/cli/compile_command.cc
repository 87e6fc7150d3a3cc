// `systolic compile FILE [--chip P | --topology PRESET:SHAPE] [--partitions N]
// [--dump-dir D] [--stats] [--passes a,b,c] [--json] [--check] [--verify]`:
// runs the compiler pipeline on every module of FILE (HLO text or
// StableHLO). A module with sharding annotations over several partitions
// (the header's num_partitions, --partitions, or the chips of --topology)
// is partitioned into the program each partition runs.
//
//   --dump-dir D  writes the module after every pass: D/00_input.hlo,
//                 D/01_call-inliner.hlo, ... (D/<module>/... when FILE holds
//                 several modules)
//   --stats       a table of the passes (changed?, time, instructions,
//                 fusions by kind), the peak memory per memory space, and
//                 the collectives of the compiled program (kind, bytes per
//                 partition, groups, the op_name they serve)
//   --passes      runs these passes, in this order, instead of the default
//                 pipeline
//   --chip P      a chip preset or spec file: its peak FLOP/s, HBM bandwidth
//                 and VMEM size drive the roofline cost model (the device's
//                 own cost model will take over once it implements the
//                 compiler's CostModel interface)
//   --check       runs the original and the compiled module on the reference
//                 evaluator and compares the results
//   --verify      verifies the module after every pass
//
// --json: {file, chip, modules: [{name, compile_time_ns, instructions_before,
// instructions_after, passes: [{index, pass, pipeline, changed, time_ns,
// instructions, computations, fusions {kLoop, kInput, kOutput, kCustom},
// rewrites {name: count}, changed_numerics}], memory: [{memory_space, name,
// peak_bytes, peak_position, heap_bytes}], buffers, program_length, notes,
// partitions, spmd (whether and why the module was partitioned), collectives:
// [{instruction, collective, bytes, groups, op_name}], check {same, exact,
// mismatch}}]}.
//
//   --spmd auto|on|off  partition a sharded module unless XLA already did
//                 (auto), always (on) or never (off)
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "app/cli/spmd_flag.h"
#include "core/compiler/collective_summary.h"
#include "core/compiler/compiler.h"
#include "core/compiler/spmd/spmd_partitioner.h"
#include "core/device/slice.h"
#include "core/compiler/differential_check.h"
#include "core/compiler/pass_registry.h"
#include "core/device/chip_figures.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/device_plan.h"
#include "core/hlo/atomic_file.h"
#include "core/stablehlo/program_file.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

constexpr FusionKind kFusionKinds[] = {FusionKind::kLoop, FusionKind::kInput, FusionKind::kOutput,
                                       FusionKind::kCustom};

int64_t FusionsOf(const ModuleCounts& counts, FusionKind kind) {
  auto it = counts.fusions_by_kind.find(kind);
  return it == counts.fusions_by_kind.end() ? 0 : it->second;
}

// The roofline figures of one TensorCore of the chip.
RooflineParameters RooflineFor(const device::ChipSpec& spec) {
  RooflineParameters p;
  const int cores = std::max(1, spec.tensor_cores_per_chip());
  p.matrix_flops_per_second = device::PeakFlopsPerSecond(spec) / cores;
  const double vector_ops = double(device::VregElements(spec)) * device::ClockHz(spec);
  p.vector_flops_per_second = vector_ops * std::max(1, spec.vector_unit().ops_per_cycle());
  p.transcendentals_per_second =
      vector_ops / std::max(1, spec.vector_unit().transcendental_cycles());
  p.memory_bytes_per_second = device::HbmBytesPerSecond(spec);
  p.on_chip_memory_bytes = device::VmemBytes(spec);
  return p;
}

// D/00_input.hlo, D/01_dce.hlo, ... (wider numbers when there are more).
absl::Status DumpSnapshots(const CompilationHistory& history, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir.string(), ": ", ec.message()));
  const int width = std::max<int>(2, int(std::to_string(history.size() - 1).size()));
  for (const PassSnapshot& s : history.snapshots()) {
    const std::string name = absl::StrFormat("%0*d_%s.hlo", width, s.index, s.pass_name);
    absl::Status written = WriteFileAtomically((dir / name).string(), s.hlo_text());
    if (!written.ok()) return written;
  }
  return absl::OkStatus();
}

std::string Bytes(int64_t bytes) {
  if (bytes >= (1 << 20)) return absl::StrFormat("%.2f MiB", double(bytes) / (1 << 20));
  if (bytes >= (1 << 10)) return absl::StrFormat("%.1f KiB", double(bytes) / (1 << 10));
  return absl::StrCat(bytes, " B");
}

void PrintStats(const std::string& name, const CompilationResult& r, std::ostream& out) {
  const CompilationHistory& h = r.history;
  out << absl::StrFormat("%s: %d passes in %.3f ms\n", name, h.size() - 1, r.compile_time_ns / 1e6);
  out << absl::StrFormat("  %3s  %-22s %-28s %-7s %10s %7s  %s\n", "#", "pass", "pipeline",
                         "changed", "time", "instrs", "fusions loop/input/output");
  for (const PassSnapshot& s : h.snapshots()) {
    const ModuleCounts& c = s.counts();
    if (s.index == 0) {
      out << absl::StrFormat("  %3d  %-22s %-28s %-7s %10s %7d  %d/%d/%d\n", s.index, s.pass_name,
                             "", "", "", c.instructions, FusionsOf(c, FusionKind::kLoop),
                             FusionsOf(c, FusionKind::kInput), FusionsOf(c, FusionKind::kOutput));
      continue;
    }
    out << absl::StrFormat("  %3d  %-22s %-28s %-7s %7.3f ms %7d  %d/%d/%d\n", s.index,
                           s.pass_name, s.pipeline, s.changed ? "yes" : "no", s.duration_ns / 1e6,
                           c.instructions, FusionsOf(c, FusionKind::kLoop),
                           FusionsOf(c, FusionKind::kInput), FusionsOf(c, FusionKind::kOutput));
  }
  if (r.buffer_assignment) {
    for (const MemorySpaceUsage& u : r.buffer_assignment->memory_spaces()) {
      out << absl::StrFormat("  peak memory %s: %s (%d bytes) at position %d of %d, heap %s\n",
                             u.name, Bytes(u.peak_live_bytes), u.peak_live_bytes, u.peak_position,
                             r.buffer_assignment->program_length(), Bytes(u.heap_bytes));
    }
    for (const std::string& note : r.buffer_assignment->notes()) out << "  note: " << note << "\n";
  }
}

// The compiled program's collectives, one line each.
void PrintCollectives(const std::vector<CollectiveSummary>& collectives, int64_t partitions,
                      std::ostream& out) {
  if (collectives.empty()) return;
  int64_t total = 0;
  for (const CollectiveSummary& c : collectives) total += c.bytes;
  out << absl::StrFormat("  collectives (%d partitions): %d, %s per partition\n", partitions,
                         collectives.size(), Bytes(total));
  out << absl::StrFormat("    %-28s %-20s %12s %7s  %s\n", "instruction", "collective", "bytes",
                         "groups", "op_name");
  for (const CollectiveSummary& c : collectives) {
    out << absl::StrFormat("    %-28s %-20s %12s %7d  %s\n", c.instruction, c.opcode,
                           Bytes(c.bytes), c.groups, c.op_name);
  }
}

nlohmann::json ToJson(const std::string& name, const CompilationResult& r) {
  nlohmann::json m;
  m["name"] = name;
  m["compile_time_ns"] = r.compile_time_ns;
  const CompilationHistory& h = r.history;
  m["instructions_before"] = h.snapshot(0).counts().instructions;
  m["instructions_after"] = h.snapshots().back().counts().instructions;
  nlohmann::json passes = nlohmann::json::array();
  for (const PassSnapshot& s : h.snapshots()) {
    nlohmann::json fusions = nlohmann::json::object();
    for (FusionKind kind : kFusionKinds) {
      fusions[std::string(FusionKindToString(kind))] = FusionsOf(s.counts(), kind);
    }
    nlohmann::json rewrites = nlohmann::json::object();
    for (const auto& [rewrite, count] : s.log.rewrites) rewrites[rewrite] = count;
    passes.push_back({{"index", s.index},
                      {"pass", s.pass_name},
                      {"pipeline", s.pipeline},
                      {"changed", s.changed},
                      {"time_ns", s.duration_ns},
                      {"instructions", s.counts().instructions},
                      {"computations", s.counts().computations},
                      {"fusions", fusions},
                      {"rewrites", rewrites},
                      {"changed_numerics", s.log.changed_numerics}});
  }
  m["passes"] = passes;
  nlohmann::json memory = nlohmann::json::array();
  if (r.buffer_assignment) {
    for (const MemorySpaceUsage& u : r.buffer_assignment->memory_spaces()) {
      memory.push_back({{"memory_space", u.memory_space},
                        {"name", u.name},
                        {"peak_bytes", u.peak_live_bytes},
                        {"peak_position", u.peak_position},
                        {"heap_bytes", u.heap_bytes}});
    }
    m["buffers"] = r.buffer_assignment->buffers().size();
    m["program_length"] = r.buffer_assignment->program_length();
    m["notes"] = r.buffer_assignment->notes();
  }
  m["memory"] = memory;
  return m;
}

int RunCompile(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1) {
    err << "systolic compile: give one program file\n";
    return 2;
  }
  const std::string path = args.positional()[0];
  CompileOptions options;
  options.passes = args.GetList("passes");
  if (args.Has("verify")) options.verify_between_passes = true;
  if (auto chip = args.Get("chip")) {
    absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec(*chip);
    if (!spec.ok()) {
      err << "systolic compile: " << spec.status().message() << "\n";
      return 2;
    }
    options.chip = spec->name();
    options.roofline = RooflineFor(*spec);
  }
  // --topology: the slice's chip, and as many partitions as it has chips
  // unless the module or --partitions say otherwise.
  std::optional<device::Slice> slice;
  if (auto topology = args.Get("topology")) {
    auto loaded_slice = device::LoadSlice(*topology, args.GetOr("chip", "v4"));
    if (!loaded_slice.ok()) {
      err << "systolic compile: " << loaded_slice.status().message() << "\n";
      return 2;
    }
    slice = *std::move(loaded_slice);
    options.chip = slice->spec.name();
    options.roofline = RooflineFor(slice->spec);
  }
  std::optional<int64_t> partitions;
  if (args.Has("partitions")) {
    absl::StatusOr<int64_t> n = args.GetInt("partitions", 1);
    if (!n.ok() || *n < 1) {
      err << "systolic compile: --partitions needs a positive number\n";
      return 2;
    }
    partitions = *n;
  }
  absl::StatusOr<std::optional<bool>> spmd = SpmdFlag(args);
  if (!spmd.ok()) {
    err << "systolic compile: " << spmd.status().message() << "\n";
    return 2;
  }
  const std::vector<std::string> known = KnownPassNames();
  for (const std::string& pass : options.passes) {
    if (std::find(known.begin(), known.end(), pass) == known.end()) {
      err << "systolic compile: unknown pass \"" << pass << "\"; known passes: "
          << absl::StrJoin(KnownPassNames(), ", ") << "\n";
      return 2;
    }
  }
  auto loaded = LoadProgramFile(path, /*verify=*/false);
  if (!loaded.ok()) {
    err << path << ": " << loaded.status().message() << "\n";
    return 1;
  }
  const bool json = args.Has("json");
  const bool several = loaded->size() > 1;
  nlohmann::json report = {{"file", path}, {"chip", options.chip}};
  nlohmann::json modules = nlohmann::json::array();
  int failures = 0;
  Compiler compiler(options);
  for (size_t i = 0; i < loaded->size(); ++i) {
    HloFileModule& entry = (*loaded)[i];
    const std::string where = absl::StrCat(path, ":", entry.first_line);
    if (!entry.module.ok()) {
      err << where << ": " << entry.module.status().message() << "\n";
      ++failures;
      continue;
    }
    std::unique_ptr<HloModule> module = std::move(entry.module).value();
    const std::string name = module->name();
    module->set_use_spmd_partitioning(*spmd);
    auto counts = device::DeviceCountsFor(*module, {std::nullopt, partitions, slice});
    if (!counts.ok()) {
      err << where << ": " << counts.status().message() << "\n";
      ++failures;
      continue;
    }
    module->set_num_partitions(counts->partitions);
    std::unique_ptr<HloModule> original = args.Has("check") ? module->Clone() : nullptr;
    const std::string spmd_decision = SpmdPartitioner::DescribeDecision(*module);
    absl::StatusOr<CompilationResult> result = compiler.Compile(std::move(module));
    if (!result.ok()) {
      err << where << ": " << name << ": " << result.status().message() << "\n";
      ++failures;
      continue;
    }
    if (auto dir = args.Get("dump-dir")) {
      std::filesystem::path target = *dir;
      if (several) target /= absl::StrFormat("%02d_%s", i, name);
      absl::Status dumped = DumpSnapshots(result->history, target);
      if (!dumped.ok()) {
        err << dumped.message() << "\n";
        return 1;
      }
    }
    nlohmann::json module_json = ToJson(name, *result);
    const std::vector<CollectiveSummary> collectives = SummariseCollectives(*result->module);
    module_json["partitions"] = result->module->num_partitions();
    module_json["spmd"] = spmd_decision;
    module_json["collectives"] = nlohmann::json::array();
    for (const CollectiveSummary& c : collectives) {
      module_json["collectives"].push_back({{"instruction", c.instruction},
                                            {"collective", c.opcode},
                                            {"bytes", c.bytes},
                                            {"groups", c.groups},
                                            {"op_name", c.op_name}});
    }
    if (original) {
      DifferentialOptions check;
      check.exact = !result->history.changed_numerics();
      absl::StatusOr<DifferentialResult> same = CheckSameResults(*original, *result->module, check);
      if (!same.ok()) {
        err << where << ": " << name << ": cannot check: " << same.status().message() << "\n";
        ++failures;
      } else {
        module_json["check"] = {{"same", same->same}, {"exact", check.exact},
                                {"mismatch", same->mismatch}};
        if (!same->same) ++failures;
        if (!json) {
          out << name << ": " << (same->same ? "same results" : "DIFFERENT results: ")
              << same->mismatch << (check.exact ? " (bit for bit)" : " (within 1e-4)") << "\n";
        }
      }
    }
    modules.push_back(module_json);
    if (json) continue;
    if (args.Has("stats")) {
      PrintStats(name, *result, out);
      out << "spmd: " << spmd_decision << "\n";
      PrintCollectives(collectives, result->module->num_partitions(), out);
      continue;
    }
    const ModuleCounts& after = result->history.snapshots().back().counts();
    std::string memory;
    if (result->buffer_assignment) memory = ", peak " + Bytes(result->buffer_assignment->peak_bytes());
    out << absl::StrFormat("%s: compiled in %.3f ms, %d -> %d instructions, %d fusions%s\n", name,
                           result->compile_time_ns / 1e6,
                           result->history.snapshot(0).counts().instructions, after.instructions,
                           after.fusions, memory);
  }
  if (json) {
    report["modules"] = modules;
    out << report.dump(2) << "\n";
  }
  return failures == 0 ? 0 : 1;
}

const CommandRegistration kRegistration({
    .name = "compile",
    .summary = "run the compiler pipeline: snapshots per pass, fusion, schedule, memory",
    .options = {{"chip", "P", "chip preset or spec file for the cost model"},
                {"dump-dir", "D", "write the module after every pass to D"},
                {"stats", "", "print tables of the passes, the peak memory and the collectives"},
                {"topology", "PRESET:SHAPE",
                 "compile for a slice (e.g. v5e:2x4): its chip, and a sharded module partitioned "
                 "over its chips"},
                {"partitions", "N", "partition a sharded module into N programs"},
                SpmdFlagOption(),
                {"passes", "a,b,c", "run these passes instead of the default pipeline"},
                {"check", "", "compare results with the original on the reference evaluator"},
                {"verify", "", "verify the module after every pass"},
                {"json", "", "print the figures as JSON"}},
    .positional_usage = "FILE",
    .run = RunCompile,
});

}  // namespace
}  // namespace systolic::cli
