#include "views/peak_buffers_model.h"

#include <QLocale>

namespace systolic::views {

PeakBuffersModel::PeakBuffersModel(QObject* parent) : QAbstractTableModel(parent) {}

void PeakBuffersModel::SetBuffers(std::vector<trace::BufferRecord> buffers, int64_t peak_bytes) {
  beginResetModel();
  buffers_ = std::move(buffers);
  peak_bytes_ = peak_bytes;
  endResetModel();
}

const trace::BufferRecord* PeakBuffersModel::BufferAt(const QModelIndex& index) const {
  if (!index.isValid() || index.row() >= int(buffers_.size())) return nullptr;
  return &buffers_[size_t(index.row())];
}

int PeakBuffersModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(buffers_.size());
}

int PeakBuffersModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant PeakBuffersModel::data(const QModelIndex& index, int role) const {
  const trace::BufferRecord* b = BufferAt(index);
  if (!b) return {};
  if (role == Qt::TextAlignmentRole) {
    const bool number = index.column() == kSize || index.column() == kShare;
    return QVariant::fromValue(Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
  }
  if (role == Qt::UserRole) return qint64(b->size_bytes);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kSize: return QLocale::system().formattedDataSize(b->size_bytes, 1, QLocale::DataSizeIecFormat);
    case kShare:
      return peak_bytes_ > 0 ? QStringLiteral("%1 %").arg(100.0 * double(b->size_bytes) / double(peak_bytes_), 0, 'f', 1)
                             : QString();
    case kInstruction: return QString::fromStdString(b->instruction);
    case kShape: return QString::fromStdString(b->shape);
    case kLive: return QStringLiteral("%1 – %2").arg(b->live_start).arg(b->live_end);
    default: return {};
  }
}

QVariant PeakBuffersModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kSize: return QStringLiteral("Size");
    case kShare: return QStringLiteral("Of peak");
    case kInstruction: return QStringLiteral("Instruction");
    case kShape: return QStringLiteral("Shape");
    case kLive: return QStringLiteral("Live (program order)");
    default: return {};
  }
}

}  // namespace systolic::views
