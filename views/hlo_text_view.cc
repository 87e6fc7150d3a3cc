#include "views/hlo_text_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/hlo_syntax_highlighter.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// Drawing a mark per match is what costs; past this many only the count grows.
constexpr int kMostMarkedMatches = 2000;

}  // namespace

HloTextView::HloTextView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  auto* bar = new QHBoxLayout();
  bar->setContentsMargins(6, 4, 6, 4);
  search_ = new QLineEdit(this);
  search_->setPlaceholderText("Find in the text (Ctrl+F)");
  search_->setClearButtonEnabled(true);
  search_->setMinimumWidth(260);
  search_->setMaximumWidth(360);
  bar->addWidget(search_);
  auto* previous = new QToolButton(this);
  previous->setText("◀");
  previous->setToolTip("Previous match (Shift+F3)");
  auto* next = new QToolButton(this);
  next->setText("▶");
  next->setToolTip("Next match (Enter, F3)");
  bar->addWidget(previous);
  bar->addWidget(next);
  search_status_ = new QLabel(this);
  bar->addWidget(search_status_, 1);
  layout->addLayout(bar);

  editor_ = new QPlainTextEdit(this);
  editor_->setReadOnly(true);
  editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono("DejaVu Sans Mono");
  mono.setStyleHint(QFont::Monospace);
  mono.setPointSize(10);
  editor_->setFont(mono);
  editor_->setPlaceholderText(
      "Open a program (HLO text or StableHLO) or a profile — File > Open, or drop a file here.");
  new HloSyntaxHighlighter(editor_->document());
  layout->addWidget(editor_, 1);

  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) { Find(text); });
  connect(search_, &QLineEdit::returnPressed, this, [this] { NextMatch(1); });
  connect(previous, &QToolButton::clicked, this, [this] { NextMatch(-1); });
  connect(next, &QToolButton::clicked, this, [this] { NextMatch(1); });
}

void HloTextView::SetText(const QString& text) {
  marked_line_ = -1;
  editor_->setPlainText(text);
  Find(pattern_);
}

void HloTextView::Clear() { SetText(QString()); }

void HloTextView::FocusSearch() {
  search_->setFocus();
  search_->selectAll();
}

bool HloTextView::MarkInstruction(const std::string& instruction) {
  // The instruction's definition line in the printed module.
  const QString needle = QStringLiteral("%%1 = ").arg(QString::fromStdString(instruction));
  marked_line_ = -1;
  for (QTextBlock block = editor_->document()->begin(); block.isValid(); block = block.next()) {
    if (!block.text().contains(needle)) continue;
    editor_->setTextCursor(QTextCursor(block));
    editor_->centerCursor();
    marked_line_ = block.blockNumber();
    break;
  }
  UpdateMarks();
  return marked_line_ >= 0;
}

int HloTextView::Find(const QString& text) {
  pattern_ = text;
  match_count_ = text.isEmpty() ? 0 : int(editor_->document()->toPlainText().count(text, Qt::CaseInsensitive));
  UpdateMarks();
  if (match_count_ > 0) {
    // From where the cursor is: typing refines the match in place.
    QTextCursor cursor = editor_->textCursor();
    cursor.setPosition(cursor.selectionStart());
    editor_->setTextCursor(cursor);
    NextMatch(1);
  }
  search_status_->setText(text.isEmpty() ? QString()
                          : match_count_ == 0 ? QStringLiteral("no match")
                                              : QStringLiteral("%L1 match%2").arg(match_count_).arg(match_count_ == 1 ? "" : "es"));
  return match_count_;
}

void HloTextView::NextMatch(int direction) {
  if (pattern_.isEmpty() || match_count_ == 0) return;
  const QTextDocument::FindFlags flags = direction < 0 ? QTextDocument::FindBackward : QTextDocument::FindFlags();
  QTextCursor found = editor_->document()->find(pattern_, editor_->textCursor(), flags);
  if (found.isNull()) {
    // Wrap around to the other end.
    QTextCursor from(editor_->document());
    if (direction < 0) from.movePosition(QTextCursor::End);
    found = editor_->document()->find(pattern_, from, flags);
  }
  if (found.isNull()) return;
  editor_->setTextCursor(found);
  editor_->centerCursor();
}

void HloTextView::UpdateMarks() {
  const StudioPalette& palette = StudioPalette::Get();
  QList<QTextEdit::ExtraSelection> marks;
  if (marked_line_ >= 0) {
    // The line stays marked when the view loses focus.
    QTextEdit::ExtraSelection line;
    line.cursor = QTextCursor(editor_->document()->findBlockByNumber(marked_line_));
    line.format.setBackground(palette.marked_line);
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    marks << line;
  }
  if (!pattern_.isEmpty()) {
    QTextCursor at(editor_->document());
    for (int n = 0; n < kMostMarkedMatches; ++n) {
      at = editor_->document()->find(pattern_, at);
      if (at.isNull()) break;
      QTextEdit::ExtraSelection match;
      match.cursor = at;
      match.format.setBackground(StudioPalette::Tint(palette.search_hit, 60));
      marks << match;
    }
  }
  editor_->setExtraSelections(marks);
}

}  // namespace systolic::views
