// Errors shown to the user: a parse error quotes its source line with a caret
// under the column, so the message is shown in a fixed-width font, and any
// bytes of a broken file it quotes are escaped rather than shown as garbage.
#pragma once

#include <QString>
#include <string>

class QWidget;

namespace systolic::views {

// `message` as the rich text the dialog shows: non-printable bytes escaped
// (\xNN), HTML-escaped, in a <pre> block so columns line up.
QString ErrorDialogText(const std::string& message);

// A modal warning titled `title` showing ErrorDialogText(message).
void ShowErrorDialog(QWidget* parent, const QString& title, const std::string& message);

}  // namespace systolic::views
