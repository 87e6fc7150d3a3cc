// `systolic parse FILE...`: parse, verify and round-trip every module.
#include "absl/strings/str_cat.h"
#include "app/cli/cli_command.h"
#include "core/hlo/hlo_file.h"
#include "core/stablehlo/program_file.h"

namespace systolic::cli {
namespace {

int RunParse(const CliArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positional().empty()) {
    err << "systolic parse: give at least one file\n";
    return 2;
  }
  int passed = 0, failed = 0;
  for (const std::string& path : args.positional()) {
    auto modules = LoadProgramFile(path, /*verify=*/true);
    if (!modules.ok()) {
      out << path << ": FAILED " << modules.status().message() << "\n";
      ++failed;
      continue;
    }
    for (auto& entry : *modules) {
      std::string where = absl::StrCat(path, ":", entry.first_line);
      if (!entry.module.ok()) {
        out << where << ": FAILED " << entry.module.status().message() << "\n";
        ++failed;
        continue;
      }
      const HloModule& module = **entry.module;
      absl::Status round_trip = CheckTextRoundTrip(module);
      if (!round_trip.ok()) {
        out << where << ": FAILED " << module.name() << ": " << round_trip.message() << "\n";
        ++failed;
        continue;
      }
      if (args.Has("print")) out << module.ToString() << "\n";
      out << where << ": OK " << module.name() << " (" << module.instruction_count()
          << " instructions, " << module.computation_count() << " computations)\n";
      ++passed;
    }
  }
  out << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

const CommandRegistration kRegistration({
    .name = "parse",
    .summary = "parse, verify and round-trip HLO / StableHLO files",
    .options = {{"print", "", "print each module as HLO text (StableHLO is shown as imported)"}},
    .positional_usage = "FILE...",
    .run = RunParse,
});

}  // namespace
}  // namespace systolic::cli
