// Table model of an op profile: one row per HLO instruction with its time,
// share of the step, FLOPs, bytes, arithmetic intensity and achieved FLOP/s
// against the chip's peak. Qt::UserRole holds each cell as a number so a
// proxy sorts numerically.
#pragma once

#include <QAbstractTableModel>

#include "core/trace/op_profile.h"

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
  void SetOpProfile(trace::OpProfile profile);
  const trace::OpProfile& op_profile() const { return profile_; }
  const trace::OpStats* OpAt(const QModelIndex& index) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  trace::OpProfile profile_;
};

}  // namespace systolic::views
