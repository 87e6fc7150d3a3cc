#include "views/details_pane.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "absl/strings/str_join.h"
#include "core/analysis/event_details.h"
#include "core/analysis/instruction_details.h"

namespace systolic::views {

DetailsPane::DetailsPane(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rows_ = new QTreeWidget(this);
  rows_->setColumnCount(2);
  rows_->setHeaderLabels({"Property", "Value"});
  rows_->setRootIsDecorated(false);
  rows_->setWordWrap(true);
  rows_->setAlternatingRowColors(true);
  rows_->setUniformRowHeights(false);
  rows_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  rows_->header()->setStretchLastSection(true);
  layout->addWidget(title_);
  layout->addWidget(rows_, 1);
  Clear();
}

void DetailsPane::ShowRows(const QString& title,
                           const std::vector<std::pair<std::string, std::string>>& rows) {
  title_->setText(title);
  rows_->clear();
  for (const auto& [label, value] : rows) {
    auto* item = new QTreeWidgetItem(rows_);
    item->setText(0, QString::fromStdString(label));
    item->setText(1, QString::fromStdString(value));
    item->setToolTip(1, QString::fromStdString(value));
  }
}

void DetailsPane::ShowInstructions(const analysis::StageModule* stage,
                                   const std::vector<const HloInstruction*>& instructions) {
  if (instructions.empty()) {
    Clear();
    return;
  }
  const QString where = stage ? QStringLiteral(" · after %1").arg(QString::fromStdString(stage->pass_name()))
                              : QString();
  if (instructions.size() > 1) {
    // A group: what it holds.
    std::vector<std::pair<std::string, std::string>> rows;
    rows.push_back({"Instructions", std::to_string(instructions.size())});
    std::vector<std::string> names;
    for (size_t i = 0; i < instructions.size() && i < 40; ++i) names.push_back(instructions[i]->name());
    if (instructions.size() > 40) names.push_back("…");
    rows.push_back({"Members", absl::StrJoin(names, ", ")});
    ShowRows(QStringLiteral("<b>%1 instructions</b>%2").arg(instructions.size()).arg(where), rows);
    return;
  }
  const HloInstruction* instruction = instructions.front();
  std::vector<std::pair<std::string, std::string>> rows =
      analysis::DescribeInstruction(*instruction, ops_ ? ops_->Find(instruction->name()) : nullptr);
  if (stage) {
    std::vector<std::string> origins;
    for (int64_t origin : stage->OriginsOf(instruction)) {
      const std::string* name = stage->OriginName(origin);
      origins.push_back(name ? *name : "#" + std::to_string(origin));
    }
    if (!origins.empty()) rows.push_back({"Made from", absl::StrJoin(origins, ", ")});
  }
  ShowRows(QStringLiteral("<b>%1</b>%2").arg(QString::fromStdString(instruction->name()).toHtmlEscaped(), where),
           rows);
}

void DetailsPane::ShowEvent(const trace::Timeline& timeline, const trace::EventRef& ref) {
  const analysis::EventDetails details = analysis::DescribeEvent(timeline, ref);
  ShowRows(QStringLiteral("<b>%1</b> · event").arg(QString::fromStdString(details.name).toHtmlEscaped()),
           details.rows);
}

void DetailsPane::Clear() {
  title_->setText("<span style='color:#78716c'>Select an instruction or an event.</span>");
  rows_->clear();
}

QString DetailsPane::title() const { return title_->text(); }

QString DetailsPane::Value(const QString& label) const {
  for (int i = 0; i < rows_->topLevelItemCount(); ++i) {
    if (rows_->topLevelItem(i)->text(0) == label) return rows_->topLevelItem(i)->text(1);
  }
  return QString();
}

int DetailsPane::row_count() const { return rows_->topLevelItemCount(); }

}  // namespace systolic::views
