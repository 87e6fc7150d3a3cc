#include "views/graph_canvas.h"

#include "views/studio_palette.h"

#include <QContextMenuEvent>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QShowEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/graph_cluster_item.h"
#include "views/graph_node_item.h"

namespace systolic::views {

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setBackgroundBrush(StudioPalette::Get().canvas);
  setFrameShape(QFrame::NoFrame);
}

void GraphCanvas::changeEvent(QEvent* event) {
  // A theme change: the background follows the palette.
  if (event->type() == QEvent::PaletteChange) setBackgroundBrush(StudioPalette::Get().canvas);
  QGraphicsView::changeEvent(event);
}

void GraphCanvas::ZoomBy(double factor) {
  const double next = std::clamp(zoom() * factor, 0.02, 6.0);
  const double applied = next / zoom();
  scale(applied, applied);
}

void GraphCanvas::FitAll(bool legibly) {
  if (!isVisible()) {
    fit_when_shown_ = true;
    fit_legibly_ = legibly;
    return;
  }
  fit_when_shown_ = false;
  if (!scene()) return;
  const QRectF rect = scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20);
  if (rect.isEmpty()) return;
  fitInView(rect, Qt::KeepAspectRatio);
  // Never blow a small graph up past its natural size.
  if (zoom() > 1.0) {
    resetTransform();
    centerOn(rect.center());
  }
  // Below this, node and edge labels no longer read.
  constexpr double kLegibleZoom = 0.6;
  if (legibly && zoom() < kLegibleZoom) {
    resetTransform();
    scale(kLegibleZoom, kLegibleZoom);
    const double visible_height = viewport()->height() / kLegibleZoom;
    centerOn(rect.center().x(), rect.top() + visible_height / 2);
  }
}

void GraphCanvas::showEvent(QShowEvent* event) {
  QGraphicsView::showEvent(event);
  if (fit_when_shown_) FitAll(fit_legibly_);
}

// The first resize after showing gives the size a pending fit needs.
void GraphCanvas::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  if (fit_when_shown_) FitAll(fit_legibly_);
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  if (event->modifiers() & Qt::ShiftModifier) {
    QGraphicsView::wheelEvent(event);  // scroll
    return;
  }
  const double steps = event->angleDelta().y() / 120.0;
  if (steps != 0) ZoomBy(std::pow(1.2, steps));
  event->accept();
}

void GraphCanvas::HitTest(const QPoint& position, int* node, int* cluster) const {
  *node = -1;
  *cluster = -1;
  for (QGraphicsItem* item : items(position)) {
    if (item->type() == GraphNodeItem::Type) {
      *node = static_cast<GraphNodeItem*>(item)->index();
      return;
    }
    if (item->type() == GraphClusterItem::Type) {
      auto* c = static_cast<GraphClusterItem*>(item);
      if (c->TitleRect().contains(mapToScene(position))) {
        *cluster = c->index();
        return;
      }
    }
  }
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
  press_position_ = event->pos();
  QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  if (event->button() != Qt::LeftButton) return;
  if ((event->pos() - press_position_).manhattanLength() > 4) return;  // a drag
  int node, cluster;
  HitTest(event->pos(), &node, &cluster);
  if (node >= 0) {
    emit nodeClicked(node);
  } else if (cluster >= 0) {
    emit clusterClicked(cluster);
  } else {
    emit backgroundClicked();
  }
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  int node, cluster;
  HitTest(event->pos(), &node, &cluster);
  if (node >= 0) emit nodeDoubleClicked(node);
  if (cluster >= 0) emit clusterDoubleClicked(cluster);
  event->accept();
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event) {
  int node, cluster;
  HitTest(event->pos(), &node, &cluster);
  emit contextMenuAt(node, cluster, event->globalPos());
}

}  // namespace systolic::views
