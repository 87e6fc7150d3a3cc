// How tensors lie across the chips: pick a program, a pass stage and a
// tensor (a parameter or any instruction); the topology shows which tile
// each chip holds, one colour per distinct tile, and the tensor is drawn
// as its tile grid labelled with device ids. The tiles come from the
// core's TileForDevice, through analysis::LayoutTensor.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>

#include "core/analysis/stage_module.h"
#include "core/analysis/tensor_layout.h"
#include "core/trace/profile.h"

class QComboBox;
class QLabel;

namespace systolic::views {

class ShardingCanvas;
class StageStore;

class ShardingView : public QWidget {
  Q_OBJECT

 public:
  explicit ShardingView(StageStore* store, QWidget* parent = nullptr);

  // Reads the profile the store holds.
  void Reload();
  // Selects a tensor of the current stage by instruction name.
  bool SelectTensor(const QString& instruction);
  // Shows stage `stage` of program index `program` (into the profile's programs).
  void ShowStage(int program, int stage);

  QStringList tensor_names() const;
  // Draws tensor dimensions `rows` and `columns` as the tile grid (-1: none).
  void SetGridDimensions(int rows, int columns);
  const analysis::TensorLayout* layout() const { return layout_ ? &*layout_ : nullptr; }
  ShardingCanvas* canvas() const { return canvas_; }
  // Waiting for a stage to be parsed.
  bool busy() const { return waiting_; }
  int64_t device_count() const;

 signals:
  // A chip was clicked (its id).
  void chipSelected(int id);

 private:
  void FillStages();
  void FillTensors();
  void ShowTensor();
  void FillGridDimensions();

  StageStore* store_ = nullptr;
  QComboBox* program_ = nullptr;
  QComboBox* stage_ = nullptr;
  QComboBox* tensor_ = nullptr;
  // The two tensor dimensions drawn as the tile grid's rows and columns.
  QComboBox* rows_dim_ = nullptr;
  QComboBox* columns_dim_ = nullptr;
  QLabel* note_ = nullptr;
  ShardingCanvas* canvas_ = nullptr;
  std::shared_ptr<const analysis::StageModule> module_;
  std::optional<analysis::TensorLayout> layout_;
  bool waiting_ = false;
  bool filling_ = false;
};

}  // namespace systolic::views
