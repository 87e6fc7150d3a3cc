#include "views/sharding_view.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

#include "core/analysis/tensor_layout.h"
#include "core/hlo/hlo_instruction.h"
#include "views/sharding_canvas.h"
#include "views/stage_store.h"

namespace systolic::views {

ShardingView::ShardingView(StageStore* store, QWidget* parent) : QWidget(parent), store_(store) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* bar = new QHBoxLayout();
  program_ = new QComboBox(this);
  stage_ = new QComboBox(this);
  tensor_ = new QComboBox(this);
  tensor_->setMinimumContentsLength(20);
  tensor_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  // Choices wider than their box are shown whole in the list and on hover.
  for (QComboBox* box : {program_, stage_, tensor_}) {
    box->view()->setTextElideMode(Qt::ElideNone);
    connect(box, &QComboBox::currentTextChanged, box, [box](const QString& text) { box->setToolTip(text); });
  }
  program_->setMinimumContentsLength(10);
  program_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  stage_->setMinimumContentsLength(16);
  stage_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  bar->addWidget(new QLabel("Program", this));
  bar->addWidget(program_);
  bar->addWidget(new QLabel("Stage", this));
  bar->addWidget(stage_);
  bar->addWidget(new QLabel("Tensor", this));
  bar->addWidget(tensor_, 1);
  rows_dim_ = new QComboBox(this);
  columns_dim_ = new QComboBox(this);
  for (QComboBox* box : {rows_dim_, columns_dim_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const QString role = box == rows_dim_ ? "The tensor dimension drawn down the tile grid"
                                          : "The tensor dimension drawn across the tile grid";
    connect(box, &QComboBox::currentTextChanged, box,
            [box, role](const QString& text) { box->setToolTip(text + "\n" + role); });
  }
  layout->addLayout(bar);
  // The grid's axes on a line of their own, so no choice is cut short.
  auto* second = new QHBoxLayout();
  second->addWidget(new QLabel("Grid", this));
  second->addWidget(rows_dim_);
  second->addWidget(new QLabel("×", this));
  second->addWidget(columns_dim_);
  note_ = new QLabel(this);
  note_->setStyleSheet("color: #78716c;");
  second->addSpacing(12);
  second->addWidget(note_, 1);
  layout->addLayout(second);
  canvas_ = new ShardingCanvas(this);
  layout->addWidget(canvas_, 1);

  connect(program_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) FillStages();
  });
  connect(stage_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) FillTensors();
  });
  connect(tensor_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) ShowTensor();
  });
  connect(canvas_, &ShardingCanvas::chipSelected, this, &ShardingView::chipSelected);
  for (QComboBox* box : {rows_dim_, columns_dim_}) {
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      if (filling_) return;
      canvas_->SetGridDimensions(rows_dim_->currentData().toInt(), columns_dim_->currentData().toInt());
    });
  }
  connect(store_, &StageStore::stageReady, this, [this](qint64 program_id, qint64 stage) {
    const trace::Profile* profile = store_->profile();
    const int p = program_->currentIndex();
    if (!waiting_ || !profile || p < 0 || p >= int(profile->programs.size())) return;
    if (profile->programs[size_t(p)].id == program_id && stage == stage_->currentIndex()) FillTensors();
  });
  connect(store_, &StageStore::stageFailed, this, [this](qint64, qint64, const QString& error) {
    if (!waiting_) return;
    waiting_ = false;
    note_->setText("Cannot read this stage: " + error);
  });
}

int64_t ShardingView::device_count() const {
  const trace::Profile* profile = store_->profile();
  if (!profile) return 0;
  return std::max<int64_t>(profile->topology.chip_count(), 1);
}

void ShardingView::Reload() {
  const trace::Profile* profile = store_->profile();
  filling_ = true;
  program_->clear();
  if (profile) {
    for (const trace::ProgramRecord& p : profile->programs) {
      program_->addItem(QStringLiteral("%1 #%2").arg(QString::fromStdString(p.name)).arg(p.id));
    }
  }
  filling_ = false;
  canvas_->SetTopology(profile ? profile->topology : trace::TopologyRecord{});
  FillStages();
}

void ShardingView::ShowStage(int program, int stage) {
  if (program < 0 || program >= program_->count()) return;
  program_->setCurrentIndex(program);
  if (stage >= 0 && stage < stage_->count()) stage_->setCurrentIndex(stage);
}

void ShardingView::FillStages() {
  const trace::Profile* profile = store_->profile();
  const int p = program_->currentIndex();
  filling_ = true;
  stage_->clear();
  if (profile && p >= 0 && p < int(profile->programs.size())) {
    const trace::ProgramRecord& program = profile->programs[size_t(p)];
    for (size_t s = 0; s < program.snapshots.size(); ++s) {
      stage_->addItem(QStringLiteral("%1 · %2").arg(s).arg(QString::fromStdString(program.snapshots[s].pass_name)));
    }
    stage_->setCurrentIndex(int(analysis::LayoutStageOf(program)));
  }
  filling_ = false;
  FillTensors();
}

void ShardingView::FillTensors() {
  const trace::Profile* profile = store_->profile();
  const int p = program_->currentIndex(), s = stage_->currentIndex();
  const QString previous = tensor_->currentData().toString();
  filling_ = true;
  tensor_->clear();
  filling_ = false;
  module_.reset();
  waiting_ = false;
  if (!profile || p < 0 || p >= int(profile->programs.size()) || s < 0) {
    layout_.reset();
    canvas_->SetLayout(nullptr);
    note_->setText(profile ? "No program in this profile." : "Nothing open.");
    return;
  }
  module_ = store_->Get(profile->programs[size_t(p)].id, s);
  if (!module_) {
    waiting_ = store_->IsPending(profile->programs[size_t(p)].id, s);
    note_->setText(waiting_ ? "Reading the stage…" : store_->ErrorOf(profile->programs[size_t(p)].id, s));
    layout_.reset();
    canvas_->SetLayout(nullptr);
    return;
  }
  filling_ = true;
  int keep = 0;
  for (const HloInstruction* i : analysis::ShardableTensors(module_->module())) {
    const QString name = QString::fromStdString(i->name());
    const QString sharding = i->has_sharding() ? QString::fromStdString(i->sharding().ToString()) : "replicated (none given)";
    tensor_->addItem(QStringLiteral("%1  %2  %3").arg(name, QString::fromStdString(i->shape().ToString(false)), sharding),
                     name);
    if (name == previous) keep = tensor_->count() - 1;
  }
  // A tiled tensor says more than a replicated one: open on the first split one.
  if (previous.isEmpty()) {
    keep = 0;
    for (int k = 0; k < tensor_->count(); ++k) {
      if (tensor_->itemText(k).contains("devices=")) {
        keep = k;
        break;
      }
    }
  }
  tensor_->setCurrentIndex(tensor_->count() > 0 ? keep : -1);
  filling_ = false;
  ShowTensor();
}

bool ShardingView::SelectTensor(const QString& instruction) {
  const int index = tensor_->findData(instruction);
  if (index < 0) return false;
  tensor_->setCurrentIndex(index);
  ShowTensor();
  return true;
}

QStringList ShardingView::tensor_names() const {
  QStringList names;
  for (int i = 0; i < tensor_->count(); ++i) names << tensor_->itemData(i).toString();
  return names;
}

void ShardingView::ShowTensor() {
  layout_.reset();
  FillGridDimensions();
  if (!module_ || tensor_->currentIndex() < 0) {
    canvas_->SetLayout(nullptr);
    return;
  }
  const std::string name = tensor_->currentData().toString().toStdString();
  const HloInstruction* instruction = nullptr;
  for (const HloInstruction* i : analysis::ShardableTensors(module_->module())) {
    if (i->name() == name) instruction = i;
  }
  if (!instruction) {
    canvas_->SetLayout(nullptr);
    return;
  }
  absl::StatusOr<analysis::TensorLayout> layout = analysis::LayoutTensor(*instruction, device_count());
  if (!layout.ok()) {
    note_->setText(QString::fromStdString(std::string(layout.status().message())));
    canvas_->SetLayout(nullptr);
    return;
  }
  layout_ = std::move(*layout);
  note_->setText(QString::fromStdString(analysis::DescribeTensorLayout(*layout_)));
  canvas_->SetLayout(&*layout_);
  FillGridDimensions();
}

void ShardingView::FillGridDimensions() {
  filling_ = true;
  rows_dim_->clear();
  columns_dim_->clear();
  const int rank = layout_ ? int(layout_->tensor_dimensions.size()) : 0;
  for (QComboBox* box : {rows_dim_, columns_dim_}) {
    box->addItem("—", -1);
    for (int d = 0; d < rank; ++d) {
      box->addItem(QStringLiteral("dim %1 (%2 / %3)")
                       .arg(d)
                       .arg(layout_->tensor_dimensions[size_t(d)])
                       .arg(layout_->tile_grid[size_t(d)]),
                   d);
    }
  }
  // The canvas picked the split dimensions; the boxes show its choice.
  rows_dim_->setCurrentIndex(std::max(0, rows_dim_->findData(canvas_->grid_rows())));
  columns_dim_->setCurrentIndex(std::max(0, columns_dim_->findData(canvas_->grid_columns())));
  rows_dim_->setEnabled(rank > 0);
  columns_dim_->setEnabled(rank > 0);
  filling_ = false;
}

void ShardingView::SetGridDimensions(int rows, int columns) {
  const int r = rows_dim_->findData(rows), c = columns_dim_->findData(columns);
  if (r < 0 || c < 0) return;
  rows_dim_->setCurrentIndex(r);
  columns_dim_->setCurrentIndex(c);
  canvas_->SetGridDimensions(rows, columns);
}

}  // namespace systolic::views
