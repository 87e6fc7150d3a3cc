#include "views/widget_export.h"

#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace systolic::views {

bool ExportWidgetImage(QWidget* widget, const QString& path) {
  if (widget == nullptr || widget->size().isEmpty()) return false;
  // QSaveFile writes beside the file and renames it into place on commit.
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  if (path.endsWith(".svg", Qt::CaseInsensitive)) {
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(widget->windowTitle().isEmpty() ? widget->objectName() : widget->windowTitle());
    QPainter painter;
    if (!painter.begin(&generator)) return false;
    widget->render(&painter);
    return painter.end() && file.commit();
  }
  // Twice the widget's resolution, so the image stays sharp when zoomed.
  QImage image(widget->size() * 2, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(2);
  image.fill(widget->palette().window().color());
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  widget->render(&painter);
  painter.end();
  return image.save(&file, "PNG") && file.commit();
}

}  // namespace systolic::views
