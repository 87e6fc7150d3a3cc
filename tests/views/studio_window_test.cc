// The studio window: programs and profiles open from files (and by drag and
// drop), the explorer drives the views, selections link the timeline, the
// graph and the details pane, and screenshots are written.
#include <QDir>
#include <QDropEvent>
#include <QImage>
#include <QLabel>
#include <QChartView>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextBlock>
#include <QtTest>
#include <cmath>

#include "app/studio/main_window.h"
#include "core/analysis/event_details.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/hlo/hlo_parser.h"
#include "tests/support/xla_dump_folder.h"
#include "tests/support/xspace_builder.h"
#include "tests/views/view_test_profile.h"
#include "views/details_pane.h"
#include "views/error_dialog.h"
#include "views/welcome_page.h"
#include "views/graph_canvas.h"
#include "views/roofline_chart.h"
#include "views/hlo_text_view.h"
#include "views/graph_node_item.h"
#include "views/graph_pane.h"
#include "views/graph_view.h"
#include "views/op_profile_model.h"
#include "views/op_profile_view.h"
#include "views/profile_explorer_model.h"
#include "views/program_runner.h"
#include "views/recompilations_view.h"
#include "views/run_comparison_view.h"
#include "views/show_in.h"
#include "views/studio_palette.h"
#include "views/studio_theme.h"
#include "views/sharding_view.h"
#include "views/timeline_canvas.h"
#include "views/timeline_view.h"

namespace systolic::studio {

class StudioWindowTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString profile_path_;

  static void WaitIdle(MainWindow& window) { QTRY_VERIFY_WITH_TIMEOUT(!window.busy(), 30000); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    profile_path_ = dir_.filePath("mlp.sysprof");
    QVERIFY(views::testing::WriteMlpProfile(profile_path_.toStdString(), {.chips = 2, .steps = 3}));
  }

  // Nothing open: the welcome page, whose samples open with a click.
  void anEmptyWindowWelcomesWithTheSamples() {
    MainWindow window;
    window.show();
    QVERIFY(window.welcome_page()->isVisible());
    QVERIFY(!window.graph_view()->isVisible());
    QListWidget* samples = window.welcome_page()->samples_list();
    QList<QListWidgetItem*> mlp = samples->findItems("mlp_layer.hlo", Qt::MatchStartsWith);
    QCOMPARE(mlp.size(), 1);
    QVERIFY(samples->count() >= 5);
    const QRect row = samples->visualItemRect(mlp[0]);
    QTest::mouseClick(samples->viewport(), Qt::LeftButton, {}, row.center());
    QVERIFY(window.profile() != nullptr);
    QVERIFY(!window.welcome_page()->isVisible());
    QVERIFY(window.windowTitle().startsWith("mlp_layer.hlo"));
    WaitIdle(window);
  }

  // An XLA dump folder opens as its modules, on the graph of XLA's own
  // fusion pass before and after.
  void opensAnXlaDumpFolderOnItsPasses() {
    const QString folder = dir_.filePath("xla_dump");
    const testing::XlaDumpFolderContents contents = testing::WriteXlaDumpFolder(folder.toStdString());
    MainWindow window;
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(folder, &error), qPrintable(error));
    WaitIdle(window);
    QCOMPARE(window.profile()->programs.size(), size_t(3));
    QCOMPARE(window.profile()->programs[0].snapshots.size(), contents.mlp_passes.size());
    QCOMPARE(window.current_view(), MainWindow::View::kGraph);
    QVERIFY(window.graph_view()->compare());
    QVERIFY(!window.graph_view()->after()->node_items().empty());
    QVERIFY(window.windowTitle().startsWith("xla_dump"));
    // A folder with no HLO says so and keeps what was open.
    QVERIFY(QDir(dir_.path()).mkpath("empty_dump"));
    QVERIFY(!window.OpenFile(dir_.filePath("empty_dump"), &error));
    QVERIFY2(error.contains("no HLO text"), qPrintable(error));
    QCOMPARE(window.profile()->programs.size(), size_t(3));
  }

  void opensAProgramOnItsGraph() {
    MainWindow window;
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", &error), qPrintable(error));
    QCOMPARE(window.current_view(), MainWindow::View::kGraph);
    WaitIdle(window);
    // One stage: the program alone, nothing to compare.
    QVERIFY(!window.graph_view()->compare());
    QCOMPARE(window.graph_view()->after()->node_items().size(), size_t(23));
    QCOMPARE(window.explorer_model()->rowCount(), 1);
    QVERIFY(window.windowTitle().startsWith("mlp_layer.hlo"));
    // StableHLO opens the same way.
    QVERIFY2(window.OpenFile(SYSTOLIC_SOURCE_DIR "/samples/stablehlo/mlp_forward.mlir", &error), qPrintable(error));
    WaitIdle(window);
    QVERIFY(!window.graph_view()->after()->node_items().empty());
  }

  void badFilesSayWhyAndKeepWhatWasOpen() {
    MainWindow window;
    QString error;
    QVERIFY(window.OpenFile(profile_path_, &error));
    const trace::Profile* open = window.profile();
    QVERIFY(!window.OpenFile(dir_.filePath("missing.hlo"), &error));
    QVERIFY(error.contains("no such file"));
    QFile broken(dir_.filePath("broken.hlo"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("HloModule broken\nENTRY %main {\n  %x = f32[2] parameter(0\n}\n");
    broken.close();
    QVERIFY(!window.OpenFile(broken.fileName(), &error));
    QVERIFY2(error.contains("broken.hlo:4:1"), qPrintable(error));
    QCOMPARE(window.profile(), open);

    // Random bytes are recognised by content, whatever their name: a
    // profile's name gives the profile reader's word, any other a program's.
    QByteArray noise;
    for (int i = 0; i < 4096; ++i) noise.append(char((i * 7919 + 13) % 256));
    for (const QString name : {"noise.sysprof", "noise.hlo", "noise"}) {
      QFile file(dir_.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(noise);
      file.close();
      QVERIFY(!window.OpenFile(file.fileName(), &error));
      QVERIFY2(error.contains(name.endsWith(".sysprof") ? "not a Systolic profile: wrong magic bytes"
                                                        : "not a text file: byte"),
               qPrintable(error));
      for (QChar c : error) QVERIFY2(c.unicode() >= 0x20 || c == '\n', qPrintable(error));
      QCOMPARE(window.profile(), open);
    }
    // A NumPy array says what it is and where arrays go; a program named
    // like an XSpace opens as the program it is.
    QFile array(dir_.filePath("weights.sysprof"));
    QVERIFY(array.open(QIODevice::WriteOnly));
    array.write(QByteArray("\x93NUMPY\x01\x00", 8) + noise);
    array.close();
    QVERIFY(!window.OpenFile(array.fileName(), &error));
    QVERIFY2(error.contains("is a NumPy array (.npy), not a program or a profile"), qPrintable(error));
    QFile::copy(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", dir_.filePath("mlp.xplane.pb"));
    QVERIFY2(window.OpenFile(dir_.filePath("mlp.xplane.pb"), &error), qPrintable(error));
    QCOMPARE(window.profile()->programs.size(), size_t(1));
  }

  // A real profile opens with its programs; an op of the second program
  // opens that program's graph on the op, though both programs have an
  // instruction of that name.
  void aRealProfilesOpsOpenTheirOwnProgram() {
    const systolic::testing::TwoProgramXSpace made = systolic::testing::MakeTwoProgramXSpace();
    const QString path = dir_.filePath("two_programs.xplane.pb");
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      const std::string bytes = made.space.SerializeAsString();
      file.write(bytes.data(), qint64(bytes.size()));
    }
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(path, &error), qPrintable(error));
    QCOMPARE(window.profile()->programs.size(), size_t(2));
    WaitIdle(window);
    const trace::Timeline& timeline = window.profile()->timeline;
    std::vector<trace::EventRef> adds;
    for (const trace::EventRef& hit : timeline.Search("add.4")) {
      if (timeline.plane(hit.plane).name() == "/device:TPU:0") adds.push_back(hit);
    }
    QCOMPARE(adds.size(), size_t(3));
    views::TimelineCanvas* canvas = window.timeline_view()->canvas();
    for (const auto& [event, program] : {std::pair{adds[1], std::string("jit_eval_step")},
                                         std::pair{adds[0], std::string("jit_train_step")}}) {
      canvas->SelectEvent(event, true);
      emit canvas->eventSelected(event);
      WaitIdle(window);
      QCOMPARE(window.graph_view()->program()->name, program);
      QCOMPARE(window.details()->Value("Instruction"), QString("add.4"));
      QTRY_VERIFY2(window.graph_view()->after()->selection().size() == 1, program.c_str());
      QCOMPARE(window.graph_view()->after()->selection()[0]->name(), std::string("add.4"));
    }

    // Its ops against the simulator: the op profile gains the simulated
    // columns, beside the measured time.
    views::OpProfileModel* ops = window.op_profile_view()->model();
    QVERIFY(!ops->has_simulated());
    QVERIFY2(window.CompareWithSimulation("v5e", &error), qPrintable(error));
    QCOMPARE(window.current_view(), MainWindow::View::kOps);
    QVERIFY(ops->has_simulated());
    QCOMPARE(ops->headerData(views::OpProfileModel::kSimulated, Qt::Horizontal).toString(),
             QString("Simulated (v5e)"));
    QCOMPARE(ops->rowCount(), 2);
    for (int row = 0; row < ops->rowCount(); ++row) {
      const double simulated = ops->index(row, views::OpProfileModel::kSimulated).data(Qt::UserRole).toDouble();
      const double measured = ops->index(row, views::OpProfileModel::kTime).data(Qt::UserRole).toDouble();
      QVERIFY(simulated > 0);
      QCOMPARE(ops->index(row, views::OpProfileModel::kSimulatedRatio).data(Qt::UserRole).toDouble(),
               simulated / measured);
    }
    QVERIFY(!window.CompareWithSimulation("v99", &error));
    QVERIFY2(error.contains("v99"), qPrintable(error));
  }

  // Error dialogs keep the caret under its column (fixed width, spaces kept)
  // and show a broken file's bytes escaped.
  void errorDialogsLineUpAndEscape() {
    const std::string message = "f.hlo:3:9: expected ')'\n  %x = f32[2] parameter(0\n        ^";
    const QString text = views::ErrorDialogText(message);
    QVERIFY(text.startsWith("<pre>") && text.endsWith("</pre>"));
    QVERIFY2(text.contains("\n        ^"), qPrintable(text));
    QCOMPARE(views::ErrorDialogText(std::string("a\0<b>\xff", 6)), QString("<pre>a\\x00&lt;b&gt;\\xFF</pre>"));
  }

  // A profile opens on its timeline; the graph tab, laid out while hidden,
  // fits both panes to their real size when it is first shown.
  void theGraphFitsWhenItsTabIsFirstShown() {
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(profile_path_, &error), qPrintable(error));
    QCOMPARE(window.current_view(), MainWindow::View::kTimeline);
    WaitIdle(window);
    window.ShowView(MainWindow::View::kGraph);
    QCoreApplication::processEvents();
    for (views::GraphPane* pane : {window.graph_view()->before(), window.graph_view()->after()}) {
      views::GraphCanvas* canvas = pane->canvas();
      QVERIFY(canvas->isVisible());
      QVERIFY(canvas->scene() != nullptr);
      const QRect graph = canvas->mapFromScene(canvas->scene()->itemsBoundingRect()).boundingRect();
      const QSize view = canvas->viewport()->size();
      QVERIFY2(view.width() > 300 && view.height() > 300, "the pane has its real size");
      // Fitted: the graph fills the pane along one side, or is at its
      // natural size when smaller.
      const bool fills = graph.width() >= view.width() * 0.6 || graph.height() >= view.height() * 0.6;
      QVERIFY2(fills || canvas->zoom() == 1.0,
               qPrintable(QStringLiteral("graph %1x%2 in a %3x%4 pane at zoom %5")
                              .arg(graph.width()).arg(graph.height())
                              .arg(view.width()).arg(view.height()).arg(canvas->zoom())));
    }
  }

  void aProfileOpensOnItsTimelineAndLinksTheViews() {
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(profile_path_, &error), qPrintable(error));
    QCOMPARE(window.current_view(), MainWindow::View::kTimeline);
    WaitIdle(window);
    QVERIFY(window.graph_view()->compare());
    QCOMPARE(window.graph_view()->after()->stage_index(), qint64(2));

    // Timeline -> details and graph: an event of fusion.3.
    const trace::Timeline& timeline = window.profile()->timeline;
    const std::vector<trace::EventRef> hits = timeline.Search("fusion.3");
    QVERIFY(!hits.empty());
    views::TimelineCanvas* canvas = window.timeline_view()->canvas();
    canvas->SelectEvent(hits[0], true);
    emit canvas->eventSelected(hits[0]);
    WaitIdle(window);
    QVERIFY(window.details()->title().contains("fusion.3"));
    QCOMPARE(window.details()->Value("Instruction"), QString("fusion.3"));
    QVERIFY(!window.details()->Value("FLOPs").isEmpty());
    QCOMPARE(window.graph_view()->after()->selection().size(), size_t(1));
    QCOMPARE(window.graph_view()->after()->selection()[0]->name(), std::string("fusion.3"));
    QVERIFY(canvas->IsHighlighted(hits[0]));

    // Graph -> details and timeline: select the fused dense layer.
    window.ShowView(MainWindow::View::kGraph);
    QVERIFY(window.graph_view()->SelectInstructionByName("relu"));
    views::GraphPane* before = window.graph_view()->before();
    emit before->selectionChanged(before->selection());
    QCOMPARE(window.details()->Value("Instruction"), QString("relu"));
    QCOMPARE(window.details()->Value("Opcode"), QString("maximum"));
    // The HLO text (of the compiled stage, where relu was fused) marks the
    // line of relu's copy in the fusion, and names its stage.
    const QList<QTextEdit::ExtraSelection> marked = window.text_view()->editor()->extraSelections();
    QCOMPARE(marked.size(), 1);
    QVERIFY2(marked[0].cursor.block().text().contains(QRegularExpression("%relu\\.1 = .* maximum\\(")), qPrintable(marked[0].cursor.block().text()));
    QTabWidget* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs->tabText(int(MainWindow::View::kText)).startsWith("HLO text · "));
    QVERIFY(window.timeline_view()->canvas()->highlighted_instructions().contains("fusion"));
    const trace::EventRef dense = timeline.Search("fusion")[0];
    QCOMPARE(timeline.EventName(dense), std::string("fusion"));
    QVERIFY(canvas->IsHighlighted(dense));

    // Op profile <-> graph: a row picked selects its instruction in the
    // graph (and the details); a node picked in the graph selects its row.
    views::OpProfileView* ops = window.op_profile_view();
    window.ShowView(MainWindow::View::kOps);
    QSortFilterProxyModel* rows = ops->sorted_model();
    int fusion3 = -1;
    for (int r = 0; r < rows->rowCount(); ++r) {
      if (rows->index(r, views::OpProfileModel::kInstruction).data().toString() == "fusion.3") fusion3 = r;
    }
    QVERIFY(fusion3 >= 0);
    ops->table()->setCurrentIndex(rows->index(fusion3, 0));
    QCOMPARE(window.details()->Value("Instruction"), QString("fusion.3"));
    QCOMPARE(window.graph_view()->after()->selection()[0]->name(), std::string("fusion.3"));
    QVERIFY(window.graph_view()->SelectInstructionByName("fusion"));
    views::GraphPane* after = window.graph_view()->after();
    emit after->selectionChanged(after->selection());
    QCOMPARE(ops->table()->currentIndex().siblingAtColumn(views::OpProfileModel::kInstruction).data().toString(),
             QString("fusion"));
  }

  // Every view exports as PNG (twice its size) and as SVG.
  void everyViewExportsAsAnImage() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY(window.OpenFile(profile_path_, &error));
    WaitIdle(window);
    for (MainWindow::View view : {MainWindow::View::kTimeline, MainWindow::View::kMemory,
                                  MainWindow::View::kOps, MainWindow::View::kUtilization}) {
      window.ShowView(view);
      QCoreApplication::processEvents();
      const QString png = dir_.filePath(QStringLiteral("view%1.png").arg(int(view)));
      const QString svg = dir_.filePath(QStringLiteral("view%1.svg").arg(int(view)));
      QVERIFY(window.ExportCurrentView(png));
      QVERIFY(window.ExportCurrentView(svg));
      const QImage image(png);
      QVERIFY(!image.isNull());
      QCOMPARE(image.width(), 2 * window.findChild<QTabWidget*>()->currentWidget()->width());
      QFile drawing(svg);
      QVERIFY(drawing.open(QIODevice::ReadOnly));
      const QByteArray text = drawing.readAll();
      QVERIFY(text.contains("<svg"));
      QVERIFY(text.size() > 2000);
    }
    QVERIFY(!window.ExportCurrentView(dir_.filePath("missing/folder/view.png")));
  }

  // The open profile's run against another's: the per-instruction changes
  // add up to the step-time change, and a row picks its instruction.
  void aRunComparesWithAnothersInTheComparisonView() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    const QString other = dir_.filePath("mlp_twice.sysprof");
    QVERIFY(views::testing::WriteMlpProfile(other.toStdString(), {.chips = 2, .steps = 2, .repeats_per_step = 2}));
    QString error;
    QVERIFY(!window.CompareWith(other, &error));  // nothing open yet
    QVERIFY(error.contains("Open a profile first"));
    QVERIFY(window.OpenFile(profile_path_, &error));
    WaitIdle(window);
    QVERIFY2(window.CompareWith(other, &error), qPrintable(error));
    QCOMPARE(window.current_view(), MainWindow::View::kComparison);
    const views::RunComparisonModel* model = window.comparison_view()->model();
    const analysis::RunComparison& c = model->comparison();
    QCOMPARE(c.before.steps, qint64(3));
    QCOMPARE(c.after.steps, qint64(2));
    QVERIFY(c.step_delta_ps() > 0);  // twice the work per step
    double sum = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
      sum += model->data(model->index(r, views::RunComparisonModel::kChange), Qt::UserRole).toDouble();
    }
    QVERIFY(std::abs(sum - c.step_delta_ps()) <= 1e-6 * c.step_delta_ps());
    QVERIFY(window.comparison_view()->summary().contains("step time"));
    int fusion3 = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
      if (model->index(r, 0).data().toString() == "fusion.3") fusion3 = r;
    }
    QVERIFY(fusion3 >= 0);
    window.comparison_view()->table()->setCurrentIndex(model->index(fusion3, 0));
    QCOMPARE(window.details()->Value("Instruction"), QString("fusion.3"));
    QVERIFY(window.ExportCurrentView(dir_.filePath("comparison.png")));
    QVERIFY(!window.CompareWith(dir_.filePath("missing.sysprof"), &error));
    QVERIFY2(error.contains("cannot open"), qPrintable(error));
  }

  // What-if: a program runs on one chip, then on another; each run joins
  // the session, the second is compared with the first, the timelines share
  // one axis, and a run made from a run's profile is the run made from the
  // file.
  void whatIfRunsJoinTheSessionAndCompare() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/mlp_layer.hlo", &error), qPrintable(error));
    WaitIdle(window);
    QCOMPARE(int(window.runs().size()), 1);
    QVERIFY(window.runs()[0].program_only);
    views::ProgramRunRequest on_v4{"", "v4", "", "", 2};
    views::ProgramRunRequest on_v5e{"", "v5e", "", "", 2};
    QVERIFY2(window.RunProgram(on_v4, &error), qPrintable(error));
    WaitIdle(window);
    QCOMPARE(window.current_run(), 1);
    QCOMPARE(window.profile()->chip.name, std::string("v4"));
    // After a run, the next one is a menu entry away (nothing to reopen).
    QVERIFY2(window.RunProgram(on_v5e, &error), qPrintable(error));
    WaitIdle(window);
    QCOMPARE(int(window.runs().size()), 3);
    QCOMPARE(window.current_run(), 2);
    QVERIFY(window.runs()[2].label.contains("v5e"));
    const analysis::RunComparison& c = window.comparison_view()->model()->comparison();
    QCOMPARE(c.before.chip, std::string("v4"));
    QCOMPARE(c.after.chip, std::string("v5e"));
    QCOMPARE(window.comparison_view()->before_picker()->currentIndex(), 1);
    QCOMPARE(window.comparison_view()->after_picker()->currentIndex(), 2);
    const double v5e_step = c.after.step_ps;

    // The graph is coloured by the comparison: each changed instruction
    // of the shown stage red or green, the most changed at full strength.
    window.ShowView(MainWindow::View::kGraph);
    WaitIdle(window);
    QVERIFY(window.graph_view()->run_changes_legend().contains("faster"));
    int coloured = 0, extreme = 0;
    for (const views::GraphNodeItem* item : window.graph_view()->after()->node_items()) {
      if (!item->run_change()) continue;
      ++coloured;
      if (std::abs(*item->run_change()) == 1.0) ++extreme;
    }
    QVERIFY(coloured > 0);
    QVERIFY(extreme <= 1);

    // The timelines: one axis, and moving one moves the other.
    views::TimelineCanvas* top = window.comparison_view()->before_timeline();
    views::TimelineCanvas* bottom = window.comparison_view()->after_timeline();
    QCOMPARE(top->time_viewport().bounds_end_ps(), bottom->time_viewport().bounds_end_ps());
    QVERIFY(top->timeline()->event_count() > 0 && bottom->timeline()->event_count() > 0);
    top->ShowRange(1000, 5000);
    QCOMPARE(bottom->time_viewport().from_ps(), top->time_viewport().from_ps());
    QCOMPARE(bottom->time_viewport().to_ps(), top->time_viewport().to_ps());

    // Back to the v4 run, and from its profile on v5e again: the same step.
    window.ShowRun(1);
    WaitIdle(window);
    QCOMPARE(window.profile()->chip.name, std::string("v4"));
    QVERIFY2(window.RunProgram(on_v5e, &error), qPrintable(error));
    WaitIdle(window);
    QCOMPARE(window.comparison_view()->model()->comparison().after.step_ps, v5e_step);

    // A run is saved as a profile and opens again as it was.
    QVERIFY(!window.runs()[window.current_run()].program_only);
    const QString saved = dir_.filePath("what_if.sysprof");
    QVERIFY2(window.SaveRun(saved, &error), qPrintable(error));
    const int64_t events = window.profile()->timeline.event_count();
    {
      MainWindow reopened;
      QVERIFY2(reopened.OpenFile(saved, &error), qPrintable(error));
      QCOMPARE(reopened.profile()->timeline.event_count(), events);
      QCOMPARE(reopened.profile()->chip.name, std::string("v5e"));
      WaitIdle(reopened);
    }

    // The program as opened has no timeline: choosing it says so.
    emit window.comparison_view()->runsChosen(0, 1);
    QVERIFY(window.comparison_view()->model()->rowCount() == 0);
    QVERIFY2(window.comparison_view()->summary().contains("color:#b91c1c"), qPrintable(window.comparison_view()->summary()));
    QVERIFY(window.CompareSessionRuns(1, 2, &error));
    QVERIFY(window.comparison_view()->model()->rowCount() > 0);
    // Its filter keeps the rows of matching instructions.
    window.comparison_view()->SetFilter("COPY");
    int shown = 0;
    for (int r = 0; r < window.comparison_view()->model()->rowCount(); ++r) {
      if (window.comparison_view()->table()->isRowHidden(r)) continue;
      ++shown;
      QVERIFY(window.comparison_view()->model()->index(r, 0).data().toString().contains("copy"));
    }
    QVERIFY(shown >= 1 && shown < window.comparison_view()->model()->rowCount());
  }

  // Ctrl+F searches the view shown: the HLO text marks every match and
  // steps through them, the op profile and the comparison filter their rows.
  void findSearchesTheViewShown() {
    MainWindow window;
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(profile_path_, &error), qPrintable(error));
    WaitIdle(window);
    window.ShowView(MainWindow::View::kText);
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QLineEdit* text_search = window.text_view()->findChild<QLineEdit*>();
    QVERIFY(text_search->hasFocus());
    QTest::keyClicks(text_search, "fusion");
    const int matches = window.text_view()->match_count();
    QVERIFY(matches > 2);
    QVERIFY(window.text_view()->editor()->extraSelections().size() >= matches);
    const int first = window.text_view()->editor()->textCursor().position();
    QTest::keyClick(&window, Qt::Key_F3);
    QVERIFY(window.text_view()->editor()->textCursor().position() != first);
    QVERIFY(window.text_view()->editor()->textCursor().selectedText().compare("fusion", Qt::CaseInsensitive) == 0);

    window.ShowView(MainWindow::View::kOps);
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QLineEdit* ops_filter = window.op_profile_view()->findChild<QLineEdit*>();
    QVERIFY(ops_filter->hasFocus());
    const int all = window.op_profile_view()->sorted_model()->rowCount();
    QTest::keyClicks(ops_filter, "FUSION.3");
    QCOMPARE(window.op_profile_view()->sorted_model()->rowCount(), 1);
    QVERIFY(all > 1);
  }

  // "Show in …": each view's menu offers the others, and each shows the
  // instruction.
  void showInTakesAnInstructionToEachView() {
    QMenu menu;
    std::vector<views::ShowInTarget> asked;
    views::AddShowInActions(&menu, "fusion.3", views::ShowInTarget::kTimeline,
                            [&](const QString& name, views::ShowInTarget target) {
                              QCOMPARE(name, QString("fusion.3"));
                              asked.push_back(target);
                            });
    QCOMPARE(menu.actions().size(), 3);  // not the timeline it came from
    for (QAction* action : menu.actions()) action->trigger();
    QCOMPARE(asked.size(), size_t(3));

    MainWindow window;
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(profile_path_, &error), qPrintable(error));
    WaitIdle(window);
    // The roofline draws the op profile's instructions (computed once).
    QCOMPARE(window.roofline_chart()->op_profile().ops.size(), window.op_profile_view()->model()->op_profile().ops.size());
    QVERIFY(!window.roofline_chart()->points().isEmpty());
    emit window.op_profile_view()->showInRequested("fusion.3", views::ShowInTarget::kGraph);
    QCOMPARE(window.current_view(), MainWindow::View::kGraph);
    QCOMPARE(window.details()->Value("Instruction"), QString("fusion.3"));
    emit window.timeline_view()->showInRequested("fusion.3", views::ShowInTarget::kText);
    QCOMPARE(window.current_view(), MainWindow::View::kText);
    QVERIFY(window.text_view()->editor()->textCursor().block().text().contains("%fusion.3 = "));
    emit window.graph_view()->showInRequested("fusion.3", views::ShowInTarget::kOps);
    QCOMPARE(window.current_view(), MainWindow::View::kOps);
    const QModelIndex row = window.op_profile_view()->table()->currentIndex();
    QCOMPARE(row.siblingAtColumn(0).data().toString(), QString("fusion.3"));
    emit window.op_profile_view()->showInRequested("fusion.3", views::ShowInTarget::kTimeline);
    QCOMPARE(window.current_view(), MainWindow::View::kTimeline);
    QVERIFY(window.timeline_view()->canvas()->highlighted_instructions().contains("fusion.3"));
  }

  // View > Theme: the dark palette reaches every canvas and chart, and the
  // light one brings them back.
  void everyCanvasAndChartFollowsTheTheme() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.OpenFile(profile_path_, &error), qPrintable(error));
    WaitIdle(window);
    auto lightness_at_corner = [](QWidget* widget) {
      const QImage image = widget->grab().toImage();
      return image.pixelColor(image.width() - 4, image.height() - 4).lightness();
    };
    for (const views::Theme theme : {views::Theme::kDark, views::Theme::kLight}) {
      const bool dark = theme == views::Theme::kDark;
      window.SetTheme(theme);
      WaitIdle(window);
      QCOMPARE(views::StudioPalette::Get().dark, dark);
      window.ShowView(MainWindow::View::kTimeline);
      QVERIFY(dark == (lightness_at_corner(window.timeline_view()->canvas()->viewport()) < 100));
      window.ShowView(MainWindow::View::kGraph);
      WaitIdle(window);
      QCOMPARE(window.graph_view()->after()->canvas()->backgroundBrush().color(), views::StudioPalette::Get().canvas);
      window.ShowView(MainWindow::View::kRoofline);
      QChartView* chart = window.roofline_chart()->findChild<QChartView*>();
      QVERIFY(chart != nullptr);
      QCOMPARE(chart->chart()->theme(), dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    }
    window.SetTheme(views::Theme::kSystem);  // as the other tests expect
  }

  void theExplorerDrivesTheViews() {
    MainWindow window;
    window.show();
    QString error;
    QVERIFY(window.OpenFile(profile_path_, &error));
    WaitIdle(window);
    views::ProfileExplorerModel* model = window.explorer_model();
    // A stage opens on the graph's after side.
    emit window.explorer()->activated(model->StageIndex(0, 0));
    WaitIdle(window);
    QCOMPARE(window.current_view(), MainWindow::View::kGraph);
    QCOMPARE(window.graph_view()->after()->stage_index(), qint64(0));
    // A step fills the timeline.
    const QModelIndex run = model->index(0, 0, model->index(2, 0));
    emit window.explorer()->activated(model->index(1, 0, run));
    QCOMPARE(window.current_view(), MainWindow::View::kTimeline);
    const trace::StepRecord& step = window.profile()->runs[0].steps[1];
    const views::TimeViewport& vp = window.timeline_view()->canvas()->time_viewport();
    QVERIFY(vp.from_ps() <= double(step.start_ps));
    QVERIFY(vp.to_ps() >= double(step.start_ps + step.duration_ps));
    QVERIFY(vp.span_ps() < 1.1 * double(step.duration_ps));
    // A compile shows its cause.
    const QModelIndex compile = model->index(0, 0, model->index(1, 0));
    emit window.explorer()->clicked(compile);
    QCOMPARE(window.details()->Value("Cause"), QString("first compile"));
  }

  void droppedFilesOpen() {
    MainWindow window;
    window.show();
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(SYSTOLIC_SOURCE_DIR "/samples/hlo/sharded_mlp.hlo")});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QVERIFY(window.profile());
    QCOMPARE(window.profile()->programs.size(), size_t(1));
    QVERIFY(window.windowTitle().startsWith("sharded_mlp.hlo"));
  }

  void aChipOnTheTopologyOpensItsLanesAndACompileItsDiff() {
    // Four chips, and a recompile at step 3.
    const QString path = dir_.filePath("mlp_4chips.sysprof");
    QVERIFY(views::testing::WriteMlpProfile(path.toStdString()));
    MainWindow window;
    window.show();
    QString error;
    QVERIFY(window.OpenFile(path, &error));
    WaitIdle(window);
    emit window.sharding_view()->chipSelected(1);
    views::TimelineCanvas* canvas = window.timeline_view()->canvas();
    const analysis::LaneTree& tree = canvas->lane_tree();
    int open = 0, closed = 0;
    for (int32_t root : tree.roots()) {
      const analysis::LaneNode& node = tree.node(root);
      if (node.kind != analysis::LaneNodeKind::kPlane) continue;
      const bool chip1 = window.profile()->timeline.plane(node.plane).chip_id() == 1;
      QCOMPARE(canvas->IsCollapsed(root), !chip1);
      (chip1 ? open : closed) += 1;
    }
    QCOMPARE(open, 1);
    QCOMPARE(closed, 3);
    // The step-3 compile in the explorer opens the recompilations view on its diff.
    views::ProfileExplorerModel* model = window.explorer_model();
    emit window.explorer()->activated(model->index(3, 0, model->index(1, 0)));
    QCOMPARE(window.current_view(), MainWindow::View::kRecompilations);
    QVERIFY(window.recompilations_view()->diff_text().contains("f32[64,64]"));
    // And as graphs: the first program on the left, the recompiled one on the right.
    window.recompilations_view()->CompareGraphs();
    QCOMPARE(window.current_view(), MainWindow::View::kGraph);
    WaitIdle(window);
    QCOMPARE(window.graph_view()->before()->program()->id, int64_t(1));
    QCOMPARE(window.graph_view()->after()->program()->id, int64_t(2));
    QVERIFY(window.graph_view()->before()->stage());
    QVERIFY(window.graph_view()->after()->stage());
    QCOMPARE(window.graph_view()->after()->stage()->FindInstruction("x")->shape().dimensions()[0], int64_t(64));
    QCOMPARE(window.graph_view()->before()->stage()->FindInstruction("x")->shape().dimensions()[0], int64_t(32));
  }

  void theProfilesNotesShowAboveTheViews() {
    // A loop whose bound comes from an argument: its trip count is assumed.
    auto module = ParseAndReturnVerifiedModule(R"(
HloModule loop
cond {
  p = (s32[], s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] get-tuple-element(p), index=1
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  n = s32[] get-tuple-element(p), index=1
  x = f32[256] get-tuple-element(p), index=2
  e = f32[256] exponential(x)
  ROOT t = (s32[], s32[], f32[256]) tuple(next, n, e)
}
ENTRY main {
  n = s32[] parameter(0)
  x = f32[256] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], s32[], f32[256]) tuple(zero, n, x)
  w = (s32[], s32[], f32[256]) while(init), condition=cond, body=body
  ROOT r = f32[256] get-tuple-element(w), index=2
})");
    QVERIFY(module.ok());
    auto spec = device::LoadChipSpec("v4");
    QVERIFY(spec.ok());
    auto profile = device::CompileRunAndProfile(**module, *spec, {}, 1, "studio test");
    QVERIFY2(profile.ok(), std::string(profile.status().message()).c_str());
    MainWindow window;
    window.show();
    window.OpenProfile(std::make_shared<const trace::Profile>(*std::move(profile)), "loop");
    QVERIFY(window.notes_banner()->isVisible());
    QVERIFY2(window.notes_banner()->text().contains("w: trip count not found"),
             qPrintable(window.notes_banner()->text()));
    window.OpenProfile(nullptr, "");
    QVERIFY(!window.notes_banner()->isVisible());
  }

  void screenshotsAreWritten() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY(window.OpenFile(profile_path_, &error));
    bool done = false;
    window.WhenIdle([&] { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    for (auto view : {MainWindow::View::kGraph, MainWindow::View::kTimeline, MainWindow::View::kRecompilations,
                      MainWindow::View::kSharding, MainWindow::View::kMemory, MainWindow::View::kOps,
                      MainWindow::View::kRoofline}) {
      window.ShowView(view);
      const QString path = dir_.filePath(QStringLiteral("view%1.png").arg(int(view)));
      QVERIFY(window.SaveScreenshot(path));
      QImage image(path);
      QCOMPARE(image.size(), window.size());
    }
    QCOMPARE(MainWindow::ParseView("timeline"), std::optional<MainWindow::View>(MainWindow::View::kTimeline));
    QCOMPARE(MainWindow::ParseView("recompilations"), std::optional<MainWindow::View>(MainWindow::View::kRecompilations));
    QCOMPARE(MainWindow::ParseView("sharding"), std::optional<MainWindow::View>(MainWindow::View::kSharding));
    QCOMPARE(MainWindow::ParseView("memory"), std::optional<MainWindow::View>(MainWindow::View::kMemory));
    QCOMPARE(MainWindow::ParseView("ops"), std::optional<MainWindow::View>(MainWindow::View::kOps));
    QCOMPARE(MainWindow::ParseView("roofline"), std::optional<MainWindow::View>(MainWindow::View::kRoofline));
    QVERIFY(!MainWindow::ParseView("nonsense"));
  }
};

}  // namespace systolic::studio

QTEST_MAIN(systolic::studio::StudioWindowTest)
#include "studio_window_test.moc"
