#include "views/graph_pane.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QSaveFile>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>
#include <algorithm>

#include "core/hlo/hlo_computation.h"
#include "core/hlo/hlo_module.h"
#include "views/graph_canvas.h"
#include "views/graph_cluster_item.h"
#include "views/graph_edge_item.h"
#include "views/graph_node_item.h"
#include "views/show_in.h"

namespace systolic::views {
namespace {

// Nodes a first picture of a computation shows at most.
constexpr int64_t kFirstPictureNodes = 80;
// Instructions "open all layers" lays out at most.
constexpr int64_t kOpenAllNodes = 600;

std::vector<QSizeF> MeasureNodes(const analysis::VisibleGraph& graph) {
  std::vector<QSizeF> sizes;
  sizes.reserve(graph.nodes.size());
  for (const analysis::GraphNode& node : graph.nodes) sizes.push_back(GraphNodeItem::SizeFor(node));
  return sizes;
}

bool Contains(const std::vector<int32_t>& sorted, int32_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

}  // namespace

GraphPane::GraphPane(const QString& role, QWidget* parent) : QWidget(parent), role_(role) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* header = new QWidget(this);
  auto* row = new QHBoxLayout(header);
  row->setContentsMargins(6, 4, 6, 2);
  auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(role_.toHtmlEscaped()), header);
  stage_choice_ = new QComboBox(header);
  stage_choice_->setToolTip("Pass stage shown on this side");
  stage_choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  stage_choice_->setMinimumContentsLength(18);
  computation_choice_ = new QComboBox(header);
  computation_choice_->setToolTip("Computation shown (fusions open inside it)");
  computation_choice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  computation_choice_->setMinimumContentsLength(14);
  row->addWidget(title);
  row->addWidget(stage_choice_, 2);
  row->addWidget(computation_choice_, 1);
  layout->addWidget(header);

  status_ = new QLabel(this);
  status_->setContentsMargins(8, 0, 8, 3);
  status_->setStyleSheet("color: #78716c; font-size: 11px;");
  layout->addWidget(status_);

  canvas_ = new GraphCanvas(this);
  scene_ = new QGraphicsScene(this);
  canvas_->setScene(scene_);
  layout->addWidget(canvas_, 1);
  overlay_ = new QLabel(canvas_->viewport());
  overlay_->setAlignment(Qt::AlignCenter);
  overlay_->setWordWrap(true);
  overlay_->setStyleSheet("color: #57534e; font-size: 13px; background: transparent;");
  overlay_->hide();
  canvas_->viewport()->installEventFilter(this);

  watcher_ = new QFutureWatcher<GraphLayoutResult>(this);
  connect(watcher_, &QFutureWatcher<GraphLayoutResult>::finished, this,
          [this] { OnLayoutDone(generation_); });

  connect(canvas_, &GraphCanvas::nodeClicked, this, &GraphPane::SelectNode);
  connect(canvas_, &GraphCanvas::nodeDoubleClicked, this, &GraphPane::ToggleNode);
  connect(canvas_, &GraphCanvas::clusterClicked, this, [this](int index) {
    const analysis::GraphCluster& cluster = visible_->clusters[index];
    selection_ = cluster.kind == analysis::GraphGroupKind::kFusion
                     ? std::vector<const HloInstruction*>{graph_->group(cluster.group).fusion}
                     : graph_->InstructionsIn(cluster.group);
    UpdateMarks();
    emit selectionChanged(selection_);
  });
  connect(canvas_, &GraphCanvas::clusterDoubleClicked, this, [this](int index) {
    SetGroupExpanded(graph_->group(visible_->clusters[index].group).key, false);
  });
  connect(canvas_, &GraphCanvas::backgroundClicked, this, [this] {
    if (selection_.empty()) return;
    ClearSelection();
    emit selectionChanged(selection_);
  });
  connect(canvas_, &GraphCanvas::contextMenuAt, this, &GraphPane::ShowContextMenu);
  connect(stage_choice_, &QComboBox::activated, this, [this](int index) {
    emit stageRequested(stage_choice_->itemData(index).toLongLong());
  });
  connect(computation_choice_, &QComboBox::activated, this, [this](int index) {
    ShowComputation(
        reinterpret_cast<const HloComputation*>(computation_choice_->itemData(index).value<quintptr>()));
  });
  visible_ = std::make_shared<analysis::VisibleGraph>();
  SetMessage("No program");
}

GraphPane::~GraphPane() {
  // A layout still running keeps its own copies; wait so Graphviz is idle.
  watcher_->waitForFinished();
}

bool GraphPane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == canvas_->viewport()) {
    if (event->type() == QEvent::Resize) overlay_->setGeometry(canvas_->viewport()->rect().adjusted(20, 20, -20, -20));
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn) emit activated();
  }
  return QWidget::eventFilter(watched, event);
}

void GraphPane::SetMessage(const QString& message) {
  overlay_->setText(message);
  overlay_->setGeometry(canvas_->viewport()->rect().adjusted(20, 20, -20, -20));
  overlay_->setVisible(!message.isEmpty());
}

void GraphPane::SetStage(const trace::ProgramRecord* program, int64_t stage,
                         std::shared_ptr<const analysis::StageModule> module,
                         const QString& message) {
  program_ = program;
  stage_index_ = stage;
  expanded_.clear();
  selection_.clear();
  linked_.clear();
  search_hits_.clear();
  search_position_ = -1;
  FillStageChoices();
  if (module) {
    SetModule(std::move(module));
    return;
  }
  module_.reset();
  graph_.reset();
  computation_ = nullptr;
  ++generation_;
  layout_running_ = false;
  visible_ = std::make_shared<analysis::VisibleGraph>();
  layout_ = GraphLayoutResult();
  BuildScene();
  computation_choice_->clear();
  status_->clear();
  SetMessage(message);
}

void GraphPane::SetModule(std::shared_ptr<const analysis::StageModule> module) {
  module_ = std::move(module);
  computation_ = nullptr;
  graph_.reset();
  FillComputationChoices();
  if (module_ && module_->module().entry_computation()) {
    ShowComputation(module_->module().entry_computation());
  }
}

void GraphPane::FillStageChoices() {
  stage_choice_->clear();
  if (!program_) return;
  for (size_t i = 0; i < program_->snapshots.size(); ++i) {
    const trace::ModuleSnapshot& s = program_->snapshots[i];
    QString text = QStringLiteral("%1 · %2").arg(i).arg(QString::fromStdString(s.pass_name));
    if (i > 0 && !s.changed) text += " (unchanged)";
    stage_choice_->addItem(text, qlonglong(i));
  }
  stage_choice_->setCurrentIndex(int(stage_index_));
}

void GraphPane::FillComputationChoices() {
  computation_choice_->clear();
  if (!module_) return;
  const std::vector<HloComputation*> order = module_->module().MakeComputationPostOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if ((*it)->IsFusionComputation()) continue;
    computation_choice_->addItem(
        QStringLiteral("%1 (%2)").arg(QString::fromStdString((*it)->name())).arg((*it)->instruction_count()),
        QVariant::fromValue(quintptr(*it)));
  }
}

absl::flat_hash_set<std::string>& GraphPane::Expanded() {
  return expanded_[computation_ ? computation_->name() : std::string()];
}

const absl::flat_hash_set<std::string>* GraphPane::ExpandedOrNull() const {
  auto it = expanded_.find(computation_ ? computation_->name() : std::string());
  return it == expanded_.end() ? nullptr : &it->second;
}

void GraphPane::ShowComputation(const HloComputation* computation) {
  if (!computation || (computation == computation_ && graph_)) return;
  computation_ = computation;
  graph_ = std::make_unique<analysis::HloGraph>(analysis::HloGraph::Build(*computation));
  if (!expanded_.count(computation->name())) {
    expanded_[computation->name()] = graph_->DefaultExpanded(kFirstPictureNodes);
  }
  const int index = computation_choice_->findData(QVariant::fromValue(quintptr(computation)));
  if (index >= 0) computation_choice_->setCurrentIndex(index);
  Relayout(/*fit=*/true);
}

void GraphPane::Relayout(bool fit) {
  if (!graph_) return;
  analysis::VisibleGraph graph = graph_->Visible(Expanded());
  // A loop's node says what it ran.
  for (analysis::GraphNode& node : graph.nodes) {
    if (node.instruction == nullptr || node.instruction->opcode() != HloOpcode::kWhile) continue;
    auto loop = loop_times_.find(node.instruction->name());
    if (loop != loop_times_.end()) {
      node.subtitle += " \u00b7 " + analysis::LoopTimeInWords(loop->second);
    }
  }
  auto visible = std::make_shared<const analysis::VisibleGraph>(std::move(graph));
  std::vector<QSizeF> sizes = MeasureNodes(*visible);
  ++generation_;
  pending_visible_ = visible;
  layout_running_ = true;
  fit_after_layout_ = fit_after_layout_ || fit;
  if (node_items_.empty()) SetMessage(QStringLiteral("Laying out %1 nodes…").arg(visible->nodes.size()));
  // The stage module owns the instructions the graph points at.
  std::shared_ptr<const analysis::StageModule> keep = module_;
  watcher_->setFuture(QtConcurrent::run([visible, sizes = std::move(sizes), keep] {
    return GraphLayout::Run(*visible, sizes);
  }));
}

void GraphPane::OnLayoutDone(int generation) {
  if (generation != generation_ || !pending_visible_) return;
  layout_ = watcher_->result();
  visible_ = pending_visible_;
  pending_visible_.reset();
  layout_running_ = false;
  BuildScene();
  if (!layout_.ok) {
    SetMessage(layout_.error);
  } else {
    SetMessage(QString());
  }
  if (center_after_layout_) {
    CenterOnMarks();
  } else if (fit_after_layout_) {
    canvas_->FitAll(/*legibly=*/true);
  } else if (!focus_key_.empty()) {
    for (GraphClusterItem* item : cluster_items_) {
      if (graph_->group(item->cluster().group).key == focus_key_) {
        canvas_->centerOn(item->boundingRect().center());
      }
    }
  }
  center_after_layout_ = fit_after_layout_ = false;
  focus_key_.clear();
  emit layoutFinished();
}

void GraphPane::BuildScene() {
  scene_->clear();
  node_items_.clear();
  edge_items_.clear();
  cluster_items_.clear();
  if (!layout_.ok || !graph_) {
    scene_->setSceneRect(QRectF());
    return;
  }
  for (size_t i = 0; i < visible_->clusters.size(); ++i) {
    int depth = 0;
    for (int32_t p = visible_->clusters[i].parent; p >= 0; p = visible_->clusters[p].parent) ++depth;
    auto* item = new GraphClusterItem(int32_t(i), visible_->clusters[i], layout_.clusters[i], depth);
    scene_->addItem(item);
    cluster_items_.push_back(item);
  }
  for (size_t i = 0; i < visible_->edges.size(); ++i) {
    auto* item = new GraphEdgeItem(visible_->edges[i], layout_.edges[i]);
    scene_->addItem(item);
    edge_items_.push_back(item);
  }
  for (size_t i = 0; i < visible_->nodes.size(); ++i) {
    auto* item = new GraphNodeItem(int32_t(i), visible_->nodes[i], layout_.nodes[i]);
    scene_->addItem(item);
    node_items_.push_back(item);
  }
  scene_->setSceneRect(layout_.bounds.adjusted(-60, -60, 60, 60));
  // A loop's body or condition says how long one iteration took.
  std::string name = computation_->name();
  if (const HloInstruction* loop = analysis::LoopRunning(*computation_)) {
    auto time = loop_times_.find(loop->name());
    if (time != loop_times_.end()) {
      name += " (" + loop->name() + ": " + analysis::LoopTimeInWords(time->second) + ")";
    }
  }
  status_->setText(QStringLiteral("%1 · %2 instructions · %3 nodes, %4 edges · laid out in %5 ms")
                       .arg(QString::fromStdString(name))
                       .arg(graph_->group(0).instruction_count)
                       .arg(visible_->nodes.size())
                       .arg(visible_->edges.size())
                       .arg(int(layout_.seconds * 1000)));
  UpdateMarks();
}

QString GraphPane::status() const { return status_->text(); }

void GraphPane::SetRunChanges(std::shared_ptr<const RunChanges> changes) {
  run_changes_ = std::move(changes);
  UpdateMarks();
}

void GraphPane::UpdateMarks() {
  if (node_items_.empty() && cluster_items_.empty()) return;
  // Compared runs: an instruction's change, unchanged (0) when the
  // comparison does not name it.
  auto change_of = [this](const HloInstruction* instruction) -> std::optional<double> {
    if (!run_changes_) return std::nullopt;
    if (instruction == nullptr) return 0.0;
    auto it = run_changes_->find(instruction->name());
    return it != run_changes_->end() ? it->second : 0.0;
  };
  for (GraphNodeItem* item : node_items_) item->SetRunChange(change_of(item->node().instruction));
  for (GraphClusterItem* item : cluster_items_) {
    const bool fusion = item->cluster().kind == analysis::GraphGroupKind::kFusion;
    item->SetRunChange(fusion ? change_of(graph_->group(item->cluster().group).fusion) : std::nullopt);
  }
  const std::vector<int32_t> selected = visible_->NodesOf(selection_);
  const std::vector<int32_t> linked = visible_->NodesOf(linked_);
  const std::vector<int32_t> hits = visible_->NodesOf(search_hits_);
  for (GraphNodeItem* item : node_items_) {
    item->SetSelectedNode(Contains(selected, item->index()));
    item->SetLinked(Contains(linked, item->index()));
    item->SetSearchHit(Contains(hits, item->index()));
  }
  std::vector<int32_t> selected_clusters, linked_clusters;
  for (const HloInstruction* i : selection_) {
    if (const int32_t c = visible_->Locate(i).cluster; c >= 0) selected_clusters.push_back(c);
  }
  for (const HloInstruction* i : linked_) {
    if (const int32_t c = visible_->Locate(i).cluster; c >= 0) linked_clusters.push_back(c);
  }
  for (GraphClusterItem* item : cluster_items_) {
    const int32_t c = item->index();
    item->SetSelectedCluster(std::find(selected_clusters.begin(), selected_clusters.end(), c) !=
                             selected_clusters.end());
    item->SetLinked(std::find(linked_clusters.begin(), linked_clusters.end(), c) !=
                    linked_clusters.end());
  }
  for (GraphEdgeItem* item : edge_items_) {
    item->SetEmphasis(Contains(selected, item->edge().from) || Contains(selected, item->edge().to));
  }
}

void GraphPane::CenterOnMarks() {
  QRectF target;
  auto take = [&](const std::vector<const HloInstruction*>& instructions) {
    for (const HloInstruction* i : instructions) {
      const analysis::GraphPlace place = visible_->Locate(i);
      if (place.node >= 0 && place.node < int32_t(node_items_.size())) {
        target = target.united(node_items_[place.node]->boundingRect());
      } else if (place.cluster >= 0 && place.cluster < int32_t(cluster_items_.size())) {
        target = target.united(cluster_items_[place.cluster]->boundingRect());
      }
    }
  };
  take(selection_);
  if (target.isNull()) take(linked_);
  if (target.isNull()) return;
  if (canvas_->zoom() < 0.6) {
    canvas_->resetTransform();
    canvas_->scale(0.85, 0.85);
  }
  canvas_->centerOn(target.center());
}

void GraphPane::SelectNode(int node) {
  if (node < 0 || node >= int(visible_->nodes.size())) return;
  const analysis::GraphNode& n = visible_->nodes[node];
  selection_ = n.instruction ? std::vector<const HloInstruction*>{n.instruction}
                             : graph_->InstructionsIn(n.group);
  UpdateMarks();
  emit selectionChanged(selection_);
}

void GraphPane::ToggleNode(int node) {
  if (node < 0 || node >= int(visible_->nodes.size())) return;
  const analysis::GraphNode& n = visible_->nodes[node];
  if (n.expandable && n.group >= 0) {
    focus_key_ = graph_->group(n.group).key;
    SetGroupExpanded(focus_key_, true);
    return;
  }
  // A call, while or conditional opens the computation it calls.
  if (n.instruction && n.instruction->opcode() != HloOpcode::kFusion &&
      !n.instruction->called_computations().empty() &&
      (n.instruction->opcode() == HloOpcode::kWhile || n.instruction->opcode() == HloOpcode::kCall ||
       n.instruction->opcode() == HloOpcode::kConditional ||
       n.instruction->opcode() == HloOpcode::kAsyncStart)) {
    ShowComputation(n.instruction->called_computations().back());
  }
}

void GraphPane::SetGroupExpanded(const std::string& key, bool expanded) {
  if (!graph_ || graph_->FindGroup(key) <= 0) return;
  auto& set = Expanded();
  const bool changed = expanded ? set.insert(key).second : set.erase(key) > 0;
  if (changed) Relayout(/*fit=*/false);
}

bool GraphPane::IsGroupExpanded(const std::string& key) const {
  const auto* set = ExpandedOrNull();
  return set && set->contains(key);
}

void GraphPane::ExpandAll() {
  if (!graph_) return;
  Expanded() = graph_->DefaultExpanded(kOpenAllNodes);
  Relayout(/*fit=*/true);
}

void GraphPane::CollapseAll() {
  if (!graph_) return;
  Expanded().clear();
  Relayout(/*fit=*/true);
}

void GraphPane::SelectInstruction(const HloInstruction* instruction, bool reveal) {
  if (!module_ || !instruction) return;
  const HloComputation* computation = analysis::DisplayedComputation(*instruction);
  if (computation != computation_) ShowComputation(computation);
  selection_ = {instruction};
  bool opened = false;
  if (reveal && graph_) {
    for (const std::string& key : graph_->KeysToReveal(instruction)) {
      opened |= Expanded().insert(key).second;
    }
  }
  if (opened) Relayout(/*fit=*/false);
  if (layout_running_) {
    center_after_layout_ = true;
    return;
  }
  UpdateMarks();
  CenterOnMarks();
}

void GraphPane::ClearSelection() {
  selection_.clear();
  UpdateMarks();
}

void GraphPane::SetLinked(const std::vector<const HloInstruction*>& instructions) {
  linked_ = instructions;
  selection_.clear();
  if (module_ && !linked_.empty()) {
    const bool drawn_here = graph_ && std::any_of(linked_.begin(), linked_.end(), [&](auto* i) {
                              return graph_->Contains(i);
                            });
    if (!drawn_here) ShowComputation(analysis::DisplayedComputation(*linked_.front()));
  }
  if (layout_running_) {
    center_after_layout_ = !linked_.empty();
    return;
  }
  UpdateMarks();
  CenterOnMarks();
}

int GraphPane::Search(const QString& text) {
  search_hits_.clear();
  search_position_ = -1;
  if (module_ && !text.trimmed().isEmpty()) {
    search_hits_ = analysis::SearchInstructions(module_->module(), text.trimmed().toStdString());
  }
  UpdateMarks();
  return int(search_hits_.size());
}

int GraphPane::NextSearchHit(int direction) {
  if (search_hits_.empty()) return -1;
  const int n = int(search_hits_.size());
  search_position_ = ((search_position_ + direction) % n + n) % n;
  SelectInstruction(search_hits_[search_position_], /*reveal=*/true);
  emit selectionChanged(selection_);
  return search_position_;
}

void GraphPane::Fit() { canvas_->FitAll(); }

void GraphPane::ShowContextMenu(int node, int cluster, const QPoint& where) {
  QMenu menu(this);
  if (node >= 0) {
    const analysis::GraphNode& n = visible_->nodes[node];
    if (n.expandable) menu.addAction("Open", [this, node] { ToggleNode(node); });
    if (n.instruction) {
      menu.addAction("Copy name", [n] {
        QApplication::clipboard()->setText(QString::fromStdString(n.instruction->name()));
      });
      for (const HloComputation* callee : n.instruction->called_computations()) {
        if (callee->IsFusionComputation()) continue;
        menu.addAction(QStringLiteral("Show computation %1").arg(QString::fromStdString(callee->name())),
                       [this, callee] { ShowComputation(callee); });
      }
      menu.addSeparator();
      AddShowInActions(&menu, QString::fromStdString(n.instruction->name()), ShowInTarget::kGraph,
                       [this](const QString& name, ShowInTarget target) { emit showInRequested(name, target); });
    }
    if (n.cluster >= 0) {
      const analysis::GraphCluster& c = visible_->clusters[n.cluster];
      menu.addAction(QStringLiteral("Close %1").arg(QString::fromStdString(c.label)),
                     [this, key = graph_->group(c.group).key] { SetGroupExpanded(key, false); });
    }
    menu.addSeparator();
  }
  if (cluster >= 0) {
    menu.addAction("Close", [this, key = graph_->group(visible_->clusters[cluster].group).key] {
      SetGroupExpanded(key, false);
    });
    menu.addSeparator();
  }
  menu.addAction("Fit", this, &GraphPane::Fit);
  menu.addAction("Open all layers", this, &GraphPane::ExpandAll);
  menu.addAction("Close all layers", this, &GraphPane::CollapseAll);
  if (computation_ && module_ && computation_ != module_->module().entry_computation()) {
    menu.addAction("Back to the entry computation",
                   [this] { ShowComputation(module_->module().entry_computation()); });
  }
  menu.exec(where);
}

bool GraphPane::ExportSvg(const QString& path) const {
  if (!layout_.ok) return false;
  const QRectF source = scene_->sceneRect();
  // QSaveFile writes beside the file and renames it into place on commit:
  // a crash mid-export never leaves half a file.
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  QSvgGenerator generator;
  generator.setOutputDevice(&file);
  generator.setSize(source.size().toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
  generator.setTitle(QString::fromStdString(computation_->name()));
  QPainter painter;
  if (!painter.begin(&generator)) return false;
  scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  return painter.end() && file.commit();
}

bool GraphPane::ExportPng(const QString& path) const {
  if (!layout_.ok) return false;
  const QRectF source = scene_->sceneRect();
  // Twice the scene's resolution, within what an image can hold.
  const double scale = std::min(2.0, 16000.0 / std::max(source.width(), source.height()));
  QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene_->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
  painter.end();
  QSaveFile file(path);
  return file.open(QIODevice::WriteOnly) && image.save(&file, "PNG") && file.commit();
}

bool GraphPane::ExportDot(const QString& path) const {
  if (!layout_.ok) return false;
  GraphLayoutOptions options;
  options.want_dot = true;
  const GraphLayoutResult result = GraphLayout::Run(*visible_, MeasureNodes(*visible_), options);
  if (!result.ok || result.dot.isEmpty()) return false;
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  return file.write(result.dot) == result.dot.size() && file.commit();
}

}  // namespace systolic::views
