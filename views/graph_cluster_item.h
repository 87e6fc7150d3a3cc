// A cluster of the HLO graph as drawn: an open fusion (tinted by its unit,
// titled with its kind), an op_name scope or a block of a large layer.
// Double-clicking its title closes it.
#pragma once

#include <QGraphicsItem>
#include <optional>

#include "core/analysis/hlo_graph.h"

namespace systolic::views {

class GraphClusterItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 103 };

  GraphClusterItem(int32_t index, const analysis::GraphCluster& cluster, const QRectF& rect, int depth);

  int32_t index() const { return index_; }
  const analysis::GraphCluster& cluster() const { return cluster_; }
  // The title band: where a double-click closes the cluster.
  QRectF TitleRect() const;
  void SetLinked(bool on);
  void SetSelectedCluster(bool on);
  // A fusion coloured by a comparison of two runs (GraphNodeItem::SetRunChange).
  void SetRunChange(std::optional<double> relative);
  bool linked() const { return linked_; }

  int type() const override { return Type; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int32_t index_;
  analysis::GraphCluster cluster_;
  QRectF rect_;
  bool linked_ = false;
  bool selected_ = false;
  std::optional<double> run_change_;
};

}  // namespace systolic::views
