#include "views/recompilations_view.h"

#include <QBarCategoryAxis>
#include <QStackedBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextEdit>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/analysis/module_text_diff.h"
#include "core/trace/profile_summary.h"
#include "views/compile_events_model.h"
#include "views/studio_chart.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// Sorts on the raw values the model gives under Qt::UserRole.
class RawValueSortModel : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

 protected:
  bool lessThan(const QModelIndex& a, const QModelIndex& b) const override {
    const QVariant left = sourceModel()->data(a, Qt::UserRole), right = sourceModel()->data(b, Qt::UserRole);
    if (left.typeId() == QMetaType::LongLong && right.typeId() == QMetaType::LongLong) {
      return left.toLongLong() < right.toLongLong();
    }
    return QString::localeAwareCompare(left.toString(), right.toString()) < 0;
  }
};

QString DiffHtml(const analysis::ModuleTextDiff& diff) {
  // Unchanged runs are cut to a few lines of context, as `diff -u` does.
  const QStringList lines = QString::fromStdString(analysis::FormatDiff(diff, 3)).split('\n');
  QString html = QStringLiteral("<pre style=\"font-family:'DejaVu Sans Mono',monospace;font-size:9pt\">");
  for (const QString& line : lines) {
    if (line.isEmpty()) continue;
    const QString text = line.toHtmlEscaped();
    if (line.startsWith("- ")) {
      html += QStringLiteral("<span style=\"background:#fee2e2;color:#991b1b\">%1</span>\n").arg(text);
    } else if (line.startsWith("+ ")) {
      html += QStringLiteral("<span style=\"background:#dcfce7;color:#166534\">%1</span>\n").arg(text);
    } else {
      html += QStringLiteral("<span style=\"color:#57534e\">%1</span>\n").arg(text);
    }
  }
  return html + QStringLiteral("</pre>");
}

}  // namespace

RecompilationsView::RecompilationsView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner_->setStyleSheet(
      "QLabel { background: #fef3c7; color: #78350f; border: 1px solid #f59e0b; border-radius: 4px; "
      "padding: 6px 10px; font-weight: bold; }");
  banner_->hide();
  layout->addWidget(banner_);
  summary_ = new QLabel(this);
  summary_->setStyleSheet("color: #57534e;");
  layout->addWidget(summary_);

  model_ = new CompileEventsModel(this);
  sorted_ = new RawValueSortModel(this);
  sorted_->setSourceModel(model_);
  table_ = new QTableView(this);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(CompileEventsModel::kTime, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(22);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const int row = sorted_->mapToSource(current).row();
            ShowDiffFor(row);
            if (row >= 0) emit compileSelected(row);
          });

  auto* diff_panel = new QWidget(this);
  auto* diff_layout = new QVBoxLayout(diff_panel);
  diff_layout->setContentsMargins(0, 0, 0, 0);
  diff_title_ = new QLabel("Select a cache miss to compare its module with the one before.", diff_panel);
  diff_title_->setWordWrap(true);
  diff_ = new QTextEdit(diff_panel);
  diff_->setReadOnly(true);
  diff_->setLineWrapMode(QTextEdit::NoWrap);
  compare_graphs_ = new QPushButton("Compare graphs", diff_panel);
  compare_graphs_->setToolTip("Both programs side by side in the graph view");
  compare_graphs_->setEnabled(false);
  connect(compare_graphs_, &QPushButton::clicked, this, &RecompilationsView::CompareGraphs);
  auto* title_row = new QHBoxLayout();
  title_row->addWidget(diff_title_, 1);
  title_row->addWidget(compare_graphs_, 0, Qt::AlignTop);
  diff_layout->addLayout(title_row);
  diff_layout->addWidget(diff_, 1);

  chart_ = new QChartView(this);
  chart_->setRenderHint(QPainter::Antialiasing);
  chart_->setMinimumHeight(220);

  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(diff_panel);
  bottom->addWidget(chart_);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(bottom);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  layout->addWidget(split, 1);
  RebuildChart();
}

RecompilationsView::~RecompilationsView() { model_->SetProfile(nullptr); }

void RecompilationsView::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  model_->SetProfile(nullptr);
  profile_ = std::move(profile);
  report_ = profile_ ? analysis::ReportRecompilations(*profile_) : analysis::RecompilationReport{};
  model_->SetProfile(profile_.get());
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
  banner_->setVisible(report_.keeps_recompiling);
  banner_->setText(QStringLiteral("⚠ %1").arg(QString::fromStdString(report_.banner)));
  if (profile_) {
    QString summary = QStringLiteral("%1 compiles: %2 misses (%3 recompiles), %4 cache hits · %5 compiling")
                          .arg(report_.misses + report_.hits)
                          .arg(report_.misses)
                          .arg(report_.recompiles)
                          .arg(report_.hits)
                          .arg(QString::fromStdString(trace::FormatDurationPs(report_.compile_time_ns * 1000)));
    if (!report_.recompile_causes.empty() && !report_.keeps_recompiling) {
      summary += QStringLiteral(" · recompiled for: %1")
                     .arg(QString::fromStdString(report_.recompile_causes.front().kind));
    }
    summary_->setText(summary);
  } else {
    summary_->setText("No profile open");
  }
  ShowDiffFor(-1);
  diff_title_->setText("Select a cache miss to compare its module with the one before.");
  RebuildChart();
  // Open on the first recompile: the compile users come here for.
  if (profile_) {
    for (size_t i = 0; i < profile_->compile_events.size(); ++i) {
      const trace::CompileEvent& e = profile_->compile_events[i];
      if (!e.cache_hit && e.compared_program_id >= 0) {
        SelectCompile(int(i));
        break;
      }
    }
  }
}

void RecompilationsView::SelectCompile(int index) {
  const QModelIndex source = model_->index(index, 0);
  if (!source.isValid()) return;
  const QModelIndex row = sorted_->mapFromSource(source);
  table_->selectionModel()->setCurrentIndex(
      row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->scrollTo(row);
}

void RecompilationsView::CompareGraphs() {
  if (compared_.first >= 0 && compared_.second >= 0) {
    emit compareProgramsRequested(compared_.first, compared_.second);
  }
}

void RecompilationsView::ShowDiffFor(int index) {
  diff_->clear();
  diff_plain_.clear();
  compared_ = {-1, -1};
  compare_graphs_->setEnabled(false);
  if (!profile_ || index < 0 || index >= int(profile_->compile_events.size())) return;
  const trace::CompileEvent& e = profile_->compile_events[size_t(index)];
  if (e.cache_hit) {
    diff_title_->setText(QStringLiteral("Step %1: cache hit on %2 — nothing compiled.")
                             .arg(e.step)
                             .arg(QString::fromStdString(e.fingerprint)));
    return;
  }
  const analysis::ComparedPrograms programs = analysis::ProgramsOfMiss(*profile_, e);
  const QString cause = QString::fromStdString(trace::CauseInWords(e));
  if (!programs.before || !programs.now || programs.now->snapshots.empty() ||
      programs.before->snapshots.empty()) {
    diff_title_->setText(QStringLiteral("<b>Step %1: %2</b><br>No earlier program to compare with.")
                             .arg(e.step)
                             .arg(cause.toHtmlEscaped()));
    return;
  }
  // The modules as they were handed to the compiler.
  const analysis::ModuleTextDiff diff = analysis::DiffModuleText(programs.before->snapshots.front().hlo_text,
                                                           programs.now->snapshots.front().hlo_text);
  diff_title_->setText(QStringLiteral("<b>Step %1: %2</b><br>− %3 #%4 (cached before) · + %5 #%6 (compiled "
                                      "now): %7 lines removed, %8 added")
                           .arg(e.step)
                           .arg(cause.toHtmlEscaped())
                           .arg(QString::fromStdString(programs.before->name))
                           .arg(programs.before->id)
                           .arg(QString::fromStdString(programs.now->name))
                           .arg(programs.now->id)
                           .arg(diff.removed)
                           .arg(diff.added));
  diff_plain_ = QString::fromStdString(analysis::FormatDiff(diff, 3));
  compared_ = {programs.before->id, programs.now->id};
  compare_graphs_->setEnabled(true);
  diff_->setHtml(DiffHtml(diff));
}

void RecompilationsView::RebuildChart() {
  auto* chart = NewStudioChart();
  chart->setTitle("Compiles per step");
  const StudioPalette& palette = StudioPalette::Get();
  auto* misses = new QBarSet("compiles");
  misses->setColor(palette.mxu);
  auto* hits = new QBarSet("hits");
  hits->setColor(StudioPalette::Tint(palette.data_movement, 55));
  auto* time = new QLineSeries();
  time->setName("compile ms");
  time->setColor(palette.collective);
  time->setPointsVisible(true);
  QStringList steps;
  double most_time = 0;
  int most = 0;
  for (size_t i = 0; i < report_.steps.size(); ++i) {
    const analysis::StepCompiles& s = report_.steps[i];
    steps << QString::number(s.step);
    *misses << double(s.misses);
    *hits << double(s.hits);
    const double ms = double(s.compile_time_ns) / 1e6;
    time->append(double(i), ms);
    most_time = std::max(most_time, ms);
    most = std::max<int>(most, int(s.misses + s.hits));
  }
  auto* bars = new QStackedBarSeries();
  bars->setBarWidth(0.8);
  bars->append(misses);
  bars->append(hits);
  chart->addSeries(bars);
  chart->addSeries(time);
  auto* x = new QBarCategoryAxis();
  x->append(steps.isEmpty() ? QStringList{"—"} : steps);
  x->setTitleText("step");
  auto* count = new QValueAxis();
  count->setRange(0, std::max(1, most));
  count->setTickCount(std::min(std::max(1, most), 5) + 1);
  count->setLabelFormat("%d");
  count->setTitleText("compiles");
  auto* ms = new QValueAxis();
  ms->setRange(0, most_time > 0 ? most_time * 1.15 : 1.0);
  ms->setLabelFormat("%.1f");
  ms->setTitleText("ms");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(count, Qt::AlignLeft);
  chart->addAxis(ms, Qt::AlignRight);
  bars->attachAxis(x);
  bars->attachAxis(count);
  time->attachAxis(x);
  time->attachAxis(ms);
  QChart* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

bool RecompilationsView::banner_visible() const { return !banner_->isHidden(); }

QString RecompilationsView::banner_text() const { return banner_->text(); }

QString RecompilationsView::diff_text() const { return diff_plain_; }

QList<QPointF> RecompilationsView::chart_compiles() const {
  QList<QPointF> out;
  for (const analysis::StepCompiles& s : report_.steps) {
    out.append(QPointF(double(s.misses), double(s.compile_time_ns) / 1e6));
  }
  return out;
}

}  // namespace systolic::views
