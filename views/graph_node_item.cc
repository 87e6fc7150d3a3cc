#include "views/graph_node_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

#include "views/studio_palette.h"

namespace systolic::views {
namespace {

constexpr double kPadX = 9, kPadY = 6, kBar = 5, kStack = 4;

QFont MakeFont(const char* family, double pixels, bool bold = false) {
  QFont font(family);
  font.setPixelSize(int(pixels));
  font.setBold(bold);
  return font;
}

}  // namespace

const GraphFonts& GraphFonts::Get() {
  static const GraphFonts fonts = [] {
    GraphFonts f;
    f.title = MakeFont("DejaVu Sans", 11, true);
    f.subtitle = MakeFont("DejaVu Sans", 10);
    f.shape = MakeFont("DejaVu Sans Mono", 10);
    f.small = MakeFont("DejaVu Sans", 9);
    f.cluster = MakeFont("DejaVu Sans", 11, true);
    return f;
  }();
  return fonts;
}

QSizeF GraphNodeItem::SizeFor(const analysis::GraphNode& node) {
  const GraphFonts& fonts = GraphFonts::Get();
  const QFontMetricsF title(fonts.title), subtitle(fonts.subtitle), shape(fonts.shape),
      small(fonts.small);
  double width = std::max({title.horizontalAdvance(QString::fromStdString(node.title)),
                           subtitle.horizontalAdvance(QString::fromStdString(node.subtitle)),
                           shape.horizontalAdvance(QString::fromStdString(node.shape))});
  double height = title.height() + subtitle.height() + shape.height();
  for (const std::string& line : node.inlined) {
    width = std::max(width, small.horizontalAdvance(QString::fromStdString(line)));
    height += small.height();
  }
  width = std::clamp(width + 2 * kPadX + kBar, 96.0, 320.0);
  height += 2 * kPadY;
  if (node.expandable) {
    width += kStack;
    height += kStack;
  }
  return QSizeF(width, height);
}

GraphNodeItem::GraphNodeItem(int32_t index, const analysis::GraphNode& node, const QRectF& rect)
    : index_(index), node_(node), rect_(rect) {
  setAcceptHoverEvents(true);
  setCursor(Qt::PointingHandCursor);
  QString tip = QString::fromStdString(node.title + "\n" + node.subtitle + "\n" + node.shape);
  for (const std::string& line : node.inlined) tip += "\n" + QString::fromStdString(line);
  if (node.expandable) tip += "\n\nDouble-click to open";
  setToolTip(tip);
  setZValue(2);
}

void GraphNodeItem::SetSelectedNode(bool on) {
  if (selected_ == on) return;
  selected_ = on;
  update();
}
void GraphNodeItem::SetLinked(bool on) {
  if (linked_ == on) return;
  linked_ = on;
  update();
}
void GraphNodeItem::SetSearchHit(bool on) {
  if (search_hit_ == on) return;
  search_hit_ = on;
  update();
}
void GraphNodeItem::SetDimmed(bool on) {
  if (dimmed_ == on) return;
  dimmed_ = on;
  update();
}

void GraphNodeItem::SetRunChange(std::optional<double> relative) {
  if (run_change_ == relative) return;
  run_change_ = relative;
  update();
}

QRectF GraphNodeItem::boundingRect() const { return rect_.adjusted(-5, -5, 5, 5); }

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const StudioPalette& palette = StudioPalette::Get();
  const QColor unit = palette.ForUnit(node_.unit);
  const double detail = option->levelOfDetailFromTransform(painter->worldTransform());
  QRectF box = rect_;
  if (node_.expandable) {
    // A stack of cards: there is more inside.
    box.adjust(0, 0, -kStack, -kStack);
    painter->setPen(QPen(unit.darker(110), 1));
    painter->setBrush(StudioPalette::Tint(unit, 70));
    painter->drawRoundedRect(box.translated(kStack, kStack), 5, 5);
  }
  painter->setOpacity(dimmed_ ? 0.35 : 1.0);
  QPen border(unit.darker(115), 1.2);
  if (search_hit_) border = QPen(palette.search_hit, 3);
  if (linked_) border = QPen(palette.linked, 3.5);
  if (selected_) border = QPen(palette.selection, 3);
  QBrush fill = StudioPalette::Tint(unit, node_.expandable ? 78 : 88);
  if (run_change_) {
    fill = palette.FillForRunChange(*run_change_);
    if (!search_hit_ && !linked_ && !selected_) border = QPen(palette.ForRunChange(*run_change_), 1.6);
  }
  painter->setPen(border);
  painter->setBrush(fill);
  painter->drawRoundedRect(box, 5, 5);
  painter->setPen(Qt::NoPen);
  painter->setBrush(unit);
  painter->drawRoundedRect(QRectF(box.left() + 1, box.top() + 1, kBar, box.height() - 2), 2, 2);
  if (detail < 0.3) return;  // too small to read: boxes only

  const GraphFonts& fonts = GraphFonts::Get();
  const double x = box.left() + kBar + kPadX - 2;
  const double w = box.right() - x - 4;
  double y = box.top() + kPadY;
  auto line = [&](const QFont& font, const QColor& color, const std::string& text) {
    const QFontMetricsF metrics(font);
    painter->setFont(font);
    painter->setPen(color);
    painter->drawText(QRectF(x, y, w, metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(QString::fromStdString(text), Qt::ElideMiddle, w));
    y += metrics.height();
  };
  line(fonts.title, palette.ink_on_tint, node_.title);
  line(fonts.subtitle, unit.darker(140), node_.subtitle);
  line(fonts.shape, palette.muted_text, node_.shape);
  for (const std::string& inlined : node_.inlined) line(fonts.small, palette.muted_text, inlined);
}

}  // namespace systolic::views
