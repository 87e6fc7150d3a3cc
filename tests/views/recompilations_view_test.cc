// The recompilations view on the MLP profile: its two compiles with their
// causes, the diff of the recompiled module against the first one, the
// per-step chart, and the banner once compiles keep happening.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QtTest>

#include "core/analysis/recompilation_report.h"
#include "core/device/chip_spec_loader.h"
#include "core/device/slice.h"
#include "samples/lazy/sample_profile.h"
#include "tests/views/view_test_profile.h"
#include "views/compile_events_model.h"
#include "views/recompilations_view.h"

namespace systolic::views {

class RecompilationsViewTest : public QObject {
  Q_OBJECT

 private slots:
  void theModelListsEveryCompileWithItsCause() {
    const trace::Profile profile = testing::MakeMlpProfile();
    CompileEventsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.SetProfile(&profile);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.columnCount(), int(CompileEventsModel::kColumnCount));
    QCOMPARE(model.data(model.index(0, CompileEventsModel::kCache)).toString(), QString("miss"));
    QVERIFY(model.data(model.index(0, CompileEventsModel::kCause)).toString().startsWith("first compile"));
    QCOMPARE(model.data(model.index(1, CompileEventsModel::kCause)).toString(), QString("cache hit"));
    QCOMPARE(model.data(model.index(3, CompileEventsModel::kCache)).toString(), QString("miss"));
    QCOMPARE(model.data(model.index(3, CompileEventsModel::kStep)).toLongLong(), qint64(3));
    QCOMPARE(model.data(model.index(3, CompileEventsModel::kCause)).toString(),
             QString("argument shape — argument 0 (x): now f32[64,64], before f32[32,64]; "
                     "argument 3 (labels): now s32[64], before s32[32]"));
    QCOMPARE(model.data(model.index(3, CompileEventsModel::kProgram)).toString(), QString("mlp_layer #2"));
    QVERIFY(model.data(model.index(3, CompileEventsModel::kCompileTime)).toString().contains("ms"));
    model.SetProfile(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  // The MLP training sample as `systolic profile --sample mlp_ddp` writes
  // it: 8 steps, compiled at step 0 and again for the partial batch.
  void theMlpSampleShowsItsTwoCompilesWithTheirCauses() {
    const samples::LazySample* sample = samples::FindLazySample("mlp_ddp");
    QVERIFY(sample);
    absl::StatusOr<device::ChipSpec> spec = device::LoadChipSpec("v5e");
    QVERIFY(spec.ok());
    absl::StatusOr<device::Slice> slice = device::MakeSlice(*spec, {2, 2});
    QVERIFY(slice.ok());
    absl::StatusOr<trace::Profile> profile =
        samples::ProfileSample(*sample, 8, *spec, &*slice, "recompilations_view_test");
    QVERIFY2(profile.ok(), std::string(profile.status().message()).c_str());
    CompileEventsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.SetProfile(&*profile);
    QCOMPARE(model.rowCount(), 8);
    QStringList misses;
    for (int row = 0; row < model.rowCount(); ++row) {
      if (model.data(model.index(row, CompileEventsModel::kCache)).toString() == "miss") {
        misses << QStringLiteral("step %1: %2")
                      .arg(model.data(model.index(row, CompileEventsModel::kStep)).toLongLong())
                      .arg(model.data(model.index(row, CompileEventsModel::kCause)).toString());
      }
    }
    QCOMPARE(misses.size(), 2);
    QVERIFY2(misses[0].startsWith("step 0: first compile"), qPrintable(misses[0]));
    QVERIFY2(misses[1].startsWith("step 3: argument shape — argument 2 (x): now f32[4,16], "
                                  "before f32[8,16]"),
             qPrintable(misses[1]));

    RecompilationsView view;
    view.resize(1400, 900);
    view.SetProfile(std::make_shared<const trace::Profile>(*std::move(profile)));
    QCOMPARE(view.report().misses, int64_t(2));
    QVERIFY(!view.banner_visible());  // two compiles in eight steps: no warning
  }

  void aMissShowsItsModuleAgainstTheOneBefore() {
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile());
    RecompilationsView view;
    view.resize(1200, 800);
    view.SetProfile(profile);
    // Exactly two compiles; the second is a recompile for a new argument shape.
    QCOMPARE(view.report().misses, 2);
    QCOMPARE(view.report().recompiles, 1);
    QCOMPARE(view.report().recompile_causes.front().kind, std::string("argument shape"));
    QVERIFY(!view.banner_visible());
    // The view opens on the recompile, with the modules compared.
    const QString diff = view.diff_text();
    QVERIFY2(diff.contains("- ") && diff.contains("+ "), qPrintable(diff));
    QVERIFY(diff.contains("f32[32,64]"));
    QVERIFY(diff.contains("f32[64,64]"));
    QSignalSpy selected(&view, &RecompilationsView::compileSelected);
    view.SelectCompile(1);
    QCOMPARE(selected.count(), 1);
    QVERIFY(view.diff_text().isEmpty());
    // Per step: compiles and compile time.
    const QList<QPointF> chart = view.chart_compiles();
    QCOMPARE(chart.size(), 6);
    QCOMPARE(chart[0], QPointF(1, 3.2));
    QCOMPARE(chart[3], QPointF(1, 4.1));
    QCOMPARE(chart[4].x(), 0.0);
    QImage image(view.size(), QImage::Format_ARGB32);
    view.render(&image);
    QVERIFY(!image.isNull());
  }

  void compilesThatKeepHappeningRaiseABanner() {
    trace::Profile profile = testing::MakeMlpProfile();
    // Every step from 3 on a new batch size.
    for (int64_t s = 4; s < 6; ++s) {
      trace::CompileEvent& e = profile.compile_events[size_t(s)];
      e.cache_hit = false;
      e.compile_time_ns = 4'000'000;
      e.compared_program_id = 2;
      e.cause = {trace::RecompilationKind::kArgumentShape,
                 "argument 0 (x): now f32[" + std::to_string(32 * (s + 1)) + ",64], before f32[64,64]"};
    }
    RecompilationsView view;
    view.SetProfile(std::make_shared<const trace::Profile>(profile));
    QVERIFY(view.banner_visible());
    QVERIFY2(view.banner_text().contains("mlp_layer keeps recompiling"), qPrintable(view.banner_text()));
    QVERIFY(view.banner_text().contains("top cause: argument shape (3×)"));
    view.SetProfile(nullptr);
    QVERIFY(!view.banner_visible());
    QCOMPARE(view.model()->rowCount(), 0);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::RecompilationsViewTest)
#include "recompilations_view_test.moc"
