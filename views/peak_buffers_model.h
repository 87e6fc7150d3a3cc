// Table model of the buffers live at a memory peak, largest first: size,
// share of the peak, instruction, shape and live range.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "core/trace/buffer_assignment_record.h"

namespace systolic::views {

class PeakBuffersModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kSize = 0, kShare, kInstruction, kShape, kLive, kColumnCount };

  explicit PeakBuffersModel(QObject* parent = nullptr);
  void SetBuffers(std::vector<trace::BufferRecord> buffers, int64_t peak_bytes);
  const trace::BufferRecord* BufferAt(const QModelIndex& index) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<trace::BufferRecord> buffers_;
  int64_t peak_bytes_ = 0;
};

}  // namespace systolic::views
