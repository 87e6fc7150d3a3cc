// A subcommand of the `systolic` CLI. Each lives in its own *_command.cc and
// registers itself with a static CommandRegistration.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/cli_args.h"

namespace systolic::cli {

struct Command {
  std::string name;
  std::string summary;  // one line for `systolic --help`
  std::vector<OptionSpec> options;
  std::string positional_usage;  // e.g. "FILE..."
  // Returns the process exit code.
  std::function<int(const CliArgs& args, std::ostream& out, std::ostream& err)> run;
};

struct CommandRegistration {
  explicit CommandRegistration(Command command);
};

// Every registered command, sorted by name.
std::vector<const Command*> AllCommands();
const Command* FindCommand(const std::string& name);

}  // namespace systolic::cli
