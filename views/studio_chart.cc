#include "views/studio_chart.h"

#include <QChart>
#include <QLegend>

#include "views/studio_palette.h"

namespace systolic::views {

QChart* NewStudioChart() {
  auto* chart = new QChart();
  // The theme first: it resets colours the caller then sets per series.
  chart->setTheme(StudioPalette::Get().dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  return chart;
}

}  // namespace systolic::views
