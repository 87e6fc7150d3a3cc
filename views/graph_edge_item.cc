#include "views/graph_edge_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include "views/graph_node_item.h"
#include "views/studio_palette.h"

namespace systolic::views {

GraphEdgeItem::GraphEdgeItem(const analysis::GraphEdge& edge, const EdgeGeometry& geometry)
    : edge_(edge), geometry_(geometry), label_(QString::fromStdString(edge.label)) {
  bounds_ = geometry_.path.boundingRect().united(geometry_.arrow.boundingRect());
  if (geometry_.has_label && !label_.isEmpty()) {
    const QFontMetricsF metrics(GraphFonts::Get().small);
    const QSizeF size(metrics.horizontalAdvance(label_) + 6, metrics.height() + 2);
    label_rect_ = QRectF(geometry_.label_center - QPointF(size.width() / 2, size.height() / 2), size);
    bounds_ = bounds_.united(label_rect_);
  }
  bounds_.adjust(-3, -3, 3, 3);
  setZValue(1);
  if (!label_.isEmpty()) setToolTip(label_);
}

void GraphEdgeItem::SetEmphasis(bool on) {
  if (emphasis_ == on) return;
  emphasis_ = on;
  setZValue(on ? 1.5 : 1);
  update();
}

QPainterPath GraphEdgeItem::shape() const {
  QPainterPathStroker stroker;
  stroker.setWidth(6);
  QPainterPath path = stroker.createStroke(geometry_.path);
  if (!label_rect_.isEmpty()) path.addRect(label_rect_);
  return path;
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const StudioPalette& palette = StudioPalette::Get();
  const QColor color = emphasis_ ? palette.selection : palette.muted_text;
  QPen pen(color, emphasis_ ? 2.0 : 1.1);
  if (edge_.control) pen.setStyle(Qt::DashLine);
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  painter->drawPath(geometry_.path);
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(geometry_.arrow);
  if (label_rect_.isEmpty() || option->levelOfDetailFromTransform(painter->worldTransform()) < 0.5) {
    return;
  }
  QColor label_background = palette.canvas;
  label_background.setAlpha(220);
  painter->setBrush(label_background);
  painter->drawRoundedRect(label_rect_, 3, 3);
  painter->setFont(GraphFonts::Get().small);
  painter->setPen(emphasis_ ? palette.selection : palette.muted_text);
  painter->drawText(label_rect_, Qt::AlignCenter, label_);
}

}  // namespace systolic::views
