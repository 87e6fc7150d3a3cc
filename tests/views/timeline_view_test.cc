// The timeline: pixel <-> time, lanes chip -> core -> unit that fold, event
// picking and drawing, highlighting from the graph, search over the whole
// trace, zoom and pan by keys and wheel, and large traces from overviews.
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QWheelEvent>
#include <QtTest>
#include <cmath>

#include "tests/views/view_test_profile.h"
#include "views/time_viewport.h"
#include "views/timeline_canvas.h"
#include "views/timeline_view.h"

namespace systolic::views {
namespace {

// The event `index` of the lane named `lane` of chip `plane`.
trace::EventRef FindEvent(const trace::Timeline& t, int32_t plane, const std::string& lane, int64_t index) {
  for (int32_t l = 0; l < t.plane(plane).line_count(); ++l) {
    if (t.plane(plane).line(l).name() == lane) return {plane, l, index};
  }
  return {plane, -1, index};
}

QPoint EventCenter(const TimelineCanvas& canvas, const trace::EventRef& ref) {
  const trace::TimelineLine& line = canvas.timeline()->line(ref);
  const double middle = double(line.start_ps(ref.event) + line.end_ps(ref.event)) / 2;
  const QRect row = canvas.RowRect(canvas.lane_tree().FindLane(ref.plane, ref.line));
  return QPoint(int(std::lround(canvas.XOfTime(middle))), row.center().y());
}

}  // namespace

class TimelineViewTest : public QObject {
  Q_OBJECT

 private:
  std::shared_ptr<const trace::Profile> profile_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    profile_ = std::make_shared<const trace::Profile>(testing::MakeMlpProfile({.chips = 2, .steps = 4}));
  }

  void viewportMapsPixelsToTimeAndBack() {
    TimeViewport vp;
    vp.SetBounds(0, 1'000'000);
    vp.SetWidth(1000);
    QCOMPARE(vp.from_ps(), -20'000.0);  // a 2% margin each side
    QCOMPARE(vp.to_ps(), 1'020'000.0);
    QCOMPARE(vp.PsPerPixel(), 1040.0);
    QCOMPARE(vp.XOf(vp.PsAt(123.5)), 123.5);
    QCOMPARE(vp.PsAt(0), -20'000.0);
    // Zooming keeps the instant under the cursor where it is.
    const double anchor = vp.PsAt(250);
    vp.ZoomAround(250, 4);
    QCOMPARE(vp.PsAt(250), anchor);
    QCOMPARE(vp.span_ps(), 1'040'000.0 / 4);
    const double from = vp.from_ps();
    vp.PanPixels(100);
    QCOMPARE(vp.from_ps(), from + 100 * vp.PsPerPixel());
    // Never past the trace, never narrower than the minimum.
    vp.PanPixels(1e9);
    QCOMPARE(vp.to_ps(), 1'020'000.0);
    vp.ZoomAround(500, 1e12);
    QCOMPARE(vp.span_ps(), TimeViewport::kMinWindowPs);
    vp.ZoomTo(1000, 3000, 0.5);
    QCOMPARE(vp.from_ps(), 0.0);
    QCOMPARE(vp.to_ps(), 4000.0);
    vp.FitAll();
    QCOMPARE(vp.span_ps(), 1'040'000.0);
  }

  void lanesGroupByChipAndCoreAndFold() {
    TimelineCanvas canvas;
    canvas.resize(1400, 900);
    canvas.SetProfile(profile_);
    const analysis::LaneTree& tree = canvas.lane_tree();
    QCOMPARE(int(canvas.rows().size()), tree.size());
    // Two chips: steps, two cores of four MXUs, a vector unit and a DMA
    // engine, and an ICI link each.
    QCOMPARE(tree.roots().size(), size_t(2));
    QCOMPARE(tree.node(tree.roots()[0]).children.size(), size_t(4));
    const int before = int(canvas.rows().size());
    canvas.SetCollapsed(tree.roots()[0], true);
    QCOMPARE(int(canvas.rows().size()), before - (1 + 2 * 7 + 1));
    QVERIFY(canvas.RowRect(tree.node(tree.roots()[0]).children[0]).isNull());
    canvas.SetCollapsed(tree.roots()[0], false);
    for (int32_t node : canvas.rows()) {
      const QRect row = canvas.RowRect(node);
      if (row.top() < TimelineCanvas::kRulerHeight || row.bottom() > canvas.viewport()->height()) continue;
      QCOMPARE(canvas.NodeAt(row.center().y()), node);
    }
  }

  void clickingAnEventSelectsIt() {
    TimelineCanvas canvas;
    canvas.resize(1400, 900);
    canvas.show();
    canvas.SetProfile(profile_);
    const trace::Timeline& t = *canvas.timeline();
    const trace::EventRef ref = FindEvent(t, 0, "core 0 / MXU 0", 1);
    const trace::TimelineLine& line = t.line(ref);
    canvas.ShowRange(double(line.start_ps(ref.event)), double(line.end_ps(ref.event)), 1.0);
    QSignalSpy spy(&canvas, &TimelineCanvas::eventSelected);
    QTest::mouseClick(canvas.viewport(), Qt::LeftButton, {}, EventCenter(canvas, ref));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).value<trace::EventRef>(), ref);
    QVERIFY(canvas.selected_event().has_value());
    QCOMPARE(*canvas.selected_event(), ref);
    // Empty space clears it.
    QTest::mouseClick(canvas.viewport(), Qt::LeftButton, {}, QPoint(canvas.viewport()->width() - 5, canvas.viewport()->height() - 5));
    QVERIFY(!canvas.selected_event().has_value());
  }

  // Flows draw while there are few; with many, only the selected event's;
  // none when hidden.
  void flowsShowAllWhenFewOnlyTheSelectedWhenManyAndCanBeHidden() {
    trace::Profile many = *profile_;
    const trace::EventRef from = FindEvent(many.timeline, 0, "core 0 / MXU 0", 0);
    const trace::EventRef to = FindEvent(many.timeline, 1, "core 0 / MXU 0", 0);
    QVERIFY(from.line >= 0 && to.line >= 0);
    for (size_t i = 0; i < 10; ++i) many.timeline.AddFlow({i, "all-reduce", "collective", from, to, 64});
    auto few = std::make_shared<const trace::Profile>(many);
    const trace::EventRef other = FindEvent(many.timeline, 0, "core 0 / MXU 0", 1);
    for (size_t i = 10; i <= TimelineCanvas::kManyFlows; ++i) {
      many.timeline.AddFlow({i, "all-reduce", "collective", other, to, 64});
    }
    auto crowded = std::make_shared<const trace::Profile>(std::move(many));

    TimelineCanvas canvas;
    canvas.resize(1400, 900);
    canvas.show();
    QImage frame(canvas.viewport()->size(), QImage::Format_ARGB32);
    auto flows_drawn = [&] {
      QPainter painter(&frame);
      canvas.PaintFrame(painter, frame.rect());
      return canvas.last_frame_flows();
    };
    canvas.SetProfile(profile_);
    const int64_t own = flows_drawn();  // the run's collective transfers
    QVERIFY(profile_->timeline.flows().size() + 10 <= TimelineCanvas::kManyFlows);
    canvas.SetProfile(few);
    QCOMPARE(flows_drawn(), own + 10);
    canvas.SetFlowsShown(false);
    QCOMPARE(flows_drawn(), qint64(0));
    canvas.SetFlowsShown(true);

    canvas.SetProfile(crowded);
    QVERIFY(crowded->timeline.flows().size() > TimelineCanvas::kManyFlows);
    QCOMPARE(flows_drawn(), qint64(0));  // nothing selected
    canvas.SelectEvent(from, false);
    QCOMPARE(flows_drawn(), qint64(10));  // the selected event's ten
  }

  void eventsAreDrawnInTheirUnitsColour() {
    TimelineCanvas canvas;
    canvas.resize(1400, 900);
    canvas.SetProfile(profile_);
    const trace::EventRef mxu = FindEvent(*canvas.timeline(), 0, "core 0 / MXU 0", 0);
    const trace::TimelineLine& line = canvas.timeline()->line(mxu);
    canvas.ShowRange(double(line.start_ps(0)), double(line.end_ps(0)), 0.5);
    QImage frame(canvas.viewport()->size(), QImage::Format_ARGB32);
    QPainter painter(&frame);
    canvas.PaintFrame(painter, frame.rect());
    painter.end();
    // The event fills its row in MXU red; the header says what the row is.
    const QRect row = canvas.RowRect(canvas.lane_tree().FindLane(mxu.plane, mxu.line));
    const QColor inside = frame.pixelColor(EventCenter(canvas, mxu).x(), row.top() + 4);
    QVERIFY2(inside.red() > 150 && inside.green() < 120 && inside.blue() < 140,
             qPrintable(inside.name()));
    QVERIFY(canvas.last_frame_items() > 0);
  }

  void instructionsSelectedElsewhereLightUpTheirEvents() {
    TimelineCanvas canvas;
    canvas.SetProfile(profile_);
    const trace::Timeline& t = *canvas.timeline();
    const trace::EventRef dense = FindEvent(t, 0, "core 0 / MXU 2", 0);  // "fusion"
    const trace::EventRef vector = FindEvent(t, 1, "core 1 / vector", 0);
    QCOMPARE(t.EventName(dense), std::string("fusion"));
    canvas.HighlightInstructions({"fusion", "dot.1"});
    QVERIFY(canvas.IsHighlighted(dense));
    QVERIFY(!canvas.IsHighlighted(vector));
    canvas.HighlightInstructions({t.EventName(vector).c_str()});
    QVERIFY(canvas.IsHighlighted(vector));
    QVERIFY(!canvas.IsHighlighted(dense));
    canvas.HighlightInstructions({});
    QVERIFY(!canvas.IsHighlighted(vector));
  }

  void searchCoversTheWholeTrace() {
    TimelineView view;
    view.resize(1400, 900);
    view.show();
    view.SetProfile(profile_);
    TimelineCanvas* canvas = view.canvas();
    // Zoomed far into the start: the matches are mostly off screen.
    canvas->ShowRange(0, 1000);
    view.Search("fusion.3", /*wait=*/true);
    const std::vector<trace::EventRef> expected = profile_->timeline.Search("fusion.3");
    QVERIFY(expected.size() > 4);
    QCOMPARE(view.search_results().size(), expected.size());
    QSignalSpy spy(&view, &TimelineView::eventSelected);
    view.NextResult(1);
    view.NextResult(1);
    QCOMPARE(spy.count(), 2);
    const trace::EventRef second = expected[1];
    QCOMPARE(*canvas->selected_event(), second);
    // Brought into view.
    const trace::TimelineLine& line = profile_->timeline.line(second);
    QVERIFY(canvas->time_viewport().from_ps() <= double(line.start_ps(second.event)));
    QVERIFY(canvas->time_viewport().to_ps() >= double(line.end_ps(second.event)));
    QVERIFY(!canvas->RowRect(canvas->lane_tree().FindLane(second.plane, second.line)).isNull());
  }

  void keysAndWheelZoomAndPan() {
    TimelineCanvas canvas;
    canvas.resize(1400, 900);
    canvas.show();
    canvas.SetProfile(profile_);
    canvas.setFocus();
    const double span = canvas.time_viewport().span_ps();
    QTest::keyClick(&canvas, Qt::Key_W);
    QVERIFY(canvas.time_viewport().span_ps() < span * 0.7);
    const double from = canvas.time_viewport().from_ps();
    QTest::keyClick(&canvas, Qt::Key_D);
    QVERIFY(canvas.time_viewport().from_ps() > from);
    QTest::keyClick(&canvas, Qt::Key_A);
    QCOMPARE(canvas.time_viewport().from_ps(), from);
    QTest::keyClick(&canvas, Qt::Key_S);
    QVERIFY(std::fabs(canvas.time_viewport().span_ps() - span) < span * 0.01);
    // The wheel zooms around the cursor.
    const QPoint at(TimelineCanvas::kHeaderWidth + 300, 200);
    const double under = canvas.time_viewport().PsAt(300);
    QWheelEvent wheel(at, canvas.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas.viewport(), &wheel);
    QVERIFY(canvas.time_viewport().span_ps() < span * 0.7);
    QVERIFY(std::fabs(canvas.time_viewport().PsAt(300) - under) < canvas.time_viewport().PsPerPixel());
    QTest::keyClick(&canvas, Qt::Key_F);
    QCOMPARE(canvas.time_viewport().span_ps(), span);
    // Z zooms to the selected event; C counts cycles.
    const trace::EventRef ref = FindEvent(*canvas.timeline(), 1, "ICI +x", 2);
    canvas.SelectEvent(ref, false);
    QTest::keyClick(&canvas, Qt::Key_Z);
    const trace::TimelineLine& line = canvas.timeline()->line(ref);
    const double duration = double(line.duration_ps(ref.event));
    QVERIFY(std::fabs(canvas.time_viewport().span_ps() - duration * 1.3) < duration * 0.01);
    QVERIFY(!canvas.cycle_units());
    QTest::keyClick(&canvas, Qt::Key_C);
    QVERIFY(canvas.cycle_units());
    QTest::keyClick(&canvas, Qt::Key_Escape);
    QVERIFY(!canvas.selected_event().has_value());
  }

  void largeTracesDrawFromTheLaneOverviews() {
    // ~1M events: 4 chips, 300 steps of 48 repeats.
    auto big = std::make_shared<const trace::Profile>(
        testing::MakeMlpProfile({.chips = 4, .steps = 300, .repeats_per_step = 48}));
    QVERIFY(big->timeline.event_count() > 900'000);
    TimelineCanvas canvas;
    canvas.resize(1600, 1000);
    canvas.SetProfile(big);
    canvas.BuildOverviewsNow();
    QVERIFY(canvas.overviews_ready());
    QImage frame(canvas.viewport()->size(), QImage::Format_ARGB32);
    QPainter painter(&frame);
    canvas.PaintFrame(painter, frame.rect());
    painter.end();
    // At full zoom-out a lane draws a few items per pixel, not its events.
    int lanes = 0;
    for (int32_t node : canvas.rows()) {
      const QRect row = canvas.RowRect(node);
      if (canvas.lane_tree().node(node).kind == analysis::LaneNodeKind::kLane && row.bottom() < frame.height()) ++lanes;
    }
    QVERIFY(lanes > 4);
    QVERIFY(canvas.last_frame_items() < int64_t(lanes) * canvas.time_viewport().width() * 3);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::TimelineViewTest)
#include "timeline_view_test.moc"
