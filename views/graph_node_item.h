// A node of the HLO graph as drawn: a box tinted by the unit it runs on,
// with the instruction's name, opcode and shape (or a collapsed group's
// label, size and opcode summary), scalar constants it reads, and the marks
// of selection, linked selection and search.
#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <optional>

#include "core/analysis/hlo_graph.h"

namespace systolic::views {

class GraphNodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 101 };

  GraphNodeItem(int32_t index, const analysis::GraphNode& node, const QRectF& rect);

  // The box a node needs for its text.
  static QSizeF SizeFor(const analysis::GraphNode& node);

  int32_t index() const { return index_; }
  const analysis::GraphNode& node() const { return node_; }

  void SetSelectedNode(bool on);
  void SetLinked(bool on);
  void SetSearchHit(bool on);
  void SetDimmed(bool on);
  // Coloured by a comparison of two runs: -1 (the second run is fastest
  // here, green) to +1 (slowest, red), 0 unchanged (grey); none: the
  // unit's colour.
  void SetRunChange(std::optional<double> relative);
  std::optional<double> run_change() const { return run_change_; }
  bool selected_node() const { return selected_; }
  bool linked() const { return linked_; }
  bool search_hit() const { return search_hit_; }

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int32_t index_;
  analysis::GraphNode node_;
  QRectF rect_;
  bool selected_ = false;
  bool linked_ = false;
  bool search_hit_ = false;
  bool dimmed_ = false;
  std::optional<double> run_change_;
};

// The fonts of the graph, in scene units (points).
struct GraphFonts {
  QFont title;
  QFont subtitle;
  QFont shape;
  QFont small;
  QFont cluster;
  static const GraphFonts& Get();
};

}  // namespace systolic::views
