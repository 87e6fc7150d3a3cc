// Any view as an image: PNG (the widget as drawn, at twice its resolution)
// or SVG (the widget painted into vectors), written atomically.
#pragma once

#include <QString>

class QWidget;

namespace systolic::views {

// By the path's extension: ".svg" writes SVG, anything else PNG. False when
// the file cannot be written (nothing is left behind).
bool ExportWidgetImage(QWidget* widget, const QString& path);

}  // namespace systolic::views
