// The graph view: two pass stages of a program side by side (before and
// after fusion unless asked otherwise). Selecting on one side marks on the
// other what the selection became or came from (provenance), and tells the
// rest of the studio which instructions are selected. Search, fit, zoom and
// export act on the side last used.
#pragma once

#include <QStringList>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/analysis/loop_times.h"
#include "core/analysis/stage_module.h"
#include "core/trace/profile.h"
#include "views/show_in.h"

class QAction;
class QLabel;
class QLineEdit;
class QSplitter;
class QToolBar;

namespace systolic::views {

class GraphPane;
class StageStore;

class GraphView : public QWidget {
  Q_OBJECT

 public:
  enum class Side { kBefore, kAfter };

  explicit GraphView(StageStore* store, QWidget* parent = nullptr);

  // Shows `program` (null: nothing) at its default pair of stages.
  void SetProgram(const trace::ProgramRecord* program);
  const trace::ProgramRecord* program() const { return program_; }
  void ShowStage(int64_t stage, Side side);
  // Two different programs side by side (a recompile against the program
  // it missed): `before`'s stage on the left, `after`'s on the right.
  void ComparePrograms(const trace::ProgramRecord* before, int64_t before_stage,
                       const trace::ProgramRecord* after, int64_t after_stage);
  // Colours both sides by a comparison of two runs (see
  // GraphPane::SetRunChanges), `legend` naming them; null: by unit.
  void SetRunChanges(std::shared_ptr<const absl::flat_hash_map<std::string, double>> changes,
                     const QString& legend = {});
  QString run_changes_legend() const;
  // Both sides, or only the "after" side.
  void SetCompare(bool compare);
  bool compare() const { return compare_; }

  GraphPane* before() const { return before_; }
  GraphPane* after() const { return after_; }
  GraphPane* active() const { return active_; }
  // True while a stage is parsed or laid out.
  bool busy() const;

  // Selects the instruction named `name` in the later stage (or else the
  // earlier one) and marks its links; false when neither has it. While the
  // program's stages are still parsing, it is selected once they are.
  bool SelectInstructionByName(const QString& name);
  // The same, announced as a click on the node is (instructionsSelected),
  // for views that pick an instruction on the user's behalf.
  bool PickInstructionByName(const QString& name);

  // --- Toolbar actions, on the active side ------------------------------------
  int Search(const QString& text);
  void NextSearchHit(int direction);
  void Fit();
  void ZoomBy(double factor);
  void FocusSearch();
  QToolBar* toolbar() const { return toolbar_; }

 signals:
  // The user selected instructions (on either side): the stage they belong
  // to, and the names of everything linked to them on both sides — what
  // the timeline lights up.
  void instructionsSelected(const analysis::StageModule* stage,
                            const std::vector<const HloInstruction*>& instructions,
                            const QStringList& linked_names);
  void busyChanged();
  void showInRequested(const QString& instruction, ShowInTarget target);

 private:
  void Connect(GraphPane* pane, GraphPane* other);
  // Loads stage `stage` of `program`, or of the program the pane shows when null.
  void LoadStage(GraphPane* pane, int64_t stage, const trace::ProgramRecord* program = nullptr);
  void OnStageReady(qint64 program_id, qint64 stage);
  const analysis::LoopTimes& LoopTimesOf(const trace::ProgramRecord& program);
  void ExportActive(const QString& format);

  StageStore* store_;
  const trace::ProgramRecord* program_ = nullptr;
  // Loop times by program id, for the profile they were read from.
  std::weak_ptr<const trace::Profile> loop_times_profile_;
  std::map<int64_t, analysis::LoopTimes> loop_times_;
  GraphPane* before_ = nullptr;
  GraphPane* after_ = nullptr;
  GraphPane* active_ = nullptr;
  QSplitter* splitter_ = nullptr;
  QToolBar* toolbar_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* search_status_ = nullptr;
  QLabel* run_changes_legend_ = nullptr;
  bool compare_ = true;
  QString pending_selection_;  // an instruction to select once its stage is parsed
};

}  // namespace systolic::views
