// What the studio shows before anything is open: how to open a file, the
// files opened lately (with their folders) and the bundled sample programs,
// each a click away.
#pragma once

#include <QStringList>
#include <QWidget>

class QListWidget;

namespace systolic::views {

class WelcomePage : public QWidget {
  Q_OBJECT

 public:
  explicit WelcomePage(QWidget* parent = nullptr);

  // The files listed under "Recent", most recent first.
  void SetRecentFiles(const QStringList& paths);

  // The sample programs bundled with the studio (HLO and StableHLO text).
  static QStringList BundledSamples();

  QListWidget* recent_list() const { return recent_; }
  QListWidget* samples_list() const { return samples_; }

 signals:
  void openRequested(const QString& path);
  void openDialogRequested();

 private:
  QListWidget* recent_ = nullptr;
  QListWidget* samples_ = nullptr;
};

}  // namespace systolic::views
