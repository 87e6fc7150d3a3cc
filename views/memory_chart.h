// Memory over program order (as XProf's memory viewer): the bytes a
// program's buffer assignment has allocated in one memory space at each
// position of the schedule, the peak marked, and the buffers live at the
// peak listed by size with their instruction and shape. The program of an
// SPMD run is the per-device program, so there this is one device's memory;
// a program file not yet partitioned shows its global shapes.
#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis/memory_timeline.h"
#include "core/trace/profile.h"

class QChartView;
class QComboBox;
class QLabel;
class QTableView;

namespace systolic::views {

class PeakBuffersModel;

class MemoryChart : public QWidget {
  Q_OBJECT

 public:
  explicit MemoryChart(QWidget* parent = nullptr);
  ~MemoryChart() override;

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  // Index into the profile's programs; memory space by name ("HBM").
  void ShowProgram(int program, const QString& memory_space = "HBM");

  const analysis::MemoryTimeline& timeline() const { return timeline_; }
  PeakBuffersModel* peak_model() const { return peak_model_; }
  // The points of the allocation curve as drawn (position, bytes).
  QList<QPointF> curve() const;

 private:
  void Rebuild();

  std::shared_ptr<const trace::Profile> profile_;
  analysis::MemoryTimeline timeline_;
  QComboBox* program_ = nullptr;
  QComboBox* space_ = nullptr;
  QLabel* summary_ = nullptr;
  QChartView* chart_ = nullptr;
  QTableView* table_ = nullptr;
  PeakBuffersModel* peak_model_ = nullptr;
  QList<QPointF> curve_;
  bool filling_ = false;
};

}  // namespace systolic::views
