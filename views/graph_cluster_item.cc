#include "views/graph_cluster_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "views/graph_node_item.h"
#include "views/studio_palette.h"

namespace systolic::views {

GraphClusterItem::GraphClusterItem(int32_t index, const analysis::GraphCluster& cluster, const QRectF& rect,
                                   int depth)
    : index_(index), cluster_(cluster), rect_(rect) {
  setZValue(-10 + depth * 0.1);
  setToolTip(QString::fromStdString(cluster.label) + "\nDouble-click the title to close");
}

QRectF GraphClusterItem::TitleRect() const {
  return QRectF(rect_.left(), rect_.top(), rect_.width(), QFontMetricsF(GraphFonts::Get().cluster).height() + 6);
}

void GraphClusterItem::SetLinked(bool on) {
  if (linked_ == on) return;
  linked_ = on;
  update();
}

void GraphClusterItem::SetSelectedCluster(bool on) {
  if (selected_ == on) return;
  selected_ = on;
  update();
}

QPainterPath GraphClusterItem::shape() const {
  // Only the title band and the frame take clicks; members inside stay clickable.
  QPainterPath path;
  path.addRect(TitleRect());
  return path;
}

namespace {

QColor WithAlpha(QColor color, int alpha) {
  color.setAlpha(alpha);
  return color;
}

}  // namespace

void GraphClusterItem::SetRunChange(std::optional<double> relative) {
  if (run_change_ == relative) return;
  run_change_ = relative;
  update();
}

void GraphClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const StudioPalette& palette = StudioPalette::Get();
  const QColor unit = palette.ForUnit(cluster_.unit);
  QPen pen;
  QBrush fill;
  switch (cluster_.kind) {
    case analysis::GraphGroupKind::kFusion:
      pen = QPen(unit, 1.6);
      fill = palette.dark ? unit.darker(420) : StudioPalette::Tint(unit, 93);
      break;
    case analysis::GraphGroupKind::kScope:
      pen = QPen(palette.outline, 1.2, Qt::DashLine);
      fill = WithAlpha(palette.header, 200);
      break;
    default:
      pen = QPen(palette.grid, 1.2, Qt::DotLine);
      fill = WithAlpha(palette.panel, 160);
      break;
  }
  if (run_change_) {
    pen = QPen(palette.ForRunChange(*run_change_), 1.6);
    fill = StudioPalette::Tint(palette.FillForRunChange(*run_change_), 50);
  }
  if (linked_) pen = QPen(palette.linked, 3.5);
  if (selected_) pen = QPen(palette.selection, 3);
  painter->setPen(pen);
  painter->setBrush(fill);
  painter->drawRoundedRect(rect_, 7, 7);
  if (option->levelOfDetailFromTransform(painter->worldTransform()) < 0.3) return;
  const QFont& font = GraphFonts::Get().cluster;
  const QFontMetricsF metrics(font);
  painter->setFont(font);
  painter->setPen(cluster_.kind == analysis::GraphGroupKind::kFusion ? (palette.dark ? unit.lighter(140) : unit.darker(130))
                                                                      : palette.muted_text);
  const QRectF title = TitleRect().adjusted(8, 3, -8, 0);
  painter->drawText(title, Qt::AlignLeft | Qt::AlignTop,
                    metrics.elidedText("▾ " + QString::fromStdString(cluster_.label), Qt::ElideRight,
                                       title.width()));
}

}  // namespace systolic::views
