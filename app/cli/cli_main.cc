// `systolic`: the headless face of Systolic Studio.
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "app/cli/cli_command.h"

namespace systolic::cli {
namespace {

void PrintHelp(std::ostream& out) {
  out << "systolic: compile, run and profile XLA programs on a simulated systolic-array chip\n\n"
         "usage: systolic <command> [options] [arguments]\n\ncommands:\n";
  size_t width = 0;
  for (const Command* c : AllCommands()) width = std::max(width, c->name.size());
  for (const Command* c : AllCommands()) {
    out << "  " << c->name << std::string(width - c->name.size() + 3, ' ') << c->summary << "\n";
  }
  out << "\n`systolic <command> --help` describes a command's options.\n";
}

void PrintCommandHelp(const Command& c, std::ostream& out) {
  out << "usage: systolic " << c.name << " [options] " << c.positional_usage << "\n\n"
      << c.summary << "\n";
  if (!c.options.empty()) out << "\noptions:\n" << FormatOptions(c.options);
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintHelp(std::cout);
    return args.empty() ? 2 : 0;
  }
  const Command* command = FindCommand(args[0]);
  if (!command) {
    std::cerr << "systolic: unknown command '" << args[0] << "' (see systolic --help)\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string& a : rest) {
    if (a == "--help" || a == "-h") {
      PrintCommandHelp(*command, std::cout);
      return 0;
    }
  }
  auto parsed = CliArgs::Parse(rest, command->options);
  if (!parsed.ok()) {
    std::cerr << "systolic " << command->name << ": " << parsed.status().message() << "\n";
    PrintCommandHelp(*command, std::cerr);
    return 2;
  }
  return command->run(*parsed, std::cout, std::cerr);
}

}  // namespace
}  // namespace systolic::cli

int main(int argc, char** argv) {
  // The last resort: what planning did not foresee still ends in words.
  try {
    return systolic::cli::Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "systolic: the host ran out of memory; --memory-limit bounds what evaluation "
                 "may use, and --timing-only needs no values\n";
    return 1;
  }
}
