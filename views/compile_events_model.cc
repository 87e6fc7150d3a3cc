#include "views/compile_events_model.h"

#include <QColor>

#include "core/analysis/recompilation_report.h"
#include "core/trace/profile_summary.h"

namespace systolic::views {

CompileEventsModel::CompileEventsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompileEventsModel::SetProfile(const trace::Profile* profile) {
  beginResetModel();
  profile_ = profile;
  endResetModel();
}

const trace::CompileEvent* CompileEventsModel::EventAt(const QModelIndex& index) const {
  if (!profile_ || !index.isValid() || index.row() >= int(profile_->compile_events.size())) return nullptr;
  return &profile_->compile_events[size_t(index.row())];
}

int CompileEventsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !profile_ ? 0 : int(profile_->compile_events.size());
}

int CompileEventsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant CompileEventsModel::data(const QModelIndex& index, int role) const {
  const trace::CompileEvent* e = EventAt(index);
  if (!e) return {};
  if (role == Qt::ForegroundRole && !e->cache_hit) return QColor(0xb9, 0x1c, 0x1c);
  if (role == Qt::TextAlignmentRole) {
    const bool number = index.column() == kStep || index.column() == kCompileTime || index.column() == kTime;
    return QVariant::fromValue(Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
  }
  if (role == Qt::ToolTipRole && index.column() == kCause) return QString::fromStdString(trace::CauseInWords(*e));
  // Sorting by the raw value, not the formatted text.
  if (role == Qt::UserRole) {
    switch (index.column()) {
      case kTime: return qint64(e->timestamp_ns);
      case kStep: return qint64(e->step);
      case kCompileTime: return qint64(e->compile_time_ns);
      default: break;
    }
  }
  if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
  switch (index.column()) {
    case kTime: return QString::fromStdString(trace::FormatDurationPs(e->timestamp_ns * 1000));
    case kStep: return e->step >= 0 ? QVariant(qint64(e->step)) : QVariant(QStringLiteral("—"));
    case kProgram: {
      const trace::ProgramRecord* program = profile_->FindProgram(e->program_id);
      return program ? QStringLiteral("%1 #%2").arg(QString::fromStdString(program->name)).arg(program->id)
                     : QStringLiteral("#%1").arg(e->program_id);
    }
    case kFingerprint: return QString::fromStdString(e->fingerprint);
    case kCache: return e->cache_hit ? QStringLiteral("hit") : QStringLiteral("miss");
    case kCompileTime:
      return e->cache_hit ? QString() : QString::fromStdString(trace::FormatDurationPs(e->compile_time_ns * 1000));
    case kCause:
      return QString::fromStdString(trace::CauseWithKind(*e));
    default: return {};
  }
}

QVariant CompileEventsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kTime: return QStringLiteral("Time");
    case kStep: return QStringLiteral("Step");
    case kProgram: return QStringLiteral("Program");
    case kFingerprint: return QStringLiteral("Fingerprint");
    case kCache: return QStringLiteral("Cache");
    case kCompileTime: return QStringLiteral("Compile time");
    case kCause: return QStringLiteral("Cause");
    default: return {};
  }
}

}  // namespace systolic::views
