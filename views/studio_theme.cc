#include "views/studio_theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include "views/studio_palette.h"

namespace systolic::views {

std::optional<Theme> ParseTheme(const QString& name) {
  if (name == "system") return Theme::kSystem;
  if (name == "light") return Theme::kLight;
  if (name == "dark") return Theme::kDark;
  return std::nullopt;
}

QString ThemeName(Theme theme) {
  switch (theme) {
    case Theme::kSystem: return "system";
    case Theme::kLight: return "light";
    case Theme::kDark: return "dark";
  }
  return "system";
}

void ApplyTheme(Theme theme) {
  // The system's style and palette are kept from the start, to return to.
  static const QString system_style = QApplication::style()->name();
  static const QPalette system_palette = QApplication::palette();
  switch (theme) {
    case Theme::kSystem:
      QApplication::setStyle(QStyleFactory::create(system_style));
      QApplication::setPalette(system_palette);
      break;
    case Theme::kLight:
      // Fusion draws every palette colour it is given, whatever the platform.
      QApplication::setStyle(QStyleFactory::create("Fusion"));
      QApplication::setPalette(QApplication::style()->standardPalette());
      break;
    case Theme::kDark:
      QApplication::setStyle(QStyleFactory::create("Fusion"));
      QApplication::setPalette(StudioPalette::DarkApplicationPalette());
      break;
  }
}

}  // namespace systolic::views
