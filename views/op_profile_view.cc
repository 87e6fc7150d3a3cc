#include "views/op_profile_view.h"

#include <QHeaderView>
#include <QLabel>
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
  model_ = new OpProfileModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::UserRole);  // numbers sort as numbers
  table_ = new QTableView(this);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(OpProfileModel::kTime, Qt::DescendingOrder);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  layout->addWidget(table_, 1);
  SetProfile(nullptr);
}

QString OpProfileView::summary() const { return summary_->text(); }

void OpProfileView::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  absl::StatusOr<analysis::OpProfile> ops =
      profile_ ? analysis::ComputeOpProfile(*profile_)
               : absl::StatusOr<analysis::OpProfile>(absl::NotFoundError("no profile open"));
  if (!ops.ok()) {
    model_->SetOpProfile({});
    summary_->setText(QString::fromStdString(std::string(ops.status().message())));
    return;
  }
  int64_t busy = 0;
  for (int64_t ps : ops->category_ps) busy += ps;
  QStringList parts;
  for (int c = 0; c < analysis::kOpCategoryCount; ++c) {
    if (ops->category_ps[c] == 0) continue;
    parts << QStringLiteral("%1 %2 µs (%3 %)")
                 .arg(QString::fromLatin1(analysis::OpCategoryName(analysis::OpCategory(c))))
                 .arg(double(ops->category_ps[c]) / 1e6, 0, 'f', 3)
                 .arg(busy > 0 ? 100.0 * double(ops->category_ps[c]) / double(busy) : 0.0, 0, 'f', 1);
  }
  summary_->setText(QStringLiteral("<b>Chip %1</b>, step %2 µs, %3 instructions. Unit time: %4")
                        .arg(ops->chip_id)
                        .arg(double(ops->step_ps) / 1e6, 0, 'f', 3)
                        .arg(ops->ops.size())
                        .arg(parts.isEmpty() ? QStringLiteral("none") : parts.join(", ")));
  model_->SetOpProfile(*std::move(ops));
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace systolic::views
