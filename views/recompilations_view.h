// Why the program compiled when it did: the compile events as a table
// (misses with their cause in words), for a selected miss the module
// compared line by line with the nearest previous one, a chart of compiles
// and compile time per step, and a banner when compiles keep happening
// that names the top cause.
#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis/recompilation_report.h"
#include "core/trace/profile.h"

class QLabel;
class QPushButton;
class QTableView;
class QTextEdit;
class QSplitter;
class QSortFilterProxyModel;

class QChartView;

namespace systolic::views {

class CompileEventsModel;

class RecompilationsView : public QWidget {
  Q_OBJECT

 public:
  explicit RecompilationsView(QWidget* parent = nullptr);
  ~RecompilationsView() override;

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  // Selects the compile event at `index` into the profile's compile_events.
  void SelectCompile(int index);

  CompileEventsModel* model() const { return model_; }
  const analysis::RecompilationReport& report() const { return report_; }
  bool banner_visible() const;
  QString banner_text() const;
  // The diff shown for the selected compile ("" for a hit or a first compile).
  QString diff_text() const;
  // Asks for the selected miss's two programs side by side in the graph view.
  void CompareGraphs();
  // Per step: (misses, compile time in ms) as the chart draws them.
  QList<QPointF> chart_compiles() const;

 signals:
  // A compile was selected: its index into the profile's compile_events.
  void compileSelected(int index);
  // "Compare graphs" on a miss: the program it was compared with and the
  // one it compiled, for the graph view's side by side.
  void compareProgramsRequested(qint64 before_program_id, qint64 now_program_id);

 private:
  void ShowDiffFor(int index);
  void RebuildChart();

  std::shared_ptr<const trace::Profile> profile_;
  analysis::RecompilationReport report_;
  CompileEventsModel* model_ = nullptr;
  QSortFilterProxyModel* sorted_ = nullptr;
  QLabel* banner_ = nullptr;
  QLabel* summary_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* diff_title_ = nullptr;
  QTextEdit* diff_ = nullptr;
  QPushButton* compare_graphs_ = nullptr;
  std::pair<int64_t, int64_t> compared_{-1, -1};  // (before, now) program ids of the shown miss
  QString diff_plain_;
  QChartView* chart_ = nullptr;
};

}  // namespace systolic::views
