// Long work behind a progress dialog: the job's result comes back, the
// dialog shows what the job says it is doing, and Cancel stops the job.
#include <QApplication>
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "views/progress_job.h"

namespace systolic::views {

class ProgressJobTest : public QObject {
  Q_OBJECT

 private slots:
  void aQuickJobReturnsItsResult() {
    bool cancelled = true;
    const int result = RunWithProgress<int>(nullptr, "adding", [](RunProgress&) { return 42; }, &cancelled);
    QCOMPARE(result, 42);
    QVERIFY(!cancelled);
  }

  void cancelStopsAJobThatChecks() {
    QWidget parent;
    parent.show();
    QString label_seen;
    // Once the dialog is up and has shown the job's words, press Cancel.
    QTimer press;
    connect(&press, &QTimer::timeout, this, [&] {
      for (QWidget* widget : QApplication::topLevelWidgets()) {
        auto* dialog = qobject_cast<QProgressDialog*>(widget);
        if (dialog == nullptr || !dialog->isVisible()) continue;
        label_seen = dialog->labelText();
        if (!label_seen.startsWith("chunk")) continue;
        QPushButton* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel != nullptr);
        QTest::mouseClick(cancel, Qt::LeftButton);
      }
    });
    press.start(20);
    bool cancelled = false;
    const int chunks = RunWithProgress<int>(
        &parent, "working",
        [](RunProgress& progress) {
          int done = 0;
          // Stops only when cancelled (or after a minute: the test fails).
          for (; done < 6000 && !progress.cancelled(); ++done) {
            progress.Report(done / 6000.0, "chunk " + std::to_string(done));
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
          return done;
        },
        &cancelled, /*show_after_ms=*/0);
    QVERIFY(cancelled);
    QVERIFY(chunks < 6000);
    QVERIFY2(label_seen.startsWith("chunk"), qPrintable(label_seen));
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::ProgressJobTest)
#include "progress_job_test.moc"
