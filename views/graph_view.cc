#include "views/graph_view.h"

#include <QAction>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QMenu>
#include <QVBoxLayout>

#include "absl/container/flat_hash_set.h"
#include "core/analysis/snapshot_link.h"
#include "core/analysis/stage_pair.h"
#include "views/graph_canvas.h"
#include "views/graph_pane.h"
#include "views/studio_palette.h"
#include "views/stage_store.h"

namespace systolic::views {

GraphView::GraphView(StageStore* store, QWidget* parent) : QWidget(parent), store_(store) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  toolbar_ = new QToolBar(this);
  toolbar_->setIconSize(QSize(16, 16));
  search_ = new QLineEdit(toolbar_);
  search_->setPlaceholderText("Find instruction by name or opcode");
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(320);
  toolbar_->addWidget(search_);
  QAction* previous = toolbar_->addAction("◀", this, [this] { NextSearchHit(-1); });
  previous->setToolTip("Previous match (Shift+F3)");
  QAction* next = toolbar_->addAction("▶", this, [this] { NextSearchHit(1); });
  next->setToolTip("Next match (F3)");
  search_status_ = new QLabel(toolbar_);
  search_status_->setMinimumWidth(90);
  toolbar_->addWidget(search_status_);
  toolbar_->addSeparator();
  toolbar_->addAction("Fit", this, &GraphView::Fit)->setToolTip("Fit the graph (F)");
  toolbar_->addAction("−", this, [this] { ZoomBy(1 / 1.25); })->setToolTip("Zoom out (Ctrl+-)");
  toolbar_->addAction("+", this, [this] { ZoomBy(1.25); })->setToolTip("Zoom in (Ctrl+=)");
  toolbar_->addAction("Open layers", this, [this] { active_->ExpandAll(); })
      ->setToolTip("Open the layers of the active side (as many as stay readable)");
  toolbar_->addAction("Close layers", this, [this] { active_->CollapseAll(); });
  QAction* compare = toolbar_->addAction("Compare stages");
  compare->setCheckable(true);
  compare->setChecked(true);
  compare->setToolTip("Show two pass stages side by side");
  connect(compare, &QAction::toggled, this, &GraphView::SetCompare);
  auto* export_menu = new QMenu(this);
  export_menu->addAction("SVG…", this, [this] { ExportActive("svg"); });
  export_menu->addAction("PNG…", this, [this] { ExportActive("png"); });
  export_menu->addAction("DOT…", this, [this] { ExportActive("dot"); });
  auto* export_button = new QToolButton(toolbar_);
  export_button->setText("Export");
  export_button->setMenu(export_menu);
  export_button->setPopupMode(QToolButton::InstantPopup);
  toolbar_->addWidget(export_button);
  layout->addWidget(toolbar_);
  run_changes_legend_ = new QLabel(this);
  run_changes_legend_->setTextFormat(Qt::RichText);
  run_changes_legend_->setContentsMargins(8, 2, 8, 2);
  run_changes_legend_->hide();
  layout->addWidget(run_changes_legend_);

  splitter_ = new QSplitter(Qt::Horizontal, this);
  before_ = new GraphPane("Before", splitter_);
  after_ = new GraphPane("After", splitter_);
  splitter_->addWidget(before_);
  splitter_->addWidget(after_);
  splitter_->setChildrenCollapsible(false);
  layout->addWidget(splitter_, 1);
  active_ = after_;

  Connect(before_, after_);
  Connect(after_, before_);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) { Search(text); });
  connect(search_, &QLineEdit::returnPressed, this, [this] { NextSearchHit(1); });
  connect(store_, &StageStore::stageReady, this, &GraphView::OnStageReady);
  connect(store_, &StageStore::stageFailed, this,
          [this](qint64 program_id, qint64 stage, const QString& error) {
            for (GraphPane* pane : {before_, after_}) {
              if (pane->program() && pane->program()->id == program_id && pane->stage_index() == stage &&
                  !pane->stage()) {
                pane->SetMessage("This stage cannot be drawn:\n" + error);
              }
            }
            emit busyChanged();
          });
}

void GraphView::Connect(GraphPane* pane, GraphPane* other) {
  connect(pane, &GraphPane::activated, this, [this, pane] { active_ = pane; });
  connect(pane, &GraphPane::stageRequested, this, [this, pane](qint64 stage) { LoadStage(pane, stage); });
  connect(pane, &GraphPane::layoutFinished, this, &GraphView::busyChanged);
  connect(pane, &GraphPane::showInRequested, this, &GraphView::showInRequested);
  connect(pane, &GraphPane::selectionChanged, this,
          [this, pane, other](const std::vector<const HloInstruction*>& selection) {
            active_ = pane;
            std::vector<const HloInstruction*> linked;
            if (pane->stage() && other->stage() && compare_) {
              linked = analysis::LinkedInstructions(*pane->stage(), selection, *other->stage());
            }
            other->SetLinked(linked);
            // The timeline lights up everything on either side.
            absl::flat_hash_set<std::string> seen;
            QStringList names;
            for (const auto* list :
                 std::initializer_list<const std::vector<const HloInstruction*>*>{&selection, &linked}) {
              for (const HloInstruction* i : *list) {
                if (seen.insert(i->name()).second) names << QString::fromStdString(i->name());
              }
            }
            emit instructionsSelected(pane->stage(), selection, names);
          });
}

void GraphView::SetRunChanges(std::shared_ptr<const absl::flat_hash_map<std::string, double>> changes,
                              const QString& legend) {
  const StudioPalette& palette = StudioPalette::Get();
  run_changes_legend_->setText(
      changes ? QStringLiteral("Coloured by the comparison %1: <span style='color:%2'>■ faster</span> "
                               "<span style='color:%3'>■ slower</span> <span style='color:%4'>■ unchanged</span> "
                               "in the second run, the deeper the larger the change")
                    .arg(legend.toHtmlEscaped(), palette.faster.name(), palette.slower.name(),
                         palette.other.name())
              : QString());
  run_changes_legend_->setToolTip(changes ? QStringLiteral("Each instruction's self time in the second run against the first; "
                                                          "the deeper the colour, the larger the change (View › Colour Graph by Comparison)")
                                          : QString());
  run_changes_legend_->setVisible(changes != nullptr);
  before_->SetRunChanges(changes);
  after_->SetRunChanges(std::move(changes));
}

QString GraphView::run_changes_legend() const {
  return run_changes_legend_->isVisibleTo(this) ? run_changes_legend_->text() : QString();
}

void GraphView::SetProgram(const trace::ProgramRecord* program) {
  program_ = program;
  pending_selection_.clear();
  search_->clear();
  if (!program) {
    before_->SetStage(nullptr, -1, nullptr, "No program");
    after_->SetStage(nullptr, -1, nullptr, "No program");
    return;
  }
  const analysis::StagePair pair = analysis::DefaultStagePair(*program);
  if (pair.after < 0) {
    // One stage: there is nothing to compare.
    LoadStage(after_, pair.before, program);
    before_->SetStage(program, pair.before, nullptr, "");
    SetCompare(false);
  } else {
    LoadStage(before_, pair.before, program);
    LoadStage(after_, pair.after, program);
    SetCompare(true);
  }
  for (QAction* action : toolbar_->actions()) {
    if (action->text() == "Compare stages") {
      action->setEnabled(program->snapshots.size() > 1);
      action->setChecked(compare_);
    }
  }
}

void GraphView::ShowStage(int64_t stage, Side side) {
  if (!program_) return;
  if (side == Side::kBefore && !compare_) SetCompare(true);
  LoadStage(side == Side::kBefore ? before_ : after_, stage, program_);
}

void GraphView::ComparePrograms(const trace::ProgramRecord* before, int64_t before_stage,
                                const trace::ProgramRecord* after, int64_t after_stage) {
  if (!before || !after) return;
  if (program_ != after) SetProgram(after);
  search_->clear();
  compare_ = true;
  before_->setVisible(true);
  LoadStage(before_, before_stage, before);
  LoadStage(after_, after_stage, after);
}

void GraphView::SetCompare(bool compare) {
  compare_ = compare;
  before_->setVisible(compare);
  if (compare && before_->stage_index() < 0 && program_) LoadStage(before_, 0, program_);
  if (!compare) {
    active_ = after_;
    after_->SetLinked({});
  }
}

void GraphView::LoadStage(GraphPane* pane, int64_t stage, const trace::ProgramRecord* program) {
  if (!program) program = pane->program() ? pane->program() : program_;
  if (!program || stage < 0) return;
  std::shared_ptr<const analysis::StageModule> module = store_->Get(program->id, stage);
  QString message;
  if (!module) {
    const QString error = store_->ErrorOf(program->id, stage);
    message = error.isEmpty() ? "Parsing the stage…" : "This stage cannot be drawn:\n" + error;
  }
  pane->SetLoopTimes(LoopTimesOf(*program));
  pane->SetStage(program, stage, module, message);
  emit busyChanged();
}

const analysis::LoopTimes& GraphView::LoopTimesOf(const trace::ProgramRecord& program) {
  if (loop_times_profile_.lock() != store_->shared_profile()) {
    loop_times_.clear();
    loop_times_profile_ = store_->shared_profile();
  }
  auto found = loop_times_.find(program.id);
  if (found == loop_times_.end()) {
    analysis::LoopTimes times;
    if (store_->profile()) times = analysis::ComputeLoopTimes(*store_->profile(), program.name);
    found = loop_times_.emplace(program.id, std::move(times)).first;
  }
  return found->second;
}

void GraphView::OnStageReady(qint64 program_id, qint64 stage) {
  // Each pane may show a different program (a recompile against its predecessor).
  for (GraphPane* pane : {before_, after_}) {
    if (pane->program() && pane->program()->id == program_id && pane->stage_index() == stage && !pane->stage()) {
      pane->SetModule(store_->Get(program_id, stage));
    }
  }
  if (!pending_selection_.isEmpty()) {
    const QString wanted = pending_selection_;  // a copy: selecting clears it
    SelectInstructionByName(wanted);
  }
  emit busyChanged();
}

bool GraphView::busy() const {
  for (GraphPane* pane : {before_, after_}) {
    if (pane == before_ && !compare_) continue;
    if (pane->busy()) return true;
    if (pane->program() && pane->stage_index() >= 0 && !pane->stage() &&
        store_->IsPending(pane->program()->id, pane->stage_index())) {
      return true;
    }
  }
  return false;
}

bool GraphView::PickInstructionByName(const QString& name) {
  if (!SelectInstructionByName(name)) return false;
  emit active_->selectionChanged(active_->selection());
  return true;
}

bool GraphView::SelectInstructionByName(const QString& name) {
  const std::string wanted = name.toStdString();
  pending_selection_.clear();
  for (GraphPane* pane : {after_, before_}) {
    if (!pane->stage() || (pane == before_ && !compare_)) continue;
    const HloInstruction* instruction = pane->stage()->FindInstruction(wanted);
    if (!instruction) continue;
    pane->SelectInstruction(instruction);
    GraphPane* other = pane == after_ ? before_ : after_;
    if (other->stage() && compare_) {
      other->SetLinked(analysis::LinkedInstructions(*pane->stage(), instruction, *other->stage()));
    }
    active_ = pane;
    return true;
  }
  // A program just opened: its stages are still parsing; selected when ready.
  if (busy()) pending_selection_ = name;
  return false;
}

int GraphView::Search(const QString& text) {
  const int hits = active_->Search(text);
  search_status_->setText(text.trimmed().isEmpty() ? QString()
                          : hits == 0              ? QStringLiteral("no match")
                                                   : QStringLiteral("%1 matches").arg(hits));
  return hits;
}

void GraphView::NextSearchHit(int direction) {
  const int position = active_->NextSearchHit(direction);
  if (position >= 0) {
    search_status_->setText(
        QStringLiteral("%1 of %2").arg(position + 1).arg(active_->search_hit_count()));
  }
}

void GraphView::Fit() { active_->Fit(); }

void GraphView::FocusSearch() {
  search_->setFocus();
  search_->selectAll();
}

void GraphView::ZoomBy(double factor) {
  active_->canvas()->ZoomBy(factor);
}

void GraphView::ExportActive(const QString& format) {
  const QString filter = format == "svg" ? "SVG images (*.svg)"
                         : format == "png" ? "PNG images (*.png)"
                                           : "Graphviz DOT (*.dot *.gv)";
  QString path = QFileDialog::getSaveFileName(this, "Export graph", QString(), filter);
  if (path.isEmpty()) return;
  if (!path.contains('.')) path += "." + format;
  const bool ok = format == "svg"   ? active_->ExportSvg(path)
                  : format == "png" ? active_->ExportPng(path)
                                    : active_->ExportDot(path);
  if (!ok) QMessageBox::warning(this, "Export failed", "Cannot write " + path);
}

}  // namespace systolic::views
