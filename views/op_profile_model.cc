#include "views/op_profile_model.h"

#include <QLocale>
#include <algorithm>

namespace systolic::views {
namespace {

// "3.2 G", "410 T": a number with an SI prefix.
QString Si(double v, const QString& unit) {
  static const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  while (v >= 1000 && p < 6) {
    v /= 1000;
    ++p;
  }
  return QStringLiteral("%1 %2%3").arg(v, 0, 'f', v < 10 && p > 0 ? 2 : (p > 0 ? 1 : 0)).arg(QString::fromLatin1(kPrefixes[p]), unit);
}

}  // namespace

OpProfileModel::OpProfileModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpProfileModel::SetOpProfile(analysis::OpProfile profile) {
  beginResetModel();
  profile_ = std::move(profile);
  int64_t largest = profile_.step_ps;
  for (const analysis::OpStats& op : profile_.ops) largest = std::max({largest, op.total_ps, op.wall_ps});
  time_unit_ = analysis::TimeUnitFor(largest);
  endResetModel();
}

void OpProfileModel::SetSimulated(absl::flat_hash_map<std::string, double> per_execution_ps, QString chip) {
  beginResetModel();
  simulated_per_execution_ps_ = std::move(per_execution_ps);
  simulated_chip_ = simulated_per_execution_ps_.empty() ? QString() : std::move(chip);
  endResetModel();
}

double OpProfileModel::SimulatedPs(const analysis::OpStats& op) const {
  auto found = simulated_per_execution_ps_.find(op.name);
  if (found == simulated_per_execution_ps_.end()) return -1;
  return found->second * double(op.event_count);
}

QString OpProfileModel::Duration(int64_t ps) const {
  return QString::fromStdString(analysis::FormatPsIn(ps, time_unit_));
}

const analysis::OpStats* OpProfileModel::OpAt(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this || index.row() >= int(profile_.ops.size())) return nullptr;
  return &profile_.ops[size_t(index.row())];
}

int OpProfileModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(profile_.ops.size());
}

int OpProfileModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant OpProfileModel::data(const QModelIndex& index, int role) const {
  const analysis::OpStats* op = OpAt(index);
  if (!op) return {};
  const int column = index.column();
  if (role == Qt::TextAlignmentRole) {
    const bool text = column == kInstruction || column == kCategory;
    return QVariant::fromValue(Qt::Alignment((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
  }
  if (role == Qt::UserRole) {
    switch (column) {
      case kInstruction: return QString::fromStdString(op->name);
      case kCategory: return QString::fromLatin1(analysis::OpCategoryName(op->category));
      case kTime: return qint64(op->total_ps);
      case kWall: return qint64(op->wall_ps);
      case kStepShare: return op->step_fraction;
      case kFlops: return op->flops;
      case kBytes: return qint64(op->bytes);
      case kIntensity: return op->intensity;
      case kAchieved: return op->achieved_flops_per_second;
      case kPeakShare: return op->peak_fraction;
      case kSimulated: return SimulatedPs(*op);
      case kSimulatedRatio: {
        const double simulated = SimulatedPs(*op);
        return simulated >= 0 && op->total_ps > 0 ? simulated / double(op->total_ps) : -1.0;
      }
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole && column == kTime) {
    return QStringLiteral("%1 events; from %2 to %3").arg(op->event_count).arg(Duration(op->first_start_ps), Duration(op->last_end_ps));
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case kInstruction: return QString::fromStdString(op->name);
    case kCategory: return QString::fromLatin1(analysis::OpCategoryName(op->category));
    case kTime: return Duration(op->total_ps);
    case kWall: return Duration(op->wall_ps);
    case kStepShare: return QStringLiteral("%1 %").arg(100.0 * op->step_fraction, 0, 'f', 1);
    case kFlops: return op->flops > 0 ? Si(op->flops, "FLOP") : QString("–");
    case kBytes: return QLocale::system().formattedDataSize(op->bytes, 1, QLocale::DataSizeIecFormat);
    case kIntensity: return op->bytes > 0 ? QString::number(op->intensity, 'g', 3) : QString("–");
    case kAchieved: return op->flops > 0 ? Si(op->achieved_flops_per_second, "FLOP/s") : QString("–");
    case kPeakShare:
      // Two decimals below 1 %, where most memory-bound ops sit.
      return op->flops > 0 ? QStringLiteral("%1 %").arg(100.0 * op->peak_fraction, 0, 'f', op->peak_fraction < 0.01 ? 2 : 1)
                           : QString("–");
    case kSimulated: {
      const double simulated = SimulatedPs(*op);
      return simulated >= 0 ? Duration(int64_t(simulated + 0.5)) : QString("–");
    }
    case kSimulatedRatio: {
      const double simulated = SimulatedPs(*op);
      return simulated >= 0 && op->total_ps > 0
                 ? QStringLiteral("%1×").arg(simulated / double(op->total_ps), 0, 'f', 2)
                 : QString("–");
    }
    default: return {};
  }
}

QVariant OpProfileModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kTime: return QStringLiteral("Event durations summed over every unit");
      case kWall: return QStringLiteral("Time at least one unit works on it");
      case kStepShare: return QStringLiteral("Wall time over the step");
      case kIntensity: return QStringLiteral("FLOPs per byte moved");
      case kAchieved: return QStringLiteral("FLOPs over wall time");
      case kPeakShare: return QStringLiteral("Achieved FLOP/s over the chip's peak");
      case kSimulated: return QStringLiteral("The same executions on the simulated chip");
      case kSimulatedRatio: return QStringLiteral("Simulated time over measured time");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case kInstruction: return QStringLiteral("Instruction");
    case kCategory: return QStringLiteral("Unit");
    case kTime: return QStringLiteral("Time");
    case kWall: return QStringLiteral("Wall");
    case kStepShare: return QStringLiteral("Of step");
    case kFlops: return QStringLiteral("FLOPs");
    case kBytes: return QStringLiteral("Bytes");
    case kIntensity: return QStringLiteral("FLOPs/byte");
    case kAchieved: return QStringLiteral("Achieved");
    case kPeakShare: return QStringLiteral("Of peak");
    case kSimulated:
      return simulated_chip_.isEmpty() ? QStringLiteral("Simulated") : QStringLiteral("Simulated (%1)").arg(simulated_chip_);
    case kSimulatedRatio: return QStringLiteral("Sim / measured");
    default: return {};
  }
}

}  // namespace systolic::views
