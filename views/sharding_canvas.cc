#include "views/sharding_canvas.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "views/studio_palette.h"

namespace systolic::views {
namespace {

constexpr double kMargin = 28;
const QColor kIdleLink(0xd6, 0xd3, 0xd1);  // a link the run did not use
constexpr double kLegendHeight = 40;
constexpr double kLayerGap = 48;

QString JoinNumbers(const std::vector<int64_t>& values) {
  QStringList parts;
  for (int64_t v : values) parts << QString::number(v);
  return parts.join(',');
}

QString ElementType(const std::string& shape) {
  const size_t bracket = shape.find('[');
  return QString::fromStdString(bracket == std::string::npos ? shape : shape.substr(0, bracket));
}

// "128 KiB", "1.5 MiB": whole numbers without decimals.
QString SizeText(int64_t bytes) {
  int64_t unit = 1;
  while (unit < (int64_t{1} << 40) && bytes >= unit * 1024) unit *= 1024;
  return QLocale::system().formattedDataSize(bytes, bytes % unit == 0 ? 0 : 1, QLocale::DataSizeIecFormat);
}

int Coordinate(const trace::TopologyChip& chip, size_t axis) {
  return axis < chip.coordinates.size() ? chip.coordinates[axis] : 0;
}

}  // namespace

ShardingCanvas::ShardingCanvas(QWidget* parent) : QWidget(parent) {
  setMinimumSize(480, 320);
  setAutoFillBackground(true);
  QPalette p = palette();
  p.setColor(QPalette::Window, StudioPalette::Get().canvas);
  setPalette(p);
}

void ShardingCanvas::SetTopology(const trace::TopologyRecord& topology) {
  topology_ = topology;
  traffic_ = analysis::LinkTrafficMap(topology_);
  selected_chip_ = -1;
  Relayout();
  update();
}

void ShardingCanvas::SetLayout(const analysis::TensorLayout* layout) {
  if (layout) {
    layout_ = *layout;
  } else {
    layout_.reset();
  }
  const int rank = layout_ ? int(layout_->tensor_dimensions.size()) : 0;
  grid_rows_ = rank >= 2 ? rank - 2 : -1;
  grid_columns_ = rank >= 1 ? rank - 1 : -1;
  // Prefer the dimensions that are split.
  if (layout_ && rank > 2) {
    std::vector<int> split;
    for (int d = 0; d < rank; ++d) {
      if (layout_->tile_grid[size_t(d)] > 1) split.push_back(d);
    }
    if (split.size() >= 2) {
      grid_rows_ = split[0];
      grid_columns_ = split[1];
    } else if (split.size() == 1) {
      grid_columns_ = split[0];
      grid_rows_ = split[0] == rank - 1 ? rank - 2 : rank - 1;
      if (grid_rows_ > grid_columns_) std::swap(grid_rows_, grid_columns_);
    }
  }
  Relayout();
  update();
}

void ShardingCanvas::SetGridDimensions(int rows, int columns) {
  grid_rows_ = rows;
  grid_columns_ = columns;
  update();
}

QColor ShardingCanvas::TileColor(int64_t tile_index) {
  // Golden-angle hues keep neighbouring tile indices apart.
  const int hue = int(std::fmod(double(tile_index) * 137.508 + 200.0, 360.0));
  return QColor::fromHsl(hue, 150, 200);
}

QRectF ShardingCanvas::ChipRect(int32_t id) const {
  for (size_t i = 0; i < topology_.chips.size() && i < chip_rects_.size(); ++i) {
    if (topology_.chips[i].id == id) return chip_rects_[i];
  }
  return {};
}

QString ShardingCanvas::ChipLabel(int32_t id) const {
  const trace::TopologyChip* chip = nullptr;
  for (const trace::TopologyChip& c : topology_.chips) {
    if (c.id == id) chip = &c;
  }
  if (!chip) return {};
  QStringList coords;
  for (int32_t c : chip->coordinates) coords << QString::number(c);
  QString text = QStringLiteral("chip %1 (%2)").arg(id).arg(coords.join(','));
  if (!layout_) return text;
  if (id < 0 || id >= int32_t(layout_->devices.size()) || !layout_->devices[size_t(id)].holds) {
    return text + QStringLiteral("\nno tile");
  }
  const DeviceTile& tile = layout_->devices[size_t(id)].tile;
  text += QStringLiteral("\ntile %1 · %2").arg(tile.tile_index).arg(SizeText(tile.bytes));
  text += QStringLiteral("\n%1[%2]").arg(ElementType(layout_->shape), JoinNumbers(tile.dimensions));
  text += QStringLiteral("\nat (%1)").arg(JoinNumbers(tile.offsets));
  return text;
}

void ShardingCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  Relayout();
}

void ShardingCanvas::Relayout() {
  // Below the chips, room for the heat map's legend when links carried data.
  const double legend = traffic_.busiest_bytes() > 0 ? kLegendHeight : 0;
  const QRectF all = QRectF(rect()).adjusted(kMargin, kMargin + 18, -kMargin, -kMargin - legend);
  if (layout_) {
    topology_area_ = QRectF(all.left(), all.top(), all.width() * 0.64, all.height());
    tensor_area_ = QRectF(topology_area_.right() + kMargin * 1.5, all.top(),
                          all.right() - topology_area_.right() - kMargin * 1.5, all.height());
  } else {
    topology_area_ = all;
    tensor_area_ = QRectF();
  }
  chip_rects_.assign(topology_.chips.size(), QRectF());
  if (topology_.chips.empty()) return;
  const std::vector<int32_t>& dims = topology_.dims;
  const int columns = dims.empty() ? int(topology_.chips.size()) : std::max(1, dims[0]);
  const int rows = dims.size() > 1 ? std::max(1, dims[1]) : 1;
  const int layers = dims.size() > 2 ? std::max(1, dims[2]) : 1;
  // Room around each layer for the wrap-around arcs and the layer title.
  const double layer_width = (topology_area_.width() - kLayerGap * (layers - 1)) / layers;
  // Chips fill most of their cell; the gaps hold the links and the arcs.
  const double cell_w = (layer_width - 24) / columns;
  const double cell_h = std::min((topology_area_.height() - 40) / rows, cell_w * 1.1);
  chip_size_ = QSizeF(cell_w * 0.8, std::min(cell_h * 0.74, std::max(cell_w * 0.7, 84.0)));
  const double grid_w = cell_w * columns, grid_h = cell_h * rows;
  const double cell = cell_w;
  for (size_t i = 0; i < topology_.chips.size(); ++i) {
    const trace::TopologyChip& chip = topology_.chips[i];
    const int x = dims.empty() ? int(i) : Coordinate(chip, 0);
    const int y = Coordinate(chip, 1), z = Coordinate(chip, 2);
    const double left = topology_area_.left() + z * (layer_width + kLayerGap) + (layer_width - grid_w) / 2;
    const double top = topology_area_.top() + 24 + (topology_area_.height() - 24 - grid_h) / 2;
    const double cx = left + (x + 0.5) * cell, cy = top + (y + 0.5) * cell_h;
    chip_rects_[i] = QRectF(cx - chip_size_.width() / 2, cy - chip_size_.height() / 2, chip_size_.width(),
                            chip_size_.height());
  }
}

double ShardingCanvas::RowGap() const {
  if (chip_rects_.size() < 2) return 20;
  double gap = 1e9;
  for (const QRectF& a : chip_rects_) {
    for (const QRectF& b : chip_rects_) {
      if (b.top() > a.bottom()) gap = std::min(gap, b.top() - a.bottom());
    }
  }
  return gap < 1e9 ? gap : 20;
}

double ShardingCanvas::ColumnGap() const {
  if (chip_rects_.size() < 2) return 20;
  double gap = 1e9;
  for (const QRectF& a : chip_rects_) {
    for (const QRectF& b : chip_rects_) {
      if (b.left() > a.right()) gap = std::min(gap, b.left() - a.right());
    }
  }
  return gap < 1e9 ? gap : 20;
}

void ShardingCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  if (topology_.chips.empty()) {
    painter.setPen(StudioPalette::Get().muted_text);
    painter.drawText(rect(), Qt::AlignCenter,
                     "This profile names no chips: open a profile of a run, or a program with num_partitions.");
    return;
  }
  PaintTopology(painter);
  PaintTrafficLegend(painter);
  if (layout_) PaintTensor(painter);
}

QString ShardingCanvas::Heading() const {
  QString heading = QStringLiteral("Topology %1 · %2 chips")
                        .arg(QString::fromStdString(topology_.shape))
                        .arg(topology_.chips.size());
  QStringList wraps;
  for (size_t a = 0; a < topology_.wraparound.size(); ++a) {
    if (topology_.wraparound[a]) wraps << QString("xyz"[std::min<size_t>(a, 2)]);
  }
  if (!wraps.isEmpty()) heading += QStringLiteral(" · wraps around in %1").arg(wraps.join(", "));
  if (traffic_.busiest_bytes() > 0) {
    heading += QStringLiteral(" · ICI traffic: busiest link %1").arg(SizeText(traffic_.busiest_bytes()));
  }
  return heading;
}

QPen ShardingCanvas::LinkPen(int32_t a, int32_t b, int axis, const QPen& idle) const {
  if (traffic_.busiest_bytes() == 0) return idle;
  const double share = traffic_.Share(a, b, axis);
  if (share <= 0) return QPen(kIdleLink, 1.2, idle.style());
  return QPen(TrafficColor(share), 1.5 + 4.5 * share, idle.style());
}

QColor ShardingCanvas::TrafficColor(double share) {
  // Pale amber for light traffic to deep red for the busiest link.
  const QColor light(0xfd, 0xba, 0x74), heavy(0xb9, 0x1c, 0x1c);
  auto mix = [share](int from, int to) { return int(from + (to - from) * share); };
  return QColor(mix(light.red(), heavy.red()), mix(light.green(), heavy.green()),
                mix(light.blue(), heavy.blue()));
}

QRectF ShardingCanvas::TrafficLegendRect() const {
  if (traffic_.busiest_bytes() == 0) return {};
  const double width = std::min(260.0, topology_area_.width());
  return QRectF(topology_area_.left(), topology_area_.bottom() + 8, width, kLegendHeight - 8);
}

// What the link colours mean: a bar from light to the busiest link's bytes,
// and the grey of a link that carried nothing.
void ShardingCanvas::PaintTrafficLegend(QPainter& painter) {
  const QRectF legend = TrafficLegendRect();
  if (legend.isEmpty()) return;
  const StudioPalette& palette = StudioPalette::Get();
  const QRectF bar(legend.left(), legend.top(), legend.width() * 0.6, 10);
  QLinearGradient gradient(bar.topLeft(), bar.topRight());
  gradient.setColorAt(0, TrafficColor(0));
  gradient.setColorAt(1, TrafficColor(1));
  painter.fillRect(bar, gradient);
  const QRectF idle(bar.right() + 14, bar.top(), 18, 10);
  painter.fillRect(idle, kIdleLink);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  painter.setFont(small);
  painter.setPen(palette.muted_text);
  const QRectF labels(bar.left(), bar.bottom() + 2, bar.width(), 18);
  painter.drawText(labels, Qt::AlignLeft | Qt::AlignTop, "light");
  painter.drawText(labels, Qt::AlignRight | Qt::AlignTop, SizeText(traffic_.busiest_bytes()));
  painter.drawText(QRectF(idle.left(), idle.bottom() + 2, 80, 18), Qt::AlignLeft | Qt::AlignTop, "idle");
}

void ShardingCanvas::PaintTopology(QPainter& painter) {
  const StudioPalette& palette = StudioPalette::Get();
  QFont title = font();
  title.setBold(true);
  painter.setFont(title);
  painter.setPen(palette.muted_text);
  painter.drawText(QPointF(topology_area_.left(), kMargin), Heading());

  // Index chips by coordinates to find neighbours.
  const std::vector<int32_t>& dims = topology_.dims;
  auto find = [&](std::vector<int32_t> at) -> int {
    for (size_t i = 0; i < topology_.chips.size(); ++i) {
      if (topology_.chips[i].coordinates == at) return int(i);
    }
    return -1;
  };
  QPen link(palette.outline, 2);
  QPen wrap(palette.collective, 1.6, Qt::DashLine);
  const size_t in_layer_axes = std::min<size_t>(dims.size(), 2);
  for (size_t i = 0; i < topology_.chips.size(); ++i) {
    const trace::TopologyChip& chip = topology_.chips[i];
    const QRectF from = chip_rects_[i];
    for (size_t axis = 0; axis < in_layer_axes; ++axis) {
      std::vector<int32_t> next = chip.coordinates;
      if (axis >= next.size()) continue;
      next[axis] += 1;
      const int j = find(next);
      if (j >= 0) {
        painter.setPen(LinkPen(chip.id, topology_.chips[size_t(j)].id, int(axis), link));
        const QRectF to = chip_rects_[size_t(j)];
        if (axis == 0) {
          painter.drawLine(QPointF(from.right(), from.center().y()), QPointF(to.left(), to.center().y()));
        } else {
          painter.drawLine(QPointF(from.center().x(), from.bottom()), QPointF(to.center().x(), to.top()));
        }
      }
      // The last chip of a wrapping axis links back to the first: an arc outside
      // the grid (on two chips, the second link between the same pair).
      const bool wraps = axis < topology_.wraparound.size() && topology_.wraparound[axis] && dims[axis] >= 2;
      if (wraps && chip.coordinates[axis] == dims[axis] - 1) {
        std::vector<int32_t> first = chip.coordinates;
        first[axis] = 0;
        const int k = find(first);
        if (k < 0) continue;
        const QRectF to = chip_rects_[size_t(k)];
        QPainterPath arc;
        painter.setPen(LinkPen(chip.id, topology_.chips[size_t(k)].id, int(axis), wrap));
        if (axis == 0) {
          const double lift = std::max(12.0, RowGap() * 0.8);
          const QPointF a(from.center().x(), from.top()), b(to.center().x(), to.top());
          arc.moveTo(a);
          arc.cubicTo(a + QPointF(0, -lift), b + QPointF(0, -lift), b);
        } else {
          const double out = std::max(12.0, ColumnGap() * 0.8);
          const QPointF a(from.left(), from.center().y()), b(to.left(), to.center().y());
          arc.moveTo(a);
          arc.cubicTo(a + QPointF(-out, 0), b + QPointF(-out, 0), b);
        }
        painter.drawPath(arc);
      }
    }
  }
  // Layer titles for a 3D topology; the z links join the same chip position.
  if (dims.size() > 2) {
    painter.setPen(palette.muted_text);
    for (int z = 0; z < dims[2]; ++z) {
      QRectF bounds;
      for (size_t i = 0; i < topology_.chips.size(); ++i) {
        if (Coordinate(topology_.chips[i], 2) == z) bounds = bounds.isNull() ? chip_rects_[i] : bounds.united(chip_rects_[i]);
      }
      const bool z_wraps = topology_.wraparound.size() > 2 && topology_.wraparound[2];
      painter.drawText(QPointF(bounds.left(), bounds.top() - 14),
                       QStringLiteral("layer z = %1%2").arg(z).arg(z_wraps ? " (z wraps)" : ""));
    }
  }

  QFont small = font();
  small.setPointSizeF(std::clamp(chip_size_.height() / 7.0, 6.5, 10.0));
  for (size_t i = 0; i < topology_.chips.size(); ++i) {
    const int32_t id = topology_.chips[i].id;
    QColor fill(0xf5, 0xf5, 0xf4);
    if (layout_ && id >= 0 && id < int32_t(layout_->devices.size()) && layout_->devices[size_t(id)].holds) {
      fill = TileColor(layout_->devices[size_t(id)].tile.tile_index);
    }
    painter.setPen(QPen(int(i) == selected_chip_ ? palette.selection : palette.soft_text,
                        int(i) == selected_chip_ ? 2.5 : 1.2));
    painter.setBrush(fill);
    painter.drawRoundedRect(chip_rects_[i], 6, 6);
    const QStringList lines = ChipLabel(id).split('\n');
    const QRectF inner = chip_rects_[i].adjusted(4, 3, -4, -3);
    // Shrink the text until the widest line fits the chip.
    QFont fitted = small;
    double widest = 0;
    for (const QString& line : lines) widest = std::max(widest, QFontMetricsF(fitted, this).horizontalAdvance(line) * 1.08);
    if (widest > inner.width()) fitted.setPointSizeF(std::max(6.0, fitted.pointSizeF() * inner.width() / widest));
    QFont bold = fitted;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(palette.ink_on_tint);
    const double line_h = QFontMetricsF(fitted, this).height();
    double y = inner.top() + (inner.height() - line_h * lines.size()) / 2;
    for (int l = 0; l < lines.size(); ++l) {
      painter.setFont(l == 0 ? bold : fitted);
      painter.drawText(QRectF(inner.left(), y, inner.width(), line_h), Qt::AlignHCenter | Qt::AlignVCenter,
                       QFontMetricsF(fitted, this).elidedText(lines[l], Qt::ElideRight, inner.width()));
      y += line_h;
    }
  }
}

void ShardingCanvas::PaintTensor(QPainter& painter) {
  const StudioPalette& palette = StudioPalette::Get();
  const analysis::TensorLayout& t = *layout_;
  const int rank = int(t.tensor_dimensions.size());
  QFont title = font();
  title.setBold(true);
  painter.setFont(title);
  painter.setPen(palette.muted_text);
  // Long tensor names (a layer's parameter path) are elided in the middle.
  const QString heading = QStringLiteral("%1 · %2 distinct tiles on %3 devices")
                              .arg(QString::fromStdString(t.instruction))
                              .arg(t.distinct_tiles)
                              .arg(t.devices.size());
  painter.drawText(QPointF(tensor_area_.left(), kMargin),
                   QFontMetricsF(title).elidedText(heading, Qt::ElideMiddle, tensor_area_.width()));
  painter.setFont(font());
  // Room for a long sharding (an iota list of many devices) on three lines.
  const double text_h = 3 * QFontMetricsF(font()).lineSpacing();
  painter.drawText(QRectF(tensor_area_.left(), tensor_area_.top(), tensor_area_.width(), text_h),
                   Qt::AlignLeft | Qt::TextWordWrap,
                   QStringLiteral("%1 %2").arg(QString::fromStdString(t.shape), QString::fromStdString(t.sharding)));
  const int row_dim = grid_rows_ >= 0 && grid_rows_ < rank ? grid_rows_ : -1;
  const int col_dim = grid_columns_ >= 0 && grid_columns_ < rank ? grid_columns_ : -1;
  const int64_t rows = row_dim >= 0 ? t.tile_grid[size_t(row_dim)] : 1;
  const int64_t cols = col_dim >= 0 ? t.tile_grid[size_t(col_dim)] : 1;
  const double extent_r = row_dim >= 0 ? double(t.tensor_dimensions[size_t(row_dim)]) : 1.0;
  const double extent_c = col_dim >= 0 ? double(t.tensor_dimensions[size_t(col_dim)]) : 1.0;
  // The grid keeps the tensor's proportions within 1:3 either way.
  const QRectF room = tensor_area_.adjusted(0, text_h + 10, 0, -40);
  double aspect = std::clamp(extent_c / std::max(extent_r, 1.0), 1.0 / 3, 3.0);
  double w = room.width(), h = w / aspect;
  if (h > room.height()) {
    h = room.height();
    w = h * aspect;
  }
  const QRectF grid(room.left(), room.top(), w, h);
  const double cw = w / double(cols), ch = h / double(rows);
  QFont small = font();
  small.setPointSizeF(std::clamp(std::min(cw, ch) / 6, 6.5, 9.0));
  painter.setFont(small);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      // The devices whose tile sits here (other split dimensions at tile 0).
      QStringList holders;
      int64_t tile_index = -1;
      for (size_t d = 0; d < t.devices.size(); ++d) {
        if (!t.devices[d].holds) continue;
        const DeviceTile& tile = t.devices[d].tile;
        bool here = true;
        for (int k = 0; k < rank; ++k) {
          const int64_t want = k == row_dim ? r : k == col_dim ? c : 0;
          here &= tile.tile_coordinates[size_t(k)] == want;
        }
        if (!here) continue;
        holders << QString::number(d);
        tile_index = tile.tile_index;
      }
      const QRectF cell(grid.left() + double(c) * cw, grid.top() + double(r) * ch, cw, ch);
      painter.setPen(QPen(palette.soft_text, 1));
      painter.setBrush(tile_index >= 0 ? TileColor(tile_index) : palette.grid);
      painter.drawRect(cell);
      painter.setPen(palette.ink_on_tint);
      const QString label = tile_index >= 0 ? QStringLiteral("tile %1\n%2 %3")
                                                  .arg(tile_index)
                                                  .arg(holders.size() == 1 ? "dev" : "devs")
                                                  .arg(holders.join(','))
                                            : QStringLiteral("—");
      QFont fitted = small;
      double widest = 0;
      for (const QString& line : label.split('\n')) {
        widest = std::max(widest, QFontMetricsF(fitted, this).horizontalAdvance(line) * 1.08);
      }
      if (widest > cw - 4) fitted.setPointSizeF(std::max(5.5, fitted.pointSizeF() * (cw - 4) / widest));
      painter.setFont(fitted);
      painter.drawText(cell.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWordWrap, label);
    }
  }
  painter.setPen(palette.muted_text);
  painter.setFont(font());
  const QString across = col_dim >= 0 ? QStringLiteral("dim %1 (%2) → %3 tiles")
                                            .arg(col_dim)
                                            .arg(t.tensor_dimensions[size_t(col_dim)])
                                            .arg(cols)
                                      : QStringLiteral("scalar");
  painter.drawText(QPointF(grid.left(), grid.bottom() + 18), across);
  if (row_dim >= 0) {
    painter.save();
    painter.translate(grid.left() - 6, grid.bottom());
    painter.rotate(-90);
    painter.drawText(QPointF(0, 0), QStringLiteral("dim %1 (%2) → %3 tiles")
                                        .arg(row_dim)
                                        .arg(t.tensor_dimensions[size_t(row_dim)])
                                        .arg(rows));
    painter.restore();
  }
}

void ShardingCanvas::mousePressEvent(QMouseEvent* event) {
  for (size_t i = 0; i < chip_rects_.size(); ++i) {
    if (chip_rects_[i].contains(event->position())) {
      selected_chip_ = int(i);
      update();
      emit chipSelected(topology_.chips[i].id);
      return;
    }
  }
  QWidget::mousePressEvent(event);
}

}  // namespace systolic::views
