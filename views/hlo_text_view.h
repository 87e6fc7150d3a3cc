// The HLO text of one stage, highlighted, with a find bar (Ctrl+F): every
// match marked, Enter / F3 stepping through them, and the line of the
// instruction selected elsewhere kept marked.
#pragma once

#include <QWidget>
#include <string>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace systolic::views {

class HloTextView : public QWidget {
  Q_OBJECT

 public:
  explicit HloTextView(QWidget* parent = nullptr);

  void SetText(const QString& text);
  void Clear();
  QPlainTextEdit* editor() const { return editor_; }

  // Scrolls to the line defining `instruction` and marks it; false when
  // the text has no such instruction.
  bool MarkInstruction(const std::string& instruction);

  // Marks every match of `text` (any case) and moves to the first after
  // the cursor; returns how many there are.
  int Find(const QString& text);
  // The next (direction 1) or previous (-1) match, wrapping around.
  void NextMatch(int direction = 1);
  int match_count() const { return match_count_; }
  void FocusSearch();

 private:
  void UpdateMarks();

  QLineEdit* search_ = nullptr;
  QLabel* search_status_ = nullptr;
  QPlainTextEdit* editor_ = nullptr;
  QString pattern_;
  int match_count_ = 0;
  int marked_line_ = -1;  // block number of the instruction marked, -1 none
};

}  // namespace systolic::views
