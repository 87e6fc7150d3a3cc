#include "views/timeline_view.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "views/timeline_canvas.h"

namespace systolic::views {
namespace {

// More matches than anyone steps through; the count says when there are more.
constexpr int64_t kMaxResults = 1'000'000;

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  toolbar_ = new QToolBar(this);
  search_ = new QLineEdit(toolbar_);
  search_->setPlaceholderText("Find events in the whole trace (name, hlo_op, module)");
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(340);
  toolbar_->addWidget(search_);
  toolbar_->addAction("◀", this, [this] { NextResult(-1); })->setToolTip("Previous match (Shift+Enter)");
  toolbar_->addAction("▶", this, [this] { NextResult(1); })->setToolTip("Next match (Enter)");
  search_status_ = new QLabel(toolbar_);
  search_status_->setMinimumWidth(110);
  toolbar_->addWidget(search_status_);
  toolbar_->addSeparator();
  canvas_ = new TimelineCanvas(this);
  toolbar_->addAction("Fit", canvas_, &TimelineCanvas::FitAll)->setToolTip("Whole trace (F)");
  toolbar_->addAction("−", this, [this] { canvas_->ZoomOut(); })->setToolTip("Zoom out (S)");
  toolbar_->addAction("+", this, [this] { canvas_->ZoomIn(); })->setToolTip("Zoom in (W)");
  toolbar_->addAction("Zoom to selection", canvas_, &TimelineCanvas::ZoomToSelection)
      ->setToolTip("The selected range or event fills the view (Z)");
  cycles_ = toolbar_->addAction("Cycles");
  cycles_->setCheckable(true);
  cycles_->setToolTip("Ruler in clock cycles of the chip (C)");
  connect(cycles_, &QAction::toggled, canvas_, &TimelineCanvas::SetCycleUnits);
  toolbar_->addSeparator();
  highlight_ = new QLabel(toolbar_);
  highlight_->setStyleSheet("color: #b45309;");
  toolbar_->addWidget(highlight_);
  layout->addWidget(toolbar_);
  layout->addWidget(canvas_, 1);

  watcher_ = new QFutureWatcher<std::vector<trace::EventRef>>(this);
  connect(watcher_, &QFutureWatcher<std::vector<trace::EventRef>>::finished, this, [this] {
    if (watcher_->property("generation").toInt() != generation_) return;
    results_ = watcher_->result();
    position_ = -1;
    const int count = int(results_.size());
    search_status_->setText(count == 0                     ? QStringLiteral("no match")
                            : count >= int(kMaxResults)    ? QStringLiteral("%L1+ matches").arg(count)
                                                           : QStringLiteral("%L1 matches").arg(count));
    emit searchFinished(count);
  });
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (results_.empty() && !searching()) {
      Search(search_->text());
    } else {
      NextResult(1);
    }
  });
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) { Search(text); });
  connect(canvas_, &TimelineCanvas::eventSelected, this, &TimelineView::eventSelected);
  connect(canvas_, &TimelineCanvas::showInRequested, this, &TimelineView::showInRequested);
  connect(canvas_, &TimelineCanvas::windowChanged, this, [this] {
    cycles_->setChecked(canvas_->cycle_units());
  });
}

TimelineView::~TimelineView() { watcher_->waitForFinished(); }

void TimelineView::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  ++generation_;
  results_.clear();
  position_ = -1;
  search_->blockSignals(true);
  search_->clear();
  search_->blockSignals(false);
  search_status_->clear();
  highlight_->clear();
  canvas_->SetProfile(profile_);
  cycles_->setEnabled(canvas_->clock_hz() > 0);
  cycles_->setChecked(false);
}

bool TimelineView::searching() const { return watcher_->isRunning(); }

void TimelineView::Search(const QString& text, bool wait) {
  ++generation_;
  results_.clear();
  position_ = -1;
  const std::string needle = text.trimmed().toStdString();
  if (!profile_ || needle.empty()) {
    search_status_->clear();
    return;
  }
  search_status_->setText("searching…");
  watcher_->setProperty("generation", generation_);
  std::shared_ptr<const trace::Profile> keep = profile_;
  watcher_->setFuture(QtConcurrent::run([keep, needle] { return keep->timeline.Search(needle, kMaxResults); }));
  if (wait) {
    watcher_->waitForFinished();
    QCoreApplication::sendPostedEvents(watcher_);
    if (results_.empty() && watcher_->property("generation").toInt() == generation_) {
      results_ = watcher_->result();
    }
  }
}

void TimelineView::NextResult(int direction) {
  if (results_.empty()) return;
  const int n = int(results_.size());
  position_ = ((position_ + direction) % n + n) % n;
  canvas_->SelectEvent(results_[position_], /*bring_into_view=*/true);
  search_status_->setText(QStringLiteral("%L1 of %L2").arg(position_ + 1).arg(n));
  emit eventSelected(results_[position_]);
}

void TimelineView::HighlightInstructions(const QStringList& names) {
  canvas_->HighlightInstructions(names);
  if (names.isEmpty()) {
    highlight_->clear();
  } else {
    QString shown = names.mid(0, 3).join(", ");
    if (names.size() > 3) shown += QStringLiteral(" and %1 more").arg(names.size() - 3);
    highlight_->setText("Lit up: events of " + shown);
  }
}

void TimelineView::ZoomTo(int64_t start_ps, int64_t end_ps) {
  canvas_->ShowRange(double(start_ps), double(end_ps), 0.02);
}

void TimelineView::FocusSearch() {
  search_->setFocus();
  search_->selectAll();
}

}  // namespace systolic::views
