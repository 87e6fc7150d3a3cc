// Draws a tensor's layout over the chips: the topology as chips at their
// coordinates (a 2D grid; a 3D torus as one grid per layer), links between
// neighbours and wrap-around links as arcs, each chip labelled with its id,
// coordinates and the tile it holds, one colour per distinct tile; beside
// it the tensor as its tile grid (two chosen dimensions) labelled with the
// devices holding each tile. When the profile recorded ICI traffic, each
// link is coloured and thickened by its share of the busiest link's bytes
// (a heat map of the run's traffic).
#pragma once

#include <QColor>
#include <QPen>
#include <QRectF>
#include <QWidget>
#include <optional>

#include "core/analysis/link_traffic.h"
#include "core/analysis/tensor_layout.h"
#include "core/trace/topology_record.h"

namespace systolic::views {

class ShardingCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit ShardingCanvas(QWidget* parent = nullptr);

  void SetTopology(const trace::TopologyRecord& topology);
  // Null: only the chips.
  void SetLayout(const analysis::TensorLayout* layout);
  // The tensor dimensions drawn as rows and columns of the tile grid.
  void SetGridDimensions(int rows, int columns);
  int grid_rows() const { return grid_rows_; }
  int grid_columns() const { return grid_columns_; }

  // Colour of a tile index (the same in both drawings).
  static QColor TileColor(int64_t tile_index);
  // Where chip `id` is drawn, after the last paint or layout (tests).
  QRectF ChipRect(int32_t id) const;
  // The text drawn in chip `id`.
  QString ChipLabel(int32_t id) const;
  int selected_chip() const { return selected_chip_; }
  // The heading over the chips ("Topology 2x2x2 · 8 chips · ...").
  QString Heading() const;
  // How the link between chips `a` and `b` along `axis` is drawn.
  QPen LinkPen(int32_t a, int32_t b, int axis, const QPen& idle) const;
  // The heat map's colour for a link carrying `share` of the busiest link's
  // bytes (0 < share <= 1).
  static QColor TrafficColor(double share);
  // Where the heat map's legend is drawn (empty without traffic).
  QRectF TrafficLegendRect() const;

  QSize sizeHint() const override { return {900, 520}; }

 signals:
  void chipSelected(int id);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void Relayout();
  void PaintTopology(QPainter& painter);
  void PaintTensor(QPainter& painter);
  void PaintTrafficLegend(QPainter& painter);
  // Space between rows and between columns of chips (for the arcs).
  double RowGap() const;
  double ColumnGap() const;

  trace::TopologyRecord topology_;
  analysis::LinkTrafficMap traffic_{trace::TopologyRecord{}};
  std::optional<analysis::TensorLayout> layout_;
  int grid_rows_ = 0, grid_columns_ = 1;
  std::vector<QRectF> chip_rects_;  // by index into topology_.chips
  QRectF topology_area_, tensor_area_;
  QSizeF chip_size_;
  int selected_chip_ = -1;
};

}  // namespace systolic::views
