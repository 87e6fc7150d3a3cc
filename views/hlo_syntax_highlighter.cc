#include "views/hlo_syntax_highlighter.h"

#include "views/studio_palette.h"

namespace systolic::views {
namespace {

QTextCharFormat Format(const QColor& color, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(color);
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

}  // namespace

HloSyntaxHighlighter::HloSyntaxHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {
  const StudioPalette& p = StudioPalette::Get();
  rules_.push_back({QRegularExpression(R"(\b(HloModule|ENTRY|ROOT)\b)"), Format(p.keyword, true)});
  rules_.push_back({QRegularExpression(
                        R"(\b(pred|s2|s4|s8|s16|s32|s64|u2|u4|u8|u16|u32|u64|f16|bf16|f32|f64|c64|c128|f8e\w+|f4e2m1fn|token)\[[^\]]*\](\{[^}]*\})?)"),
                    Format(p.shape)});
  rules_.push_back({QRegularExpression(R"(%[\w.\-]+)"), Format(p.name)});
  rules_.push_back({QRegularExpression(R"(\s([a-z][a-z0-9\-]*)\()"), Format(p.opcode, true)});
  rules_.push_back({QRegularExpression(R"(\b([a-z_\-]+)=)"), Format(p.attribute)});
  rules_.push_back({QRegularExpression(R"("(?:[^"\\]|\\.)*")"), Format(p.string)});
  comment_format_ = Format(p.comment);
}

void HloSyntaxHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : rules_) {
    auto it = rule.pattern.globalMatch(text);
    while (it.hasNext()) {
      auto match = it.next();
      int group = match.lastCapturedIndex() >= 1 && rule.pattern.pattern().startsWith(R"(\s()")
                      ? 1
                      : 0;
      setFormat(int(match.capturedStart(group)), int(match.capturedLength(group)), rule.format);
    }
  }
  int comment = int(text.indexOf("//"));
  if (comment >= 0) setFormat(comment, int(text.size()) - comment, comment_format_);
}

}  // namespace systolic::views
