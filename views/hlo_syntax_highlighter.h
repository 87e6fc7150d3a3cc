// Colours HLO text: opcodes, shapes, names, attributes, strings, comments.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace systolic::views {

class HloSyntaxHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit HloSyntaxHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_format_;
};

}  // namespace systolic::views
