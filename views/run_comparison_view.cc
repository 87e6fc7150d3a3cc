#include "views/run_comparison_view.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace systolic::views {

RunComparisonModel::RunComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunComparisonModel::SetComparison(analysis::RunComparison comparison) {
  beginResetModel();
  comparison_ = std::move(comparison);
  unit_ = analysis::TimeUnitFor(int64_t(std::max(comparison_.before.step_ps, comparison_.after.step_ps)));
  endResetModel();
}

QString RunComparisonModel::Duration(double ps) const {
  return QString::fromStdString(analysis::FormatPsIn(int64_t(std::llround(ps)), unit_));
}

int RunComparisonModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(comparison_.ops.size());
}

int RunComparisonModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant RunComparisonModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(comparison_.ops.size())) return {};
  const analysis::OpChange& op = comparison_.ops[size_t(index.row())];
  const double step_delta = comparison_.step_delta_ps();
  const double share = step_delta != 0 ? op.delta_ps() / step_delta : 0;
  if (role == Qt::UserRole) {
    switch (index.column()) {
      case kInstruction: return QString::fromStdString(op.name);
      case kBefore: return op.before_ps;
      case kAfter: return op.after_ps;
      case kChange: return op.delta_ps();
      case kShare: return share;
      default: return {};
    }
  }
  // A change that rounds to nothing in the table's unit is shown as none.
  const bool changed = Duration(std::fabs(op.delta_ps())) != Duration(0);
  if (role == Qt::ForegroundRole && index.column() == kChange && changed) {
    return op.delta_ps() > 0 ? QColor(0xb9, 0x1c, 0x1c) : QColor(0x15, 0x80, 0x3d);
  }
  if (role == Qt::TextAlignmentRole && index.column() != kInstruction) {
    return int(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kInstruction: return QString::fromStdString(op.name);
    case kBefore: return Duration(op.before_ps);
    case kAfter: return Duration(op.after_ps);
    case kChange: return (changed && op.delta_ps() > 0 ? "+" : "") + Duration(changed ? op.delta_ps() : 0);
    case kShare: return QStringLiteral("%1 %").arg(100 * share, 0, 'f', 1);
    default: return {};
  }
}

QVariant RunComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kBefore:
      case kAfter: return QStringLiteral("Self time per step: the instants of a step given to this instruction alone");
      case kChange: return QStringLiteral("After minus before; the changes add up to the step-time change");
      case kShare: return QStringLiteral("This change as a share of the step-time change");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case kInstruction: return QStringLiteral("Instruction");
    case kBefore: return QStringLiteral("Before");
    case kAfter: return QStringLiteral("After");
    case kChange: return QStringLiteral("Change");
    case kShare: return QStringLiteral("Of change");
    default: return {};
  }
}

RunComparisonView::RunComparisonView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  summary_ = new QLabel(this);
  summary_->setTextFormat(Qt::RichText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  model_ = new RunComparisonModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_, 1);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const QString name = model_->index(current.row(), RunComparisonModel::kInstruction).data().toString();
            if (!name.isEmpty() && !name.startsWith('(')) emit instructionSelected(name);
          });
  Clear();
}

void RunComparisonView::Clear() {
  model_->SetComparison({});
  summary_->setText("Compare this profile's run with another's: File › Compare with Profile…");
}

void RunComparisonView::SetComparison(analysis::RunComparison comparison, const QString& before_name,
                                      const QString& after_name) {
  model_->SetComparison(std::move(comparison));
  const analysis::RunComparison& c = model_->comparison();
  const double delta = c.step_delta_ps();
  QString rows;
  auto row = [&](const QString& label, const QString& a, const QString& b, const QString& change) {
    rows += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                           "<td align=right>%4</td></tr>")
                .arg(label, a, b, change);
  };
  row("<b>step time</b>", model_->Duration(c.before.step_ps), model_->Duration(c.after.step_ps),
      QStringLiteral("%1%2 (%3%4 %)")
          .arg(delta > 0 ? "+" : "")
          .arg(model_->Duration(delta))
          .arg(delta > 0 ? "+" : "")
          .arg(c.before.step_ps > 0 ? 100 * delta / c.before.step_ps : 0.0, 0, 'f', 1));
  row("TFLOP/s", QString::number(c.before.tflops(), 'f', 3), QString::number(c.after.tflops(), 'f', 3), "");
  for (int k = 0; k < analysis::kOpCategoryCount; ++k) {
    row(QStringLiteral("%1 unit time").arg(analysis::OpCategoryName(analysis::OpCategory(k))),
        model_->Duration(c.before.category_ps[k]), model_->Duration(c.after.category_ps[k]), "");
  }
  summary_->setText(QStringLiteral("<table cellspacing=4><tr><th></th><th>%1 · %2 · %3 steps</th>"
                                   "<th>%4 · %5 · %6 steps</th><th>change</th></tr>%7</table>")
                        .arg(before_name.toHtmlEscaped(), QString::fromStdString(c.before.chip).toHtmlEscaped())
                        .arg(c.before.steps)
                        .arg(after_name.toHtmlEscaped(), QString::fromStdString(c.after.chip).toHtmlEscaped())
                        .arg(c.after.steps)
                        .arg(rows));
  table_->resizeColumnsToContents();
}

QString RunComparisonView::summary() const { return summary_->text(); }

}  // namespace systolic::views
