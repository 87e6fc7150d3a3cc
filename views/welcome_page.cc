#include "views/welcome_page.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace systolic::views {
namespace {

constexpr int kPathRole = Qt::UserRole;

QListWidget* FileList(QWidget* parent) {
  auto* list = new QListWidget(parent);
  list->setFrameShape(QFrame::NoFrame);
  list->setMaximumWidth(720);
  return list;
}

void AddFile(QListWidget* list, const QString& path) {
  const QFileInfo info(path);
  auto* item = new QListWidgetItem(
      QStringLiteral("%1    %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())),
      list);
  item->setData(kPathRole, info.absoluteFilePath());
  item->setToolTip(info.absoluteFilePath());
}

}  // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(48, 36, 48, 36);
  layout->setSpacing(10);
  auto* title = new QLabel("<h2>Systolic Studio</h2>", this);
  auto* hint = new QLabel(
      "Open an XLA program (HLO text), a StableHLO program or a profile (.sysprof, .xplane.pb): "
      "<b>Ctrl+O</b>, drop a file on the window, or pick one below.",
      this);
  hint->setWordWrap(true);
  auto* open = new QPushButton("Open…", this);
  open->setMaximumWidth(160);
  connect(open, &QPushButton::clicked, this, &WelcomePage::openDialogRequested);
  recent_ = FileList(this);
  samples_ = FileList(this);
  for (const QString& sample : BundledSamples()) AddFile(samples_, sample);
  for (QListWidget* list : {recent_, samples_}) {
    connect(list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
      emit openRequested(item->data(kPathRole).toString());
    });
  }
  layout->addWidget(title);
  layout->addWidget(hint);
  layout->addWidget(open);
  layout->addSpacing(12);
  layout->addWidget(new QLabel("<b>Recent</b>", this));
  layout->addWidget(recent_, 1);
  layout->addWidget(new QLabel("<b>Samples</b>", this));
  layout->addWidget(samples_, 1);
  SetRecentFiles({});
}

void WelcomePage::SetRecentFiles(const QStringList& paths) {
  recent_->clear();
  for (const QString& path : paths) AddFile(recent_, path);
  if (paths.isEmpty()) {
    auto* none = new QListWidgetItem("Nothing opened yet", recent_);
    none->setFlags(Qt::NoItemFlags);
  }
}

QStringList WelcomePage::BundledSamples() {
  QStringList samples;
  for (const char* folder : {"hlo", "stablehlo"}) {
    const QDir dir(QStringLiteral(SYSTOLIC_SAMPLES_DIR "/") + folder);
    for (const QFileInfo& file :
         dir.entryInfoList({"*.hlo", "*.mlir"}, QDir::Files, QDir::Name)) {
      samples.push_back(file.absoluteFilePath());
    }
  }
  return samples;
}

}  // namespace systolic::views
