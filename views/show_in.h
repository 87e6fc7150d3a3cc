// "Show in …": every view that selects an instruction offers to show it in
// the others. A view adds the entries to its context menu and announces
// the choice; the window does the showing.
#pragma once

#include <QString>
#include <functional>

class QMenu;

namespace systolic::views {

enum class ShowInTarget { kGraph, kTimeline, kText, kOps, kComparison };

// Adds "Show in Graph", "Show on Timeline", "Show in HLO Text" and "Show in
// Op Profile" for `instruction`, leaving out the view it is asked from.
void AddShowInActions(QMenu* menu, const QString& instruction, ShowInTarget from,
                      const std::function<void(const QString&, ShowInTarget)>& show);

}  // namespace systolic::views
