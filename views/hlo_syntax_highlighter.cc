#include "views/hlo_syntax_highlighter.h"

#include <QStringList>

#include "core/hlo/primitive_type.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// Every element type the IR knows, as HLO text spells it: a type added to
// the core is coloured without touching this file.
QString ElementTypeAlternatives() {
  QStringList names;
  for (int t = PRED; t < int(PRIMITIVE_TYPE_COUNT); ++t) {
    const absl::string_view name = primitive_util::LowercasePrimitiveTypeName(PrimitiveType(t));
    if (!name.empty()) names << QString::fromUtf8(name.data(), qsizetype(name.size()));
  }
  return names.join('|');
}

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
  rules_.push_back({QRegularExpression(QStringLiteral(R"(\b(%1)\[[^\]]*\](\{[^}]*\})?)")
                                           .arg(ElementTypeAlternatives())),
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
