// The utilisation chart: a series per core and unit kind with the core's
// numbers, one curve point pair per bucket, a chip picker over the device
// planes, and nothing drawn for a profile without unit lanes.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QImage>
#include <QLineSeries>
#include <QtTest>

#include "core/analysis/unit_utilization.h"
#include "tests/views/view_test_profile.h"
#include "views/utilization_chart.h"

namespace systolic::views {

class UtilizationChartTest : public QObject {
  Q_OBJECT

 private slots:
  void seriesAreTheCoresUtilisation() {
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile({.chips = 4}));
    UtilizationChart chart;
    chart.resize(1200, 700);
    chart.SetProfile(profile);
    auto* chips = chart.findChild<QComboBox*>("chip");
    QVERIFY(chips);
    QCOMPARE(chips->count(), 4);
    chart.ShowChip(2);
    const int32_t plane = profile->timeline.FindChipPlane(2)->id();
    const analysis::UnitUtilization expected =
        analysis::UnitUtilizationOf(profile->timeline, plane, UtilizationChart::kBuckets);
    QVERIFY(!expected.series.empty());
    QCOMPARE(chart.utilization().series.size(), expected.series.size());
    const QList<QAbstractSeries*> drawn = chart.chart_view()->chart()->series();
    QCOMPARE(drawn.size(), qsizetype(expected.series.size()));
    bool mxu = false;
    for (size_t i = 0; i < expected.series.size(); ++i) {
      const analysis::UtilizationSeries& s = expected.series[i];
      mxu |= s.kind == trace::LaneKind::kMxu;
      QCOMPARE(chart.utilization().series[i].busy, s.busy);
      auto* line = qobject_cast<QLineSeries*>(drawn[qsizetype(i)]);
      QVERIFY(line);
      QVERIFY(line->name().startsWith(QString::fromStdString(s.name)));
      QCOMPARE(line->count(), 2 * UtilizationChart::kBuckets);
      for (int b = 0; b < UtilizationChart::kBuckets; ++b) {
        QCOMPARE(line->at(2 * b).y(), 100 * s.busy[size_t(b)]);
      }
    }
    QVERIFY(mxu);
    // Two cores' series of one unit kind differ in colour, not only stroke.
    int pairs = 0;
    for (size_t i = 0; i < expected.series.size(); ++i) {
      for (size_t j = i + 1; j < expected.series.size(); ++j) {
        if (expected.series[i].kind != expected.series[j].kind ||
            expected.series[i].core == expected.series[j].core) {
          continue;
        }
        QVERIFY(qobject_cast<QLineSeries*>(drawn[qsizetype(i)])->pen().color() !=
                qobject_cast<QLineSeries*>(drawn[qsizetype(j)])->pen().color());
        ++pairs;
      }
    }
    QVERIFY(pairs > 0);
    QImage image(chart.size(), QImage::Format_ARGB32);
    chart.render(&image);
  }

  void aProfileWithoutUnitsDrawsNothing() {
    UtilizationChart chart;
    chart.SetProfile(std::make_shared<const trace::Profile>());
    QVERIFY(chart.utilization().series.empty());
    QCOMPARE(chart.chart_view()->chart()->series().size(), qsizetype(0));
    chart.SetProfile(nullptr);
    QVERIFY(chart.utilization().series.empty());
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::UtilizationChartTest)
#include "utilization_chart_test.moc"
