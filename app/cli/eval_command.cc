// `systolic eval FILE [--seed S] [--args a.npy,b.npy] [--replicas N]
// [--partitions M] [--out DIR] [--max-iterations K] [--json]`: runs the entry
// computation of every module in FILE (HLO text, StableHLO or an HLO proto)
// on the reference evaluator. Arguments come from .npy files (one per
// parameter), else from the file (an HloSnapshot's), else are drawn from the
// seed; every output is printed in XLA's literal format,
// long arrays elided in the middle. Modules with replica_count /
// num_partitions > 1 (or the flags) run on that many simulated devices.
//
// --json prints one object: {file, modules: [{name, line, replicas,
// partitions, seed, arguments: [{parameter, shape, source}], ok, error,
// seconds, devices: [{device, replica, partition, outputs: [{index, shape,
// value, npy}]}]}]}. `source` is "random", "snapshot" or the .npy path; `index` is the
// output's tuple index path ("{}" for a single array); `value` is the printed
// literal; `npy` the file written with --out (absent otherwise).
#include <cctype>
#include <chrono>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "app/cli/cli_command.h"
#include "app/cli/device_arguments.h"
#include "app/cli/literal_outputs.h"
#include "app/cli/memory_limit_flag.h"
#include "core/device/device_plan.h"
#include "core/eval/evaluation_memory.h"
#include "core/eval/hlo_evaluator.h"
#include "core/eval/literal_format.h"
#include "core/eval/npy_file.h"
#include "core/eval/random_arguments.h"
#include "core/eval/spmd_evaluator.h"
#include "core/stablehlo/program_file.h"
#include "nlohmann/json.hpp"

namespace systolic::cli {
namespace {

std::string FileSafe(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  }
  return s;
}

struct Settings {
  int64_t seed = 0;
  std::vector<std::string> arg_files;
  std::optional<int64_t> replicas, partitions;
  std::string out_dir;
  int64_t max_iterations = 0;
  bool json = false;
};

// Evaluates one module; fills `j` and prints unless --json.
bool RunModule(const HloModule& module, absl::Span<const Literal> file_arguments, int line,
               bool several_modules, const Settings& settings,
               nlohmann::json& j, std::ostream& out) {
  const HloComputation* entry = module.entry_computation();
  // The header's counts, raised to what the collectives name, unless given.
  const absl::StatusOr<SpmdDeviceCounts> counts =
      device::DeviceCountsFor(module, {settings.replicas, settings.partitions, std::nullopt});
  j["name"] = module.name();
  j["line"] = line;
  if (counts.ok()) {
    j["replicas"] = counts->replicas;
    j["partitions"] = counts->partitions;
  }
  j["seed"] = settings.seed;
  auto fail = [&](const std::string& message) {
    j["ok"] = false;
    j["error"] = message;
    if (!settings.json) out << module.name() << ": FAILED " << message << "\n";
    return false;
  };
  if (entry == nullptr) return fail("the module has no entry computation");
  if (!counts.ok()) return fail(std::string(counts.status().message()));
  const int64_t replicas = counts->replicas;
  const int64_t partitions = counts->partitions;
  const int64_t devices = replicas * partitions;

  // Arguments: from .npy files (the same on every device) or random (each
  // device its own stream).
  // Before any argument is made.
  if (absl::Status fits = eval::CheckEvaluationFits(module, devices); !fits.ok()) {
    return fail(std::string(fits.message()));
  }
  auto args = LoadDeviceArguments(*entry, settings.arg_files, file_arguments, settings.seed, devices);
  if (!args.ok()) return fail(std::string(args.status().message()));
  nlohmann::json arg_json = nlohmann::json::array();
  for (int64_t i = 0; i < entry->num_parameters(); ++i) {
    const bool from_file = !settings.arg_files.empty();
    const bool from_program_file = !from_file && !file_arguments.empty();
    arg_json.push_back({{"parameter", i},
                        {"shape", from_file ? (*args)[0][i].shape().ToString()
                                            : entry->parameter_instruction(i)->shape().ToString()},
                        {"source", from_file           ? settings.arg_files[i]
                                   : from_program_file ? "snapshot"
                                                       : "random"}});
  }
  j["arguments"] = arg_json;

  EvaluatorOptions options;
  options.max_while_iterations = settings.max_iterations;
  options.rng_seed = uint64_t(settings.seed);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateSpmd(module, *args, replicas, partitions, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["seconds"] = seconds;
  if (!results.ok()) return fail(std::string(results.status().message()));

  j["ok"] = true;
  nlohmann::json device_json = nlohmann::json::array();
  if (!settings.json) {
    out << module.name() << " (line " << line << "): " << replicas << " replica(s) x " << partitions
        << " partition(s), " << absl::StrCat(seconds) << " s\n";
  }
  for (int64_t d = 0; d < devices; ++d) {
    const std::vector<LiteralLeaf> outputs = LeavesOf((*results)[d]);
    nlohmann::json dj = {{"device", d}, {"replica", d / partitions}, {"partition", d % partitions}};
    nlohmann::json outs = nlohmann::json::array();
    if (!settings.json && devices > 1) {
      out << "device " << d << " (replica " << d / partitions << ", partition " << d % partitions
          << "):\n";
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      const LiteralLeaf& o = outputs[k];
      const std::string text = FormatLiteral(*o.value);
      nlohmann::json oj = {{"index", o.index}, {"shape", o.value->shape().ToString()}, {"value", text}};
      if (!settings.out_dir.empty() && o.value->shape().IsArray()) {
        std::string name = several_modules ? FileSafe(module.name()) + "_" : "";
        if (devices > 1) name += absl::StrCat("device", d, "_");
        name += NpyName(o.index);
        const std::string file = (std::filesystem::path(settings.out_dir) / name).string();
        if (auto s = WriteNpyFile(file, *o.value); !s.ok()) return fail(std::string(s.message()));
        oj["npy"] = file;
      }
      if (!settings.json) {
        if (outputs.size() > 1) out << "output " << o.index << ": ";
        out << text << "\n";
      }
      outs.push_back(oj);
    }
    dj["outputs"] = outs;
    device_json.push_back(dj);
  }
  j["devices"] = device_json;
  return true;
}

int RunEval(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().size() != 1) {
    err << "systolic eval: give one program file\n";
    return 2;
  }
  if (absl::Status limit = ApplyMemoryLimitFlag(args); !limit.ok()) {
    err << "systolic eval: " << limit.message() << "\n";
    return 2;
  }
  Settings settings;
  auto seed = args.GetInt("seed", 0);
  auto replicas = args.GetInt("replicas", 0);
  auto partitions = args.GetInt("partitions", 0);
  auto iterations = args.GetInt("max-iterations", 0);
  for (const auto* s : {&seed, &replicas, &partitions, &iterations}) {
    if (!s->ok()) {
      err << "systolic eval: " << s->status().message() << "\n";
      return 2;
    }
  }
  settings.seed = *seed;
  if (args.Has("replicas")) settings.replicas = *replicas;
  if (args.Has("partitions")) settings.partitions = *partitions;
  settings.max_iterations = *iterations;
  settings.arg_files = args.GetList("args");
  settings.out_dir = args.GetOr("out", "");
  settings.json = args.Has("json");
  if (!settings.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(settings.out_dir, ec);
    if (ec) {
      err << "systolic eval: cannot create " << settings.out_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }

  const std::string& path = args.positional()[0];
  auto modules = LoadProgramFile(path, /*verify=*/true);
  if (!modules.ok()) {
    err << "systolic eval: " << modules.status().message() << "\n";
    return 1;
  }
  if (!settings.arg_files.empty() && modules->size() != 1) {
    err << "systolic eval: --args needs a file with one module, " << path << " has "
        << modules->size() << "\n";
    return 2;
  }
  nlohmann::json j = {{"file", path}};
  nlohmann::json module_json = nlohmann::json::array();
  bool all_ok = true;
  for (auto& entry : *modules) {
    nlohmann::json mj;
    if (!entry.module.ok()) {
      mj = {{"line", entry.first_line}, {"ok", false},
            {"error", std::string(entry.module.status().message())}};
      if (!settings.json) {
        out << path << ":" << entry.first_line << ": FAILED " << entry.module.status().message()
            << "\n";
      }
      all_ok = false;
    } else {
      all_ok &= RunModule(**entry.module, entry.arguments, entry.first_line, modules->size() > 1,
                          settings, mj, out);
    }
    module_json.push_back(mj);
  }
  j["modules"] = module_json;
  if (settings.json) out << j.dump(2) << "\n";
  return all_ok ? 0 : 1;
}

const CommandRegistration kRegistration({
    .name = "eval",
    .summary = "run a program on the reference evaluator and print its outputs",
    .options = {{"seed", "S", "seed of the random arguments (default 0)"},
                {"args", "A.npy,B.npy", "arguments from .npy files, one per parameter"},
                {"replicas", "N", "replicas (default: the module's replica_count, or more if its collectives name more)"},
                {"partitions", "M", "partitions (default: the module's num_partitions, likewise)"},
                {"out", "DIR", "write every output as a .npy file in DIR"},
                {"max-iterations", "K", "fail a while loop after K iterations (default: no bound)"},
                MemoryLimitFlagOption(),
                {"json", "", "print a JSON report instead of text"}},
    .positional_usage = "FILE",
    .run = RunEval,
});

}  // namespace
}  // namespace systolic::cli
