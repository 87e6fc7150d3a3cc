// The memory chart: its peak is the buffer assignment's, on the MLP profile
// and on every sample program; the buffers live at the peak are listed by
// size; the model passes the model tester.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QImage>
#include <QtTest>

#include "core/analysis/program_profile.h"
#include "core/compiler/buffer_assignment.h"
#include "core/hlo/hlo_parser.h"
#include "core/stablehlo/program_file.h"
#include "tests/views/view_test_profile.h"
#include "views/memory_chart.h"
#include "views/peak_buffers_model.h"

namespace systolic::views {

class MemoryChartTest : public QObject {
  Q_OBJECT

 private slots:
  void thePeakIsTheBufferAssignmentsPeak() {
    auto profile = std::make_shared<const trace::Profile>(testing::MakeMlpProfile());
    auto fused = ParseAndReturnUnverifiedModule(testing::kFusedMlpLayer);
    QVERIFY(fused.ok());
    auto assignment = BufferAssignment::Run(**fused);
    QVERIFY(assignment.ok());
    MemoryChart chart;
    chart.resize(1200, 800);
    QAbstractItemModelTester tester(chart.peak_model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    chart.SetProfile(profile);
    QVERIFY(chart.timeline().peak_bytes > 0);
    QCOMPARE(chart.timeline().peak_bytes, assignment->peak_bytes());
    QCOMPARE(int64_t(chart.curve().size()), assignment->program_length());
    const PeakBuffersModel* model = chart.peak_model();
    QVERIFY(model->rowCount() > 0);
    for (int r = 1; r < model->rowCount(); ++r) {
      QVERIFY(model->BufferAt(model->index(r - 1, 0))->size_bytes >= model->BufferAt(model->index(r, 0))->size_bytes);
    }
    QVERIFY(!model->data(model->index(0, PeakBuffersModel::kInstruction)).toString().isEmpty());
    QVERIFY(model->data(model->index(0, PeakBuffersModel::kShape)).toString().contains("["));
    QImage image(chart.size(), QImage::Format_ARGB32);
    chart.render(&image);
    QVERIFY(!image.isNull());
    chart.SetProfile(nullptr);
    QCOMPARE(model->rowCount(), 0);
  }

  void everySampleProgramsPeak() {
    const QDir samples(SYSTOLIC_SOURCE_DIR "/samples/hlo");
    int checked = 0;
    for (const QString& name : samples.entryList({"*.hlo"})) {
      auto loaded = LoadProgramFile(samples.filePath(name).toStdString(), true);
      QVERIFY(loaded.ok() && !loaded->empty() && (*loaded)[0].module.ok());
      const HloModule& module = **(*loaded)[0].module;
      auto assignment = BufferAssignment::Run(module);
      QVERIFY2(assignment.ok(), qPrintable(name));
      MemoryChart chart;
      chart.SetProfile(std::make_shared<const trace::Profile>(analysis::ProfileOfModules({&module}, "sample")));
      QCOMPARE(chart.timeline().peak_bytes, assignment->peak_bytes());
      ++checked;
    }
    QVERIFY(checked >= 5);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::MemoryChartTest)
#include "memory_chart_test.moc"
