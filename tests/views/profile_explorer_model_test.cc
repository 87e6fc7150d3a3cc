// The profile explorer's model over a profile: programs and their stages,
// compiles, runs and steps, the timeline; checked with the model tester.
#include <QAbstractItemModelTester>
#include <QtTest>

#include "tests/views/view_test_profile.h"
#include "views/profile_explorer_model.h"

namespace systolic::views {

class ProfileExplorerModelTest : public QObject {
  Q_OBJECT

 private slots:
  void listsProgramsStagesCompilesRunsAndTheTimeline() {
    const trace::Profile profile = testing::MakeMlpProfile({.chips = 2, .steps = 3});
    ProfileExplorerModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.SetProfile(&profile);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.data(model.index(0, 0)).toString(), QString("Programs"));
    QCOMPARE(model.data(model.index(1, 0)).toString(), QString("Compiles"));
    QCOMPARE(model.data(model.index(2, 0)).toString(), QString("Runs"));
    QCOMPARE(model.data(model.index(3, 0)).toString(), QString("Timeline"));

    const QModelIndex program = model.index(0, 0, model.index(0, 0));
    QCOMPARE(model.data(program).toString(), QString("mlp_layer"));
    // Programs of one name (a front end's) are told apart by id.
    trace::Profile two = profile;
    two.programs.push_back(profile.programs[0]);
    two.programs.back().id = 7;
    ProfileExplorerModel both;
    both.SetProfile(&two);
    QCOMPARE(both.data(both.index(1, 0, both.index(0, 0))).toString(), QString("mlp_layer #7"));
    QCOMPARE(model.data(program.siblingAtColumn(1)).toString(), QString("3 stages"));
    QCOMPARE(model.rowCount(program), 3);
    QCOMPARE(model.data(model.index(0, 0, program)).toString(), QString("0 · input"));
    QCOMPARE(model.data(model.index(2, 0, program)).toString(), QString("2 · priority-fusion"));
    QVERIFY(model.data(model.index(1, 1, program)).toString().contains("same"));
    // Counted over every computation, fused ones included, as XLA counts.
    QVERIFY(model.data(model.index(2, 1, program)).toString().startsWith("53 instr · changed"));
    const ProfileExplorerModel::Item* stage = model.ItemAt(model.index(2, 0, program));
    QVERIFY(stage);
    QCOMPARE(stage->kind, ProfileExplorerModel::Kind::kStage);
    QCOMPARE(stage->program, qint64(0));
    QCOMPARE(stage->stage, qint64(2));
    QCOMPARE(model.StageIndex(0, 2), model.index(2, 0, program));
    QCOMPARE(model.parent(model.index(2, 0, program)), program);

    const QModelIndex compiles = model.index(1, 0);
    QCOMPARE(model.rowCount(compiles), 3);
    QCOMPARE(model.data(compiles.siblingAtColumn(1)).toString(), QString("3 · 2 cached"));
    QVERIFY(model.data(model.index(0, 1, compiles)).toString().contains("first compile"));
    QCOMPARE(model.data(model.index(1, 1, compiles)).toString(), QString("cache hit"));

    const QModelIndex run = model.index(0, 0, model.index(2, 0));
    QCOMPARE(model.data(run).toString(), QString("train"));
    QCOMPARE(model.rowCount(run), 3);
    const ProfileExplorerModel::Item* step = model.ItemAt(model.index(1, 0, run));
    QCOMPARE(step->kind, ProfileExplorerModel::Kind::kStep);
    QCOMPARE(step->step, qint64(1));
    QVERIFY(model.data(model.index(3, 1)).toString().contains("2 planes"));

    model.SetProfile(nullptr);
    QCOMPARE(model.rowCount(), 0);
    const trace::Profile empty;
    model.SetProfile(&empty);
    QCOMPARE(model.rowCount(), 1);  // the (empty) program list
    model.SetProfile(nullptr);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::ProfileExplorerModelTest)
#include "profile_explorer_model_test.moc"
