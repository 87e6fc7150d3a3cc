// The studio's theme: the system's palette, or light or dark whatever the
// system says. Canvases and charts follow the application palette, so this
// is all a theme change needs (charts are rebuilt by their owners).
#pragma once

#include <QString>
#include <optional>

namespace systolic::views {

enum class Theme { kSystem, kLight, kDark };

// "system", "light", "dark".
std::optional<Theme> ParseTheme(const QString& name);
QString ThemeName(Theme theme);
void ApplyTheme(Theme theme);

}  // namespace systolic::views
