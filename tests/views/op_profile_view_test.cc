// The op profile table and the roofline chart on the MLP profile: the model
// passes the model tester and shows the core's figures, sorting is numeric,
// and every roofline point is the core's (intensity, achieved FLOP/s).
#include <QAbstractItemModelTester>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include "core/analysis/op_profile.h"
#include "tests/views/view_test_profile.h"
#include "views/op_profile_model.h"
#include "views/op_profile_view.h"
#include "views/roofline_chart.h"

namespace systolic::views {

class OpProfileViewTest : public QObject {
  Q_OBJECT

 private slots:
  void theTableShowsTheCoresOpProfile() {
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile());
    absl::StatusOr<analysis::OpProfile> expected = analysis::ComputeOpProfile(*profile);
    QVERIFY(expected.ok());
    QVERIFY(!expected->ops.empty());
    OpProfileView view;
    view.resize(1200, 700);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxy_tester(view.sorted_model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.SetProfile(profile);
    const OpProfileModel* model = view.model();
    QCOMPARE(model->rowCount(), int(expected->ops.size()));
    QCOMPARE(model->columnCount(), int(OpProfileModel::kColumnCount));
    for (int r = 0; r < model->rowCount(); ++r) {
      const analysis::OpStats& op = expected->ops[size_t(r)];
      QCOMPARE(model->data(model->index(r, OpProfileModel::kInstruction)).toString(), QString::fromStdString(op.name));
      QCOMPARE(model->data(model->index(r, OpProfileModel::kTime), Qt::UserRole).toLongLong(), op.total_ps);
      QCOMPARE(model->data(model->index(r, OpProfileModel::kFlops), Qt::UserRole).toDouble(), op.flops);
      QCOMPARE(model->data(model->index(r, OpProfileModel::kBytes), Qt::UserRole).toLongLong(), op.bytes);
      QCOMPARE(model->data(model->index(r, OpProfileModel::kIntensity), Qt::UserRole).toDouble(), op.intensity);
      QCOMPARE(model->data(model->index(r, OpProfileModel::kAchieved), Qt::UserRole).toDouble(),
               op.achieved_flops_per_second);
      QVERIFY(!model->data(model->index(r, OpProfileModel::kStepShare)).toString().isEmpty());
    }
    QVERIFY(view.summary().contains("MXU"));
    // One unit for every duration of the table and its summary: the step's.
    const QString unit = QString::fromUtf8(model->time_unit().name);
    QCOMPARE(model->time_unit().name, analysis::TimeUnitFor(expected->step_ps).name);
    QVERIFY2(view.summary().contains(QStringLiteral("step %1 %2")
                                         .arg(double(expected->step_ps) / model->time_unit().ps, 0, 'f', 3)
                                         .arg(unit)),
             qPrintable(view.summary()));
    for (int r = 0; r < model->rowCount(); ++r) {
      for (int column : {int(OpProfileModel::kTime), int(OpProfileModel::kWall)}) {
        const QString text = model->data(model->index(r, column)).toString();
        QVERIFY2(text.endsWith(" " + unit), qPrintable(text + " in a table of " + unit));
      }
    }

    // Sorting by intensity, ascending, orders by the number, not its text.
    view.table()->sortByColumn(OpProfileModel::kIntensity, Qt::AscendingOrder);
    const QSortFilterProxyModel* sorted = view.sorted_model();
    for (int r = 1; r < sorted->rowCount(); ++r) {
      QVERIFY(sorted->data(sorted->index(r - 1, OpProfileModel::kIntensity), Qt::UserRole).toDouble() <=
              sorted->data(sorted->index(r, OpProfileModel::kIntensity), Qt::UserRole).toDouble());
    }
    QImage image(view.size(), QImage::Format_ARGB32);
    view.render(&image);
    view.SetProfile(nullptr);
    QCOMPARE(model->rowCount(), 0);
  }

  void rooflinePointsAreTheOpProfiles() {
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile());
    absl::StatusOr<analysis::OpProfile> expected = analysis::ComputeOpProfile(*profile);
    QVERIFY(expected.ok());
    RooflineChart chart;
    chart.resize(1200, 800);
    chart.SetProfile(profile);
    int on_roofline = 0;
    for (const analysis::OpStats& op : expected->ops) {
      if (!op.on_roofline) continue;
      ++on_roofline;
      bool found = false;
      for (const RooflineChart::Point& p : chart.points()) {
        if (p.name == QString::fromStdString(op.name)) {
          QCOMPARE(p.position.x(), op.intensity);
          QCOMPARE(p.position.y(), op.achieved_flops_per_second);
          QVERIFY(chart.ToolTipAt(p.position).contains(p.name));
          found = true;
        }
      }
      QVERIFY2(found, op.name.c_str());
    }
    QVERIFY(on_roofline > 0);
    QCOMPARE(int(chart.points().size()), on_roofline);
    // The roof: up the memory slope to the ridge, then flat at the peak.
    QCOMPARE(int(chart.roof().size()), 3);
    const analysis::Roofline& roof = expected->roofline;
    QCOMPARE(chart.roof()[1], QPointF(roof.ridge_intensity, roof.peak_flops_per_second));
    QCOMPARE(chart.roof()[0].y(), chart.roof()[0].x() * roof.bandwidth_bytes_per_second);
    QCOMPARE(chart.roof()[2].y(), roof.peak_flops_per_second);
    QImage image(chart.size(), QImage::Format_ARGB32);
    chart.render(&image);
    QVERIFY(!image.isNull());
    chart.SetProfile(nullptr);
    QVERIFY(chart.points().isEmpty());
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::OpProfileViewTest)
#include "op_profile_view_test.moc"
