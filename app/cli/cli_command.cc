#include "app/cli/cli_command.h"

#include <algorithm>
#include <memory>

namespace systolic::cli {
namespace {

std::vector<std::unique_ptr<Command>>& Registry() {
  static auto* registry = new std::vector<std::unique_ptr<Command>>();
  return *registry;
}

}  // namespace

CommandRegistration::CommandRegistration(Command command) {
  Registry().push_back(std::make_unique<Command>(std::move(command)));
}

std::vector<const Command*> AllCommands() {
  std::vector<const Command*> out;
  for (const auto& c : Registry()) out.push_back(c.get());
  std::sort(out.begin(), out.end(), [](const Command* a, const Command* b) {
    return a->name < b->name;
  });
  return out;
}

const Command* FindCommand(const std::string& name) {
  for (const auto& c : Registry()) {
    if (c->name == name) return c.get();
  }
  return nullptr;
}

}  // namespace systolic::cli
