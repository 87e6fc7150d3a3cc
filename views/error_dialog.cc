#include "views/error_dialog.h"

#include <QMessageBox>

#include "core/hlo/utf8.h"

namespace systolic::views {

QString ErrorDialogText(const std::string& message) {
  const QString printable = QString::fromStdString(PrintableText(message));
  return "<pre>" + printable.toHtmlEscaped() + "</pre>";
}

void ShowErrorDialog(QWidget* parent, const QString& title, const std::string& message) {
  QMessageBox box(QMessageBox::Warning, title, ErrorDialogText(message), QMessageBox::Ok, parent);
  box.setTextFormat(Qt::RichText);
  box.setTextInteractionFlags(Qt::TextSelectableByMouse);
  box.exec();
}

}  // namespace systolic::views
