// Table model of a profile's compile events for the recompilations view:
// time, step, program, fingerprint, hit or miss, compile time and the
// cause in words; misses drawn in the miss colour.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>

#include "core/trace/profile.h"

namespace systolic::views {

class CompileEventsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kTime = 0, kStep, kProgram, kFingerprint, kCache, kCompileTime, kCause, kColumnCount };

  explicit CompileEventsModel(QObject* parent = nullptr);
  // The profile must outlive the model (or be replaced first).
  void SetProfile(const trace::Profile* profile);
  // The event of a row (null outside the table).
  const trace::CompileEvent* EventAt(const QModelIndex& index) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const trace::Profile* profile_ = nullptr;
};

}  // namespace systolic::views
