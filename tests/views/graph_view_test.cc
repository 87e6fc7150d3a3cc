// The graph view on a program before and after fusion: layout, linked
// selection through provenance (both ways), fusions as clusters, search,
// export, and large modules shown by layers.
#include <QFile>
#include <QGraphicsView>
#include <QImage>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "core/analysis/program_profile.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/program_run.h"
#include "core/hlo/hlo_parser.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "tests/views/view_test_profile.h"
#include "views/graph_canvas.h"
#include "views/graph_cluster_item.h"
#include "views/graph_node_item.h"
#include "views/graph_pane.h"
#include "views/graph_view.h"
#include "views/stage_store.h"

namespace systolic::views {
namespace {

std::vector<std::string> Names(const std::vector<const HloInstruction*>& instructions) {
  std::vector<std::string> names;
  for (const HloInstruction* i : instructions) names.push_back(i->name());
  return names;
}

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Clicks (or double-clicks) the node of `name` where it is drawn.
void ClickNode(GraphPane* pane, const std::string& name, bool twice = false) {
  const HloInstruction* instruction = pane->stage()->FindInstruction(name);
  QVERIFY2(instruction, name.c_str());
  const int32_t node = pane->visible().Locate(instruction).node;
  QVERIFY2(node >= 0, name.c_str());
  GraphNodeItem* item = pane->node_items()[node];
  pane->canvas()->centerOn(item);
  const QPoint at = pane->canvas()->mapFromScene(item->boundingRect().center());
  if (twice) {
    QTest::mouseDClick(pane->canvas()->viewport(), Qt::LeftButton, {}, at);
  } else {
    QTest::mouseClick(pane->canvas()->viewport(), Qt::LeftButton, {}, at);
  }
}

GraphNodeItem* NodeItem(GraphPane* pane, const std::string& name) {
  const HloInstruction* instruction = pane->stage()->FindInstruction(name);
  if (!instruction) return nullptr;
  const int32_t node = pane->visible().Locate(instruction).node;
  return node >= 0 ? pane->node_items()[node] : nullptr;
}

}  // namespace

class GraphViewTest : public QObject {
  Q_OBJECT

 private:
  std::shared_ptr<const trace::Profile> profile_;

  void Open(GraphView& view, StageStore& store) {
    store.SetProfile(profile_);
    view.resize(1600, 900);
    view.show();
    view.SetProgram(&profile_->programs[0]);
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 30000);
    QVERIFY(view.before()->stage());
    QVERIFY(view.after()->stage());
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    profile_ = std::make_shared<const trace::Profile>(testing::MakeMlpProfile({.chips = 2, .steps = 2}));
    QCOMPARE(profile_->programs[0].snapshots.size(), size_t(3));
  }

  void opensBeforeAndAfterFusionSideBySide() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    QCOMPARE(view.before()->stage_index(), qint64(1));  // dce, the stage before fusion
    QCOMPARE(view.after()->stage_index(), qint64(2));   // priority-fusion
    QCOMPARE(view.before()->computation()->name(), std::string("main"));
    // The input: 26 instructions, three scalar constants drawn in their users.
    QCOMPARE(view.before()->node_items().size(), size_t(23));
    QVERIFY(view.before()->layout().ok);
    // After fusion, small enough to open every fusion: each is a cluster
    // titled with its kind.
    QStringList fusion_clusters;
    for (GraphClusterItem* c : view.after()->cluster_items()) {
      if (c->cluster().kind == analysis::GraphGroupKind::kFusion) {
        fusion_clusters << QString::fromStdString(c->cluster().label);
      }
    }
    fusion_clusters.sort();
    QCOMPARE(fusion_clusters, QStringList({"fusion · kOutput", "fusion.1 · kInput", "fusion.2 · kLoop",
                                           "fusion.3 · kInput", "fusion.4 · kInput", "fusion.5 · kInput"}));
    // Boxes never overlap.
    const auto& rects = view.after()->layout().nodes;
    for (size_t i = 0; i < rects.size(); ++i) {
      for (size_t j = i + 1; j < rects.size(); ++j) {
        QVERIFY(!rects[i].adjusted(1, 1, -1, -1).intersects(rects[j].adjusted(1, 1, -1, -1)));
      }
    }
  }

  void selectingOnOneSideMarksItsProvenanceOnTheOther() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    QSignalSpy spy(&view, &GraphView::instructionsSelected);

    // Before -> after: the dot became the fused dot inside "fusion".
    ClickNode(view.before(), "dot");
    QCOMPARE(spy.count(), 1);
    QCOMPARE(Names(view.before()->selection()), std::vector<std::string>{"dot"});
    QCOMPARE(Names(view.after()->linked()), (std::vector<std::string>{"dot.1", "fusion"}));
    QVERIFY(NodeItem(view.before(), "dot")->selected_node());
    QVERIFY(NodeItem(view.after(), "dot.1")->linked());
    QVERIFY(!NodeItem(view.after(), "exp.1")->linked());
    const int32_t fusion_cluster = view.after()->visible().Locate(view.after()->stage()->FindInstruction("fusion")).cluster;
    QVERIFY(fusion_cluster >= 0);
    QVERIFY(view.after()->cluster_items()[fusion_cluster]->linked());
    const QStringList names = spy.last().at(2).toStringList();
    QVERIFY(names.contains("dot") && names.contains("dot.1") && names.contains("fusion"));

    // After -> before: the fused exponential came from "exp".
    ClickNode(view.after(), "exp.1");
    QCOMPARE(Names(view.before()->linked()), std::vector<std::string>{"exp"});
    QVERIFY(NodeItem(view.before(), "exp")->linked());
    QVERIFY(!NodeItem(view.before(), "dot")->linked());
    QVERIFY(view.before()->selection().empty());

    // Clicking the background clears the selection and the links.
    QTest::mouseClick(view.after()->canvas()->viewport(), Qt::LeftButton, {}, QPoint(3, 3));
    QVERIFY(view.after()->selection().empty());
    QVERIFY(view.before()->linked().empty());
  }

  void fusionsCloseAndOpen() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    GraphPane* after = view.after();
    after->SetGroupExpanded("fusion:fusion", false);
    QTRY_VERIFY_WITH_TIMEOUT(!after->busy(), 20000);
    GraphNodeItem* fusion = NodeItem(after, "fusion");
    QVERIFY(fusion);
    QCOMPARE(fusion->node().subtitle, std::string("fusion · kOutput"));
    QVERIFY(fusion->node().expandable);
    // Its fused instructions are found at the fusion's node.
    QCOMPARE(NodeItem(after, "dot.1"), fusion);
    ClickNode(after, "fusion", /*twice=*/true);
    QTRY_VERIFY_WITH_TIMEOUT(!after->busy(), 20000);
    QVERIFY(after->IsGroupExpanded("fusion:fusion"));
    QVERIFY(NodeItem(after, "dot.1") != nullptr);
    QVERIFY(NodeItem(after, "dot.1")->node().instruction->name() == "dot.1");
    // Closing every layer leaves the two top scopes.
    after->CollapseAll();
    QTRY_VERIFY_WITH_TIMEOUT(!after->busy(), 20000);
    QCOMPARE(after->node_items().size(), size_t(2));
  }

  void searchFindsInstructionsAndRevealsThem() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    view.after()->CollapseAll();
    QTRY_VERIFY_WITH_TIMEOUT(!view.after()->busy(), 20000);
    QCOMPARE(view.Search("reduce"), 4);  // row_max.1, sum_exp.1, target.1, total.1
    view.NextSearchHit(1);
    QTRY_VERIFY_WITH_TIMEOUT(!view.after()->busy(), 20000);
    QCOMPARE(Names(view.after()->selection()), std::vector<std::string>{"row_max.1"});
    // Its layers opened so that it is a node of its own.
    QVERIFY(NodeItem(view.after(), "row_max.1"));
    QVERIFY(NodeItem(view.after(), "row_max.1")->selected_node());
    QVERIFY(NodeItem(view.after(), "row_max.1")->search_hit());
    view.NextSearchHit(-1);
    QTRY_VERIFY_WITH_TIMEOUT(!view.after()->busy(), 20000);
    QCOMPARE(Names(view.after()->selection()), std::vector<std::string>{"total.1"});
    QCOMPARE(view.Search("no such thing"), 0);
  }

  void exportsSvgPngAndDot() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    QTemporaryDir dir;
    QVERIFY(view.after()->ExportSvg(dir.filePath("graph.svg")));
    QVERIFY(view.after()->ExportPng(dir.filePath("graph.png")));
    QVERIFY(view.after()->ExportDot(dir.filePath("graph.dot")));
    QFile svg(dir.filePath("graph.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svg_text = svg.readAll();
    QVERIFY(svg_text.contains("<svg"));
    QVERIFY(svg_text.contains("relu.1"));
    QImage png(dir.filePath("graph.png"));
    QVERIFY(png.width() > 400 && png.height() > 400);
    QFile dot(dir.filePath("graph.dot"));
    QVERIFY(dot.open(QIODevice::ReadOnly));
    const QByteArray dot_text = dot.readAll();
    QVERIFY(dot_text.contains("digraph"));
    QVERIFY(dot_text.contains("cluster_"));
    QVERIFY(dot_text.contains("fusion · kOutput"));
    QVERIFY(dot_text.contains("pos="));
  }

  void selectsByNameFromTheTimeline() {
    StageStore store;
    GraphView view(&store);
    Open(view, store);
    QVERIFY(view.SelectInstructionByName("fusion.3"));
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 20000);
    QCOMPARE(Names(view.after()->selection()), std::vector<std::string>{"fusion.3"});
    const std::vector<std::string> linked = Names(view.before()->linked());
    QVERIFY(Has(linked, "exp") && Has(linked, "sum_exp"));
    QVERIFY(!Has(linked, "dot"));
    // Only in the earlier stage: selected there.
    QVERIFY(view.SelectInstructionByName("pre"));
    QCOMPARE(Names(view.before()->selection()), std::vector<std::string>{"pre"});
    QCOMPARE(Names(view.after()->linked()), (std::vector<std::string>{"pre.1", "fusion"}));
    QVERIFY(!view.SelectInstructionByName("no.such.instruction"));
  }

  void aStageThatCannotBeParsedSaysWhy() {
    auto profile = std::make_shared<trace::Profile>(*profile_);
    profile->programs[0].snapshots[2].hlo_text = "HloModule broken\n ENTRY %main { what }";
    StageStore store;
    store.SetProfile(profile);
    GraphView view(&store);
    view.resize(1200, 800);
    view.show();
    view.SetProgram(&profile->programs[0]);
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 20000);
    QVERIFY(view.before()->stage());
    QVERIFY(!view.after()->stage());
    QVERIFY(!store.ErrorOf(1, 2).isEmpty());
    QVERIFY(view.after()->node_items().empty());
  }

  void largeModulesShowTheirLayersFirst() {
    const QByteArray corpus = qgetenv("SYSTOLIC_CORPUS_DIR");
    const QString path = QString::fromUtf8(corpus) + "/hlo/xla_2023/xla/tools/data/benchmarking/mobilenet_v2.hlo";
    if (corpus.isEmpty() || !QFile::exists(path)) QSKIP("the corpus is not on this machine");
    auto loaded = LoadHloFile(path.toStdString(), /*verify=*/false);
    QVERIFY(loaded.ok());
    std::unique_ptr<HloModule> module = std::move(*loaded->front().module);
    auto profile = std::make_shared<const trace::Profile>(analysis::ProfileOfModules({module.get()}, "mobilenet"));
    StageStore store;
    store.SetProfile(profile);
    store.Adopt(1, 0, analysis::StageModule::Adopt(std::move(module), profile->programs[0].snapshots[0]));
    GraphView view(&store);
    view.resize(1400, 900);
    view.show();
    view.SetProgram(&profile->programs[0]);
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 300000);
    GraphPane* pane = view.after();
    QVERIFY(pane->layout().ok);
    // ~3,700 instructions, drawn as a few dozen program-order blocks.
    QVERIFY(pane->graph()->group(0).instruction_count > 3000);
    QVERIFY(pane->node_items().size() <= 80);
    QVERIFY(pane->node_items().size() >= 20);
    for (GraphNodeItem* item : pane->node_items()) QVERIFY(item->node().expandable);
    // Its edges cross thousands of ranks in all; each label is still placed, beside its edge.
    for (size_t i = 0; i < pane->visible().edges.size(); ++i) {
      if (!pane->visible().edges[i].label.empty()) QVERIFY(pane->layout().edges[i].has_label);
    }
    // Opening one block lays out its members only.
    const std::string first_block = pane->graph()->group(pane->visible().nodes[0].group).key;
    pane->SetGroupExpanded(first_block, true);
    // Graphviz runs on a worker thread; a loaded CI machine may take a while.
    QTRY_VERIFY_WITH_TIMEOUT(!pane->busy(), 300000);
    QVERIFY(pane->node_items().size() < 200);
    QCOMPARE(pane->cluster_items().size(), size_t(1));
  }

  void loopsShowTheirSimulatedIterations() {
    constexpr char kLoop[] = R"(
HloModule looped
cond {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(8)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  a = f32[256,256] get-tuple-element(p), index=1
  d = f32[256,256] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[], f32[256,256]) tuple(next, d)
}
ENTRY main {
  a = f32[256,256] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[256,256]) tuple(zero, a)
  w = (s32[], f32[256,256]) while(init), condition=cond, body=body
  ROOT r = f32[256,256] get-tuple-element(w), index=1
})";
    auto module = ParseAndReturnVerifiedModule(kLoop);
    QVERIFY(module.ok());
    absl::StatusOr<device::ChipSpec> chip = device::LoadChipSpec("v4");
    QVERIFY(chip.ok());
    absl::StatusOr<trace::Profile> run =
        device::CompileRunAndProfile(**module, *chip, {}, /*steps=*/1, "graph view test");
    QVERIFY2(run.ok(), std::string(run.status().message()).c_str());
    auto profile = std::make_shared<const trace::Profile>(*std::move(run));
    StageStore store;
    store.SetProfile(profile);
    GraphView view(&store);
    view.resize(1600, 900);
    view.show();
    view.SetProgram(&profile->programs[0]);
    QTRY_VERIFY_WITH_TIMEOUT(!view.busy(), 30000);
    GraphPane* pane = view.after();
    // The loop's node says what it ran.
    GraphNodeItem* loop = NodeItem(pane, "w");
    QVERIFY(loop);
    QVERIFY2(QString::fromStdString(loop->node().subtitle).contains("8 iterations \u00d7"),
             loop->node().subtitle.c_str());
    // Opening it shows its body, and the status line one iteration's time.
    ClickNode(pane, "w", /*twice=*/true);
    QTRY_VERIFY_WITH_TIMEOUT(!pane->busy(), 30000);
    QCOMPARE(pane->computation()->name(), std::string("body"));
    QVERIFY2(pane->status().startsWith("body (w: 8 iterations \u00d7"),
             pane->status().toStdString().c_str());
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::GraphViewTest)
#include "graph_view_test.moc"
