#include "views/timeline_canvas.h"

#include <QContextMenuEvent>
#include <QMenu>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrent>
#include <algorithm>
#include <cmath>

#include "core/analysis/time_ruler.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

constexpr int kHorizontalSteps = 100000;  // resolution of the horizontal scroll bar
constexpr int kMaxFlowsDrawn = 4000;

QFont UiFont(int pixels, bool bold = false) {
  QFont font("DejaVu Sans");
  font.setPixelSize(pixels);
  font.setBold(bold);
  return font;
}

// Distinguishable shades of a lane's colour for neighbouring names.
QColor Shade(const QColor& base, int32_t metadata_id) {
  switch (uint32_t(metadata_id) * 2654435761u >> 29) {
    case 0: case 5: return base;
    case 1: case 6: return base.lighter(118);
    case 2: return base.darker(115);
    case 3: case 7: return base.lighter(136);
    default: return base.darker(128);
  }
}

}  // namespace

TimelineCanvas::TimelineCanvas(QWidget* parent) : QAbstractScrollArea(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  viewport()->setMouseTracking(true);
  setFrameShape(QFrame::NoFrame);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  overview_watcher_ = new QFutureWatcher<std::shared_ptr<Overviews>>(this);
  connect(overview_watcher_, &QFutureWatcher<std::shared_ptr<Overviews>>::finished, this, [this] {
    if (overview_watcher_->property("generation").toInt() != generation_) return;
    overviews_ = overview_watcher_->result();
    overviews_ready_ = true;
    viewport()->update();
  });
}

TimelineCanvas::~TimelineCanvas() { overview_watcher_->waitForFinished(); }

const trace::Timeline* TimelineCanvas::timeline() const {
  return profile_ ? &profile_->timeline : nullptr;
}

void TimelineCanvas::SetProfile(std::shared_ptr<const trace::Profile> profile) {
  profile_ = std::move(profile);
  ++generation_;
  overviews_.reset();
  overviews_ready_ = false;
  selected_.reset();
  range_.reset();
  highlighted_.clear();
  matcher_ = analysis::InstructionEventMatcher();
  tree_ = profile_ ? analysis::LaneTree::Build(profile_->timeline) : analysis::LaneTree();
  collapsed_.assign(tree_.size(), false);
  scroll_y_ = 0;
  clock_hz_ = 0;
  if (profile_) {
    clock_hz_ = profile_->chip.clock_hz;
    for (const trace::TimelinePlane& plane : profile_->timeline.planes()) {
      if (clock_hz_ <= 0) clock_hz_ = analysis::PlaneClockHz(plane);
    }
    const trace::TimeSpan span = profile_->timeline.Span();
    viewport_.SetBounds(span.start_ps, span.end_ps);
    overview_watcher_->setProperty("generation", generation_);
    std::shared_ptr<const trace::Profile> keep = profile_;
    overview_watcher_->setFuture(QtConcurrent::run([keep] { return BuildOverviews(keep->timeline); }));
  }
  if (clock_hz_ <= 0) cycle_units_ = false;
  RebuildRows();
  viewport_.SetWidth(std::max(viewport()->width() - kHeaderWidth, 1));
  WindowMoved();
}

std::shared_ptr<TimelineCanvas::Overviews> TimelineCanvas::BuildOverviews(
    const trace::Timeline& timeline) {
  auto overviews = std::make_shared<TimelineCanvas::Overviews>();
  overviews->lanes.resize(timeline.plane_count());
  for (int32_t p = 0; p < timeline.plane_count(); ++p) {
    const trace::TimelinePlane& plane = timeline.plane(p);
    for (int32_t l = 0; l < plane.line_count(); ++l) {
      overviews->lanes[p].push_back(analysis::LaneOverview::Build(plane.line(l)));
    }
  }
  return overviews;
}

void TimelineCanvas::BuildOverviewsNow() {
  if (!profile_ || overviews_ready_) return;
  ++generation_;  // whatever runs in the background is no longer wanted
  overviews_ = BuildOverviews(profile_->timeline);
  overviews_ready_ = true;
}

// --- Rows ---------------------------------------------------------------------

int TimelineCanvas::RowHeight(int32_t node) const {
  switch (tree_.node(node).kind) {
    case analysis::LaneNodeKind::kPlane: return 26;
    case analysis::LaneNodeKind::kCore: return 20;
    case analysis::LaneNodeKind::kLane: return 24;
  }
  return 24;
}

void TimelineCanvas::RebuildRows() {
  rows_ = tree_.VisibleRows(collapsed_);
  row_top_.assign(rows_.size(), 0);
  row_of_node_.assign(tree_.size(), -1);
  int y = 0;
  for (size_t r = 0; r < rows_.size(); ++r) {
    row_top_[r] = y;
    row_of_node_[rows_[r]] = int(r);
    y += RowHeight(rows_[r]);
  }
  content_height_ = y;
  SyncScrollBars();
  viewport()->update();
}

void TimelineCanvas::SetCollapsed(int32_t node, bool collapsed) {
  if (node < 0 || node >= int32_t(collapsed_.size()) || collapsed_[node] == collapsed) return;
  collapsed_[node] = collapsed;
  RebuildRows();
}

void TimelineCanvas::FocusChip(int32_t chip_id) {
  const trace::Timeline* t = timeline();
  if (!t) return;
  bool changed = false;
  for (int32_t root : tree_.roots()) {
    const analysis::LaneNode& node = tree_.node(root);
    if (node.kind != analysis::LaneNodeKind::kPlane || node.plane < 0 || root >= int32_t(collapsed_.size())) continue;
    const int32_t chip = t->plane(node.plane).chip_id();
    if (chip < 0) continue;  // the host stays as it is
    const bool collapse = chip_id >= 0 && chip != chip_id;
    changed |= collapsed_[root] != collapse;
    collapsed_[root] = collapse;
  }
  if (changed) RebuildRows();
}

bool TimelineCanvas::IsCollapsed(int32_t node) const {
  return node >= 0 && node < int32_t(collapsed_.size()) && collapsed_[node];
}

QRect TimelineCanvas::RowRect(int32_t node) const {
  if (node < 0 || node >= int32_t(row_of_node_.size()) || row_of_node_[node] < 0) return {};
  const int r = row_of_node_[node];
  return QRect(0, kRulerHeight + row_top_[r] - scroll_y_, viewport()->width(), RowHeight(node));
}

int32_t TimelineCanvas::NodeAt(int y) const {
  const int content_y = y - kRulerHeight + scroll_y_;
  if (y < kRulerHeight || content_y < 0) return -1;
  auto it = std::upper_bound(row_top_.begin(), row_top_.end(), content_y);
  if (it == row_top_.begin()) return -1;
  const size_t r = size_t(it - row_top_.begin()) - 1;
  if (content_y >= row_top_[r] + RowHeight(rows_[r])) return -1;
  return rows_[r];
}

// --- Window -------------------------------------------------------------------

void TimelineCanvas::SyncScrollBars() {
  syncing_scrollbars_ = true;
  const int lanes_height = std::max(viewport()->height() - kRulerHeight, 0);
  verticalScrollBar()->setRange(0, std::max(0, content_height_ - lanes_height));
  verticalScrollBar()->setPageStep(std::max(lanes_height, 1));
  verticalScrollBar()->setSingleStep(24);
  scroll_y_ = std::clamp(scroll_y_, 0, verticalScrollBar()->maximum());
  verticalScrollBar()->setValue(scroll_y_);
  const double bounds = double(viewport_.bounds_end_ps() - viewport_.bounds_start_ps());
  const int page = std::clamp(int(viewport_.span_ps() / bounds * kHorizontalSteps), 1, kHorizontalSteps);
  horizontalScrollBar()->setRange(0, kHorizontalSteps - page);
  horizontalScrollBar()->setPageStep(page);
  horizontalScrollBar()->setSingleStep(std::max(page / 10, 1));
  horizontalScrollBar()->setValue(
      int((viewport_.from_ps() - double(viewport_.bounds_start_ps())) / bounds * kHorizontalSteps));
  syncing_scrollbars_ = false;
}

void TimelineCanvas::scrollContentsBy(int, int) {
  if (syncing_scrollbars_) return;
  scroll_y_ = verticalScrollBar()->value();
  const double bounds = double(viewport_.bounds_end_ps() - viewport_.bounds_start_ps());
  const double from =
      double(viewport_.bounds_start_ps()) + double(horizontalScrollBar()->value()) / kHorizontalSteps * bounds;
  const double span = viewport_.span_ps();
  viewport_.SetWindow(from, from + span);
  viewport()->update();
  emit windowChanged();
}

void TimelineCanvas::WindowMoved() {
  SyncScrollBars();
  viewport()->update();
  emit windowChanged();
}

void TimelineCanvas::ZoomIn(double factor) {
  const double x = hover_x_ >= kHeaderWidth ? hover_x_ - kHeaderWidth : viewport_.width() / 2.0;
  viewport_.ZoomAround(x, factor);
  WindowMoved();
}

void TimelineCanvas::FitAll() {
  viewport_.FitAll();
  WindowMoved();
}

void TimelineCanvas::SetTimeBounds(int64_t start_ps, int64_t end_ps) {
  viewport_.SetBounds(start_ps, end_ps);
  WindowMoved();
}

void TimelineCanvas::ShowWindow(double from_ps, double to_ps) {
  viewport_.SetWindow(from_ps, to_ps);
  WindowMoved();
}

void TimelineCanvas::ShowRange(double from_ps, double to_ps, double margin) {
  viewport_.ZoomTo(from_ps, to_ps, margin);
  WindowMoved();
}

void TimelineCanvas::ZoomToSelection() {
  if (range_ && range_->second != range_->first) {
    viewport_.ZoomTo(std::min(range_->first, range_->second), std::max(range_->first, range_->second), 0);
  } else if (selected_ && timeline() && timeline()->Contains(*selected_)) {
    const trace::TimelineLine& line = timeline()->line(*selected_);
    viewport_.ZoomTo(double(line.start_ps(selected_->event)), double(line.end_ps(selected_->event)), 0.15);
  } else {
    return;
  }
  WindowMoved();
}

void TimelineCanvas::SetFlowsShown(bool shown) {
  flows_shown_ = shown;
  viewport()->update();
}

void TimelineCanvas::SetCycleUnits(bool cycles) {
  cycle_units_ = cycles && clock_hz_ > 0;
  viewport()->update();
}

// --- Events -------------------------------------------------------------------

std::optional<trace::EventRef> TimelineCanvas::EventAt(const QPoint& position) const {
  const trace::Timeline* t = timeline();
  const int32_t node = NodeAt(position.y());
  if (!t || node < 0 || position.x() < kHeaderWidth) return std::nullopt;
  const analysis::LaneNode& lane = tree_.node(node);
  if (lane.kind != analysis::LaneNodeKind::kLane) return std::nullopt;
  const trace::TimelineLine& line = t->plane(lane.plane).line(lane.line);
  const double at = viewport_.PsAt(position.x() - kHeaderWidth);
  const double tolerance = 3 * viewport_.PsPerPixel();
  const int64_t from = int64_t(std::floor(at - tolerance)), to = int64_t(std::ceil(at + tolerance)) + 1;
  const trace::EventRange range = line.Window(from, to);
  int64_t best = -1;
  double best_distance = 0;
  int64_t best_duration = 0;
  for (int64_t i = range.begin; i < range.end && i < range.begin + 200000; ++i) {
    if (!line.Overlaps(i, from, to)) continue;
    const double start = double(line.start_ps(i)), end = double(line.end_ps(i));
    const double distance = at >= start && at <= end ? 0 : std::min(std::fabs(at - start), std::fabs(at - end));
    // Nearest first; among events under the cursor, the innermost.
    if (best < 0 || distance < best_distance ||
        (distance == best_distance && line.duration_ps(i) < best_duration)) {
      best = i;
      best_distance = distance;
      best_duration = line.duration_ps(i);
    }
  }
  if (best < 0) return std::nullopt;
  return trace::EventRef{lane.plane, lane.line, best};
}

void TimelineCanvas::SelectEvent(const trace::EventRef& ref, bool bring_into_view) {
  const trace::Timeline* t = timeline();
  if (!t || !t->Contains(ref)) return;
  selected_ = ref;
  if (bring_into_view) {
    // Unfold the groups holding its lane and scroll to it.
    const int32_t node = tree_.FindLane(ref.plane, ref.line);
    bool unfolded = false;
    for (int32_t a = tree_.node(node).parent; a >= 0; a = tree_.node(a).parent) {
      if (collapsed_[a]) {
        collapsed_[a] = false;
        unfolded = true;
      }
    }
    if (unfolded) RebuildRows();
    const QRect row = RowRect(node);
    if (row.top() < kRulerHeight || row.bottom() > viewport()->height()) {
      scroll_y_ = std::max(0, row_top_[row_of_node_[node]] - (viewport()->height() - kRulerHeight) / 3);
    }
    const trace::TimelineLine& line = t->line(ref);
    const double start = double(line.start_ps(ref.event)), end = double(line.end_ps(ref.event));
    const double width_px = (end - start) / viewport_.PsPerPixel();
    if (width_px < 3 || width_px > viewport_.width()) {
      viewport_.ZoomTo(start, end, 2.0);
    } else if (end < viewport_.from_ps() || start > viewport_.to_ps()) {
      const double span = viewport_.span_ps();
      viewport_.SetWindow((start + end) / 2 - span / 2, (start + end) / 2 + span / 2);
    }
    WindowMoved();
  }
  viewport()->update();
}

void TimelineCanvas::ClearSelection() {
  selected_.reset();
  range_.reset();
  viewport()->update();
}

void TimelineCanvas::HighlightInstructions(const QStringList& names) {
  highlighted_ = names;
  std::vector<std::string> wanted;
  for (const QString& name : names) wanted.push_back(name.toStdString());
  matcher_ = timeline() ? analysis::InstructionEventMatcher(*timeline(), wanted)
                        : analysis::InstructionEventMatcher();
  viewport()->update();
}

bool TimelineCanvas::IsHighlighted(const trace::EventRef& ref) const {
  return timeline() && !matcher_.empty() && matcher_.Matches(*timeline(), ref);
}

// --- Painting -----------------------------------------------------------------

std::vector<trace::LodItem> TimelineCanvas::ItemsOf(int32_t plane, int32_t line) const {
  const trace::TimelineLine& lane = profile_->timeline.plane(plane).line(line);
  const int64_t from = int64_t(std::floor(viewport_.from_ps()));
  const int64_t to = int64_t(std::ceil(viewport_.to_ps()));
  if (overviews_ready_ && overviews_ && plane < int32_t(overviews_->lanes.size()) &&
      line < int32_t(overviews_->lanes[plane].size())) {
    return overviews_->lanes[plane][line].LevelOfDetail(lane, from, to, viewport_.width());
  }
  return lane.LevelOfDetail(from, to, viewport_.width());
}

QColor TimelineCanvas::EventColor(const analysis::LaneNode& lane, int32_t metadata_id) const {
  return Shade(StudioPalette::Get().ForLane(lane.lane_kind), metadata_id);
}

void TimelineCanvas::PaintLane(QPainter& painter, const analysis::LaneNode& lane, const QRect& row) const {
  const trace::TimelinePlane& plane = profile_->timeline.plane(lane.plane);
  const std::vector<trace::LodItem> items = ItemsOf(lane.plane, lane.line);
  last_frame_items_ += int64_t(items.size());
  const bool highlighting = !matcher_.empty();
  const StudioPalette& palette = StudioPalette::Get();
  const double top = row.top() + 3, height = row.height() - 6;
  const double left = row.left();

  // Rectangles batched by colour: one drawRects call per colour.
  std::vector<std::pair<QRgb, QVector<QRectF>>> batches;
  auto batch = [&](const QColor& color) -> QVector<QRectF>& {
    const QRgb rgba = color.rgba();
    for (auto& [key, rects] : batches) {
      if (key == rgba) return rects;
    }
    batches.push_back({rgba, {}});
    return batches.back().second;
  };
  struct Label {
    QRectF rect;
    int32_t metadata_id;
    QColor background;
  };
  std::vector<Label> labels;
  std::vector<QRectF> outlined;

  for (const trace::LodItem& item : items) {
    const double x0 = left + viewport_.XOf(double(item.start_ps));
    const double x1 = left + viewport_.XOf(double(item.end_ps));
    QRectF rect(std::floor(x0), top, std::max(x1 - std::floor(x0), 1.0), height);
    bool lit = false;
    if (highlighting) {
      lit = item.event_index >= 0
                ? matcher_.Matches(profile_->timeline, {lane.plane, lane.line, item.event_index})
                : matcher_.MatchesName(lane.plane, item.metadata_id);
    }
    QColor color = lit ? palette.linked : EventColor(lane, item.metadata_id);
    if (item.event_index < 0) {
      // Merged: the share of the column the events fill sets the strength.
      const double fill = double(item.busy_ps) / double(std::max<int64_t>(item.end_ps - item.start_ps, 1));
      const int level = std::clamp(int(std::ceil(fill * 4)), 1, 4);
      color.setAlpha(40 + level * 50);
    }
    if (highlighting && !lit) color.setAlpha(std::min(color.alpha(), 70));
    batch(color).push_back(rect);
    if (item.event_index >= 0) {
      if (rect.width() >= 40) labels.push_back({rect, item.metadata_id, color});
      if (lit) outlined.push_back(rect);
    }
  }
  painter.setPen(Qt::NoPen);
  for (const auto& [rgba, rects] : batches) {
    painter.setBrush(QColor::fromRgba(rgba));
    painter.drawRects(rects);
  }
  if (!outlined.empty()) {
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette.linked.darker(140), 1.5));
    for (const QRectF& r : outlined) painter.drawRect(r);
  }
  if (!labels.empty()) {
    const QFont font = UiFont(11);
    const QFontMetrics metrics(font);
    painter.setFont(font);
    for (const Label& label : labels) {
      const trace::EventMetadata& m = plane.event_metadata(label.metadata_id);
      const QString name = QString::fromStdString(m.display_name.empty() ? m.name : m.display_name);
      const QRectF text = label.rect.adjusted(4, 0, -3, 0).intersected(QRectF(row));
      if (text.width() < 12) continue;
      painter.setPen(label.background.lightness() > 150 ? StudioPalette::Light().ink_on_tint : QColor(Qt::white));
      painter.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                       metrics.elidedText(name, Qt::ElideRight, int(text.width())));
    }
  }
  // The selected event, outlined on top.
  if (selected_ && selected_->plane == lane.plane && selected_->line == lane.line) {
    const trace::TimelineLine& line = plane.line(lane.line);
    const double x0 = left + viewport_.XOf(double(line.start_ps(selected_->event)));
    const double x1 = left + viewport_.XOf(double(line.end_ps(selected_->event)));
    QRectF rect(x0, top - 1, std::max(x1 - x0, 3.0), height + 2);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette.selection, 2));
    painter.drawRect(rect.intersected(QRectF(row).adjusted(-2, 0, 2, 0)));
  }
}

void TimelineCanvas::PaintRuler(QPainter& painter, const QRect& rect) const {
  const StudioPalette& palette = StudioPalette::Get();
  painter.fillRect(rect, palette.header);
  painter.setPen(palette.grid.darker(110));
  painter.drawLine(rect.bottomLeft(), rect.bottomRight());
  analysis::RulerOptions options;
  if (cycle_units_) options.clock_hz = clock_hz_;
  const analysis::TimeRuler ruler = analysis::ComputeTimeRuler(
      int64_t(std::floor(viewport_.from_ps())), int64_t(std::ceil(viewport_.to_ps())), viewport_.width(), options);
  const QFont font = UiFont(11);
  painter.setFont(font);
  for (const analysis::RulerTick& tick : ruler.ticks) {
    const double x = kHeaderWidth + viewport_.XOf(double(tick.ps));
    painter.setPen(palette.muted_text);
    painter.drawLine(QPointF(x, rect.bottom() - (tick.major ? 10 : 4)), QPointF(x, rect.bottom()));
    if (tick.major) {
      painter.drawText(QRectF(x + 3, rect.top() + 2, 120, rect.height() - 12), Qt::AlignLeft | Qt::AlignVCenter,
                       QString::fromStdString(tick.label));
    }
  }
  // The header corner says what the ruler counts.
  painter.fillRect(QRect(0, rect.top(), kHeaderWidth, rect.height()), palette.header);
  painter.setPen(palette.muted_text);
  QString unit = cycle_units_ ? QStringLiteral("cycles @ %1 GHz").arg(clock_hz_ / 1e9, 0, 'g', 4)
                              : QStringLiteral("time (%1)").arg(QString::fromStdString(ruler.unit));
  painter.drawText(QRect(8, rect.top(), kHeaderWidth - 12, rect.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   unit);
  painter.setPen(palette.grid.darker(110));
  painter.drawLine(QPoint(kHeaderWidth, rect.top()), QPoint(kHeaderWidth, rect.bottom()));
  if (hover_x_ >= kHeaderWidth) {
    const double at = viewport_.PsAt(hover_x_ - kHeaderWidth);
    const QString text = cycle_units_ ? QString::fromStdString(analysis::FormatCycles(int64_t(at), clock_hz_))
                                      : QString::fromStdString(analysis::FormatPs(int64_t(at)));
    const QFontMetrics metrics(font);
    QRect box(hover_x_ + 4, rect.top() + 3, metrics.horizontalAdvance(text) + 8, rect.height() - 8);
    if (box.right() > rect.right()) box.moveRight(hover_x_ - 4);
    painter.fillRect(box, palette.selection);
    painter.setPen(palette.canvas);
    painter.drawText(box, Qt::AlignCenter, text);
  }
}

void TimelineCanvas::PaintFlows(QPainter& painter, const QRect& rect) const {
  last_frame_flows_ = 0;
  const trace::Timeline& t = profile_->timeline;
  const bool only_selected = t.flows().size() > kManyFlows;
  if (!flows_shown_ || (only_selected && !selected_)) return;
  const StudioPalette& palette = StudioPalette::Get();
  QColor color = palette.collective.darker(110);
  color.setAlpha(190);
  painter.setPen(QPen(color, 1.4));
  int drawn = 0;
  for (const trace::Flow& flow : t.flows()) {
    if (only_selected && flow.source != *selected_ && flow.target != *selected_) continue;
    if (!t.Contains(flow.source) || !t.Contains(flow.target)) continue;
    const int32_t a = tree_.FindLane(flow.source.plane, flow.source.line);
    const int32_t b = tree_.FindLane(flow.target.plane, flow.target.line);
    if (a < 0 || b < 0 || row_of_node_[a] < 0 || row_of_node_[b] < 0) continue;
    const double xs = XOfTime(double(t.line(flow.source).end_ps(flow.source.event)));
    const double xt = XOfTime(double(t.line(flow.target).start_ps(flow.target.event)));
    if ((xs < kHeaderWidth && xt < kHeaderWidth) || (xs > rect.right() && xt > rect.right())) continue;
    const QRect ra = RowRect(a), rb = RowRect(b);
    const QPointF from(xs, ra.center().y()), to(xt, rb.center().y());
    const double bend = std::max(24.0, std::fabs(to.y() - from.y()) / 3);
    QPainterPath path(from);
    path.cubicTo(from + QPointF(bend, 0), to - QPointF(bend, 0), to);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    painter.setBrush(color);
    painter.drawPolygon(QPolygonF({to, to + QPointF(-7, -3.5), to + QPointF(-7, 3.5)}));
    ++last_frame_flows_;
    if (++drawn >= kMaxFlowsDrawn) break;
  }
}

void TimelineCanvas::PaintFrame(QPainter& painter, const QRect& rect) const {
  const StudioPalette& palette = StudioPalette::Get();
  last_frame_items_ = 0;
  painter.fillRect(rect, palette.canvas);
  if (!profile_ || tree_.size() == 0) {
    painter.setPen(palette.muted_text);
    painter.setFont(UiFont(13));
    painter.drawText(rect, Qt::AlignCenter, profile_ ? "This profile has no timeline." : "No profile open");
    return;
  }
  const QRect lanes(kHeaderWidth, kRulerHeight, rect.width() - kHeaderWidth, rect.height() - kRulerHeight);

  // Grid lines at the ruler's major ticks, under everything.
  analysis::RulerOptions options;
  if (cycle_units_) options.clock_hz = clock_hz_;
  const analysis::TimeRuler ruler = analysis::ComputeTimeRuler(
      int64_t(std::floor(viewport_.from_ps())), int64_t(std::ceil(viewport_.to_ps())), viewport_.width(), options);
  painter.setPen(palette.grid);
  for (const analysis::RulerTick& tick : ruler.ticks) {
    if (!tick.major) continue;
    const double x = kHeaderWidth + viewport_.XOf(double(tick.ps));
    painter.drawLine(QPointF(x, lanes.top()), QPointF(x, lanes.bottom()));
  }

  const QFont label_font = UiFont(12);
  const QFont group_font = UiFont(12, true);
  const QFont count_font = UiFont(10);
  for (size_t r = 0; r < rows_.size(); ++r) {
    const int32_t node = rows_[r];
    const int height = RowHeight(node);
    const int y = kRulerHeight + row_top_[r] - scroll_y_;
    if (y + height < kRulerHeight || y > rect.bottom()) continue;
    const analysis::LaneNode& n = tree_.node(node);
    const QRect row(0, y, rect.width(), height);
    const int indent = 8 + n.depth * 14;
    if (n.kind == analysis::LaneNodeKind::kLane) {
      painter.setClipRect(lanes);
      PaintLane(painter, n, QRect(kHeaderWidth, y, lanes.width(), height));
      painter.setClipping(false);
      painter.fillRect(QRect(0, y, kHeaderWidth, height), palette.panel);
      painter.fillRect(QRect(indent, y + 5, 4, height - 10), palette.ForLane(n.lane_kind));
      painter.setFont(label_font);
      painter.setPen(palette.text);
      painter.drawText(QRect(indent + 10, y, kHeaderWidth - indent - 14, height), Qt::AlignVCenter | Qt::AlignLeft,
                       QFontMetrics(label_font).elidedText(QString::fromStdString(n.label), Qt::ElideRight,
                                                           kHeaderWidth - indent - 14));
    } else {
      const bool plane = n.kind == analysis::LaneNodeKind::kPlane;
      painter.fillRect(row, plane ? palette.header.darker(104) : palette.header);
      painter.setFont(plane ? group_font : label_font);
      painter.setPen(palette.text);
      const QString arrow = collapsed_[node] ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
      painter.drawText(QRect(indent - 4, y, kHeaderWidth, height), Qt::AlignVCenter | Qt::AlignLeft,
                       arrow + QString::fromStdString(n.label));
      painter.setFont(count_font);
      painter.setPen(palette.muted_text);
      QString count = QStringLiteral("%L1 events").arg(n.event_count);
      if (collapsed_[node]) count += QStringLiteral(" · %1 lanes folded").arg(n.children.size());
      painter.drawText(QRect(kHeaderWidth + 8, y, lanes.width() - 16, height), Qt::AlignVCenter | Qt::AlignLeft,
                       count);
    }
    painter.setPen(palette.grid);
    painter.drawLine(QPoint(0, y + height - 1), QPoint(rect.width(), y + height - 1));
  }
  painter.setPen(palette.grid.darker(110));
  painter.drawLine(QPoint(kHeaderWidth, kRulerHeight), QPoint(kHeaderWidth, rect.bottom()));

  painter.setClipRect(lanes);
  painter.setRenderHint(QPainter::Antialiasing, true);
  PaintFlows(painter, rect);
  painter.setRenderHint(QPainter::Antialiasing, false);
  if (range_) {
    const double a = XOfTime(std::min(range_->first, range_->second));
    const double b = XOfTime(std::max(range_->first, range_->second));
    QColor shade = palette.search_hit;
    shade.setAlpha(45);
    painter.fillRect(QRectF(a, lanes.top(), std::max(b - a, 1.0), lanes.height()), shade);
    painter.setPen(palette.search_hit.darker(130));
    painter.drawLine(QPointF(a, lanes.top()), QPointF(a, lanes.bottom()));
    painter.drawLine(QPointF(b, lanes.top()), QPointF(b, lanes.bottom()));
    const double duration = std::fabs(range_->second - range_->first);
    const QString text = QString::fromStdString(analysis::FormatPs(int64_t(duration))) +
                         (clock_hz_ > 0 ? " · " + QString::fromStdString(analysis::FormatCycles(int64_t(duration), clock_hz_))
                                        : QString());
    painter.setFont(UiFont(11, true));
    painter.drawText(QRectF(a, lanes.top() + 2, std::max(b - a, 160.0), 16), Qt::AlignHCenter | Qt::AlignTop, text);
  }
  if (hover_x_ >= kHeaderWidth) {
    QColor cursor_line = palette.text;
    cursor_line.setAlpha(90);
    painter.setPen(QPen(cursor_line, 1, Qt::DashLine));
    painter.drawLine(QPoint(hover_x_, lanes.top()), QPoint(hover_x_, lanes.bottom()));
  }
  painter.setClipping(false);
  PaintRuler(painter, QRect(0, 0, rect.width(), kRulerHeight));
}

void TimelineCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(viewport());
  PaintFrame(painter, viewport()->rect());
}

// --- Input --------------------------------------------------------------------

void TimelineCanvas::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  viewport_.SetWidth(std::max(viewport()->width() - kHeaderWidth, 1));
  SyncScrollBars();
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    verticalScrollBar()->setValue(verticalScrollBar()->value() - int(steps * 48));
  } else if (event->modifiers() & Qt::ShiftModifier) {
    viewport_.PanFraction(-steps * 0.1);
    WindowMoved();
  } else {
    const double x = event->position().x() - kHeaderWidth;
    viewport_.ZoomAround(x >= 0 ? x : viewport_.width() / 2.0, std::pow(1.25, steps));
    WindowMoved();
  }
  event->accept();
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent* event) {
  const std::optional<trace::EventRef> ref = EventAt(event->pos());
  if (!ref || !timeline()) return;
  const QString instruction = QString::fromStdString(analysis::InstructionOfEvent(*timeline(), *ref));
  if (instruction.isEmpty()) return;
  SelectEvent(*ref, false);
  emit eventSelected(*ref);
  QMenu menu(this);
  AddShowInActions(&menu, instruction, ShowInTarget::kTimeline,
                   [this](const QString& name, ShowInTarget target) { emit showInRequested(name, target); });
  menu.exec(event->globalPos());
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event) {
  setFocus();
  press_position_ = last_position_ = event->pos();
  if (event->button() != Qt::LeftButton) return;
  if (event->pos().x() < kHeaderWidth && event->pos().y() >= kRulerHeight) {
    const int32_t node = NodeAt(event->pos().y());
    if (node >= 0 && tree_.node(node).kind != analysis::LaneNodeKind::kLane) {
      SetCollapsed(node, !IsCollapsed(node));
    }
    return;
  }
  if (event->modifiers() & Qt::ShiftModifier) {
    selecting_range_ = true;
    const double at = viewport_.PsAt(event->pos().x() - kHeaderWidth);
    range_ = std::make_pair(at, at);
  } else {
    dragging_ = true;
    setCursor(Qt::ClosedHandCursor);
  }
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
  hover_x_ = event->pos().x();
  if (selecting_range_ && range_) {
    range_->second = viewport_.PsAt(event->pos().x() - kHeaderWidth);
  } else if (dragging_ && (event->buttons() & Qt::LeftButton)) {
    const QPoint delta = event->pos() - last_position_;
    viewport_.PanPixels(-delta.x());
    scroll_y_ = std::clamp(scroll_y_ - delta.y(), 0, verticalScrollBar()->maximum());
    WindowMoved();
  }
  last_position_ = event->pos();
  viewport()->update();
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
  unsetCursor();
  const bool click = (event->pos() - press_position_).manhattanLength() < 4;
  if (selecting_range_) {
    selecting_range_ = false;
    if (click) range_.reset();
    viewport()->update();
    return;
  }
  if (dragging_ && click && event->button() == Qt::LeftButton) {
    if (std::optional<trace::EventRef> ref = EventAt(event->pos())) {
      SelectEvent(*ref, false);
      emit eventSelected(*ref);
    } else if (selected_ || range_) {
      ClearSelection();
      emit selectionCleared();
    }
  }
  dragging_ = false;
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  if (std::optional<trace::EventRef> ref = EventAt(event->pos())) {
    SelectEvent(*ref, false);
    range_.reset();
    ZoomToSelection();
    emit eventSelected(*ref);
  }
}

void TimelineCanvas::leaveEvent(QEvent*) {
  hover_x_ = -1;
  viewport()->update();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_W: ZoomIn(1.5); break;
    case Qt::Key_S: ZoomOut(1.5); break;
    case Qt::Key_A: viewport_.PanFraction(-0.15); WindowMoved(); break;
    case Qt::Key_D: viewport_.PanFraction(0.15); WindowMoved(); break;
    case Qt::Key_F: FitAll(); break;
    case Qt::Key_Z: ZoomToSelection(); break;
    case Qt::Key_C: SetCycleUnits(!cycle_units_); break;
    case Qt::Key_Escape:
      ClearSelection();
      emit selectionCleared();
      break;
    default: QAbstractScrollArea::keyPressEvent(event); return;
  }
  event->accept();
}

}  // namespace systolic::views
