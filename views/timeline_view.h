// The timeline view: the canvas with a toolbar — search over the whole
// trace (in the background), stepping through the matches, zoom buttons,
// time / cycles, and a note of the instructions lit up from the graph.
#pragma once

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/trace/profile.h"
#include "views/show_in.h"

class QAction;
class QLabel;
class QLineEdit;
class QToolBar;

namespace systolic::views {

class TimelineCanvas;

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  TimelineCanvas* canvas() const { return canvas_; }

  // Searches every event of the trace; `done` when the results are in
  // (at once when `wait`).
  void Search(const QString& text, bool wait = false);
  const std::vector<trace::EventRef>& search_results() const { return results_; }
  // Selects the next (previous) match and brings it into view.
  void NextResult(int direction = 1);
  bool searching() const;

  void HighlightInstructions(const QStringList& names);
  void ZoomTo(int64_t start_ps, int64_t end_ps);
  void FocusSearch();

 signals:
  void eventSelected(const trace::EventRef& ref);
  void searchFinished(int count);
  void showInRequested(const QString& instruction, ShowInTarget target);

 private:
  TimelineCanvas* canvas_ = nullptr;
  QToolBar* toolbar_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* search_status_ = nullptr;
  QLabel* highlight_ = nullptr;
  QAction* cycles_ = nullptr;
  QFutureWatcher<std::vector<trace::EventRef>>* watcher_ = nullptr;
  std::shared_ptr<const trace::Profile> profile_;
  std::vector<trace::EventRef> results_;
  int position_ = -1;
  int generation_ = 0;
};

}  // namespace systolic::views
