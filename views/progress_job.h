// Long work on a worker thread behind a modal progress dialog: the job
// reports to a RunProgress (fraction done, what it is doing) and stops when
// the user cancels; the dialog appears only when the job takes a moment.
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QString>
#include <QThread>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>
#include <functional>
#include <memory>

#include "views/run_progress.h"

namespace systolic::views {

// Runs `job` and returns what it returned; `cancelled` says whether the
// user cancelled it (the job saw progress.cancelled() and stopped).
template <typename Result>
Result RunWithProgress(QWidget* parent, const QString& label, std::function<Result(RunProgress&)> job,
                       bool* cancelled = nullptr, int show_after_ms = 300) {
  auto progress = std::make_shared<RunProgress>();
  QProgressDialog dialog(label, "Cancel", 0, 1000, parent);
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setAutoReset(false);
  dialog.setAutoClose(false);
  QFutureWatcher<std::shared_ptr<Result>> watcher;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &dialog, [&] {
    dialog.setValue(int(progress->fraction() * 1000));
    const std::string what = progress->what();
    if (!what.empty()) dialog.setLabelText(QString::fromStdString(what));
  });
  QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [progress] { progress->Cancel(); });
  QObject::connect(&watcher, &QFutureWatcher<std::shared_ptr<Result>>::finished, &dialog, &QProgressDialog::accept);
  watcher.setFuture(QtConcurrent::run([job = std::move(job), progress] {
    return std::make_shared<Result>(job(*progress));
  }));
  // A quick job never shows the dialog: wait for it a moment first (the
  // window takes no input meanwhile, so nothing can start twice).
  QElapsedTimer waited;
  waited.start();
  while (!watcher.isFinished() && waited.elapsed() < show_after_ms) QThread::msleep(5);
  poll.start(100);
  if (!watcher.isFinished()) dialog.exec();
  watcher.waitForFinished();
  poll.stop();
  if (cancelled != nullptr) *cancelled = progress->cancelled();
  return std::move(*watcher.result());
}

}  // namespace systolic::views
