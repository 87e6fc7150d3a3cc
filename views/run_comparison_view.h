// Two runs side by side: per step, the step time, TFLOP/s and busy time per
// unit kind of each, then every instruction's self time in both and its
// change, largest change first, with a bar for its share of the step-time
// change (red where the second run is slower, green where it is faster).
#pragma once

#include <QAbstractTableModel>
#include <QWidget>

#include "core/analysis/run_comparison.h"
#include "core/analysis/time_ruler.h"

class QLabel;
class QTableView;

namespace systolic::views {

class RunComparisonModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kInstruction = 0, kBefore, kAfter, kChange, kShare, kColumnCount };

  explicit RunComparisonModel(QObject* parent = nullptr);
  void SetComparison(analysis::RunComparison comparison);
  const analysis::RunComparison& comparison() const { return comparison_; }
  QString Duration(double ps) const;

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
  void SetComparison(analysis::RunComparison comparison, const QString& before_name,
                     const QString& after_name);
  void Clear();

  RunComparisonModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString summary() const;

 signals:
  // The user picked an instruction's row.
  void instructionSelected(const QString& name);

 private:
  QLabel* summary_ = nullptr;
  QTableView* table_ = nullptr;
  RunComparisonModel* model_ = nullptr;
};

}  // namespace systolic::views
