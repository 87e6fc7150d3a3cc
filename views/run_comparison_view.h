// Two runs side by side: which two (any runs of the session), per step the
// step time, TFLOP/s and busy time per unit kind of each, then every
// instruction's self time in both and its change, largest change first
// (red where the second run is slower, green where it is faster), and the
// two timelines one above the other on one time axis.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

#include "core/analysis/run_comparison.h"
#include "core/analysis/time_ruler.h"
#include "views/show_in.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace systolic::views {

class TimelineCanvas;

class RunComparisonModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kInstruction = 0, kBefore, kAfter, kChange, kShare, kColumnCount };

  explicit RunComparisonModel(QObject* parent = nullptr);
  void SetComparison(analysis::RunComparison comparison);
  const analysis::RunComparison& comparison() const { return comparison_; }
  QString Duration(double ps) const;
  // The instruction of a row; empty for the idle and unattributed rows.
  QString InstructionAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  // Qt::UserRole: the cell as a number (picoseconds, or the share).
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  analysis::RunComparison comparison_;
  analysis::TimeUnit unit_;
};

class RunComparisonView : public QWidget {
  Q_OBJECT

 public:
  explicit RunComparisonView(QWidget* parent = nullptr);
  // The runs that may be compared, by name; the pickers offer them.
  void SetRunChoices(const QStringList& names);
  void SetChosenRuns(int before, int after);
  // The comparison of the runs, and their profiles for the timelines.
  void SetComparison(analysis::RunComparison comparison, const QString& before_name,
                     const QString& after_name, std::shared_ptr<const trace::Profile> before = nullptr,
                     std::shared_ptr<const trace::Profile> after = nullptr);
  // The runs chosen cannot be compared: says why instead.
  void ShowProblem(int before, int after, const QString& problem);
  void Clear();
  // Shows only the rows whose instruction contains `text` (any case).
  void SetFilter(const QString& text);
  void FocusSearch();

  RunComparisonModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString summary() const;
  TimelineCanvas* before_timeline() const { return timelines_[0]; }
  TimelineCanvas* after_timeline() const { return timelines_[1]; }
  QComboBox* before_picker() const { return pickers_[0]; }
  QComboBox* after_picker() const { return pickers_[1]; }

 signals:
  // The user picked an instruction's row.
  void instructionSelected(const QString& name);
  // The user chose another pair of runs.
  void runsChosen(int before, int after);
  void showInRequested(const QString& instruction, ShowInTarget target);

 private:
  void SetTimelines(std::shared_ptr<const trace::Profile> before, std::shared_ptr<const trace::Profile> after);
  void FollowWindow(int from_side);

  QComboBox* pickers_[2] = {};
  QLabel* summary_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTableView* table_ = nullptr;
  RunComparisonModel* model_ = nullptr;
  QLabel* timeline_titles_[2] = {};
  TimelineCanvas* timelines_[2] = {};
  bool following_ = false;
};

}  // namespace systolic::views
