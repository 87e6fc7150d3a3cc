#include "app/studio/main_window.h"


#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QSaveFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QDir>
#include <QMessageBox>
#include <QScreen>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextEdit>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "core/analysis/event_details.h"
#include "core/analysis/measured_vs_simulated.h"
#include "core/analysis/program_of_event.h"
#include "core/analysis/program_profile.h"
#include "core/analysis/run_comparison.h"
#include "core/device/chip_spec_loader.h"
#include "core/stablehlo/program_file.h"
#include "core/trace/file_kind.h"
#include "core/trace/profile_reader.h"
#include "core/trace/profile_writer.h"
#include "core/trace/xla_dump_importer.h"
#include "core/trace/xspace_importer.h"
#include "core/trace/xspace_programs.h"
#include "views/details_pane.h"
#include "views/error_dialog.h"
#include "views/welcome_page.h"
#include "views/widget_export.h"
#include "views/graph_pane.h"
#include "views/graph_view.h"
#include "views/hlo_text_view.h"
#include "views/memory_chart.h"
#include "views/module_outline_model.h"
#include "views/op_profile_model.h"
#include "views/op_profile_view.h"
#include "views/profile_explorer_model.h"
#include "views/program_runner.h"
#include "views/progress_job.h"
#include "views/recompilations_view.h"
#include "views/run_comparison_view.h"
#include "views/roofline_chart.h"
#include "views/run_program_dialog.h"
#include "views/sharding_view.h"
#include "views/stage_store.h"
#include "views/studio_theme.h"
#include "views/timeline_canvas.h"
#include "views/timeline_view.h"
#include "views/utilization_chart.h"

namespace systolic::studio {
namespace {

constexpr int kMaxRecentFiles = 10;

QString FromStatus(const absl::Status& status) {
  return QString::fromStdString(std::string(status.message()));
}

#if defined(__clang__)
#define SYSTOLIC_COMPILER "clang " __clang_version__
#else
#define SYSTOLIC_COMPILER "GCC " __VERSION__
#endif

// 1600x960, or less on a smaller screen (or a larger scale factor): the
// first window never opens larger than the screen it opens on.
QSize FirstWindowSize() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  if (screen == nullptr) return QSize(1600, 960);
  const QSize room = screen->availableSize() * 0.9;
  return QSize(1600, 960).boundedTo(room);
}

// The version and the build, for About and bug reports.
QString AboutText() {
  return QStringLiteral(
             "<p><b>Systolic Studio %1</b></p><p>A profiler and visual debugger for XLA-style "
             "compilers and runtimes on simulated systolic-array chips.</p><p>Built %2 with %3, "
             "Qt %4 (running on Qt %5).</p>")
      .arg(QCoreApplication::applicationVersion(), QStringLiteral(__DATE__),
           QStringLiteral(SYSTOLIC_COMPILER).toHtmlEscaped(), QStringLiteral(QT_VERSION_STR),
           QString::fromLatin1(qVersion()));
}

}  // namespace

std::optional<MainWindow::View> MainWindow::ParseView(const QString& name) {
  if (name == "graph") return View::kGraph;
  if (name == "timeline") return View::kTimeline;
  if (name == "text" || name == "hlo") return View::kText;
  if (name == "recompilations" || name == "compiles") return View::kRecompilations;
  if (name == "sharding" || name == "topology") return View::kSharding;
  if (name == "memory") return View::kMemory;
  if (name == "ops" || name == "op-profile") return View::kOps;
  if (name == "roofline") return View::kRoofline;
  if (name == "utilization" || name == "utilisation") return View::kUtilization;
  if (name == "comparison" || name == "compare") return View::kComparison;
  return std::nullopt;
}

MainWindow::MainWindow() {
  setWindowTitle("Systolic Studio");
  setWindowIcon(QIcon(":/icons/systolic.svg"));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  resize(FirstWindowSize());
  store_ = new views::StageStore(this);

  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  graph_view_ = new views::GraphView(store_, tabs_);
  timeline_view_ = new views::TimelineView(tabs_);
  text_view_ = new views::HloTextView(tabs_);
  tabs_->addTab(graph_view_, "Graph");
  tabs_->addTab(timeline_view_, "Timeline");
  tabs_->addTab(text_view_, "HLO text");
  recompilations_view_ = new views::RecompilationsView(tabs_);
  sharding_view_ = new views::ShardingView(store_, tabs_);
  memory_chart_ = new views::MemoryChart(tabs_);
  tabs_->addTab(recompilations_view_, "Recompilations");
  tabs_->addTab(sharding_view_, "Sharding");
  tabs_->addTab(memory_chart_, "Memory");
  op_profile_view_ = new views::OpProfileView(tabs_);
  roofline_chart_ = new views::RooflineChart(tabs_);
  tabs_->addTab(op_profile_view_, "Op profile");
  tabs_->addTab(roofline_chart_, "Roofline");
  utilization_chart_ = new views::UtilizationChart(tabs_);
  tabs_->addTab(utilization_chart_, "Utilisation");
  comparison_view_ = new views::RunComparisonView(tabs_);
  tabs_->addTab(comparison_view_, "Comparison");
  notes_banner_ = new QLabel(this);
  notes_banner_->setWordWrap(true);
  notes_banner_->setTextFormat(Qt::PlainText);
  notes_banner_->setContentsMargins(8, 4, 8, 4);
  notes_banner_->setStyleSheet("QLabel { background: #fff4ce; color: #3b2f00; }");
  notes_banner_->hide();
  auto* central = new QWidget(this);
  auto* central_layout = new QVBoxLayout(central);
  central_layout->setContentsMargins(0, 0, 0, 0);
  central_layout->setSpacing(0);
  central_layout->addWidget(notes_banner_);
  central_layout->addWidget(tabs_, 1);
  // Before anything is open, a welcome page stands in for the views.
  welcome_ = new views::WelcomePage(this);
  connect(welcome_, &views::WelcomePage::openRequested, this, &MainWindow::OpenAndReport);
  connect(welcome_, &views::WelcomePage::openDialogRequested, this, &MainWindow::OpenWithDialog);
  pages_ = new QStackedWidget(this);
  pages_->addWidget(welcome_);
  pages_->addWidget(central);
  setCentralWidget(pages_);

  explorer_model_ = new views::ProfileExplorerModel(this);
  explorer_ = new QTreeView(this);
  explorer_->setModel(explorer_model_);
  explorer_->setUniformRowHeights(true);
  explorer_->setContextMenuPolicy(Qt::CustomContextMenu);
  explorer_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  connect(explorer_, &QTreeView::activated, this, &MainWindow::OnExplorerActivated);
  connect(explorer_, &QTreeView::clicked, this, &MainWindow::OnExplorerClicked);
  connect(explorer_, &QTreeView::customContextMenuRequested, this, &MainWindow::ShowExplorerMenu);
  auto* explorer_dock = new QDockWidget("Profile", this);
  explorer_dock->setObjectName("explorer");
  explorer_dock->setWidget(explorer_);
  addDockWidget(Qt::LeftDockWidgetArea, explorer_dock);

  outline_model_ = new views::ModuleOutlineModel(this);
  outline_ = new QTreeView(this);
  outline_->setModel(outline_model_);
  outline_->setUniformRowHeights(true);
  outline_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(outline_, &QTreeView::clicked, this, &MainWindow::ShowOutlineInstruction);
  connect(outline_, &QTreeView::activated, this, &MainWindow::ShowOutlineInstruction);
  auto* outline_dock = new QDockWidget("Outline", this);
  outline_dock->setObjectName("outline");
  outline_dock->setWidget(outline_);
  addDockWidget(Qt::LeftDockWidgetArea, outline_dock);
  tabifyDockWidget(explorer_dock, outline_dock);
  explorer_dock->raise();

  details_ = new views::DetailsPane(this);
  auto* details_dock = new QDockWidget("Details", this);
  details_dock->setObjectName("details");
  details_dock->setWidget(details_);
  addDockWidget(Qt::RightDockWidgetArea, details_dock);
  resizeDocks({explorer_dock, details_dock}, {300, 340}, Qt::Horizontal);

  status_ = new QLabel("Nothing open", this);
  statusBar()->addWidget(status_, 1);
  // A passing message takes the summary's place rather than drawing over it.
  connect(statusBar(), &QStatusBar::messageChanged, status_,
          [this](const QString& message) { status_->setVisible(message.isEmpty()); });
  // The session's runs, once there is more than one to choose from.
  run_picker_ = new QComboBox(this);
  run_picker_->setObjectName("run_picker");
  run_picker_->setToolTip("The runs of this session: the file as opened, then each Compile and Run");
  run_picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  run_picker_->hide();
  statusBar()->addPermanentWidget(run_picker_);
  connect(run_picker_, &QComboBox::activated, this, [this](int index) { ShowRun(index); });

  // Linked selection: graph -> details, timeline; timeline -> details, graph.
  connect(graph_view_, &views::GraphView::instructionsSelected, this,
          [this](const analysis::StageModule* stage, const std::vector<const HloInstruction*>& selection,
                 const QStringList& names) {
            details_->ShowInstructions(stage, selection);
            timeline_view_->HighlightInstructions(names);
            if (selection.size() == 1) {
              op_profile_view_->SelectInstruction(QString::fromStdString(selection.front()->name()));
            }
            // The text shows one stage: the instruction, or else what it is
            // linked to in the other pane (the fusion an instruction went into).
            if (selection.size() == 1) {
              for (const QString& name : names) {
                if (ScrollTextTo(name.toStdString())) break;
              }
            }
          });
  // Op profile or comparison -> graph (and through it the details, timeline
  // and text).
  auto pick = [this](const QString& name) {
    if (graph_view_->PickInstructionByName(name)) {
      statusBar()->showMessage(QStringLiteral("%1 selected in the graph").arg(name), 4000);
    }
  };
  connect(op_profile_view_, &views::OpProfileView::instructionSelected, this, pick);
  connect(comparison_view_, &views::RunComparisonView::instructionSelected, this, pick);
  // "Show in …" from any view's menu.
  connect(graph_view_, &views::GraphView::showInRequested, this, &MainWindow::ShowInstructionIn);
  connect(timeline_view_, &views::TimelineView::showInRequested, this, &MainWindow::ShowInstructionIn);
  connect(op_profile_view_, &views::OpProfileView::showInRequested, this, &MainWindow::ShowInstructionIn);
  connect(comparison_view_, &views::RunComparisonView::showInRequested, this, &MainWindow::ShowInstructionIn);
  connect(comparison_view_, &views::RunComparisonView::runsChosen, this, [this](int before, int after) {
    QString error;
    CompareSessionRuns(before, after, &error);  // a failure is shown in the view
  });
  connect(timeline_view_, &views::TimelineView::eventSelected, this, [this](const trace::EventRef& ref) {
    if (!profile_) return;
    details_->ShowEvent(profile_->timeline, ref);
    // An op of another program opens that program's graph first.
    if (const std::optional<int64_t> id = analysis::ProgramOfEvent(*profile_, ref)) {
      const trace::ProgramRecord* program = profile_->FindProgram(*id);
      if (program && !program->snapshots.empty() && graph_view_->program() != program) {
        graph_view_->SetProgram(program);
      }
    }
    const QString instruction = QString::fromStdString(analysis::InstructionOfEvent(profile_->timeline, ref));
    if (!instruction.isEmpty() && graph_view_->SelectInstructionByName(instruction)) {
      timeline_view_->HighlightInstructions({instruction});
    }
  });
  // A recompile against its predecessor, as graphs side by side.
  connect(recompilations_view_, &views::RecompilationsView::compareProgramsRequested, this,
          [this](qint64 before_id, qint64 now_id) {
            if (!profile_) return;
            const trace::ProgramRecord* before = profile_->FindProgram(before_id);
            const trace::ProgramRecord* now = profile_->FindProgram(now_id);
            if (!before || !now) return;
            graph_view_->ComparePrograms(before, 0, now, 0);
            ShowView(View::kGraph);
          });
  // A chip picked on the topology: the timeline shows that chip's lanes.
  connect(sharding_view_, &views::ShardingView::chipSelected, this, [this](int chip) {
    timeline_view_->canvas()->FocusChip(chip);
    statusBar()->showMessage(QStringLiteral("Timeline: chip %1 open, the others closed").arg(chip), 5000);
  });
  connect(store_, &views::StageStore::stageReady, this, [this](qint64 program_id, qint64 stage) {
    if (text_stage_ == std::make_pair(int64_t(program_id), int64_t(stage)) && !outline_stage_) {
      outline_stage_ = store_->Get(program_id, stage);
      outline_model_->SetModule(outline_stage_ ? &outline_stage_->module() : nullptr);
      outline_->expand(outline_model_->index(0, 0));
    }
  });

  CreateActions();
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  tabs_->setCurrentIndex(settings.value("window/view", 0).toInt());
}

MainWindow::~MainWindow() {
  // Views may ask the models for data while they are torn down.
  outline_model_->SetModule(nullptr);
  explorer_model_->SetProfile(nullptr);
}

void MainWindow::CreateActions() {
  // A menu entry with a shortcut, running `slot`.
  auto add = [this](QMenu* menu, const QString& text, const QKeySequence& keys, auto slot) {
    QAction* action = menu->addAction(text);
    action->setShortcut(keys);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };
  QMenu* file = menuBar()->addMenu("&File");
  add(file, "&Open…", QKeySequence::Open, [this] { OpenWithDialog(); });
  add(file, "Open &Folder…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
      [this] { OpenFolderWithDialog(); });
  recent_menu_ = file->addMenu("Open &Recent");
  UpdateRecentFilesMenu();
  run_action_ = add(file, "&Compile and Run…", QKeySequence(Qt::CTRL | Qt::Key_R), [this] { CompileAndRun(); });
  run_action_->setEnabled(false);
  save_run_action_ = add(file, "&Save Run As…", QKeySequence::SaveAs, [this] {
    QString path = QFileDialog::getSaveFileName(this, "Save run", QString(), "Profiles (*.sysprof)");
    if (path.isEmpty()) return;
    if (!path.endsWith(".sysprof")) path += ".sysprof";
    QString error;
    if (!SaveRun(path, &error)) views::ShowErrorDialog(this, "Cannot save the run", error.toStdString());
  });
  save_run_action_->setEnabled(false);
  file->addSeparator();
  QMenu* export_menu = file->addMenu("&Export Graph");
  for (const char* format : {"svg", "png", "dot"}) {
    add(export_menu, QString(format).toUpper() + "…", QKeySequence(), [this, format = QString(format)] {
      views::GraphPane* pane = graph_view_->active();
      QString path = QFileDialog::getSaveFileName(this, "Export graph", QString(),
                                                  format.toUpper() + " (*." + format + ")");
      if (path.isEmpty()) return;
      if (!path.endsWith("." + format)) path += "." + format;
      const bool ok = format == "svg"   ? pane->ExportSvg(path)
                      : format == "png" ? pane->ExportPng(path)
                                        : pane->ExportDot(path);
      if (!ok) QMessageBox::warning(this, "Export failed", "Cannot write " + path);
    });
  }
  add(file, "Compare &with Profile…", QKeySequence(), [this] {
    if (!profile_) return;
    const QString path = QFileDialog::getOpenFileName(this, "Compare with", QString(),
                                                      "Profiles (*.sysprof);;All files (*)");
    if (path.isEmpty()) return;
    QString error;
    if (!CompareWith(path, &error)) {
      views::ShowErrorDialog(this, "Cannot compare with " + QFileInfo(path).fileName(), error.toStdString());
    }
  });
  simulate_action_ = add(file, "Compare with &Simulation…", QKeySequence(), [this] {
    QStringList chips;
    for (const std::string& name : device::ChipPresetNames()) chips << QString::fromStdString(name);
    bool chosen = false;
    const QString chip = QInputDialog::getItem(this, "Compare with simulation",
                                               "Simulate the profile's programs on:", chips,
                                               std::max<qsizetype>(chips.indexOf("v5e"), 0), false, &chosen);
    if (!chosen) return;
    QString error;
    if (!CompareWithSimulation(chip, &error) && !error.isEmpty()) {
      views::ShowErrorDialog(this, "Cannot compare with the simulation on " + chip, error.toStdString());
    }
  });
  simulate_action_->setEnabled(false);
  add(file, "Export &View as Image…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] {
    QString path = QFileDialog::getSaveFileName(this, "Export view", QString(),
                                                "PNG image (*.png);;SVG drawing (*.svg)");
    if (path.isEmpty()) return;
    if (!path.endsWith(".png", Qt::CaseInsensitive) && !path.endsWith(".svg", Qt::CaseInsensitive)) {
      path += ".png";
    }
    if (!ExportCurrentView(path)) QMessageBox::warning(this, "Export failed", "Cannot write " + path);
  });
  file->addSeparator();
  add(file, "&Close", QKeySequence::Close, [this] { OpenProfile(nullptr, QString()); });
  add(file, "&Quit", QKeySequence::Quit, [this] { close(); });

  QMenu* view = menuBar()->addMenu("&View");
  add(view, "&Graph", QKeySequence(Qt::CTRL | Qt::Key_1), [this] { ShowView(View::kGraph); });
  add(view, "&Timeline", QKeySequence(Qt::CTRL | Qt::Key_2), [this] { ShowView(View::kTimeline); });
  add(view, "HLO &Text", QKeySequence(Qt::CTRL | Qt::Key_3), [this] { ShowView(View::kText); });
  add(view, "&Recompilations", QKeySequence(Qt::CTRL | Qt::Key_4), [this] { ShowView(View::kRecompilations); });
  add(view, "&Sharding", QKeySequence(Qt::CTRL | Qt::Key_5), [this] { ShowView(View::kSharding); });
  add(view, "&Memory", QKeySequence(Qt::CTRL | Qt::Key_6), [this] { ShowView(View::kMemory); });
  add(view, "&Op Profile", QKeySequence(Qt::CTRL | Qt::Key_7), [this] { ShowView(View::kOps); });
  add(view, "R&oofline", QKeySequence(Qt::CTRL | Qt::Key_8), [this] { ShowView(View::kRoofline); });
  add(view, "&Utilisation", QKeySequence(Qt::CTRL | Qt::Key_9), [this] { ShowView(View::kUtilization); });
  add(view, "Co&mparison", QKeySequence(Qt::CTRL | Qt::Key_0), [this] { ShowView(View::kComparison); });
  view->addSeparator();
  add(view, "&Find…", QKeySequence::Find, [this] { FindInCurrentView(); });
  add(view, "Find &Next", QKeySequence::FindNext, [this] { FindNext(1); });
  add(view, "Find &Previous", QKeySequence::FindPrevious, [this] { FindNext(-1); });
  view->addSeparator();
  add(view, "Zoom &In", QKeySequence::ZoomIn, [this] {
    if (current_view() == View::kTimeline) {
      timeline_view_->canvas()->ZoomIn();
    } else {
      graph_view_->ZoomBy(1.25);
    }
  });
  add(view, "Zoom &Out", QKeySequence::ZoomOut, [this] {
    if (current_view() == View::kTimeline) {
      timeline_view_->canvas()->ZoomOut();
    } else {
      graph_view_->ZoomBy(0.8);
    }
  });
  add(view, "&Fit", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), [this] {
    if (current_view() == View::kTimeline) {
      timeline_view_->canvas()->FitAll();
    } else {
      graph_view_->Fit();
    }
  });
  QAction* compare = view->addAction("Compare &Stages");
  compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  compare->setCheckable(true);
  compare->setChecked(true);
  connect(compare, &QAction::toggled, graph_view_, &views::GraphView::SetCompare);
  colour_by_comparison_ = view->addAction("Colour Graph by C&omparison");
  colour_by_comparison_->setToolTip("Instructions green where the compared run is faster, red where slower");
  colour_by_comparison_->setCheckable(true);
  colour_by_comparison_->setChecked(true);
  connect(colour_by_comparison_, &QAction::toggled, this, [this] { ColourGraphByComparison(); });
  QAction* flows = view->addAction("Show &Flows");
  flows->setToolTip("Arrows from each transfer to its receiver on the timeline (with many, only the selected event's)");
  flows->setCheckable(true);
  flows->setChecked(true);
  connect(flows, &QAction::toggled, timeline_view_->canvas(), &views::TimelineCanvas::SetFlowsShown);
  QMenu* theme_menu = view->addMenu("T&heme");
  auto* themes = new QActionGroup(this);
  const views::Theme chosen =
      views::ParseTheme(QSettings().value("view/theme", "system").toString()).value_or(views::Theme::kSystem);
  for (const auto& [theme, label] : {std::pair{views::Theme::kSystem, "&System"}, std::pair{views::Theme::kLight, "&Light"},
                                     std::pair{views::Theme::kDark, "&Dark"}}) {
    QAction* action = theme_menu->addAction(label);
    action->setCheckable(true);
    action->setChecked(theme == chosen);
    themes->addAction(action);
    connect(action, &QAction::triggered, this, [this, theme = theme] { SetTheme(theme); });
  }
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

  QMenu* help = menuBar()->addMenu("&Help");
  add(help, "&Keyboard Shortcuts", QKeySequence::HelpContents, [this] { ShowShortcuts(); });
  add(help, "&About Systolic Studio", QKeySequence(), [this] {
    QMessageBox::about(this, "About Systolic Studio", AboutText());
  });
}

void MainWindow::ShowShortcuts() {
  QMessageBox::information(
      this, "Keyboard shortcuts",
      "<table>"
      "<tr><td><b>Ctrl+O</b></td><td>open a program or profile</td></tr>"
      "<tr><td><b>Ctrl+R</b></td><td>compile and run the program</td></tr>"
      "<tr><td><b>Ctrl+1 / 2 / 3</b></td><td>graph / timeline / HLO text</td></tr>"
      "<tr><td><b>Ctrl+4 / 5 / 6</b></td><td>recompilations / sharding / memory</td></tr>"
      "<tr><td><b>Ctrl+7 / 8 / 9</b></td><td>op profile / roofline / utilisation</td></tr>"
      "<tr><td><b>Ctrl+F, F3, Shift+F3</b></td><td>find, next, previous</td></tr>"
      "<tr><td><b>Ctrl+0</b></td><td>comparison of two runs</td></tr>"
      "<tr><td><b>Ctrl+= / Ctrl+- / Ctrl+Shift+F</b></td><td>zoom in, out, fit</td></tr>"
      "<tr><td><b>Ctrl+B</b></td><td>compare two stages side by side</td></tr>"
      "<tr><td colspan=2><br><b>Graph</b></td></tr>"
      "<tr><td>wheel, drag</td><td>zoom around the cursor, pan</td></tr>"
      "<tr><td>double-click</td><td>open a layer or fusion; on a cluster title: close it</td></tr>"
      "<tr><td colspan=2><br><b>Timeline</b></td></tr>"
      "<tr><td><b>W / S</b></td><td>zoom in / out around the cursor</td></tr>"
      "<tr><td><b>A / D</b></td><td>pan left / right</td></tr>"
      "<tr><td><b>F / Z</b></td><td>whole trace / zoom to selection</td></tr>"
      "<tr><td><b>C</b></td><td>ruler in cycles or time</td></tr>"
      "<tr><td>Shift+drag</td><td>select a time range</td></tr>"
      "<tr><td>wheel, Shift+wheel, Ctrl+wheel</td><td>zoom, pan, scroll lanes</td></tr>"
      "</table>");
}

bool MainWindow::OpenFile(const QString& path, QString* error) {
  const QFileInfo info(path);
  if (info.isDir()) return OpenDumpFolder(path, error);
  if (!info.isFile()) {
    *error = QStringLiteral("%1: no such file").arg(path);
    return false;
  }
  QApplication::setOverrideCursor(Qt::WaitCursor);
  struct Restore {
    ~Restore() { QApplication::restoreOverrideCursor(); }
  } restore;
  const std::string file = path.toStdString();
  // Files are told apart by their content, not their names.
  absl::StatusOr<trace::FileKind> kind = trace::KindOfFile(file);
  if (!kind.ok()) {
    *error = FromStatus(kind.status());
    return false;
  }
  switch (*kind) {
    case trace::FileKind::kNpy:
      *error = QStringLiteral("%1 is a NumPy array (.npy), not a program or a profile: arrays are "
                              "a program's arguments (systolic run PROGRAM --args %1,…)")
                   .arg(info.fileName());
      return false;
    case trace::FileKind::kProfile: {
      bool cancelled = false;
      absl::StatusOr<trace::Profile> profile = ReadProfileWithProgress(path, &cancelled);
      if (!profile.ok()) {
        *error = cancelled ? QString() : FromStatus(profile.status());
        if (cancelled) statusBar()->showMessage("Opening cancelled", 5000);
        return false;
      }
      OpenProfile(std::make_shared<const trace::Profile>(std::move(*profile)), info.fileName());
      break;
    }
    case trace::FileKind::kXSpace: {
      absl::StatusOr<trace::Profile> profile = trace::ImportXSpaceFileWithPrograms(file);
      if (!profile.ok()) {
        *error = FromStatus(profile.status());
        return false;
      }
      OpenProfile(std::make_shared<const trace::Profile>(std::move(*profile)), info.fileName());
      break;
    }
    case trace::FileKind::kHloProto:
    case trace::FileKind::kText:
    case trace::FileKind::kOtherBinary: {  // the loader says why it is no program
      absl::StatusOr<std::vector<HloFileModule>> loaded = LoadProgramFile(file, /*verify=*/true);
      if (!loaded.ok()) {
        *error = FromStatus(loaded.status());
        return false;
      }
      std::vector<std::unique_ptr<HloModule>> modules;
      for (HloFileModule& m : *loaded) {
        if (!m.module.ok()) {
          *error = FromStatus(m.module.status());
          return false;
        }
        modules.push_back(std::move(*m.module));
      }
      if (modules.empty()) {
        *error = QStringLiteral("%1 holds no program").arg(info.fileName());
        return false;
      }
      std::vector<const HloModule*> raw;
      for (const auto& m : modules) raw.push_back(m.get());
      auto profile = std::make_shared<const trace::Profile>(
          analysis::ProfileOfModules(raw, info.fileName().toStdString()));
      // The modules are the stages' modules already: nothing to parse.
      std::vector<AdoptedStage> adopted;
      for (size_t i = 0; i < modules.size(); ++i) {
        const trace::ProgramRecord& program = profile->programs[i];
        adopted.push_back({{program.id, 0},
                           analysis::StageModule::Adopt(std::move(modules[i]), program.snapshots[0])});
      }
      OpenProfile(profile, info.fileName(), std::move(adopted), /*program_only=*/true);
      break;
    }
  }
  path_ = path;
  RememberRecentFile(path);
  return true;
}

void MainWindow::OpenProfile(std::shared_ptr<const trace::Profile> profile, const QString& title,
                             std::vector<AdoptedStage> adopted, bool program_only) {
  // A new session: this profile is its first run (none when closing).
  path_.clear();
  runs_.clear();
  if (profile) runs_.push_back({title, std::move(profile), program_only});
  comparison_view_->Clear();
  ColourGraphByComparison();
  ShowRun(runs_.empty() ? -1 : 0, std::move(adopted));
}

void MainWindow::ShowProfile(std::shared_ptr<const trace::Profile> profile, const QString& title,
                             std::vector<AdoptedStage> adopted) {
  outline_model_->SetModule(nullptr);
  outline_stage_.reset();
  explorer_model_->SetProfile(nullptr);
  details_->Clear();
  profile_ = std::move(profile);
  pages_->setCurrentIndex(profile_ ? 1 : 0);
  store_->SetProfile(profile_);
  for (AdoptedStage& a : adopted) store_->Adopt(a.first.first, a.first.second, std::move(a.second));
  explorer_model_->SetProfile(profile_.get());
  explorer_->expandToDepth(0);
  timeline_view_->SetProfile(profile_);
  recompilations_view_->SetProfile(profile_);
  sharding_view_->Reload();
  memory_chart_->SetProfile(profile_);
  op_profile_view_->SetProfile(profile_);
  details_->SetOpProfile(profile_ ? &op_profile_view_->model()->op_profile() : nullptr);
  // The roofline draws the op profile just computed, not one of its own.
  const absl::Status& ops_status = op_profile_view_->status();
  roofline_chart_->SetOpProfile(ops_status.ok()
                                    ? absl::StatusOr<analysis::OpProfile>(op_profile_view_->model()->op_profile())
                                    : absl::StatusOr<analysis::OpProfile>(ops_status));
  utilization_chart_->SetProfile(profile_);
  const trace::ProgramRecord* first = nullptr;
  int64_t first_index = -1;
  if (profile_) {
    for (size_t i = 0; i < profile_->programs.size(); ++i) {
      if (!profile_->programs[i].snapshots.empty()) {
        first = &profile_->programs[i];
        first_index = int64_t(i);
        break;
      }
    }
  }
  graph_view_->SetProgram(first);
  // Any program with its input stage runs again, on whatever chip.
  run_action_->setEnabled(first != nullptr);
  simulate_action_->setEnabled(first != nullptr);
  text_view_->Clear();
  text_stage_ = {-1, -1};
  if (first) {
    const int64_t stage = graph_view_->after()->stage_index();
    ShowStageText(first_index, stage >= 0 ? stage : 0);
  }
  ShowNotes();
  if (!profile_) {
    status_->setText("Nothing open");
    setWindowTitle("Systolic Studio");
    return;
  }
  // A program opens on its graph; a profile with a timeline on the timeline.
  const bool program_only = runs_[size_t(current_run_)].program_only;
  ShowView(first && (program_only || profile_->timeline.event_count() == 0) ? View::kGraph
           : profile_->timeline.event_count() > 0                               ? View::kTimeline
                                                                                : View::kGraph);
  const size_t programs = profile_->programs.size();
  QString summary =
      QStringLiteral("%1 — %2 program%3").arg(title).arg(programs).arg(programs == 1 ? "" : "s");
  if (first) {
    summary += QStringLiteral(" · %1: %2 instructions")
                   .arg(QString::fromStdString(first->name))
                   .arg(first->snapshots.back().instruction_count);
  }
  if (profile_->timeline.event_count() > 0) {
    summary += QStringLiteral(" · %L1 events on %2 plane%3")
                   .arg(profile_->timeline.event_count())
                   .arg(profile_->timeline.plane_count())
                   .arg(profile_->timeline.plane_count() == 1 ? "" : "s");
  }
  status_->setText(summary);
  setWindowTitle(QStringLiteral("%1 — Systolic Studio").arg(title));
}

void MainWindow::ShowNotes() {
  if (!profile_ || profile_->info.notes.empty()) {
    notes_banner_->hide();
    return;
  }
  QStringList notes;
  for (const std::string& note : profile_->info.notes) notes << QString::fromStdString(note);
  // The first few in full; all of them on hover.
  constexpr int kShown = 3;
  QString text = notes.mid(0, kShown).join("\n");
  if (notes.size() > kShown) text += QStringLiteral("\n… and %1 more").arg(notes.size() - kShown);
  notes_banner_->setText(text);
  notes_banner_->setToolTip(notes.join("\n"));
  notes_banner_->show();
}

void MainWindow::ShowStageText(int64_t program_index, int64_t stage) {
  if (!profile_ || program_index < 0 || program_index >= int64_t(profile_->programs.size())) return;
  const trace::ProgramRecord& program = profile_->programs[program_index];
  if (stage < 0 || stage >= int64_t(program.snapshots.size())) return;
  text_stage_ = {program.id, stage};
  text_view_->SetText(QString::fromStdString(program.snapshots[stage].hlo_text));
  // The tab names the stage it shows: the same instruction reads differently
  // before and after the passes.
  const QString pass = QString::fromStdString(program.snapshots[stage].pass_name);
  tabs_->setTabText(int(View::kText), QStringLiteral("HLO text · %1").arg(pass));
  tabs_->setTabToolTip(int(View::kText), QStringLiteral("%1, stage %2 of %3: %4")
                                             .arg(QString::fromStdString(program.name))
                                             .arg(stage)
                                             .arg(program.snapshots.size())
                                             .arg(pass));
  outline_stage_ = store_->Get(program.id, stage);
  outline_model_->SetModule(outline_stage_ ? &outline_stage_->module() : nullptr);
  outline_->expand(outline_model_->index(0, 0));
}

void MainWindow::ShowView(View view) { tabs_->setCurrentIndex(int(view)); }

MainWindow::View MainWindow::current_view() const { return View(tabs_->currentIndex()); }

bool MainWindow::busy() const { return graph_view_->busy() || sharding_view_->busy(); }

void MainWindow::WhenIdle(std::function<void()> done, int timeout_ms) {
  auto* timer = new QTimer(this);
  auto clock = std::make_shared<QElapsedTimer>();
  clock->start();
  connect(timer, &QTimer::timeout, this, [this, timer, clock, done, timeout_ms] {
    if (busy() && clock->elapsed() < timeout_ms) return;
    timer->stop();
    timer->deleteLater();
    done();
  });
  timer->start(50);
}

bool MainWindow::ExportCurrentView(const QString& path) {
  return views::ExportWidgetImage(tabs_->currentWidget(), path);
}

bool MainWindow::SaveScreenshot(const QString& path) {
  QSaveFile file(path);  // renamed into place only when whole
  return file.open(QIODevice::WriteOnly) && grab().save(&file, "PNG") && file.commit();
}

void MainWindow::OpenWithDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, "Open", settings.value("window/lastDirectory").toString(),
      "Programs and profiles (*.hlo *.hlotxt *.txt *.mlir *.pb *.pbtxt *.sysprof *.xplane.pb);;"
      "Programs (*.hlo *.hlotxt *.txt *.mlir *.hlo.pb *.pb *.pbtxt);;Profiles (*.sysprof *.xplane.pb);;All files (*)");
  if (path.isEmpty()) return;
  settings.setValue("window/lastDirectory", QFileInfo(path).absolutePath());
  OpenAndReport(path);
}

void MainWindow::OpenFolderWithDialog() {
  QSettings settings;
  const QString path = QFileDialog::getExistingDirectory(
      this, "Open an XLA dump folder", settings.value("window/lastDirectory").toString());
  if (path.isEmpty()) return;
  settings.setValue("window/lastDirectory", QFileInfo(path).absolutePath());
  OpenAndReport(path);
}

bool MainWindow::OpenDumpFolder(const QString& path, QString* error) {
  // A dump of every pass holds thousands of files: read behind the dialog.
  const std::string folder = path.toStdString();
  absl::StatusOr<trace::Profile> profile = views::RunWithProgress<absl::StatusOr<trace::Profile>>(
      this, QStringLiteral("Reading %1…").arg(QFileInfo(path).fileName()),
      [folder](views::RunProgress& progress) {
        return trace::ImportXlaDumpFolder(folder, nullptr, [&progress](int64_t done, int64_t total) {
          progress.Report(double(done) / double(total), "reading the passes' HLO");
        });
      });
  if (!profile.ok()) {
    *error = FromStatus(profile.status());
    return false;
  }
  // Programs not run yet (they open on the graph view and can be compiled
  // and run); files that did not read are in the notes above the views.
  OpenProfile(std::make_shared<const trace::Profile>(std::move(*profile)), QFileInfo(path).fileName(),
              {}, /*program_only=*/true);
  path_ = path;
  RememberRecentFile(path);
  return true;
}

bool MainWindow::CompareWithSimulation(const QString& chip_name, QString* error) {
  if (!profile_) {
    *error = QStringLiteral("Open a real profile first: its programs are what is simulated.");
    return false;
  }
  absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec(chip_name.toStdString());
  if (!chip.ok()) {
    *error = FromStatus(chip.status());
    return false;
  }
  bool cancelled = false;
  const std::shared_ptr<const trace::Profile> measured = profile_;
  absl::StatusOr<analysis::MeasuredVsSimulated> compared =
      views::RunWithProgress<absl::StatusOr<analysis::MeasuredVsSimulated>>(
          this, QStringLiteral("Simulating the programs on %1…").arg(chip_name),
          [measured, spec = *chip](views::RunProgress& progress) {
            return analysis::CompareMeasuredWithSimulated(
                *measured, spec, [&progress](int64_t done, int64_t total) {
                  progress.Report(double(done) / double(total), "simulating the programs");
                  return !progress.cancelled();
                });
          },
          &cancelled);
  if (!compared.ok()) {
    *error = cancelled ? QString() : FromStatus(compared.status());
    return false;
  }
  op_profile_view_->SetSimulated(analysis::SimulatedTimePerExecution(*compared), chip_name);
  ShowView(View::kOps);
  QString message = QStringLiteral("%1 programs simulated on %2").arg(compared->programs.size()).arg(chip_name);
  if (!compared->errors.empty()) {
    message += QStringLiteral("; not simulated: %1").arg(QString::fromStdString(compared->errors.front()));
  }
  statusBar()->showMessage(message, 8000);
  return true;
}

bool MainWindow::CompareWith(const QString& path, QString* error) {
  if (!profile_ || current_run_ < 0) {
    *error = QStringLiteral("Open a profile first: the comparison is of its run against another's.");
    return false;
  }
  bool cancelled = false;
  absl::StatusOr<trace::Profile> other = ReadProfileWithProgress(path, &cancelled);
  if (!other.ok()) {
    *error = cancelled ? QStringLiteral("Reading %1 was cancelled.").arg(QFileInfo(path).fileName())
                       : FromStatus(other.status());
    return false;
  }
  // The other profile joins the session, so it can be shown and compared again.
  const int shown = current_run_;
  const int added = AddRun({QFileInfo(path).fileName(), std::make_shared<const trace::Profile>(*std::move(other)), false});
  if (!CompareSessionRuns(shown, added, error)) return false;
  ShowView(View::kComparison);
  return true;
}

absl::StatusOr<trace::Profile> MainWindow::ReadProfileWithProgress(const QString& path, bool* cancelled) {
  // A profile of millions of events takes seconds: read behind a progress
  // dialog that can cancel.
  const std::string file = path.toStdString();
  return views::RunWithProgress<absl::StatusOr<trace::Profile>>(
      this, QStringLiteral("Reading %1…").arg(QFileInfo(path).fileName()),
      [file](views::RunProgress& progress) {
        trace::ReadOptions options;
        options.progress = [&progress](double fraction) {
          progress.Report(fraction, "decoding the events");
          return !progress.cancelled();
        };
        return trace::ReadProfileFile(file, options);
      },
      cancelled);
}

bool MainWindow::OpenAndReport(const QString& path) {
  QString error;
  if (OpenFile(path, &error)) return true;
  if (error.isEmpty()) return false;  // cancelled: nothing to say
  views::ShowErrorDialog(this, "Cannot open " + QFileInfo(path).fileName(), error.toStdString());
  return false;
}

void MainWindow::CompileAndRun() {
  if (!profile_) return;
  const QString source = path_.isEmpty() ? windowTitle().section(" — ", 0, 0) : path_;
  views::RunProgramDialog dialog(source, this);
  if (dialog.exec() != QDialog::Accepted) return;
  QString error;
  if (!RunProgram(dialog.request(), &error) && !error.isEmpty()) {
    views::ShowErrorDialog(this, "Compile and run failed", error.toStdString());
  }
}

std::shared_ptr<const analysis::StageModule> MainWindow::RunSource(QString* error) {
  const trace::ProgramRecord* program = graph_view_->program();
  if (program == nullptr || program->snapshots.empty()) {
    *error = QStringLiteral("Nothing to run: the profile holds no program text.");
    return nullptr;
  }
  // Stage 0 is the program as it came, before any pass.
  return store_->GetNow(program->id, 0, error);
}

bool MainWindow::RunProgram(const views::ProgramRunRequest& request, QString* error) {
  std::shared_ptr<const analysis::StageModule> module = RunSource(error);
  if (!module) return false;
  bool cancelled = false;
  absl::StatusOr<trace::Profile> outcome = views::RunWithProgress<absl::StatusOr<trace::Profile>>(
      this, "Compiling and running…",
      [module, request](views::RunProgress& progress) {
        return views::CompileAndRunProgram(module->module(), request, progress);
      },
      &cancelled, /*show_after_ms=*/0);
  if (!outcome.ok()) {
    if (cancelled) {
      statusBar()->showMessage("Compile and run cancelled", 5000);
      error->clear();
    } else {
      *error = FromStatus(outcome.status());
    }
    return false;
  }
  const int shown = current_run_;
  const QString label = QStringLiteral("run %1 · %2")
                            .arg(runs_.size())
                            .arg(QString::fromStdString(views::DescribeRequest(request)));
  const int added = AddRun({label, std::make_shared<const trace::Profile>(*std::move(outcome)), false});
  ShowRun(added);
  // A what-if is read against the run it varied.
  if (shown >= 0 && !runs_[shown].program_only) {
    QString ignored;
    CompareSessionRuns(shown, added, &ignored);
  }
  return true;
}

void MainWindow::ColourGraphByComparison() {
  const analysis::RunComparison& comparison = comparison_view_->model()->comparison();
  if (!colour_by_comparison_->isChecked() || comparison.ops.empty()) {
    graph_view_->SetRunChanges(nullptr);
    return;
  }
  const QString legend = comparison_view_->before_picker()->currentText() + " → " +
                         comparison_view_->after_picker()->currentText();
  graph_view_->SetRunChanges(
      std::make_shared<const absl::flat_hash_map<std::string, double>>(analysis::RelativeChanges(comparison)),
      legend);
}

bool MainWindow::SaveRun(const QString& path, QString* error) {
  if (!profile_ || current_run_ < 0 || runs_[size_t(current_run_)].program_only) {
    *error = QStringLiteral("Nothing run to save: compile and run the program first (Ctrl+R).");
    return false;
  }
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const absl::Status written = trace::WriteProfileFile(*profile_, path.toStdString());
  QApplication::restoreOverrideCursor();
  if (!written.ok()) {
    *error = FromStatus(written);
    return false;
  }
  statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
  RememberRecentFile(path);
  return true;
}

int MainWindow::AddRun(SessionRun run) {
  runs_.push_back(std::move(run));
  UpdateRunPicker();
  return int(runs_.size()) - 1;
}

void MainWindow::ShowRun(int index, std::vector<AdoptedStage> adopted) {
  if (index >= int(runs_.size())) return;
  current_run_ = index;
  if (index < 0) {
    ShowProfile(nullptr, QString());
  } else {
    const SessionRun& run = runs_[size_t(index)];
    ShowProfile(run.profile, index == 0 ? run.label : QStringLiteral("%1 — %2").arg(runs_.front().label, run.label),
                std::move(adopted));
  }
  UpdateRunPicker();
}

void MainWindow::UpdateRunPicker() {
  QStringList labels;
  for (const SessionRun& run : runs_) labels << run.label;
  run_picker_->clear();
  run_picker_->addItems(labels);
  run_picker_->setCurrentIndex(current_run_);
  run_picker_->setVisible(runs_.size() > 1);
  save_run_action_->setEnabled(current_run_ >= 0 && !runs_[size_t(current_run_)].program_only);
  comparison_view_->SetRunChoices(labels);
}

bool MainWindow::CompareSessionRuns(int before, int after, QString* error) {
  const int count = int(runs_.size());
  if (before < 0 || after < 0 || before >= count || after >= count) {
    *error = QStringLiteral("No such run.");
    return false;
  }
  const SessionRun& a = runs_[size_t(before)];
  const SessionRun& b = runs_[size_t(after)];
  absl::StatusOr<analysis::RunComparison> comparison = analysis::CompareRuns(*a.profile, *b.profile);
  if (!comparison.ok()) {
    *error = FromStatus(comparison.status());
    comparison_view_->ShowProblem(before, after, *error);
    ColourGraphByComparison();
    return false;
  }
  comparison_view_->SetComparison(*std::move(comparison), a.label, b.label, a.profile, b.profile);
  comparison_view_->SetChosenRuns(before, after);
  ColourGraphByComparison();
  return true;
}

void MainWindow::UpdateRecentFilesMenu() {
  recent_menu_->clear();
  const QStringList files = QSettings().value("recentFiles").toStringList();
  for (const QString& f : files) {
    // Numbered, and with its folder: two files of one name stay apart.
    const QFileInfo info(f);
    auto literal = [](QString text) { return text.replace(QStringLiteral("&"), QStringLiteral("&&")); };
    const QString label = QStringLiteral("&%1  %2   %3")
                              .arg(recent_menu_->actions().size() + 1)
                              .arg(literal(info.fileName()),
                                   literal(QDir::toNativeSeparators(info.absolutePath())));
    QAction* action = recent_menu_->addAction(label);
    action->setToolTip(f);
    connect(action, &QAction::triggered, this, [this, f] { OpenAndReport(f); });
  }
  recent_menu_->setEnabled(!files.isEmpty());
  welcome_->SetRecentFiles(files);
}

void MainWindow::RememberRecentFile(const QString& path) {
  QSettings settings;
  QStringList files = settings.value("recentFiles").toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue("recentFiles", files);
  UpdateRecentFilesMenu();
}

void MainWindow::OnExplorerClicked(const QModelIndex& index) {
  const views::ProfileExplorerModel::Item* item = explorer_model_->ItemAt(index);
  if (!item || !profile_) return;
  if (item->kind == views::ProfileExplorerModel::Kind::kCompile) {
    const trace::CompileEvent& c = profile_->compile_events[item->compile];
    const trace::ProgramRecord* program = profile_->FindProgram(c.program_id);
    std::vector<std::pair<std::string, std::string>> rows = {
        {"Step", std::to_string(c.step)},
        {"Program", program ? program->name : std::to_string(c.program_id)},
        {"Cache", c.cache_hit ? "hit" : "miss"},
        {"Compile time", std::to_string(c.compile_time_ns / 1000) + " µs"},
        {"Fingerprint", c.fingerprint}};
    if (!c.cause.text.empty()) rows.push_back({"Cause", c.cause.text});
    if (const trace::ProgramRecord* compared = profile_->FindProgram(c.compared_program_id)) {
      rows.push_back({"Compared with", compared->name});
    }
    details_->ShowRows("<b>Compile</b>", rows);
  }
}

void MainWindow::OnExplorerActivated(const QModelIndex& index) {
  using Kind = views::ProfileExplorerModel::Kind;
  const views::ProfileExplorerModel::Item* item = explorer_model_->ItemAt(index);
  if (!item || !profile_) return;
  switch (item->kind) {
    case Kind::kProgram:
      graph_view_->SetProgram(&profile_->programs[item->program]);
      ShowStageText(item->program, graph_view_->after()->stage_index());
      ShowView(View::kGraph);
      break;
    case Kind::kStage:
      if (graph_view_->program() != &profile_->programs[item->program]) {
        graph_view_->SetProgram(&profile_->programs[item->program]);
      }
      graph_view_->ShowStage(item->stage, views::GraphView::Side::kAfter);
      ShowStageText(item->program, item->stage);
      ShowView(View::kGraph);
      break;
    case Kind::kRun: {
      const trace::RunRecord& run = profile_->runs[item->run];
      timeline_view_->ZoomTo(run.start_ps, run.end_ps);
      ShowView(View::kTimeline);
      break;
    }
    case Kind::kStep: {
      const trace::StepRecord& step = profile_->runs[item->run].steps[item->step];
      timeline_view_->ZoomTo(step.start_ps, step.start_ps + step.duration_ps);
      ShowView(View::kTimeline);
      break;
    }
    case Kind::kTimeline:
      timeline_view_->canvas()->FitAll();
      ShowView(View::kTimeline);
      break;
    case Kind::kCompile:
      OnExplorerClicked(index);
      recompilations_view_->SelectCompile(int(item->compile));
      ShowView(View::kRecompilations);
      break;
    default:
      break;
  }
}

void MainWindow::ShowExplorerMenu(const QPoint& position) {
  const QModelIndex index = explorer_->indexAt(position);
  const views::ProfileExplorerModel::Item* item = explorer_model_->ItemAt(index);
  if (!item || item->kind != views::ProfileExplorerModel::Kind::kStage || !profile_) return;
  const trace::ProgramRecord* program = &profile_->programs[item->program];
  const int64_t stage = item->stage, program_index = item->program;
  QMenu menu(this);
  auto show = [this, program, stage](views::GraphView::Side side) {
    if (graph_view_->program() != program) graph_view_->SetProgram(program);
    graph_view_->ShowStage(stage, side);
    ShowView(View::kGraph);
  };
  menu.addAction("Show on the left (before)", [show] { show(views::GraphView::Side::kBefore); });
  menu.addAction("Show on the right (after)", [show] { show(views::GraphView::Side::kAfter); });
  menu.addAction("Show HLO text", [this, program_index, stage] {
    ShowStageText(program_index, stage);
    ShowView(View::kText);
  });
  menu.exec(explorer_->viewport()->mapToGlobal(position));
}

void MainWindow::ShowOutlineInstruction(const QModelIndex& index) {
  const HloInstruction* instruction = outline_model_->InstructionAt(index);
  if (!instruction) return;
  ScrollTextTo(instruction->name());
  graph_view_->SelectInstructionByName(QString::fromStdString(instruction->name()));
  details_->ShowInstructions(outline_stage_.get(), {instruction});
}

bool MainWindow::ScrollTextTo(const std::string& instruction) {
  return text_view_->MarkInstruction(instruction);
}

void MainWindow::FindInCurrentView() {
  // Each view searches what it shows; the others search the graph.
  switch (current_view()) {
    case View::kTimeline: timeline_view_->FocusSearch(); break;
    case View::kText: text_view_->FocusSearch(); break;
    case View::kOps: op_profile_view_->FocusSearch(); break;
    case View::kComparison: comparison_view_->FocusSearch(); break;
    default:
      ShowView(View::kGraph);
      graph_view_->FocusSearch();
      break;
  }
}

void MainWindow::ShowInstructionIn(const QString& instruction, views::ShowInTarget target) {
  bool found = false;
  switch (target) {
    case views::ShowInTarget::kGraph:
      found = graph_view_->PickInstructionByName(instruction);
      ShowView(View::kGraph);
      break;
    case views::ShowInTarget::kTimeline:
      timeline_view_->HighlightInstructions({instruction});
      found = timeline_view_->canvas()->has_highlighted_events();
      ShowView(View::kTimeline);
      break;
    case views::ShowInTarget::kText:
      found = ScrollTextTo(instruction.toStdString());
      ShowView(View::kText);
      break;
    case views::ShowInTarget::kOps:
      found = op_profile_view_->SelectInstruction(instruction);
      ShowView(View::kOps);
      break;
    case views::ShowInTarget::kComparison:
      ShowView(View::kComparison);
      found = true;
      break;
  }
  if (!found) statusBar()->showMessage(QStringLiteral("%1 is not in this view").arg(instruction), 5000);
}

void MainWindow::SetTheme(views::Theme theme) {
  QSettings().setValue("view/theme", views::ThemeName(theme));
  views::ApplyTheme(theme);
  // Canvases repaint in the new colours; charts and the text's highlighting
  // are built in them, so the run is shown afresh.
  if (current_run_ >= 0) ShowRun(current_run_);
}

void MainWindow::FindNext(int direction) {
  switch (current_view()) {
    case View::kTimeline: timeline_view_->NextResult(direction); break;
    case View::kText: text_view_->NextMatch(direction); break;
    default: graph_view_->NextSearchHit(direction); break;
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("window/view", tabs_->currentIndex());
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  OpenAndReport(urls.first().toLocalFile());
}

}  // namespace systolic::studio
