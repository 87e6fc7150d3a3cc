// One side of the graph view: a pass stage of a program, one computation
// of it at a time, laid out in the background whenever a layer opens or
// closes. It keeps the selection, the instructions linked to the other
// side's selection and the search hits, and marks them on the graph.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/analysis/hlo_graph.h"
#include "core/analysis/loop_times.h"
#include "core/analysis/stage_module.h"
#include "core/trace/program_record.h"
#include "views/graph_layout.h"
#include "views/show_in.h"

class QComboBox;
class QGraphicsScene;
class QLabel;

namespace systolic::views {

class GraphCanvas;
class GraphNodeItem;
class GraphClusterItem;
class GraphEdgeItem;

class GraphPane : public QWidget {
  Q_OBJECT

 public:
  explicit GraphPane(const QString& role, QWidget* parent = nullptr);
  ~GraphPane() override;

  // Shows stage `stage` of `program`: `module` when it is ready, else
  // `message` ("Parsing…", or why it cannot be shown) until SetModule.
  void SetStage(const trace::ProgramRecord* program, int64_t stage,
                std::shared_ptr<const analysis::StageModule> module, const QString& message);
  void SetModule(std::shared_ptr<const analysis::StageModule> module);
  // The simulated time of the program's loops, shown on their nodes and
  // over their bodies; give before SetStage.
  void SetLoopTimes(analysis::LoopTimes times) { loop_times_ = std::move(times); }
  void SetMessage(const QString& message);
  // Instructions coloured by a comparison of two runs: name -> change as a
  // share of the largest (analysis::RelativeChanges); null: by unit.
  using RunChanges = absl::flat_hash_map<std::string, double>;
  void SetRunChanges(std::shared_ptr<const RunChanges> changes);
  const trace::ProgramRecord* program() const { return program_; }
  int64_t stage_index() const { return stage_index_; }
  const analysis::StageModule* stage() const { return module_.get(); }

  // The computation drawn (fused computations are drawn inside their fusions).
  void ShowComputation(const HloComputation* computation);
  const HloComputation* computation() const { return computation_; }
  const analysis::HloGraph* graph() const { return graph_.get(); }

  // --- Selection ----------------------------------------------------------------
  // Selects an instruction of this stage, switching computation and opening
  // the layers around it when `reveal`, and scrolls to it.
  void SelectInstruction(const HloInstruction* instruction, bool reveal = true);
  void ClearSelection();
  const std::vector<const HloInstruction*>& selection() const { return selection_; }
  // Marks what the other side's selection became or came from; switches to
  // their computation when none of them is drawn here.
  void SetLinked(const std::vector<const HloInstruction*>& instructions);
  const std::vector<const HloInstruction*>& linked() const { return linked_; }

  // --- Search -----------------------------------------------------------------
  // Instructions of the stage whose name or opcode matches; returns how many.
  int Search(const QString& text);
  // Selects the next (or previous) hit; returns its position, -1 if none.
  int NextSearchHit(int direction = 1);
  int search_hit_count() const { return int(search_hits_.size()); }

  // --- Layers -----------------------------------------------------------------
  void SetGroupExpanded(const std::string& key, bool expanded);
  bool IsGroupExpanded(const std::string& key) const;
  void ExpandAll();
  void CollapseAll();

  // --- Drawing ----------------------------------------------------------------
  bool busy() const { return layout_running_; }
  const analysis::VisibleGraph& visible() const { return *visible_; }
  const GraphLayoutResult& layout() const { return layout_; }
  GraphCanvas* canvas() const { return canvas_; }
  // Node items by node index (empty while nothing is drawn).
  const std::vector<GraphNodeItem*>& node_items() const { return node_items_; }
  const std::vector<GraphClusterItem*>& cluster_items() const { return cluster_items_; }
  void Fit();
  // The line over the graph: the computation, its size and, for a loop's
  // body or condition, the loop's simulated iterations.
  QString status() const;

  bool ExportSvg(const QString& path) const;
  bool ExportPng(const QString& path) const;
  bool ExportDot(const QString& path) const;

 signals:
  // The user selected something here (clicks, search).
  void selectionChanged(const std::vector<const HloInstruction*>& instructions);
  void stageRequested(qint64 stage);
  void layoutFinished();
  void activated();
  // "Show in …" from a node's menu.
  void showInRequested(const QString& instruction, ShowInTarget target);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void Relayout(bool fit);
  void OnLayoutDone(int generation);
  void BuildScene();
  void UpdateMarks();
  void CenterOnMarks();
  void FillStageChoices();
  void FillComputationChoices();
  void SelectNode(int node);
  void ToggleNode(int node);
  void ShowContextMenu(int node, int cluster, const QPoint& where);
  absl::flat_hash_set<std::string>& Expanded();
  const absl::flat_hash_set<std::string>* ExpandedOrNull() const;

  QString role_;
  QComboBox* stage_choice_ = nullptr;
  QComboBox* computation_choice_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* overlay_ = nullptr;
  GraphCanvas* canvas_ = nullptr;
  QGraphicsScene* scene_ = nullptr;

  const trace::ProgramRecord* program_ = nullptr;
  int64_t stage_index_ = -1;
  std::shared_ptr<const analysis::StageModule> module_;
  const HloComputation* computation_ = nullptr;
  std::unique_ptr<analysis::HloGraph> graph_;
  // Open layers per computation (by name), so going back keeps them.
  std::map<std::string, absl::flat_hash_set<std::string>> expanded_;
  std::shared_ptr<const analysis::VisibleGraph> visible_;
  analysis::LoopTimes loop_times_;
  std::shared_ptr<const RunChanges> run_changes_;
  GraphLayoutResult layout_;

  QFutureWatcher<GraphLayoutResult>* watcher_ = nullptr;
  std::shared_ptr<const analysis::VisibleGraph> pending_visible_;
  int generation_ = 0;
  bool layout_running_ = false;
  bool fit_after_layout_ = false;
  bool center_after_layout_ = false;
  std::string focus_key_;  // the group just opened: scrolled to after layout

  std::vector<const HloInstruction*> selection_;
  int32_t selected_node_ = -1;
  int32_t selected_cluster_ = -1;
  std::vector<const HloInstruction*> linked_;
  std::vector<const HloInstruction*> search_hits_;
  int search_position_ = -1;

  std::vector<GraphNodeItem*> node_items_;
  std::vector<GraphEdgeItem*> edge_items_;
  std::vector<GraphClusterItem*> cluster_items_;
};

}  // namespace systolic::views
