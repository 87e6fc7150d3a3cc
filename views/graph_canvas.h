// The graphics view a graph pane draws in: wheel zooms around the cursor,
// dragging pans, clicks and double-clicks on nodes and cluster titles are
// reported (a drag is not a click).
#pragma once

#include <QGraphicsView>

namespace systolic::views {

class GraphNodeItem;
class GraphClusterItem;

class GraphCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphCanvas(QWidget* parent = nullptr);

  void ZoomBy(double factor);
  void FitAll();
  double zoom() const { return transform().m11(); }

 signals:
  void nodeClicked(int index);
  void nodeDoubleClicked(int index);
  void clusterClicked(int index);
  void clusterDoubleClicked(int index);
  void backgroundClicked();
  void contextMenuAt(int node, int cluster, const QPoint& global_position);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  // The node or cluster title under a viewport position.
  void HitTest(const QPoint& position, int* node, int* cluster) const;
  QPoint press_position_;
};

}  // namespace systolic::views
