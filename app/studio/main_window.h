// The studio's main window: the profile explorer and the program outline on
// the left, the details of the selection on the right, the views (graph,
// timeline, HLO text, recompilations, sharding, memory) as tabs; menus, shortcuts, recent files, drag and
// drop, and the layout and settings of the last session.
#pragma once

#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/stage_module.h"
#include "core/trace/profile.h"
#include "views/show_in.h"
#include "views/studio_theme.h"

class QComboBox;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;
class QTreeView;
class QAction;

namespace systolic::views {
class DetailsPane;
class GraphView;
class HloTextView;
class MemoryChart;
class ModuleOutlineModel;
class OpProfileView;
class ProfileExplorerModel;
class RecompilationsView;
class RooflineChart;
class RunComparisonView;
class UtilizationChart;
class ShardingView;
class StageStore;
class TimelineView;
class WelcomePage;
struct ProgramRunRequest;
}  // namespace systolic::views

namespace systolic::studio {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  enum class View { kGraph = 0, kTimeline, kText, kRecompilations, kSharding, kMemory, kOps, kRoofline, kUtilization, kComparison };
  // "graph", "timeline", "text", "recompilations", "sharding", "memory", "ops", "roofline",
  // "utilization".
  static std::optional<View> ParseView(const QString& name);

  MainWindow();
  ~MainWindow() override;

  // Opens a profile (.sysprof), an XSpace (.xplane.pb), a program (HLO
  // text, StableHLO) or an XLA dump folder; on failure keeps what was open and says why (empty
  // `error` when the user cancelled reading).
  bool OpenFile(const QString& path, QString* error);
  // OpenFile, saying why in a dialog when the file does not open.
  bool OpenAndReport(const QString& path);
  // Compares the open profile's run (before) with the profile at `path`
  // (after) in the Comparison view; on failure says why in `error`.
  bool CompareWith(const QString& path, QString* error);
  // Simulates the open real profile's programs on the chip preset (or spec
  // file) `chip` and shows the simulated time beside the measured one in the
  // op profile. False with `error` empty when the user cancelled.
  bool CompareWithSimulation(const QString& chip, QString* error);
  // Shows a profile already in memory as a new session's first run (null:
  // closes what is open); `adopted` are stage modules the caller already
  // has (program id, stage, module); `program_only` when it is a program
  // not run yet.
  using AdoptedStage = std::pair<std::pair<int64_t, int64_t>, std::shared_ptr<const analysis::StageModule>>;
  void OpenProfile(std::shared_ptr<const trace::Profile> profile, const QString& title,
                   std::vector<AdoptedStage> adopted = {}, bool program_only = false);

  // The runs of this session: the file as opened, then every what-if run
  // made from it and every profile compared with it, in the order they came.
  struct SessionRun {
    QString label;
    std::shared_ptr<const trace::Profile> profile;
    bool program_only = false;  // a program file's modules, not run yet
  };
  const std::vector<SessionRun>& runs() const { return runs_; }
  int current_run() const { return current_run_; }
  // Shows run `index` of the session in every view (-1: nothing).
  void ShowRun(int index, std::vector<AdoptedStage> adopted = {});
  // Compiles the shown program (its input stage) and runs it as `request`
  // says; the run joins the session, is shown, and is compared with the run
  // shown before it. False with `error` when it fails or is cancelled.
  bool RunProgram(const views::ProgramRunRequest& request, QString* error);
  // Writes the run shown as a profile (.sysprof) to open again later;
  // false with `error` when it cannot.
  bool SaveRun(const QString& path, QString* error);
  // Run `before` against run `after` in the Comparison view.
  bool CompareSessionRuns(int before, int after, QString* error);

  void ShowView(View view);
  View current_view() const;
  // "Show in …": the instruction selected in the view `target` names.
  void ShowInstructionIn(const QString& instruction, views::ShowInTarget target);
  // Light, dark or the system's; remembered for the next session.
  void SetTheme(views::Theme theme);
  // True while a stage is parsed or a graph laid out.
  bool busy() const;
  // Runs `done` once nothing is busy, or after `timeout_ms`.
  void WhenIdle(std::function<void()> done, int timeout_ms = 60000);
  // Renders the window into a PNG file.
  bool SaveScreenshot(const QString& path);
  // The view shown, as PNG or SVG by the path's extension.
  bool ExportCurrentView(const QString& path);

  views::GraphView* graph_view() const { return graph_view_; }
  views::TimelineView* timeline_view() const { return timeline_view_; }
  views::RecompilationsView* recompilations_view() const { return recompilations_view_; }
  views::ShardingView* sharding_view() const { return sharding_view_; }
  views::MemoryChart* memory_chart() const { return memory_chart_; }
  views::OpProfileView* op_profile_view() const { return op_profile_view_; }
  views::RooflineChart* roofline_chart() const { return roofline_chart_; }
  views::UtilizationChart* utilization_chart() const { return utilization_chart_; }
  views::RunComparisonView* comparison_view() const { return comparison_view_; }
  views::DetailsPane* details() const { return details_; }
  views::HloTextView* text_view() const { return text_view_; }
  views::ProfileExplorerModel* explorer_model() const { return explorer_model_; }
  QTreeView* explorer() const { return explorer_; }
  // What the profile's producer warns about (loops whose trip count was
  // assumed, custom calls without a cost): shown above the views.
  const QLabel* notes_banner() const { return notes_banner_; }
  const trace::Profile* profile() const { return profile_.get(); }
  // Shown instead of the views until something is open.
  views::WelcomePage* welcome_page() const { return welcome_; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void CreateActions();
  void OpenWithDialog();
  void OpenFolderWithDialog();
  // An XLA dump folder: its modules with XLA's passes as their stages.
  bool OpenDumpFolder(const QString& path, QString* error);
  void CompileAndRun();
  void ShowShortcuts();
  void UpdateRecentFilesMenu();
  void RememberRecentFile(const QString& path);
  void OnExplorerActivated(const QModelIndex& index);
  void OnExplorerClicked(const QModelIndex& index);
  void ShowExplorerMenu(const QPoint& position);
  void ShowStageText(int64_t program_index, int64_t stage);
  void ShowNotes();
  void ShowOutlineInstruction(const QModelIndex& index);
  // Scrolls the HLO text to the instruction's line and marks it; false when
  // the stage shown has no such instruction.
  bool ScrollTextTo(const std::string& instruction);
  void FindInCurrentView();
  void FindNext(int direction);
  absl::StatusOr<trace::Profile> ReadProfileWithProgress(const QString& path, bool* cancelled);
  // Fills every view with `profile` (the run being shown).
  void ShowProfile(std::shared_ptr<const trace::Profile> profile, const QString& title,
                   std::vector<AdoptedStage> adopted = {});
  int AddRun(SessionRun run);
  void UpdateRunPicker();
  // The graph coloured by the comparison shown, when asked for.
  void ColourGraphByComparison();
  // The module a what-if run compiles: the input stage of the program shown.
  std::shared_ptr<const analysis::StageModule> RunSource(QString* error);

  views::StageStore* store_ = nullptr;
  std::shared_ptr<const trace::Profile> profile_;
  QString path_;
  std::pair<int64_t, int64_t> text_stage_{-1, -1};  // (program id, stage) in the text tab

  QTabWidget* tabs_ = nullptr;
  views::RunComparisonView* comparison_view_ = nullptr;
  QStackedWidget* pages_ = nullptr;  // the welcome page, then the views
  views::WelcomePage* welcome_ = nullptr;
  views::GraphView* graph_view_ = nullptr;
  views::TimelineView* timeline_view_ = nullptr;
  views::HloTextView* text_view_ = nullptr;
  views::RecompilationsView* recompilations_view_ = nullptr;
  views::ShardingView* sharding_view_ = nullptr;
  views::MemoryChart* memory_chart_ = nullptr;
  views::OpProfileView* op_profile_view_ = nullptr;
  views::RooflineChart* roofline_chart_ = nullptr;
  views::UtilizationChart* utilization_chart_ = nullptr;
  views::ProfileExplorerModel* explorer_model_ = nullptr;
  QTreeView* explorer_ = nullptr;
  views::ModuleOutlineModel* outline_model_ = nullptr;
  QTreeView* outline_ = nullptr;
  std::shared_ptr<const analysis::StageModule> outline_stage_;
  views::DetailsPane* details_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* notes_banner_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QAction* run_action_ = nullptr;
  QAction* simulate_action_ = nullptr;
  std::vector<SessionRun> runs_;
  int current_run_ = -1;
  QComboBox* run_picker_ = nullptr;
  QAction* colour_by_comparison_ = nullptr;
  QAction* save_run_action_ = nullptr;
};

}  // namespace systolic::studio
