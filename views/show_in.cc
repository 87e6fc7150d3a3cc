#include "views/show_in.h"

#include <QMenu>

namespace systolic::views {

void AddShowInActions(QMenu* menu, const QString& instruction, ShowInTarget from,
                      const std::function<void(const QString&, ShowInTarget)>& show) {
  if (instruction.isEmpty()) return;
  const std::pair<ShowInTarget, const char*> targets[] = {{ShowInTarget::kGraph, "Show in &Graph"},
                                                          {ShowInTarget::kTimeline, "Show on &Timeline"},
                                                          {ShowInTarget::kText, "Show in HLO Te&xt"},
                                                          {ShowInTarget::kOps, "Show in &Op Profile"}};
  for (const auto& [target, label] : targets) {
    if (target == from) continue;
    menu->addAction(label, menu, [instruction, target = target, show] { show(instruction, target); });
  }
}

}  // namespace systolic::views
