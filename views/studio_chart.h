// A new chart as every chart view of the studio draws it: no animation,
// the legend below, and the theme of the window (light or dark).
#pragma once

class QChart;

namespace systolic::views {

QChart* NewStudioChart();

}  // namespace systolic::views
