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
  // Fits the graph into the view; while the view is hidden (its tab not yet
  // shown, its size not yet known) the fit waits until it is shown. When
  // `legibly`, a graph too big to fit readably is shown from its top at the
  // smallest zoom whose labels still read (a program's first picture).
  void FitAll(bool legibly = false);
  double zoom() const { return transform().m11(); }

 signals:
  void nodeClicked(int index);
  void nodeDoubleClicked(int index);
  void clusterClicked(int index);
  void clusterDoubleClicked(int index);
  void backgroundClicked();
  void contextMenuAt(int node, int cluster, const QPoint& global_position);

 protected:
  void showEvent(QShowEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  // The node or cluster title under a viewport position.
  void HitTest(const QPoint& position, int* node, int* cluster) const;
  QPoint press_position_;
  bool fit_when_shown_ = false;
  bool fit_legibly_ = false;
};

}  // namespace systolic::views
