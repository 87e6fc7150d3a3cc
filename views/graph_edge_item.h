// An edge of the HLO graph as drawn: the spline Graphviz routed, its
// arrowhead and the shape of the value it carries.
#pragma once

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QString>

#include "views/graph_layout.h"

namespace systolic::views {

class GraphEdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 102 };

  GraphEdgeItem(const analysis::GraphEdge& edge, const EdgeGeometry& geometry);

  const analysis::GraphEdge& edge() const { return edge_; }
  // Drawn stronger when it touches the selection.
  void SetEmphasis(bool on);

  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  analysis::GraphEdge edge_;
  EdgeGeometry geometry_;
  QString label_;
  QRectF label_rect_;
  QRectF bounds_;
  bool emphasis_ = false;
};

}  // namespace systolic::views
