// Lays a visible graph out with Graphviz's dot, in-process: node boxes of
// the sizes the view measured, clusters nested as the core describes them,
// edges as splines with their labels placed. Graphviz keeps global state,
// so layouts run one at a time (any thread); the result is plain geometry
// in scene units (points), y growing downwards.
#pragma once

#include <QByteArray>
#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <vector>

#include "core/analysis/hlo_graph.h"

namespace systolic::views {

struct GraphLayoutOptions {
  bool edge_labels = true;
  // Also render the laid-out graph as DOT text (for export).
  bool want_dot = false;
};

struct EdgeGeometry {
  QPainterPath path;
  QPolygonF arrow;  // the arrowhead at the target
  QPointF label_center;
  bool has_label = false;
};

struct GraphLayoutResult {
  bool ok = false;
  QString error;
  QRectF bounds;
  std::vector<QRectF> nodes;  // by node index
  std::vector<EdgeGeometry> edges;
  std::vector<QRectF> clusters;
  QByteArray dot;
  double seconds = 0;
};

class GraphLayout {
 public:
  // `node_sizes[i]` is the box of node i, in points.
  static GraphLayoutResult Run(const analysis::VisibleGraph& graph, const std::vector<QSizeF>& node_sizes,
                               const GraphLayoutOptions& options = {});
};

}  // namespace systolic::views
