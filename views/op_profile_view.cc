#include "views/op_profile_view.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis/op_profile.h"
#include "views/op_profile_model.h"

namespace systolic::views {

OpProfileView::OpProfileView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText("Filter instructions by name (Ctrl+F)");
  filter_->setClearButtonEnabled(true);
  filter_->setMaximumWidth(320);
  layout->addWidget(filter_);
  model_ = new OpProfileModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setFilterKeyColumn(OpProfileModel::kInstruction);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  proxy_->setSortRole(Qt::UserRole);  // numbers sort as numbers
  table_ = new QTableView(this);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(OpProfileModel::kTime, Qt::DescendingOrder);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->horizontalHeader()->setStretchLastSection(true);
  // Simulated time reads beside the measured time it is compared with.
  QHeaderView* header = table_->horizontalHeader();
  header->moveSection(header->visualIndex(OpProfileModel::kSimulated), OpProfileModel::kTime + 1);
  header->moveSection(header->visualIndex(OpProfileModel::kSimulatedRatio), OpProfileModel::kTime + 2);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  layout->addWidget(table_, 1);
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    const analysis::OpStats* op = model_->OpAt(proxy_->mapToSource(table_->indexAt(at)));
    if (op == nullptr) return;
    QMenu menu(this);
    AddShowInActions(&menu, QString::fromStdString(op->name), ShowInTarget::kOps,
                     [this](const QString& name, ShowInTarget target) { emit showInRequested(name, target); });
    menu.exec(table_->viewport()->mapToGlobal(at));
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (selecting_) return;
            const analysis::OpStats* op = model_->OpAt(proxy_->mapToSource(current));
            if (op != nullptr) emit instructionSelected(QString::fromStdString(op->name));
          });
  SetProfile(nullptr);
}

bool OpProfileView::SelectInstruction(const QString& name) {
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const QModelIndex index = proxy_->index(row, OpProfileModel::kInstruction);
    if (index.data().toString() != name) continue;
    selecting_ = true;
    table_->setCurrentIndex(index);
    table_->scrollTo(index);
    selecting_ = false;
    return true;
  }
  return false;
}

void OpProfileView::SetFilter(const QString& text) { filter_->setText(text); }

void OpProfileView::FocusSearch() {
  filter_->setFocus();
  filter_->selectAll();
}

QString OpProfileView::summary() const { return summary_->text(); }

void OpProfileView::SetSimulated(absl::flat_hash_map<std::string, double> per_execution_ps,
                                 const QString& chip) {
  model_->SetSimulated(std::move(per_execution_ps), chip);
  // The columns show only beside a simulation.
  for (int column : {OpProfileModel::kSimulated, OpProfileModel::kSimulatedRatio}) {
    table_->setColumnHidden(column, !model_->has_simulated());
  }
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
}

void OpProfileView::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  SetSimulated({}, {});
  absl::StatusOr<analysis::OpProfile> ops =
      profile_ ? analysis::ComputeOpProfile(*profile_)
               : absl::StatusOr<analysis::OpProfile>(absl::NotFoundError("no profile open"));
  status_ = ops.status();
  if (!ops.ok()) {
    model_->SetOpProfile({});
    summary_->setText(QString::fromStdString(std::string(ops.status().message())));
    return;
  }
  model_->SetOpProfile(*std::move(ops));
  // The summary in the table's unit, so its figures read against the rows.
  const analysis::OpProfile& shown = model_->op_profile();
  const auto& category_ps = shown.category_ps;
  int64_t busy = 0;
  for (int64_t ps : category_ps) busy += ps;
  QStringList parts;
  for (int c = 0; c < analysis::kOpCategoryCount; ++c) {
    if (category_ps[c] == 0) continue;
    parts << QStringLiteral("%1 %2 (%3 %)")
                 .arg(QString::fromLatin1(analysis::OpCategoryName(analysis::OpCategory(c))))
                 .arg(model_->Duration(category_ps[c]))
                 .arg(busy > 0 ? 100.0 * double(category_ps[c]) / double(busy) : 0.0, 0, 'f', 1);
  }
  summary_->setText(QStringLiteral("<b>Chip %1</b>, step %2, %3 instructions. Unit time: %4")
                        .arg(shown.chip_id)
                        .arg(model_->Duration(shown.step_ps))
                        .arg(shown.ops.size())
                        .arg(parts.isEmpty() ? QStringLiteral("none") : parts.join(", ")));
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace systolic::views
