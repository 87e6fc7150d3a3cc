#include "views/run_comparison_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "views/studio_palette.h"
#include "views/timeline_canvas.h"

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

QString RunComparisonModel::InstructionAt(int row) const {
  if (row < 0 || row >= int(comparison_.ops.size())) return {};
  const std::string& name = comparison_.ops[size_t(row)].name;
  return analysis::IsInstructionRow(name) ? QString::fromStdString(name) : QString();
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
    return op.delta_ps() > 0 ? StudioPalette::Get().slower : StudioPalette::Get().faster;
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
  auto* choice = new QHBoxLayout();
  choice->addWidget(new QLabel("Compare", this));
  for (int side = 0; side < 2; ++side) {
    pickers_[side] = new QComboBox(this);
    pickers_[side]->setObjectName(side == 0 ? "before_run" : "after_run");
    pickers_[side]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pickers_[side]->setToolTip(side == 0 ? "The run compared from" : "The run compared with it");
    connect(pickers_[side], &QComboBox::activated, this,
            [this] { emit runsChosen(pickers_[0]->currentIndex(), pickers_[1]->currentIndex()); });
    choice->addWidget(pickers_[side]);
    if (side == 0) choice->addWidget(new QLabel("with", this));
  }
  choice->addStretch(1);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText("Filter instructions (Ctrl+F)");
  filter_->setClearButtonEnabled(true);
  filter_->setMaximumWidth(260);
  choice->addWidget(filter_);
  layout->addLayout(choice);
  summary_ = new QLabel(this);
  summary_->setTextFormat(Qt::RichText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  layout->addWidget(summary_);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  model_ = new RunComparisonModel(this);
  table_ = new QTableView(splitter);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  splitter->addWidget(table_);
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    const QString name = model_->InstructionAt(table_->indexAt(at).row());
    if (name.isEmpty()) return;
    QMenu menu(this);
    AddShowInActions(&menu, name, ShowInTarget::kComparison,
                     [this](const QString& instruction, ShowInTarget target) { emit showInRequested(instruction, target); });
    menu.exec(table_->viewport()->mapToGlobal(at));
  });
  // The two timelines, one above the other, on one time axis.
  for (int side = 0; side < 2; ++side) {
    auto* pane = new QWidget(splitter);
    auto* pane_layout = new QVBoxLayout(pane);
    pane_layout->setContentsMargins(0, 4, 0, 0);
    pane_layout->setSpacing(2);
    timeline_titles_[side] = new QLabel(pane);
    timelines_[side] = new TimelineCanvas(pane);
    timelines_[side]->SetFlowsShown(false);
    pane_layout->addWidget(timeline_titles_[side]);
    pane_layout->addWidget(timelines_[side], 1);
    splitter->addWidget(pane);
    connect(timelines_[side], &TimelineCanvas::windowChanged, this, [this, side] { FollowWindow(side); });
  }
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setStretchFactor(2, 2);
  layout->addWidget(splitter, 1);
  connect(filter_, &QLineEdit::textChanged, this, &RunComparisonView::SetFilter);
  connect(model_, &QAbstractItemModel::modelReset, this, [this] { SetFilter(filter_->text()); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const QString name = model_->InstructionAt(current.row());
            if (name.isEmpty()) return;
            for (TimelineCanvas* timeline : timelines_) timeline->HighlightInstructions({name});
            emit instructionSelected(name);
          });
  Clear();
}

void RunComparisonView::Clear() {
  model_->SetComparison({});
  SetTimelines(nullptr, nullptr);
  summary_->setText("Compare this profile's run with another's: File › Compare with Profile…, "
                    "or run the program again on another chip (File › Compile and Run…).");
}

void RunComparisonView::SetFilter(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);  // comes back here
  for (int row = 0; row < model_->rowCount(); ++row) {
    const QString name = model_->index(row, RunComparisonModel::kInstruction).data().toString();
    table_->setRowHidden(row, !name.contains(text, Qt::CaseInsensitive));
  }
}

void RunComparisonView::FocusSearch() {
  filter_->setFocus();
  filter_->selectAll();
}

void RunComparisonView::SetRunChoices(const QStringList& names) {
  for (QComboBox* picker : pickers_) {
    const int chosen = picker->currentIndex();
    picker->clear();
    picker->addItems(names);
    picker->setCurrentIndex(chosen < names.size() ? chosen : -1);
    picker->setEnabled(names.size() > 1);
  }
}

void RunComparisonView::SetChosenRuns(int before, int after) {
  pickers_[0]->setCurrentIndex(before);
  pickers_[1]->setCurrentIndex(after);
}

void RunComparisonView::ShowProblem(int before, int after, const QString& problem) {
  SetChosenRuns(before, after);
  model_->SetComparison({});
  SetTimelines(nullptr, nullptr);
  summary_->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                        .arg(StudioPalette::Get().slower.name(), problem.toHtmlEscaped()));
}

void RunComparisonView::SetTimelines(std::shared_ptr<const trace::Profile> before,
                                     std::shared_ptr<const trace::Profile> after) {
  const std::shared_ptr<const trace::Profile> profiles[2] = {std::move(before), std::move(after)};
  int64_t start = 0, end = 0;
  bool any = false;
  for (int side = 0; side < 2; ++side) {
    timelines_[side]->SetProfile(profiles[side]);
    timelines_[side]->parentWidget()->setVisible(profiles[side] != nullptr);
    if (!profiles[side] || profiles[side]->timeline.event_count() == 0) continue;
    const trace::TimeSpan span = profiles[side]->timeline.Span();
    start = any ? std::min(start, span.start_ps) : span.start_ps;
    end = any ? std::max(end, span.end_ps) : span.end_ps;
    any = true;
  }
  // One axis: both show the span of the longer run, so equal widths are equal times.
  if (any) {
    for (TimelineCanvas* timeline : timelines_) timeline->SetTimeBounds(start, end);
  }
}

void RunComparisonView::FollowWindow(int from_side) {
  if (following_) return;
  following_ = true;
  const TimeViewport& window = timelines_[from_side]->time_viewport();
  timelines_[1 - from_side]->ShowWindow(window.from_ps(), window.to_ps());
  following_ = false;
}

void RunComparisonView::SetComparison(analysis::RunComparison comparison, const QString& before_name,
                                      const QString& after_name, std::shared_ptr<const trace::Profile> before,
                                      std::shared_ptr<const trace::Profile> after) {
  model_->SetComparison(std::move(comparison));
  for (int side = 0; side < 2; ++side) {
    timeline_titles_[side]->setText(QStringLiteral("<b>%1</b> timeline").arg((side == 0 ? before_name : after_name).toHtmlEscaped()));
  }
  SetTimelines(std::move(before), std::move(after));
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
  row("of peak FLOP/s", QStringLiteral("%1 %").arg(100 * c.before.flop_utilization(), 0, 'f', 1),
      QStringLiteral("%1 %").arg(100 * c.after.flop_utilization(), 0, 'f', 1), "");
  row("chip", QString::fromStdString(c.before.chip).toHtmlEscaped(), QString::fromStdString(c.after.chip).toHtmlEscaped(), "");
  row("steps", QString::number(c.before.steps), QString::number(c.after.steps), "");
  for (int k = 0; k < analysis::kOpCategoryCount; ++k) {
    row(QStringLiteral("%1 unit time").arg(analysis::OpCategoryName(analysis::OpCategory(k))),
        model_->Duration(c.before.category_ps[k]), model_->Duration(c.after.category_ps[k]), "");
  }
  summary_->setText(QStringLiteral("<table cellspacing=4><tr><th></th><th>%1</th><th>%2</th><th>change</th></tr>%3</table>")
                        .arg(before_name.toHtmlEscaped(), after_name.toHtmlEscaped(), rows));
  table_->resizeColumnsToContents();
}

QString RunComparisonView::summary() const { return summary_->text(); }

}  // namespace systolic::views
