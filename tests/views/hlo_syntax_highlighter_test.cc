// The HLO text view's colours: every element type the IR knows is coloured
// as a shape (the newest narrow floats too), and words that only look like
// types are not.
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>

#include "core/hlo/primitive_type.h"
#include "views/hlo_syntax_highlighter.h"
#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// The foreground colour the highlighter gave the character at `column`.
QColor ColourAt(const QTextDocument& document, int column) {
  const QTextBlock block = document.firstBlock();
  for (const QTextLayout::FormatRange& range : block.layout()->formats()) {
    if (column >= range.start && column < range.start + range.length) {
      return range.format.foreground().color();
    }
  }
  return QColor();
}

QColor ShapeColourOf(const QString& line, const QString& shape) {
  QTextDocument document;
  HloSyntaxHighlighter highlighter(&document);
  document.setPlainText(line);
  highlighter.rehighlight();
  return ColourAt(document, int(line.indexOf(shape)));
}

}  // namespace

class HloSyntaxHighlighterTest : public QObject {
  Q_OBJECT

 private slots:
  void everyArrayTypeIsColouredAsAShape() {
    const QColor shape = StudioPalette::Get().shape;
    for (int t = PRED; t < int(TOKEN); ++t) {
      const QString type = QString::fromStdString(
          std::string(primitive_util::LowercasePrimitiveTypeName(PrimitiveType(t))));
      const QString text = type + "[4,2]{1,0}";
      QCOMPARE(ShapeColourOf("  %p = " + text + " parameter(0)", text), shape);
    }
  }

  void aNameThatOnlyLooksLikeATypeIsNot() {
    const QColor shape = StudioPalette::Get().shape;
    QVERIFY(ShapeColourOf("  %p = f33[4] parameter(0)", "f33[4]") != shape);
    QVERIFY(ShapeColourOf("  %p = f6e2m3fnx[4] parameter(0)", "f6e2m3fnx[4]") != shape);
  }
};

}  // namespace systolic::views

QTEST_MAIN(systolic::views::HloSyntaxHighlighterTest)
#include "hlo_syntax_highlighter_test.moc"
