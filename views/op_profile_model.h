// Table model of an op profile: one row per HLO instruction with its time,
// share of the step, FLOPs, bytes, arithmetic intensity and achieved FLOP/s
// against the chip's peak. Qt::UserRole holds each cell as a number so a
// proxy sorts numerically.
#pragma once

#include <QAbstractTableModel>

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

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  analysis::OpProfile profile_;
  analysis::TimeUnit time_unit_;
};

}  // namespace systolic::views
