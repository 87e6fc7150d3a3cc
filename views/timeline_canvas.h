// The timeline's drawing surface: lanes grouped chip → core → unit (groups
// fold when their row is clicked), a ruler in the unit the zoom calls for,
// events drawn at the level of detail of the window (events narrower than a
// pixel merged per pixel column, from the lanes' overviews when zoomed
// out), flows between chips, the selected event and the events of the
// instructions selected elsewhere.
//
// Mouse: the wheel zooms around the cursor (Shift+wheel pans, Ctrl+wheel
// scrolls lanes), dragging pans, Shift+drag selects a time range, a click
// selects an event. Keys: W/S zoom, A/D pan, F fits, Z zooms to the
// selection, C switches cycles / time, Esc clears.
#pragma once

#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/event_details.h"
#include "core/analysis/lane_overview.h"
#include "core/analysis/lane_tree.h"
#include "core/trace/profile.h"
#include "views/show_in.h"
#include "views/time_viewport.h"

namespace systolic::views {

class TimelineCanvas : public QAbstractScrollArea {
  Q_OBJECT

 public:
  static constexpr int kHeaderWidth = 190;
  static constexpr int kRulerHeight = 28;

  explicit TimelineCanvas(QWidget* parent = nullptr);
  ~TimelineCanvas() override;

  void SetProfile(std::shared_ptr<const trace::Profile> profile);
  const trace::Timeline* timeline() const;
  const analysis::LaneTree& lane_tree() const { return tree_; }

  // The lanes' overviews are built in the background after SetProfile;
  // this builds them now.
  void BuildOverviewsNow();
  bool overviews_ready() const { return overviews_ready_; }

  TimeViewport& time_viewport() { return viewport_; }
  const TimeViewport& time_viewport() const { return viewport_; }
  void ZoomIn(double factor = 1.6);
  void ZoomOut(double factor = 1.6) { ZoomIn(1 / factor); }
  void FitAll();
  // The span that may be shown, wider than the trace's own (two runs
  // aligned on one axis); shows all of it.
  void SetTimeBounds(int64_t start_ps, int64_t end_ps);
  // Shows exactly [from, to] (another timeline's window).
  void ShowWindow(double from_ps, double to_ps);
  // [from, to] with `margin` of the window on each side fills the view.
  void ShowRange(double from_ps, double to_ps, double margin = 0);
  // The selected range, else the selected event, fills the window.
  void ZoomToSelection();

  // --- Rows -------------------------------------------------------------------
  void SetCollapsed(int32_t node, bool collapsed);
  bool IsCollapsed(int32_t node) const;
  // Opens the lanes of chip `chip_id` and closes every other chip's (the
  // sharding view's chip selection); -1 opens every chip.
  void FocusChip(int32_t chip_id);
  const std::vector<int32_t>& rows() const { return rows_; }
  // The rectangle of a lane tree node's row in viewport coordinates (empty
  // when folded away).
  QRect RowRect(int32_t node) const;
  // The lane tree node at a viewport y, or -1.
  int32_t NodeAt(int y) const;

  // --- Events -----------------------------------------------------------------
  std::optional<trace::EventRef> EventAt(const QPoint& position) const;
  void SelectEvent(const trace::EventRef& ref, bool bring_into_view);
  void ClearSelection();
  const std::optional<trace::EventRef>& selected_event() const { return selected_; }
  // Lights up the events that ran these instructions (empty: none).
  void HighlightInstructions(const QStringList& names);
  const QStringList& highlighted_instructions() const { return highlighted_; }
  // Whether any event of the trace ran one of them.
  bool has_highlighted_events() const { return !matcher_.empty(); }
  bool IsHighlighted(const trace::EventRef& ref) const;
  // The x (viewport coordinates) where an instant is drawn.
  double XOfTime(double ps) const { return kHeaderWidth + viewport_.XOf(ps); }

  void SetCycleUnits(bool cycles);
  bool cycle_units() const { return cycle_units_; }

  // Flows (a collective's transfers from chip to chip) are drawn as arrows
  // when shown: every one in a profile of a few hundred, otherwise only the
  // selected event's, which would else cover the lanes of a multi-chip run.
  static constexpr size_t kManyFlows = 300;
  void SetFlowsShown(bool shown);
  bool flows_shown() const { return flows_shown_; }
  // Flow arrows drawn in the last frame (tests).
  int64_t last_frame_flows() const { return last_frame_flows_; }
  double clock_hz() const { return clock_hz_; }

  // Draws a whole frame at the viewport's size (paint events, benchmarks).
  void PaintFrame(QPainter& painter, const QRect& rect) const;
  // Items drawn for the last frame (tests, benchmarks).
  int64_t last_frame_items() const { return last_frame_items_; }

 signals:
  void eventSelected(const trace::EventRef& ref);
  void selectionCleared();
  void windowChanged();
  // "Show in …" from an event's menu.
  void showInRequested(const QString& instruction, ShowInTarget target);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  struct Overviews {
    std::vector<std::vector<analysis::LaneOverview>> lanes;  // [plane][line]
  };
  static std::shared_ptr<Overviews> BuildOverviews(const trace::Timeline& timeline);
  void RebuildRows();
  void SyncScrollBars();
  void WindowMoved();
  int RowHeight(int32_t node) const;
  void PaintLane(QPainter& painter, const analysis::LaneNode& lane, const QRect& row) const;
  void PaintRuler(QPainter& painter, const QRect& rect) const;
  void PaintFlows(QPainter& painter, const QRect& rect) const;
  std::vector<trace::LodItem> ItemsOf(int32_t plane, int32_t line) const;
  QColor EventColor(const analysis::LaneNode& lane, int32_t metadata_id) const;

  std::shared_ptr<const trace::Profile> profile_;
  analysis::LaneTree tree_;
  std::vector<bool> collapsed_;
  std::vector<int32_t> rows_;
  std::vector<int> row_top_;      // content y of each visible row
  std::vector<int> row_of_node_;  // visible row of each node, -1 when folded
  int content_height_ = 0;
  int scroll_y_ = 0;
  TimeViewport viewport_;
  double clock_hz_ = 0;
  bool cycle_units_ = false;

  std::shared_ptr<Overviews> overviews_;
  bool overviews_ready_ = false;
  QFutureWatcher<std::shared_ptr<Overviews>>* overview_watcher_ = nullptr;
  int generation_ = 0;

  std::optional<trace::EventRef> selected_;
  bool flows_shown_ = true;
  mutable int64_t last_frame_flows_ = 0;
  QStringList highlighted_;
  analysis::InstructionEventMatcher matcher_;

  // Mouse state.
  QPoint press_position_;
  QPoint last_position_;
  bool dragging_ = false;
  bool selecting_range_ = false;
  std::optional<std::pair<double, double>> range_;
  int hover_x_ = -1;
  bool syncing_scrollbars_ = false;
  mutable int64_t last_frame_items_ = 0;
};

}  // namespace systolic::views
