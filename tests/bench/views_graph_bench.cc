// Time to the first drawn graph of the largest corpus module (mobilenet_v2,
// ~3,700 instructions): parse, group into layers, lay out the first
// picture in the background as the studio does, draw it — against a plain
// Graphviz layout of the whole flat graph (every instruction a node, every
// operand an edge, same attributes) in the same run. Target: under 1 s.
#include <QApplication>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>
#include <memory>

#include "benchmark/benchmark.h"
#include "core/analysis/hlo_graph.h"
#include "core/analysis/program_profile.h"
#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_file.h"
#include "tests/bench/bench_support.h"
#include "views/graph_canvas.h"
#include "views/graph_layout.h"
#include "views/graph_node_item.h"
#include "views/graph_pane.h"

namespace systolic::views {
namespace {

std::string MobilenetPath() { return bench::LargestCorpusModulePath().value_or(""); }

void BM_FirstDrawnGraph(benchmark::State& state) {
  const std::string path = MobilenetPath();
  absl::StatusOr<std::string> text = ReadTextFile(path);
  if (path.empty() || !text.ok()) {
    state.SkipWithError("the corpus is not on this machine");
    return;
  }
  int64_t nodes = 0;
  for (auto _ : state) {
    auto loaded = LoadHloFile(path, /*verify=*/false);
    if (!loaded.ok() || !loaded->front().module.ok()) {
      state.SkipWithError("cannot parse mobilenet_v2");
      return;
    }
    std::unique_ptr<HloModule> module = std::move(*loaded->front().module);
    auto profile = std::make_shared<const trace::Profile>(analysis::ProfileOfModules({module.get()}, "mobilenet"));
    std::shared_ptr<const analysis::StageModule> stage =
        analysis::StageModule::Adopt(std::move(module), profile->programs[0].snapshots[0]);
    GraphPane pane("After");
    pane.resize(1400, 900);
    QEventLoop loop;
    QObject::connect(&pane, &GraphPane::layoutFinished, &loop, &QEventLoop::quit);
    pane.SetStage(&profile->programs[0], 0, stage, "");
    if (pane.busy()) loop.exec();
    QImage image(pane.canvas()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    pane.canvas()->render(&painter);
    painter.end();
    nodes = int64_t(pane.node_items().size());
    benchmark::DoNotOptimize(image.constBits());
  }
  state.counters["nodes_drawn"] = double(nodes);
}

void BM_FlatGraphvizLayout(benchmark::State& state) {
  const std::string path = MobilenetPath();
  auto loaded = path.empty() ? absl::StatusOr<std::vector<HloFileModule>>(absl::NotFoundError(""))
                             : LoadHloFile(path, /*verify=*/false);
  if (!loaded.ok() || !loaded->front().module.ok()) {
    state.SkipWithError("the corpus is not on this machine");
    return;
  }
  const HloModule& module = **loaded->front().module;
  // Every instruction its own node: no scopes, no blocks, nothing inlined.
  analysis::HloGraphOptions flat;
  flat.group_by_scope = false;
  flat.max_group_members = 1 << 30;
  flat.inline_scalar_constants = false;
  const analysis::HloGraph graph = analysis::HloGraph::Build(*module.entry_computation(), flat);
  const analysis::VisibleGraph visible = graph.Visible({});
  std::vector<QSizeF> sizes;
  for (const analysis::GraphNode& node : visible.nodes) sizes.push_back(GraphNodeItem::SizeFor(node));
  for (auto _ : state) {
    GraphLayoutResult result = GraphLayout::Run(visible, sizes);
    if (!result.ok) state.SkipWithError("layout failed");
    benchmark::DoNotOptimize(result.nodes.data());
  }
  state.counters["nodes"] = double(visible.nodes.size());
  state.counters["edges"] = double(visible.edges.size());
}

BENCHMARK(BM_FirstDrawnGraph)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_FlatGraphvizLayout)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace systolic::views

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  using systolic::bench::DeclareRatio;
  using systolic::bench::Metric;
  // The first picture of mobilenet_v2, parse included, in a small fraction
  // of what laying out its flat graph takes.
  DeclareRatio("first drawn graph vs flat Graphviz layout, mobilenet_v2",
               "BM_FirstDrawnGraph/iterations:5", "BM_FlatGraphvizLayout/iterations:1",
               Metric::kRealTime, 0.1);
  return systolic::bench::RunBenchmarksAndReportRatios(argc, argv);
}
