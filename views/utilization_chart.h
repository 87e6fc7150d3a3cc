// Utilisation over time per unit kind (MXU, vector, DMA, ICI) per core of
// one chip: the share of the kind's units busy in each slice of the run,
// as a step curve per core and kind (later cores dashed), with each
// series' mean in the legend.
// The numbers are the core's (analysis::UnitUtilizationOf).
#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis/unit_utilization.h"
#include "core/trace/profile.h"

class QChartView;
class QComboBox;
class QLabel;

namespace systolic::views {

class UtilizationChart : public QWidget {
  Q_OBJECT

 public:
  // Buckets over the chip's span: fine enough to see phases, few enough
  // that a long run draws at once.
  static constexpr int kBuckets = 200;

  explicit UtilizationChart(QWidget* parent = nullptr);

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  // Index into the chips listed (device planes with unit lanes).
  void ShowChip(int chip);

  const analysis::UnitUtilization& utilization() const { return utilization_; }
  QChartView* chart_view() const { return chart_; }

 private:
  void Rebuild();

  std::shared_ptr<const trace::Profile> profile_;
  std::vector<int32_t> planes_;  // the timeline plane of each listed chip
  analysis::UnitUtilization utilization_;
  QComboBox* chip_ = nullptr;
  QLabel* summary_ = nullptr;
  QChartView* chart_ = nullptr;
};

}  // namespace systolic::views
