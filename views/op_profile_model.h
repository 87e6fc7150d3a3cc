// Table model of an op profile: one row per HLO instruction with its time,
// share of the step, FLOPs, bytes, arithmetic intensity and achieved FLOP/s
// against the chip's peak, and, for a real profile compared with the
// simulator, its simulated time and the ratio. Qt::UserRole holds each cell as a number so a
// proxy sorts numerically.
#pragma once

#include <QAbstractTableModel>

#include "absl/container/flat_hash_map.h"
#include "core/analysis/op_profile.h"
#include "core/analysis/time_ruler.h"

namespace systolic::views {

class OpProfileModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kInstruction = 0,
    kCategory,
    kTime,
    kWall,
    kStepShare,
    kFlops,
    kBytes,
    kIntensity,
    kAchieved,
    kPeakShare,
    kSimulated,       // the same executions on a simulated chip (CompareWithSimulation)
    kSimulatedRatio,  // simulated over measured
    kColumnCount
  };

  explicit OpProfileModel(QObject* parent = nullptr);
  void SetOpProfile(analysis::OpProfile profile);
  const analysis::OpProfile& op_profile() const { return profile_; }
  const analysis::OpStats* OpAt(const QModelIndex& index) const;
  // Every duration of the table, its rows and the step, in one unit: the one
  // that suits the step ("0.042 ms" beside "1078.135 ms").
  const analysis::TimeUnit& time_unit() const { return time_unit_; }
  QString Duration(int64_t ps) const;
  // Each instruction's simulated time per execution on `chip` (see
  // analysis::SimulatedTimePerExecution); empty clears the columns.
  void SetSimulated(absl::flat_hash_map<std::string, double> per_execution_ps, QString chip);
  bool has_simulated() const { return !simulated_chip_.isEmpty(); }
  // The row's simulated time (its events at the simulated time each), or -1.
  double SimulatedPs(const analysis::OpStats& op) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  analysis::OpProfile profile_;
  analysis::TimeUnit time_unit_;
  absl::flat_hash_map<std::string, double> simulated_per_execution_ps_;
  QString simulated_chip_;
};

}  // namespace systolic::views
