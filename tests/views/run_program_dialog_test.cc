// The compile-and-run dialog and the hook behind it: choices validated and
// remembered, progress reported, and a clear answer while the core has no
// pipeline to run.
#include <QComboBox>
#include <QLineEdit>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QSettings>
#include <QtTest>

#include "tests/views/view_test_profile.h"
#include "views/program_runner.h"
#include "views/run_program_dialog.h"

namespace systolic::views {

class RunProgramDialogTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();  // what an earlier run remembered
  }

  void choicesAreValidatedAndRemembered() {
    {
      RunProgramDialog dialog("/samples/mlp_layer.hlo");
      auto* topology = dialog.findChild<QLineEdit*>("topology");
      QVERIFY(topology);
      topology->setText("4x4x4");
      QVERIFY(dialog.valid());
      ProgramRunRequest request = dialog.request();
      QCOMPARE(request.topology, std::string("4x4x4"));
      QCOMPARE(request.program_path, std::string("/samples/mlp_layer.hlo"));
      QVERIFY(!request.chip_preset.empty());
      QVERIFY(request.chip_spec_path.empty());
      QVERIFY(request.steps >= 1);
      topology->setText("4x");
      QVERIFY(!dialog.valid());
      topology->setText("8");
      QVERIFY(dialog.valid());
      // A spec file must exist.
      dialog.findChild<QRadioButton*>("use_spec")->setChecked(true);
      QVERIFY(!dialog.valid());
      // ... and be a valid spec.
      QTemporaryFile spec;
      QVERIFY(spec.open());
      spec.write("name: \"mine\"\nnot_a_field: 3\n");
      spec.flush();
      dialog.findChild<QLineEdit*>("spec")->setText(spec.fileName());
      QString problem;
      QVERIFY(!dialog.valid(&problem));
      QVERIFY2(problem.contains("not_a_field"), qPrintable(problem));
      dialog.findChild<QLineEdit*>("spec")->setText(SYSTOLIC_SOURCE_DIR "/core/device/presets/v4.textproto");
      QVERIFY(dialog.valid(&problem));
      QCOMPARE(dialog.request().chip_spec_path,
               std::string(SYSTOLIC_SOURCE_DIR "/core/device/presets/v4.textproto"));
      dialog.Remember();
    }
    RunProgramDialog again("/samples/mlp_layer.hlo");
    QCOMPARE(again.request().topology, std::string("8"));
  }

  void presetsComeFromTheDeviceLayer() {
    RunProgramDialog dialog("x.hlo");
    auto* presets = dialog.findChild<QComboBox*>("preset");
    QVERIFY(presets);
    QStringList names;
    for (int i = 0; i < presets->count(); ++i) names << presets->itemText(i);
    QVERIFY(names.contains("v4") && names.contains("v5p") && names.contains("v2"));
  }

  void theDialogsRequestRuns() {
    std::unique_ptr<HloModule> module = testing::LoadMlpLayer();
    QVERIFY(module);
    RunProgress progress;
    ProgramRunRequest request;
    request.chip_preset = "v4";
    request.topology = "2x2";
    absl::StatusOr<trace::Profile> result = CompileAndRunProgram(*module, request, progress);
    QVERIFY2(result.ok(), std::string(result.status().message()).c_str());
    QCOMPARE(result->chip.name, std::string("v4"));
    QVERIFY(result->timeline.event_count() > 0);
  }

  void progressIsSharedBetweenThreads() {
    RunProgress progress;
    progress.Report(0.25, "compiling");
    QCOMPARE(progress.fraction(), 0.25);
    QCOMPARE(progress.what(), std::string("compiling"));
    progress.Report(7, "running");
    QCOMPARE(progress.fraction(), 1.0);
    QVERIFY(!progress.cancelled());
    progress.Cancel();
    QVERIFY(progress.cancelled());
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::RunProgramDialogTest)
#include "run_program_dialog_test.moc"
